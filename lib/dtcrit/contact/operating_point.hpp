#pragma once
// Where a state-dependent law is linearised for one contact (dtcrit pair, dtcrit table): at a given
// overlap, at the overlap that carries a given normal force, or at the peak overlap of a head-on
// impact at a given speed (the stiffest state of that collision). At that point, at rest and
// sticking, the law is the linear spring-dashpot the contact-point model takes.
#include <optional>
#include <string>

#include "dtcrit/contact/impact.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/contact/linear_contact.hpp"

namespace dtcrit::contact {

// Give at most one; none means overlap 0 (only for laws whose stiffness does not depend on it).
struct OperatingPointInput {
  std::optional<double> overlap;          // [m]
  std::optional<double> normal_force;     // [N], elastic normal force
  std::optional<double> impact_velocity;  // [m/s], approach speed of a head-on impact
};

struct OperatingPoint {
  double overlap = 0.0;         // [m]
  double normal_force = 0.0;    // elastic normal force there [N]
  double contact_radius = 0.0;  // a = sqrt(R_eff delta) [m]
  std::string origin;           // "overlap", "normal_force" or "impact_velocity"
  double impact_velocity = 0.0;
  std::optional<ImpactResult> impact;  // the integrated impact, when the point comes from one
};

// m_eff: the law's effective mass (LAMMPS: translational m_i m_j / (m_i + m_j)); moving_mass: the mass
// of the normal contact-point motion in the impact (1 / zhat_nn of the contact-point model); r_eff:
// the law's effective radius.
OperatingPoint operating_point(const ContactLaw& law, double m_eff, double moving_mass, double r_eff,
                               const OperatingPointInput& in);

// The law's linear spring-dashpot at that point (at rest, zero histories, sticking): k_n, k_t, c_n,
// c_t. Rolling or twisting resistance have no place in the two contact-point coordinates: an error.
LinearContactLaw linearised_law(const ContactLaw& law, const OperatingPoint& p, double m_eff, double r_eff);

}  // namespace dtcrit::contact
