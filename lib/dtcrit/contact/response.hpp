#pragma once
// A contact law as a pure function (no state kept between calls): the state of one contact in,
// its forces, the histories after the Coulomb rules and the EXACT derivative of the forces with
// respect to every input out. The same function serves the reference stepper (forces), the pair
// model and the packing operator (the derivative, through contact/kinematics.hpp). Geometry and history
// bookkeeping stay with the caller; advance_history() is LAMMPS' rule for carrying the histories
// from one force call to the next.
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

#include "dtcrit/contact/law.hpp"

namespace dtcrit::contact {

using Vec3 = Eigen::Vector3d;

// Everything the law reads about one contact. Vectors in world axes.
struct ContactInput {
  double overlap = 0.0;         // delta = r_i + r_j - |x_i - x_j| (wall: r_i - distance)
  Vec3 normal = Vec3::UnitX();  // n, unit, from j to i
  Vec3 velocity = Vec3::Zero(); // contact-point velocity of i relative to j: v_i - v_j - (r_i w_i + r_j w_j) x n
  Vec3 rolling_velocity = Vec3::Zero();  // R_eff (w_i - w_j) x n (LAMMPS' vrl; Wang et al. 2015)
  double twisting_rate = 0.0;   // (w_i - w_j) . n
  Vec3 xi_t = Vec3::Zero();     // tangential history: displacement (force for mindlin*_force), advanced
  Vec3 xi_r = Vec3::Zero();     // rolling history (displacement), advanced
  double xi_tw = 0.0;           // twisting history (angle), advanced
  double r_eff = 0.0;           // R_eff = r_i r_j / (r_i + r_j); a wall: r_i
  double m_eff = 0.0;           // m_i m_j / (m_i + m_j); a wall: m_i
};

// Order of the derivative's columns (inputs) and rows (outputs).
namespace in {
inline constexpr int overlap = 0, velocity = 1, rolling_velocity = 4, twisting_rate = 7, xi_t = 8, xi_r = 11,
                     xi_tw = 14, count = 15;
}
namespace out {
inline constexpr int force = 0, rolling_force = 3, twisting_torque = 6, count = 7;
}
using Derivative = Eigen::Matrix<double, out::count, in::count>;

struct ContactResponse {
  double normal_force = 0.0;         // F_ntot: elastic + dashpot, signed (> 0 repulsive), after limit_damping
  double elastic_normal_force = 0.0; // F_ne
  Vec3 tangential_force = Vec3::Zero();
  Vec3 rolling_force = Vec3::Zero(); // F_r: its torque on i is R_eff n x F_r
  double twisting_torque = 0.0;      // M_t: torque M_t n on i
  Vec3 xi_t = Vec3::Zero(), xi_r = Vec3::Zero();  // histories after the Coulomb rules
  double xi_tw = 0.0;
  bool sliding = false, rolling_slip = false, twisting_slip = false;
  double contact_radius = 0.0;       // a = sqrt(R_eff delta) (jkr: the JKR radius) where the law uses it, else 0
  // F_ncrit, the normal force the friction caps multiply: |F_ntot|; dmt and jkr: |F_ne + 2 F_pulloff|.
  double critical_normal_force = 0.0;
  double tangential_stiffness = 0.0; // k_t as the law uses it (k_t a for mindlin)
  // d(outputs)/d(inputs), rows: force on i (3), rolling force (3), twisting torque (1); columns as
  // namespace `in`. Filled only when evaluate() is asked for it, and left uninitialised otherwise:
  // the stepper calls evaluate() for every contact and step and never reads it.
  Derivative derivative;

  Vec3 force(const Vec3& normal) const { return normal_force * normal + tangential_force; }
};

// The law at one state. derivative: also fill ContactResponse::derivative (exact, including the
// Coulomb caps: on a cap the force is mu F_n times the unit trial force, and that is differentiated).
// Where the Hertz contact radius a = sqrt(R delta) has no derivative (delta <= 0) the one-sided
// value of the closed contact is used: a = 0, da/ddelta = 0. jkr is evaluated at any overlap it is
// given (its contact radius stays positive down to the pull-off): whether the pair is in contact is
// the caller's decision (pulloff_overlap()).
ContactResponse evaluate(const ContactLaw& law, const ContactInput& in, bool derivative = false);
// What evaluate() differentiates: nothing, every input, or the velocities alone (velocity, rolling
// velocity, twisting rate; the other columns of the derivative are zero, these equal to the last
// bit those of Differentiate::all: what a damping matrix C needs, at about half the cost).
enum class Differentiate { none, all, velocities };
ContactResponse evaluate(const ContactLaw& law, const ContactInput& in, Differentiate which);

// Elastic energy stored in the contact at this state: the normal spring's exact integral (hooke
// k_n delta^2 / 2, hertz 2/5 k_n a delta^2, dmt that minus 4 pi gamma R delta, jkr from a = 0) plus the tangential, rolling and twisting springs at
// their current stiffness (k |xi|^2 / 2; force form |xi|^2 / (2 k_t)). r: evaluate()'s answer at `in`.
double stored_energy(const ContactLaw& law, const ContactInput& in, const ContactResponse& r);

// LAMMPS' history update from one force call to the next, before evaluate(): the tangential and
// rolling histories are brought into the tangent plane of the new normal (classic styles: projected;
// granular: projected and rescaled to their old length, only when they left the plane by more than
// LAMMPS' 1e-10 of the cap) and incremented by the relative velocity times dt (mindlin*_force: by
// -k_t a v_t dt); the twisting angle by its rate times dt. mindlin_rescale*: scaled by a / a_prev
// when the contact unloads; a_prev is updated.
struct History {
  Vec3 xi_t = Vec3::Zero(), xi_r = Vec3::Zero();
  double xi_tw = 0.0;
  double a_prev = 0.0;  // mindlin_rescale*: the contact radius at the last update
};
History advance_granular_history(const ContactLaw& law, const ContactInput& state, const History& h, double dt);
inline History advance_history(const ContactLaw& law, const ContactInput& state, const History& h, double dt) {
  if (law.style == Style::granular) return advance_granular_history(law, state, h, dt);
  // The classic styles: a tangential displacement only, incremented, then projected (never rescaled).
  // Inline: the reference stepper calls it for every contact and force call.
  History out = h;
  if (law.tangential != TangentialModel::linear_nohistory) {
    const Vec3& n = state.normal;
    out.xi_t += (state.velocity - state.velocity.dot(n) * n) * dt;
    out.xi_t -= out.xi_t.dot(n) * n;
  }
  return out;
}

}  // namespace dtcrit::contact
