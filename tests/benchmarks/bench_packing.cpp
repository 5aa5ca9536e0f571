// Time of `dtcrit packing` against the number of spheres: contacts (cell grid), the global system,
// omega_max (matrix-free over contacts, default tolerance; solver 0: the three-term Lanczos that
// `dtcrit packing` uses, 1: Spectra's restarted Lanczos for comparison), the undamped integrator
// limits of velocity_verlet and leapfrog (undamped: 2 / omega_max; damped: the Newton iteration on
// 4M - 2hC - h^2 K) and every bound (Gershgorin, Yade, single contact). One iteration each.
//
// Packings: FCC lattices, periodic, 4 n^3 spheres, every nearest-neighbour contact closed
// (compression 2e-3), k_n = 1e5 N/m, k_t = 3e4 N/m, with rotation (6 dofs per sphere);
//   perfect:      equal radii (the worst case for Lanczos: the top of the spectrum is a dense,
//                 degenerate band);
//   polydisperse: radii +-0.1 % (masses +-0.3 %), same contact network.
// Peak memory is process-wide, so record_packing.sh runs each case in its own process.
//
// Run: build with -DDTCRIT_BUILD_BENCHMARKS=ON, then
//   build/tests/benchmarks/bench_packing --benchmark_filter='BM_Packing/n:29/'
#include <cmath>

#include <cstdio>
#include <string>

#include <benchmark/benchmark.h>

#include "dtcrit/packing/packing_analysis.hpp"

namespace {

using namespace dtcrit;
using namespace dtcrit::packing;

void BM_Packing(benchmark::State& state) {
  LatticeSpec spec;
  spec.kind = LatticeKind::fcc;
  spec.n = state.range(0);
  spec.compression = 2e-3;
  spec.radius_spread = state.range(1) ? 1e-3 : 0.0;
  ContactLaws laws;
  // damped: LAMMPS gamma_n = 2000 1/s, gamma_t = 1000 1/s (top-mode damping ratio 0.03).
  const double gn = state.range(3) ? 2000.0 : 0.0;
  laws.base = contact::HookeParams{1e5, 3e4, gn, 0.5 * gn, 0.0};
  PackingReport report;
  Index contacts = 0;
  for (auto _ : state) {
    const Packing p = make_lattice(spec);
    ContactSet cs = find_contacts(p, laws, {1e-9});
    contacts = static_cast<Index>(cs.contacts.size());
    const GlobalSystem g(round_assembly(p, std::move(cs)), true);
    PackingAnalysisOptions o;
    o.integrators = {"velocity_verlet", "leapfrog"};
    o.eigen.method = state.range(2) ? EigenMethod::spectra : EigenMethod::automatic;
    report = analyse_packing(p, g, o);
  }
  state.counters["spheres"] = static_cast<double>(report.particles);
  state.counters["contacts"] = static_cast<double>(contacts);
  state.counters["lanczos_ops"] = static_cast<double>(report.eigen_operations);
  for (const auto& [stage, s] : report.timings) state.counters[stage == "omega_max" ? "t_eigen_s" : (stage == "bounds" ? "t_bounds_s" : "t_limits_s")] = s;
  char omega[64];
  std::snprintf(omega, sizeof omega, "%.10e", report.omega_max);
  state.SetLabel(std::string(spec.radius_spread > 0 ? "polydisperse" : "perfect") +
                 (report.damped ? "+damped" : "") + " solver=" + report.eigen_method +
                 " omega_max=" + omega);
}

// n = 6, 14, 29, 63: 864, 10976, 97556, 1000188 spheres.
BENCHMARK(BM_Packing)
    ->ArgNames({"n", "poly", "spectra", "damped"})
    ->Args({6, 0, 0, 0})->Args({6, 1, 0, 0})
    ->Args({14, 0, 0, 0})->Args({14, 1, 0, 0})
    ->Args({29, 0, 0, 0})->Args({29, 1, 0, 0})
    ->Args({63, 0, 0, 0})->Args({63, 1, 0, 0})
    ->Args({14, 1, 1, 0})->Args({29, 1, 1, 0})
    ->Args({14, 1, 0, 1})->Args({29, 1, 0, 1})->Args({63, 1, 0, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace
