#include "dtcrit/estimates/material.hpp"

#include <cmath>
#include <numbers>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/contact/impact.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit {

Material validated(const Material& m) {
  require_positive("Young's modulus E", m.youngs_modulus);
  if (!(m.poisson_ratio > -1.0 && m.poisson_ratio < 0.5))
    fail(fmt::format("Poisson ratio nu = {} must lie in (-1, 0.5)", m.poisson_ratio));
  require_positive("density rho", m.density);
  require_positive("radius R", m.radius);
  require_non_negative("impact velocity v", m.impact_velocity);
  return m;
}

double rayleigh_time(const Material& m) {
  const double G = m.youngs_modulus / (2.0 * (1.0 + m.poisson_ratio));
  return std::numbers::pi * m.radius * std::sqrt(m.density / G) / (0.1631 * m.poisson_ratio + 0.8766);
}

double p_wave_time(const Material& m) { return m.radius * std::sqrt(m.density / m.youngs_modulus); }

double hertz_collision_time(const Material& m) {
  const double mass = contact::sphere_mass(m.radius, m.density);
  const double m_eff = contact::equal_pair_mass(mass), R_eff = 0.5 * m.radius;
  const double E_eff = m.youngs_modulus / (2.0 * (1.0 - m.poisson_ratio * m.poisson_ratio));
  return contact::hertz_duration(m_eff, R_eff, E_eff, m.impact_velocity);
}

std::vector<Estimate> material_estimates(const Material& material) {
  const Material m = validated(material);
  std::vector<Estimate> out;
  const double tr = rayleigh_time(m);
  out.push_back({"rayleigh", tr,
                 "Rayleigh-wave time T_R = pi R sqrt(rho/G) / (0.1631 nu + 0.8766) itself, a time and not a step "
                 "(LIGGGHTS, Yade, EDEM); codes take a fraction of it (rows rayleigh_0.2 and rayleigh_0.4; "
                 "LIGGGHTS' example warns above 10 %)"});
  // EDEM's manual ("Estimate Simulation Time"): 0.2 T_R for coordination numbers of 4 and above,
  // 0.4 T_R for lower ones.
  out.push_back({"rayleigh_0.2", 0.2 * tr, "0.2 T_R, EDEM's step for coordination numbers of 4 and above"});
  out.push_back({"rayleigh_0.4", 0.4 * tr, "0.4 T_R, EDEM's step for coordination numbers below 4"});
  out.push_back({"p_wave", p_wave_time(m), "P-wave time R sqrt(rho/E) (Yade PWaveTimeStep)"});
  if (m.impact_velocity > 0.0)
    out.push_back({"hertz_collision_time", hertz_collision_time(m),
                   "Hertz contact duration of two equal spheres of the material (--youngs, --poisson, --density, "
                   "--radius) at the approach speed, m_eff = m/2 (LIGGGHTS' check/timestep/gran uses the whole "
                   "particle mass and twice the largest particle speed); hertz_collision_time_formula, when present, "
                   "is the same closed form with the law's own m*, R* and E*"});
  return out;
}

}  // namespace dtcrit
