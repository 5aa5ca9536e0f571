#include "dtcrit/stepper/contact_law.hpp"

#include <cmath>
#include <numbers>

#include "dtcrit/core/check.hpp"

namespace dtcrit::stepper {

HookeParams validated(const HookeParams& p) {
  require_positive("kn", p.kn);
  require_non_negative("kt", p.kt);
  require_non_negative("gamma_n", p.gamma_n);
  require_non_negative("gamma_t", p.gamma_t);
  require_non_negative("mu", p.mu);
  return p;
}

ContactOutput hooke_history_force(const HookeParams& p, const ContactInput& in) {
  const Vec3& n = in.normal;
  const double vn = in.v_rel.dot(n);
  const Vec3 vt = in.v_rel - vn * n;
  const double cn = in.m_eff * p.gamma_n;
  const double ct = in.m_eff * p.gamma_t;

  ContactOutput out;
  out.normal_force = p.kn * in.overlap - cn * vn;
  out.xi = in.xi;
  out.kn_lin = p.kn;
  out.cn_lin = cn;
  out.kt_lin = p.kt;
  out.ct_lin = ct;

  Vec3 ft = -(p.kt * in.xi + ct * vt);
  const double fs = ft.norm();
  const double cap = p.mu * std::abs(out.normal_force);
  if (fs > cap) {
    out.sliding = true;
    out.kt_lin = 0.0;
    out.ct_lin = 0.0;
    if (in.xi.squaredNorm() != 0.0) {
      const double ratio = cap / fs;
      if (p.kt > 0.0) {
        const Vec3 damp_disp = (ct / p.kt) * vt;
        out.xi = ratio * (in.xi + damp_disp) - damp_disp;
      }
      ft *= ratio;
    } else {
      ft.setZero();
    }
  }
  out.tangential_force = ft;
  out.force = out.normal_force * n + ft;
  return out;
}

double restitution_from_gamma_n(double gamma_n, double kn, double m_eff) {
  require_non_negative("gamma_n", gamma_n);
  require_positive("kn", kn);
  require_positive("m_eff", m_eff);
  const double zeta = gamma_n / (2.0 * std::sqrt(kn / m_eff));
  if (zeta >= 1.0) return 0.0;
  return std::exp(-zeta * std::numbers::pi / std::sqrt(1.0 - zeta * zeta));
}

double gamma_n_from_restitution(double e, double kn, double m_eff) {
  if (!(e > 0.0 && e <= 1.0)) fail(fmt::format("restitution coefficient e = {} must lie in (0, 1]", e));
  require_positive("kn", kn);
  require_positive("m_eff", m_eff);
  const double le = std::log(e);
  const double zeta = -le / std::sqrt(std::numbers::pi * std::numbers::pi + le * le);
  return 2.0 * zeta * std::sqrt(kn / m_eff);
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

}  // namespace dtcrit::stepper
