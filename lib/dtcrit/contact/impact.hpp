#pragma once
// The head-on collision of two bodies under a contact law: the overlap obeys
//   m_eff delta'' = -F_n(delta, delta'),   delta(0) = 0, delta'(0) = v (the approach speed),
// integrated until the overlap returns to zero. Its peak overlap is the stiffest state of that
// collision (what `--impact-velocity` linearises at), its duration the law's own collision time.
#include "dtcrit/contact/law.hpp"

namespace dtcrit::contact {

struct ImpactResult {
  double peak_overlap = 0.0;  // [m]
  double duration = 0.0;      // [s], contact from delta = 0 to delta = 0
  double restitution = 0.0;   // rebound speed / approach speed (0 if the bodies do not separate)
  long steps = 0;             // RK4 steps taken
};

// RK4 with a fixed step of 1/resolution of delta_p / v (delta_p the undamped peak overlap), the end of
// contact located by cubic Hermite interpolation between steps. Throws on a non-positive speed or
// a contact that has not ended after 250 delta_p / v.
// m_eff moves (the equation of motion) and is the law's effective mass, unless law_m_eff > 0 gives
// the law its own (a contact-point normal mass that differs from LAMMPS' m_i m_j / (m_i + m_j)).
// resolution: steps per delta_p / v (4000: durations and restitutions to about 1e-7 relative on Hertz laws).
ImpactResult head_on_impact(const ContactLaw& law, double m_eff, double r_eff, double speed, double law_m_eff = 0.0,
                            double resolution = 4000.0);

// The Hertz collision time of an undamped head-on impact at the approach speed v, E* the effective
// modulus of F = 4/3 E* sqrt(R*) delta^(3/2): t_c = 2 (delta_max / v) int_0^1 dx / sqrt(1 - x^(5/2)),
// delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5), and the integral is (2/5) B(2/5, 1/2), so
//   t_c = hertz_duration_constant (m*^2 / (R* E*^2 v))^(1/5),
// the constant 2 (15/16)^(2/5) (2/5) B(2/5, 1/2) = 2.86826... (textbooks round it to 2.868 or 2.87).
inline constexpr double hertz_duration_constant = 2.8682656991953314;
double hertz_duration(double m_eff, double r_eff, double e_star, double speed);
// Its peak overlap delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5) (the energy balance).
double hertz_peak_overlap(double m_eff, double r_eff, double e_star, double speed);
// Hertz' elastic force at overlap delta: 4/3 E* sqrt(R*) delta^(3/2) [N].
double hertz_force(double r_eff, double e_star, double delta);

}  // namespace dtcrit::contact
