#pragma once
// Time-step heuristics that DEM codes compute from material properties, so that users can set
// them beside the contact-point model's answer.
#include <vector>

#include "dtcrit/estimates/estimates.hpp"

namespace dtcrit {

struct Material {
  double youngs_modulus = 0.0;  // E [Pa]
  double poisson_ratio = 0.0;   // nu [-]
  double density = 0.0;         // rho [kg/m^3]
  double radius = 0.0;          // R of the (smallest) sphere [m]
  double impact_velocity = 0.0; // relative normal velocity at impact [m/s]; 0 leaves the Hertz time out
};

Material validated(const Material& m);

// Rayleigh-wave time pi R sqrt(rho/G) / (0.1631 nu + 0.8766), G = E / (2 (1 + nu)).
double rayleigh_time(const Material& m);
// P-wave time R sqrt(rho / E) (Yade's PWaveTimeStep, per body).
double p_wave_time(const Material& m);
// Hertz contact duration of two equal spheres at the impact velocity (contact::hertz_duration):
// 2.86826 (m_eff^2 / (R_eff E_eff^2 v))^(1/5), m_eff = m/2, R_eff = R/2, E_eff = E / (2 (1 - nu^2)).
double hertz_collision_time(const Material& m);

// The heuristics above as named estimates (rayleigh, p_wave, hertz_collision_time).
std::vector<Estimate> material_estimates(const Material& m);

}  // namespace dtcrit
