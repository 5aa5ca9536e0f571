#pragma once
// The force of one `gran/hooke/history` contact (hooke normal, mass_velocity damping, a linear
// tangential spring with history, no rolling or twisting resistance) with its history advanced by
// dt, as the reference stepper needs it once per contact and force call. It is contact_input(),
// advance_history() and evaluate(law, in, Differentiate::none) fused for this one law: the same
// operations in the same order, so every output equals theirs to the last bit
// (tests/test_specialised_law.cpp compares them), without building their general inputs and
// outputs. Any other law goes through evaluate(); hooke_history_force_applies() says which path a
// law takes. Equal bits need the compiler to contract neither path into fused multiply-adds: the
// build sets no -march (x86-64 has no FMA then); with one that has, that test is what would tell.
#include <cmath>

#include "dtcrit/contact/kinematics.hpp"

namespace dtcrit::contact {

struct HookeHistoryForce {
  double normal_force = 0.0;             // F_ntot (elastic + dashpot), signed
  Vec3 tangential_force = Vec3::Zero();  // F_t after the Coulomb rule
  Vec3 xi_t = Vec3::Zero();              // the history after the increment, the projection and the rule
  bool sliding = false;
};

// Whether hooke_history_force() computes this law exactly.
inline bool hooke_history_force_applies(const ContactLaw& law) {
  return law.style != Style::granular && law.normal == NormalModel::hooke &&
         law.damping == DampingModel::mass_velocity && law.tangential == TangentialModel::linear_history &&
         law.rolling == RollingModel::none && law.twisting == TwistingModel::none && !law.limit_damping;
}

// g, the bodies' velocities and m_eff as for contact_input(); xi the committed tangential history.
inline HookeHistoryForce hooke_history_force(const ContactLaw& law, const RoundContact& g, const Vec3& vi,
                                             const Vec3& wi, const Vec3& vj, const Vec3& wj, double m_eff,
                                             const Vec3& xi, double dt) {
  const Vec3& n = g.normal;
  // contact_input(): the contact-point velocity of i relative to j.
  const Vec3 v = g.wall ? Vec3(vi - (g.ri * wi).cross(n)) : Vec3(vi - vj - (g.ri * wi + g.rj * wj).cross(n));
  // advance_history(), the classic styles: increment by the tangential velocity, then project.
  HookeHistoryForce o;
  o.xi_t = xi;
  o.xi_t += (v - v.dot(n) * n) * dt;
  o.xi_t -= o.xi_t.dot(n) * n;
  // The law kernel of response.cpp with these sub-models; its dot products run left to right.
  const double nx = n.x(), ny = n.y(), nz = n.z();
  const double Fne = law.kn * g.overlap;
  const double eta_n = law.damping_coefficient * m_eff;
  const double vn = v.x() * nx + v.y() * ny + v.z() * nz;
  o.normal_force = Fne - eta_n * vn;
  const double Fncrit = std::abs(o.normal_force);
  const double vtx = v.x() - vn * nx, vty = v.y() - vn * ny, vtz = v.z() - vn * nz;
  const double k_t = law.kt;
  const double eta_t = law.tangential_damping * m_eff;
  const double Fscrit = law.mu * Fncrit;
  const double mk = -1.0 * k_t;
  double fx = mk * o.xi_t.x() - eta_t * vtx, fy = mk * o.xi_t.y() - eta_t * vty, fz = mk * o.xi_t.z() - eta_t * vtz;
  const double fs2 = fx * fx + fy * fy + fz * fz;
  if (fs2 > Fscrit * Fscrit) {
    const double fsn = std::sqrt(fs2);
    o.sliding = true;
    const double x0 = o.xi_t.x(), x1 = o.xi_t.y(), x2 = o.xi_t.z();
    if (std::sqrt(x0 * x0 + x1 * x1 + x2 * x2) != 0.0) {
      const double s = Fscrit / fsn;
      fx = s * fx;
      fy = s * fy;
      fz = s * fz;
      if (k_t > 0.0) {
        const double inv = -1.0 / k_t;
        o.xi_t = Vec3(inv * (fx + eta_t * vtx), inv * (fy + eta_t * vty), inv * (fz + eta_t * vtz));
      }
    } else {
      fx = fy = fz = 0.0;  // LAMMPS: a cap on a zero history zeroes the force
    }
  }
  o.tangential_force = Vec3(fx, fy, fz);
  return o;
}

}  // namespace dtcrit::contact
