#pragma once
// The LAMMPS gran/hooke/history contact law as a pure function (STYLE.md §5): the caller supplies the
// contact geometry, the relative velocity and the (trial) tangential spring displacement; the law
// returns the force together with its linearisation, so that the same law feeds the stepper and
// the eigen-analysis. Geometry and history bookkeeping live in ParticleSystem.
//
// Conventions (LAMMPS src/GRANULAR/pair_gran_hooke_history.cpp, compute()):
//   n       unit normal pointing from partner j to particle i (x_i - x_j normalised; for a wall,
//           the wall's outward normal),
//   delta   overlap r_i + r_j - |x_i - x_j| (positive in contact),
//   v_rel   velocity of i's contact point relative to j's:
//           v_i - v_j - (r_i w_i + r_j w_j) x n,
//   v_n     = v_rel . n,  v_t = v_rel - v_n n,
//   F_n     = (k_n delta - m_eff gamma_n v_n) n                        (force on i),
//   F_t     = -(k_t xi + m_eff gamma_t v_t),
//   Coulomb: if |F_t| > mu |F_n| then, exactly as LAMMPS does,
//              xi  <- (mu|F_n| / |F_t|) (xi + m_eff gamma_t v_t / k_t) - m_eff gamma_t v_t / k_t
//              F_t <- (mu|F_n| / |F_t|) F_t,
//            i.e. the TOTAL tangential force (spring + dashpot) is scaled onto the cap and xi is
//            set so that -(k_t xi + m_eff gamma_t v_t) equals the scaled force. Only when
//            gamma_t = 0 does this reduce to "k_t |xi| = mu |F_n|". |F_n| includes the dashpot.
//            LAMMPS quirk kept: if xi is exactly zero and the cap acts, F_t is set to zero.
//   gamma_n, gamma_t are damping rates per unit effective mass [1/s] (LAMMPS' gamma_n, gamma_t);
//   the dashpot coefficients are c_n = m_eff gamma_n, c_t = m_eff gamma_t.
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

namespace dtcrit::stepper {

using Vec3 = Eigen::Vector3d;

// Parameters of one gran/hooke/history interaction (particle-particle, particle-wall or bond).
struct HookeParams {
  double kn = 0.0;       // normal stiffness k_n [N/m]
  double kt = 0.0;       // tangential stiffness k_t [N/m]
  double gamma_n = 0.0;  // normal damping per unit effective mass [1/s]
  double gamma_t = 0.0;  // tangential damping per unit effective mass [1/s]
  double mu = 0.0;       // Coulomb friction coefficient (0: frictionless)
};

// Checks kn > 0 and kt, gamma_n, gamma_t, mu >= 0, all finite; returns p.
HookeParams validated(const HookeParams& p);

// What the law needs to know about one contact.
struct ContactInput {
  double overlap = 0.0;        // delta (a bond may have delta < 0: then it pulls)
  Vec3 normal = Vec3::UnitX(); // n, unit, from j to i
  Vec3 v_rel = Vec3::Zero();   // contact-point velocity of i relative to j (full vector)
  Vec3 xi = Vec3::Zero();      // tangential spring displacement, already in the tangent plane
  double m_eff = 0.0;          // m_i m_j / (m_i + m_j); m_i for a wall
};

// The law's answer. In the contact frame the linearisation reads
//   dF = -(kn_lin n n^T + kt_lin P_t) du - (cn_lin n n^T + ct_lin P_t) du/dt,   P_t = I - n n^T,
// where u is the relative contact-point displacement and kt_lin is the stiffness with respect to
// xi (whether xi follows u or the velocity is the caller's history mode). While sliding the
// tangential force sits on the cap and kt_lin = ct_lin = 0 (the cap's dependence on the normal
// force and the rotation of the sliding direction are dropped).
struct ContactOutput {
  Vec3 force = Vec3::Zero();   // total force on i (the partner receives -force)
  double normal_force = 0.0;   // signed F_n . n = k_n delta - m_eff gamma_n v_n (> 0 repulsive)
  Vec3 tangential_force = Vec3::Zero();
  Vec3 xi = Vec3::Zero();      // spring displacement after the Coulomb rule
  bool sliding = false;        // the Coulomb cap acted
  double kn_lin = 0.0, cn_lin = 0.0, kt_lin = 0.0, ct_lin = 0.0;
};

// Evaluates the law for any sign of the overlap (the caller decides whether the contact exists).
ContactOutput hooke_history_force(const HookeParams& p, const ContactInput& in);

// Restitution coefficient of a head-on collision under this law (contact ending when the overlap
// returns to zero): with zeta = gamma_n / (2 sqrt(k_n / m_eff)),
//   e = exp(-zeta pi / sqrt(1 - zeta^2)) for zeta < 1, and 0 for zeta >= 1.
double restitution_from_gamma_n(double gamma_n, double kn, double m_eff);
// Its inverse, derived from the line above: ln^2 e (1 - zeta^2) = zeta^2 pi^2, so
//   zeta = -ln e / sqrt(pi^2 + ln^2 e),   gamma_n = 2 zeta sqrt(k_n / m_eff)
//        = -2 ln(e) sqrt(k_n / m_eff) / sqrt(pi^2 + ln^2 e),      for 0 < e <= 1.
double gamma_n_from_restitution(double e, double kn, double m_eff);
// Duration of that collision: t_c = pi / (omega_0 sqrt(1 - zeta^2)), omega_0 = sqrt(k_n/m_eff),
// for zeta < 1 (throws otherwise).
double collision_time(double gamma_n, double kn, double m_eff);

}  // namespace dtcrit::stepper
