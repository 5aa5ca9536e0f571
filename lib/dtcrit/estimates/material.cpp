#include "dtcrit/estimates/material.hpp"

#include <cmath>
#include <numbers>

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
  const double mass = m.density * 4.0 / 3.0 * std::numbers::pi * std::pow(m.radius, 3);
  const double m_eff = 0.5 * mass, R_eff = 0.5 * m.radius;
  const double E_eff = m.youngs_modulus / (2.0 * (1.0 - m.poisson_ratio * m.poisson_ratio));
  return contact::hertz_duration(m_eff, R_eff, E_eff, m.impact_velocity);
}

std::vector<Estimate> material_estimates(const Material& material) {
  const Material m = validated(material);
  std::vector<Estimate> out;
  const double tr = rayleigh_time(m);
  out.push_back({"rayleigh", tr,
                 "Rayleigh-wave time pi R sqrt(rho/G) / (0.1631 nu + 0.8766) (LIGGGHTS, Yade, EDEM); codes take a "
                 "user-chosen fraction of it (LIGGGHTS' example warns above 10 %)"});
  out.push_back({"p_wave", p_wave_time(m), "P-wave time R sqrt(rho/E) (Yade PWaveTimeStep)"});
  if (m.impact_velocity > 0.0)
    out.push_back({"hertz_collision_time", hertz_collision_time(m),
                   "Hertz contact duration of two equal spheres at the impact velocity, m_eff = m/2 (LIGGGHTS' "
                   "check/timestep/gran uses the whole particle mass and twice the largest particle speed)"});
  return out;
}

}  // namespace dtcrit
