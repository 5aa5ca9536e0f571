#pragma once
// The geometry of a contact between two round bodies (spheres, or discs moving in their plane) or a
// round body and an immovable wall: mass and inertia conventions, effective mass and radius, the
// relative velocities the law reads, and the linearisation of the law in body coordinates.
//
// Contact coordinates. The law's forces Q_c = (F (3), F_r (3), M_t (1)) act along the contact
// coordinates w = (u, rho, theta):
//   du/dt     = v_i - v_j - (r_i w_i + r_j w_j) x n      relative contact-point velocity
//   drho/dt   = R_eff (w_i - w_j) x n                    rolling velocity (LAMMPS' vrl)
//   dtheta/dt = (w_i - w_j) . n                          twisting rate
// so that dw/dt = J_i q_i' + J_j q_j' with body Jacobians J (7 x 6, generalised velocities
// (v, w) of a body). The generalised forces on the bodies are A_i^T Q_c and A_j^T Q_c, where A
// equals J except for the torque arm of the tangential force: LAMMPS' classic styles and walls use
// r_i, `granular` pair contacts r_i - delta/2 (pair_granular.cpp, dist_to_contact). With A != J
// the linearised stiffness is not symmetric.
//
// The law's histories follow the contact coordinates when the contact sticks (LAMMPS increments
// them by the same velocities times dt at the velocity-Verlet half step, so that they move with the
// positions): d xi_t = P du (mindlin*_force: -k_t P du), d xi_r = P d rho, d xi_tw = d theta,
// d delta = -n . du. Hence, with D the law's derivative (contact/response.hpp),
//   K_c = -dQ_c/dw,  C_c = -dQ_c/dw',  K = sum A^T K_c J (+ geometric),  C = sum A^T C_c J.
// Geometric stiffness: the normal turns with the centre line, dn = P d(x_i - x_j) / |x_i - x_j|, so
// the normal force F_ntot n adds -F_ntot / |x_i - x_j| P on the translations (pair contacts only).
#include <cmath>

#include <Eigen/Core>

#include "dtcrit/contact/body_inertia.hpp"  // masses, inertias, effective mass and radius
#include "dtcrit/contact/law.hpp"
#include "dtcrit/contact/response.hpp"

