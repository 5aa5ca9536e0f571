#include "dtcrit/contact/linear_contact.hpp"

#include <cmath>
#include <numbers>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

LinearContactLaw validated(const LinearContactLaw& law) {
  require_positive("normal stiffness kn", law.kn);
  require_non_negative("tangential stiffness kt", law.kt);
  require_non_negative("normal dashpot cn", law.cn);
  require_non_negative("tangential dashpot ct", law.ct);
  return law;
}

double damping_ratio(double c, double k, double m) {
  require_non_negative("dashpot c", c);
  require_positive("stiffness k", k);
  require_positive("mass m", m);
  return c / (2.0 * std::sqrt(k * m));
}

double dashpot_from_damping_ratio(double zeta, double k, double m) {
  require_non_negative("damping ratio zeta", zeta);
  require_positive("stiffness k", k);
  require_positive("mass m", m);
  return 2.0 * zeta * std::sqrt(k * m);
}

double restitution_from_damping_ratio(double zeta) {
  require_non_negative("damping ratio zeta", zeta);
  if (zeta >= 1.0) return 0.0;
  return std::exp(-zeta * std::numbers::pi / std::sqrt(1.0 - zeta * zeta));
}

double damping_ratio_from_restitution(double e) {
  if (!(e > 0.0 && e <= 1.0)) fail(fmt::format("restitution coefficient e = {} must lie in (0, 1]", e));
  const double l = std::log(e);
  return -l / std::sqrt(std::numbers::pi * std::numbers::pi + l * l);
}

double restitution_from_gamma_n(double gamma_n, double kn, double m_eff) {
  require_non_negative("gamma_n", gamma_n);
  require_positive("kn", kn);
  require_positive("m_eff", m_eff);
  return restitution_from_damping_ratio(gamma_n / (2.0 * std::sqrt(kn / m_eff)));
}

double gamma_n_from_restitution(double e, double kn, double m_eff) {
  require_positive("kn", kn);
  require_positive("m_eff", m_eff);
  return 2.0 * damping_ratio_from_restitution(e) * std::sqrt(kn / m_eff);
}

double collision_time(double gamma_n, double kn, double m_eff) {
  require_non_negative("gamma_n", gamma_n);
  require_positive("kn", kn);
  require_positive("m_eff", m_eff);
  const double w0 = std::sqrt(kn / m_eff);
  const double zeta = gamma_n / (2.0 * w0);
  if (zeta >= 1.0) fail(fmt::format("damping ratio zeta = {} must be below 1 for a collision time", zeta));
  return std::numbers::pi / (w0 * std::sqrt(1.0 - zeta * zeta));
}

}  // namespace dtcrit
