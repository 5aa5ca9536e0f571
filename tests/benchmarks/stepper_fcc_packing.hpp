#pragma once
// The stepper benchmarks' packing, one generator for bench_stepper (Google Benchmark) and
// stepper_vs_lammps (the side-by-side run with LAMMPS, which writes it as a LAMMPS data file).
//
// Spheres on an FCC lattice (12 neighbours each), mean radius R = 1 mm, radii spread +-0.2 %,
// lattice compressed so that nominal neighbours overlap by 1 % of the diameter (every contact closed
// whatever the spread), filled layer by layer in a box of six walls, under gravity, glass-like
// density 2500 kg/m^3, gran/hooke/history with k_n = 1e4 N/m, k_t = 2/7 k_n, e = 0.5 (gamma_n for
// m_eff = m/2), gamma_t = gamma_n / 2, mu = 0.5, h = t_c / 50, skin 0.1 R, random initial
// velocities of 1e-3 m/s (no spins).
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace dtcrit::bench {

struct StepperPacking {
  std::unique_ptr<stepper::ParticleSystem> sys;
  Vector x, v;
  double h = 0.0;
  double density = 0.0;
  stepper::HookeParams law;
};

inline StepperPacking fcc_packing(Index n, stepper::TangentialHistory mode) {
  using stepper::Vec3;
  const double R = 1e-3, rho = 2500.0, kn = 1.0e4;
  const double m = rho * 4.0 / 3.0 * std::numbers::pi * R * R * R;
  const double gamma_n = gamma_n_from_restitution(0.5, kn, 0.5 * m);
  const stepper::HookeParams law{kn, 2.0 / 7.0 * kn, gamma_n, 0.5 * gamma_n, 0.5};
  StepperPacking p;
  p.density = rho;
  p.law = law;
  p.sys = std::make_unique<stepper::ParticleSystem>(3, law, mode);
  p.h = collision_time(gamma_n, kn, 0.5 * m) / 50.0;

  // FCC: nearest-neighbour distance d = 2R (1 - 0.01), lattice constant a = d sqrt(2).
  const double d = 2.0 * R * 0.99, a = d * std::numbers::sqrt2;
  const Index cells = static_cast<Index>(std::ceil(std::cbrt(static_cast<double>(n) / 4.0)));
  const Eigen::Vector3d basis[4] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  std::vector<Vec3> sites;
  for (Index k = 0; k < 2 * cells + 2 && static_cast<Index>(sites.size()) < n; ++k)  // half-cell layers in z
    for (Index j = 0; j < cells && static_cast<Index>(sites.size()) < n; ++j)
      for (Index i = 0; i < cells && static_cast<Index>(sites.size()) < n; ++i)
        for (const auto& b : basis) {
          // Layer k (height k a/2) holds the two basis sites with b.z = (k mod 2) / 2.
          if ((b.z() == 0.0) != (k % 2 == 0)) continue;
          const Vec3 s(a * (static_cast<double>(i) + b.x()), a * (static_cast<double>(j) + b.y()),
                       0.5 * a * static_cast<double>(k));
          if (static_cast<Index>(sites.size()) < n) sites.push_back(s);
        }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (Index i = 0; i < n; ++i) {
    const double r = R * (1.0 + 0.002 * U(rng));
    // The mass as LAMMPS computes it from diameter and density (atom_style sphere), so that the
    // data file written for LAMMPS describes exactly these particles.
    const double mass = 4.0 * std::numbers::pi / 3.0 * r * r * r * rho;
    p.sys->add_particle(r, mass, stepper::sphere_inertia(mass, r));
  }
  // Walls touching the outer spheres (overlap ~ 1 % of R).
  const double lo = -0.99 * R, hi = a * static_cast<double>(cells) - 0.5 * a + 0.99 * R;
  const contact::ContactLaw wall_law = law;
  p.sys->add_wall(Vec3(lo, 0, 0), Vec3::UnitX(), wall_law);
  p.sys->add_wall(Vec3(hi, 0, 0), -Vec3::UnitX(), wall_law);
  p.sys->add_wall(Vec3(0, lo, 0), Vec3::UnitY(), wall_law);
  p.sys->add_wall(Vec3(0, hi, 0), -Vec3::UnitY(), wall_law);
  p.sys->add_wall(Vec3(0, 0, lo), Vec3::UnitZ(), wall_law);
  p.sys->add_wall(Vec3(0, 0, sites.back().z() + 0.99 * R), -Vec3::UnitZ(), wall_law);
  p.sys->set_gravity(Vec3(0, 0, -9.81));
  p.sys->set_skin(0.1 * R);
  p.x = Vector::Zero(p.sys->dofs());
  p.v = Vector::Zero(p.sys->dofs());
  for (Index i = 0; i < n; ++i) {
    p.sys->set_centre(p.x, i, sites[i]);
    p.sys->set_centre(p.v, i, 1e-3 * draw_vec3(U, rng));
  }
  return p;
}

}  // namespace dtcrit::bench
