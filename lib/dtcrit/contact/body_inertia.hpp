#pragma once
// The one convention for the mass and inertia of round bodies and for the effective mass of a
// contact. Inline; no checks but in disc_mass from a thickness (callers check their inputs, and the
// stepper calls these per contact). The operation order of each formula is part of the convention:
// result files and tests compare masses to the last bit.
#include <cmath>
#include <limits>
#include <numbers>

#include "dtcrit/core/check.hpp"

namespace dtcrit::contact {

// Sphere: m = 4/3 pi r^3 rho, I = 2/5 m r^2 (LAMMPS atom_style sphere, fix nve/sphere).
inline double sphere_mass(double radius, double density) {
  return density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
}
inline double sphere_inertia(double mass, double radius) { return 0.4 * mass * radius * radius; }
// 4/3 pi r^3: LAMMPS' density of a round atom is its mass over this volume, in 2D too
// (AtomVecSphere::data_atom_post()). Not the volume sphere_mass() multiplies (last bits differ).
inline double sphere_volume(double radius) { return 4.0 / 3.0 * std::numbers::pi * radius * radius * radius; }

// Disc (a cylinder moving in its plane): m = pi r^2 sigma with sigma = rho t the areal density
// (LAMMPS' `set density/disc`), I = 1/2 m r^2 (fix nve/sphere disc).
inline double areal_disc_mass(double radius, double areal_density) {
  return areal_density * std::numbers::pi * radius * radius;
}
// From the thickness t and the density rho; throws unless all three are positive.
inline double disc_mass(double radius, double thickness, double density) {
  require_positive("radius", radius);
  require_positive("thickness", thickness);
  require_positive("density", density);
  return std::numbers::pi * radius * radius * thickness * density;
}
inline double disc_inertia(double mass, double radius) { return 0.5 * mass * radius * radius; }

// m_i m_j / (m_i + m_j); an immovable partner (m_j = immovable_mass, a wall) gives m_i.
inline constexpr double immovable_mass = std::numeric_limits<double>::infinity();
inline double effective_mass(double mi, double mj) { return std::isinf(mj) ? mi : mi * mj / (mi + mj); }
// Two bodies of equal mass m: m / 2 (written so, not as m m / 2m, whose last bit can differ).
inline double equal_pair_mass(double m) { return 0.5 * m; }
// r_i r_j / (r_i + r_j); a plane wall (r_j = +inf) gives r_i.
inline double effective_radius(double ri, double rj) { return std::isinf(rj) ? ri : ri * rj / (ri + rj); }

}  // namespace dtcrit::contact