namespace dtcrit::contact {

// --- one contact between round bodies -------------------------------------------------------------
// What the caller knows of a contact's geometry: the normal (from j to i), the overlap, the radii,
// the centre distance (for the geometric stiffness; 0 for a wall), whether j is a wall.
struct RoundContact {
  Vec3 normal = Vec3::UnitX();
  double overlap = 0.0;
  double ri = 0.0, rj = 0.0;  // rj unused for a wall
  double distance = 0.0;      // |x_i - x_j| (pair contacts)
  bool wall = false;
  // R_eff given directly (bodies that are not round: the contact's radius of curvature, from a
  // contact-network file); 0: from ri and rj.
  double curvature_radius = 0.0;
  double r_eff() const { return curvature_radius > 0.0 ? curvature_radius : wall ? ri : effective_radius(ri, rj); }
};

// The state the law reads, from the bodies' velocities (v, w each) and the histories.
// Inline: the reference stepper builds one per contact and force call. resistance_rates = false
// leaves rolling_velocity and twisting_rate zero, for a law without rolling and twisting resistance
// (uses_resistance_rates(law) false), which never reads them: two cross products saved per call.
inline ContactInput contact_input(const RoundContact& g, const Vec3& vi, const Vec3& wi, const Vec3& vj, const Vec3& wj,
                                  double m_eff, const History& h, bool resistance_rates = true) {
  ContactInput c;
  const Vec3& n = g.normal;
  c.overlap = g.overlap;
  c.normal = n;
  c.r_eff = g.r_eff();
  c.m_eff = m_eff;
  c.velocity = g.wall ? Vec3(vi - (g.ri * wi).cross(n)) : Vec3(vi - vj - (g.ri * wi + g.rj * wj).cross(n));
  if (resistance_rates) {
    const Vec3 w = g.wall ? wi : Vec3(wi - wj);
    c.rolling_velocity = c.r_eff * w.cross(n);
    c.twisting_rate = w.dot(n);
  }
  c.xi_t = h.xi_t;
  c.xi_r = h.xi_r;
  c.xi_tw = h.xi_tw;
  return c;
}

// Body Jacobian of the contact coordinates w = (u, rho, theta) for body i (first = true) or j,
// generalised velocities (v, w): 7 x 6. `arm` is the arm of the u rows (r_i for J; the law's torque
// arm for A).
// The matrix of the cross product: cross_matrix(a) * b = a x b.
Eigen::Matrix3d cross_matrix(const Vec3& a);

using BodyJacobian = Eigen::Matrix<double, 7, 6>;
BodyJacobian body_jacobian(const Vec3& normal, double arm, double r_eff, bool first);
// The same for any rigid body: `arm` is the vector from the body's centre of mass to the contact
// point, a (the contact point moves with v + w x a). A round body is the case a_i = -r_i n,
// a_j = r_j n (the overload above, which calls this one).
BodyJacobian body_jacobian(const Vec3& normal, const Vec3& arm, double r_eff, bool first);
// The torque arm of the tangential force on body i / j (r - delta/2 for `granular` pairs, else r).
inline double torque_arm(const ContactLaw& law, const RoundContact& g, bool first) {
  const double r = first ? g.ri : g.rj;
  return (law.style == Style::granular && !g.wall) ? r - 0.5 * g.overlap : r;
}

// The law's linearisation in contact coordinates (see the header comment).
using Block7 = Eigen::Matrix<double, 7, 7>;
struct ContactBlocks {
  Block7 K = Block7::Zero(), C = Block7::Zero();
  Block7 K_history = Block7::Zero();  // the part of K that acts through the histories (included in K)
  double geometric = 0.0;  // F_ntot / |x_i - x_j| (0 for walls, or when not asked for)
};
// response must carry its derivative (evaluate(..., true)).
ContactBlocks contact_blocks(const ContactLaw& law, const RoundContact& g, const ContactResponse& response,
                             bool geometric_stiffness);

// Its C alone (and K_history when `history`; K stays zero), the same arithmetic: for the
// stepper's damping(), which needs C (+ dt K_history under the traditional history).
ContactBlocks contact_damping_blocks(const ContactLaw& law, const RoundContact& g, const ContactResponse& response,
                                     bool history);

// The same blocks split into the parts the packing operator applies cheaply: each 3x3 block of
// K_c and C_c that is a n n^T + b (I - n n^T) (every law at rest, sticking, without history), and a
// flag when anything else is present (histories, sliding, moving contacts).
struct IsotropicBlocks {
  double kn = 0.0, kt = 0.0, k_roll = 0.0, k_twist = 0.0;  // stiffness: normal, tangential, rolling, twisting
  double cn = 0.0, ct = 0.0, c_roll = 0.0, c_twist = 0.0;  // dashpots, same order
  double geometric = 0.0;
  bool exact = true;  // false: the blocks have other terms; use ContactBlocks
};
IsotropicBlocks isotropic_part(const ContactBlocks& b, const Vec3& normal);
// Such a block, a n n^T + b (I - n n^T): the contact stiffness k_n n n^T + k_t (I - n n^T), or the
// dashpots' with c_n, c_t. Inline: the packing operator builds two per contact and product.
inline Eigen::Matrix3d isotropic_block(double along, double across, const Vec3& normal) {
  const Eigen::Matrix3d nn = normal * normal.transpose();
  return along * nn + across * (Eigen::Matrix3d::Identity() - nn);
}

// The full linearisation of one contact in body coordinates: K and C over (q_i, q_j) (12 x 12; a
// wall contact: the first 6 x 6 only), the generalised force on the bodies being
//   dQ = -(K dq + C dq'),  K = [A_i; A_j]^T K_c [J_i, J_j] + geometric.
struct BodyBlocks {
  Eigen::Matrix<double, 12, 12> K = Eigen::Matrix<double, 12, 12>::Zero(), C = Eigen::Matrix<double, 12, 12>::Zero();
};
BodyBlocks body_blocks(const ContactLaw& law, const RoundContact& g, const ContactBlocks& b);

// The arms of one contact between rigid bodies of any shape: from each centre of mass to the
// contact point, for the contact-point velocity (J) and for the torque of the tangential force (A).
// Round bodies: velocity arms -r_i n, r_j n; torque arms the same with torque_arm()'s lengths.
struct ContactArms {
  Vec3 normal = Vec3::UnitX();  // from j to i
  double r_eff = 0.0;           // of the rolling and twisting rows
  bool wall = false;            // j immovable: its columns stay zero
  Vec3 velocity_i = Vec3::Zero(), velocity_j = Vec3::Zero(), torque_i = Vec3::Zero(), torque_j = Vec3::Zero();
};
ContactArms round_arms(const ContactLaw& law, const RoundContact& g);
// body_blocks of any rigid bodies; body_blocks(law, g, b) is body_blocks(round_arms(law, g), b).
BodyBlocks body_blocks(const ContactArms& arms, const ContactBlocks& b);
// Its C alone, the same arithmetic (equal to body_blocks(...).C to the last bit): for the schemes
// whose Newton matrix has no stiffness term (MechanicalSystem::damping).
Eigen::Matrix<double, 12, 12> body_damping(const ContactArms& arms, const ContactBlocks& b);
Eigen::Matrix<double, 12, 12> body_damping(const ContactLaw& law, const RoundContact& g, const ContactBlocks& b);

}  // namespace dtcrit::contact
