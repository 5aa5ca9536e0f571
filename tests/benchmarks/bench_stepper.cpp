// Throughput of the reference DEM stepper: particle-steps per second of velocity Verlet (registry
// row "velocity_verlet") on a dense 3D packing in which every contact is closed.
//
// The packing: tests/benchmarks/stepper_fcc_packing.hpp (FCC, every contact closed, six walls,
// gravity, gran/hooke/history, h = t_c / 50).
// Timed: one integrator step per iteration (contact forces, history, neighbour-list checks and
// rebuilds); items/s is particle-steps per second. The packing is built and warmed up untimed.
//
// Run: build with -DDTCRIT_BUILD_BENCHMARKS=ON, then
//   build/tests/benchmarks/bench_stepper --benchmark_min_time=3
#include <memory>

#include <benchmark/benchmark.h>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "stepper_fcc_packing.hpp"

namespace {

using namespace dtcrit;
using namespace dtcrit::stepper;

void BM_VelocityVerlet(benchmark::State& state) {
  const Index n = state.range(0);
  const auto mode = state.range(1) == 0 ? TangentialHistory::traditional : TangentialHistory::consistent;
  bench::StepperPacking p = bench::fcc_packing(n, mode);
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
