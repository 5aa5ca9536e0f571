// Throughput of the reference DEM stepper: particle-steps per second of velocity Verlet (registry
// row "velocity_verlet") on a dense 3D packing in which every contact is closed.
//
// The packing: spheres on an FCC lattice (12 neighbours each), mean radius R = 1 mm, radii spread
// +-0.2 %, lattice compressed so that nominal neighbours overlap by 1 % of the diameter (every
// contact closed whatever the spread), filled layer by layer in a box of six walls, under gravity,
// glass-like density 2500 kg/m^3, k_n = 1e4 N/m, k_t = 2/7 k_n, e = 0.5, mu = 0.5, h = t_c / 50.
// Timed: one integrator step per iteration (contact forces, history, neighbour-list checks and
// rebuilds); items/s is particle-steps per second. The packing is built and warmed up untimed.
//
// Run: build with -DDTCRIT_BUILD_BENCHMARKS=ON, then
//   build/tests/benchmarks/bench_stepper --benchmark_min_time=3
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace {

using namespace dtcrit;
using namespace dtcrit::stepper;

struct Packing {
  std::unique_ptr<ParticleSystem> sys;
  Vector x, v;
  double h = 0.0;
};

Packing fcc_packing(Index n, TangentialHistory mode) {
  const double R = 1e-3, rho = 2500.0, kn = 1.0e4;
  const double m = rho * 4.0 / 3.0 * std::numbers::pi * R * R * R;
  const double gamma_n = gamma_n_from_restitution(0.5, kn, 0.5 * m);
  const HookeParams law{kn, 2.0 / 7.0 * kn, gamma_n, 0.5 * gamma_n, 0.5};
  Packing p;
  p.sys = std::make_unique<ParticleSystem>(3, law, mode);
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
    p.sys->add_particle(r, m * std::pow(r / R, 3), sphere_inertia(m * std::pow(r / R, 3), r));
  }
  // Walls touching the outer spheres (overlap ~ 1 % of R).
  const double lo = -0.99 * R, hi = a * static_cast<double>(cells) - 0.5 * a + 0.99 * R;
  p.sys->add_wall(Vec3(lo, 0, 0), Vec3::UnitX(), law);
  p.sys->add_wall(Vec3(hi, 0, 0), -Vec3::UnitX(), law);
  p.sys->add_wall(Vec3(0, lo, 0), Vec3::UnitY(), law);
  p.sys->add_wall(Vec3(0, hi, 0), -Vec3::UnitY(), law);
  p.sys->add_wall(Vec3(0, 0, lo), Vec3::UnitZ(), law);
  p.sys->add_wall(Vec3(0, 0, sites.back().z() + 0.99 * R), -Vec3::UnitZ(), law);
  p.sys->set_gravity(Vec3(0, 0, -9.81));
  p.sys->set_skin(0.1 * R);
  p.x = Vector::Zero(p.sys->dofs());
  p.v = Vector::Zero(p.sys->dofs());
  for (Index i = 0; i < n; ++i) {
    p.sys->set_centre(p.x, i, sites[i]);
    p.sys->set_centre(p.v, i, 1e-3 * Vec3(U(rng), U(rng), U(rng)));
  }
  return p;
}

void BM_VelocityVerlet(benchmark::State& state) {
  const Index n = state.range(0);
  const auto mode = state.range(1) == 0 ? TangentialHistory::traditional : TangentialHistory::consistent;
  Packing p = fcc_packing(n, mode);
  const std::unique_ptr<Integrator> vv = make_integrator("velocity_verlet");
  vv->start(*p.sys, 0.0, p.x, p.v, p.h);
  for (int k = 0; k < 20; ++k) vv->step(*p.sys);  // warm-up: history, neighbour list, caches
  const std::size_t builds0 = p.sys->neighbour_builds();
  p.sys->set_contact_reports(false);  // diagnostics a production code does not keep
  for (auto _ : state) {
    vv->step(*p.sys);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  state.counters["contacts_per_particle"] =
      static_cast<double>(p.sys->history_keys().size()) / static_cast<double>(n);
  state.counters["neighbour_rebuilds"] = static_cast<double>(p.sys->neighbour_builds() - builds0);
  state.SetLabel(std::string(to_string(mode)));
}

BENCHMARK(BM_VelocityVerlet)
    ->ArgNames({"N", "consistent"})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Args({100000, 0})
    ->Args({100000, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace
