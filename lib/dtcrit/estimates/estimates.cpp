#include "dtcrit/estimates/estimates.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "dtcrit/contact/body_inertia.hpp"

namespace dtcrit {

namespace {
constexpr double pi = std::numbers::pi;
bool undamped(const ContactPointModel& m) { return m.law().cn == 0.0 && m.law().ct == 0.0; }
bool both_discs(const ContactPointModel& m) { return m.body1().shape == "disc" && m.body2().shape == "disc"; }
}  // namespace

bool is_collinear(const ContactPointModel& model) {
  const Matrix2& z = model.zhat();
  return std::abs(z(0, 1)) <= 1e-14 * (z(0, 0) + z(1, 1));
}

double burns2016(const ContactPointModel& model) { return pi / (2.0 * model.paper_spectral_abscissa()); }

std::optional<double> eq22_collinear_damped(const ContactPointModel& model) {
  if (!is_collinear(model)) return std::nullopt;
  const auto& law = model.law();
  const double A = model.zhat()(0, 0), D = model.zhat()(1, 1);
  const double normal = pi / (law.cn * D + std::sqrt(law.cn * law.cn * D * D + 4.0 * law.kn * D));
  if (law.kt == 0.0 && law.ct == 0.0) return normal;
  const double tangential = pi / (law.ct * A + std::sqrt(law.ct * law.ct * A * A + 4.0 * law.kt * A));
  return std::min(normal, tangential);
}

Vector2 eq23_25_eigenvalues(const ContactPointModel& model, double prefactor) {
  const auto& law = model.law();
  const double A = model.zhat()(0, 0), B = model.zhat()(0, 1), D = model.zhat()(1, 1);
  const double k1 = law.kt, k2 = law.kn;
  const double root = std::sqrt((k2 * D - k1 * A) * (k2 * D - k1 * A) + 4.0 * k1 * k2 * B * B);
  return {prefactor * (k2 * D + k1 * A + root), prefactor * (k2 * D + k1 * A - root)};
}

std::optional<double> eq27_undamped(const ContactPointModel& model) {
  if (!undamped(model)) return std::nullopt;
  const Vector2 lambda = eq23_25_eigenvalues(model, 0.5);
  // min(pi / (2 sqrt(lambda_1)), pi / (2 sqrt(lambda_3))): lambda_1 >= lambda_3 >= 0 decides it.
  return pi / (2.0 * std::sqrt(std::max(lambda[0], lambda[1])));
}

std::optional<double> eq28_two_discs(const ContactPointModel& model) {
  if (!undamped(model) || !both_discs(model)) return std::nullopt;
  const double m = model.body1().mass, mp = model.body2().mass;
  const auto& law = model.law();
  const double s = 1.0 / contact::effective_mass(m, mp);
  const double normal = pi / (2.0 * std::sqrt(law.kn * s));
  if (law.kt == 0.0) return normal;
  return std::min(normal, pi / (2.0 * std::sqrt(law.kt * 3.0 * s)));
}

std::optional<double> eq29_equal_discs(const ContactPointModel& model) {
  if (!undamped(model) || !both_discs(model)) return std::nullopt;
  const auto& law = model.law();
  if (model.body1().mass != model.body2().mass || law.kn != law.kt) return std::nullopt;
  return pi / (2.0 * std::sqrt(6.0)) * std::sqrt(model.body1().mass / law.kn);
}

std::vector<Estimate> pair_estimates(const ContactPointModel& model) {
  const auto& law = model.law();
  std::vector<Estimate> out;
  out.push_back({"burns2016", burns2016(model), "pi / (2 max|lambda(Q)|), Q of Burns & Hanley eq. (15), damping included; exactly pi/4 of the limit of "
                 "LAMMPS velocity Verlet (2 / max lambda(Q))"});
  out.push_back({"two_over_omega_max", 2.0 / model.omega_max(),
                 "2 / omega_max, undamped central difference (Belytschko)"});
  const double m = std::min(model.body1().mass, model.body2().mass);
  const double k = std::max(law.kn, law.kt);
  out.push_back({"sqrt_m_over_k", std::sqrt(m / k),
                 fmt::format("sqrt(m / k) with m = {:.6g} kg (smaller body) and k = {:.6g} N/m (stiffer spring)", m, k)});
  // Damped normal mode of the contact point: omega^2 = kn Dhat, decay rate cn Dhat / 2.
  const double D = model.zhat()(1, 1);
  const double wd2 = law.kn * D - 0.25 * law.cn * law.cn * D * D;
  const double tc = wd2 > 0.0 ? pi / std::sqrt(wd2) : std::numeric_limits<double>::infinity();
  out.push_back({"collision_time", tc,
                 fmt::format("contact duration of the damped normal mode, pi / sqrt(kn Dhat - (cn Dhat/2)^2), "
                             "normal mass 1/Dhat = {:.6g} kg",
                             1.0 / D)});
  out.push_back({"collision_time_over_50", tc / 50.0, "t_c / 50, the step MercuryDPM and MFIX recommend"});
  if (auto v = eq22_collinear_damped(model))
    out.push_back({"eq22_collinear", *v, "Burns & Hanley eq. (22): collinear contact, damped"});
  if (auto v = eq27_undamped(model))
    out.push_back({"eq27_undamped", *v, "Burns & Hanley eq. (27), with the prefactor of eqs. (23)-(26) corrected to 1/2"});
  if (auto v = eq28_two_discs(model)) out.push_back({"eq28_two_discs", *v, "Burns & Hanley eq. (28): two undamped discs"});
  if (auto v = eq29_equal_discs(model))
    out.push_back({"eq29_equal_discs", *v, "Burns & Hanley eq. (29): pi/(2 sqrt 6) sqrt(m/k), equal discs, kn = kt"});
  return out;
}

}  // namespace dtcrit
