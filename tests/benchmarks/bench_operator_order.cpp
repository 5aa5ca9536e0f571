// One application of the matrix-free operator M^-1/2 K M^-1/2 against the order of the particles in
// memory: a periodic FCC lattice of 256 000 spheres (1.5 10^6 contacts, with rotation) in the
// lattice's own order, randomly shuffled (as a LAMMPS file after mixing), and shuffled then put back
// into cell order by packing::sort_spatially (what `dtcrit packing` does with files).
//
// Run: build with -DDTCRIT_BUILD_BENCHMARKS=ON, then build/tests/benchmarks/bench_operator_order
// (tests/benchmarks/record_operator_order.sh writes results/benchmarks/operator_order.md).
#include <algorithm>
#include <numeric>
#include <random>

#include <benchmark/benchmark.h>

#include "dtcrit/system/global_system.hpp"

namespace {

using namespace dtcrit;
using namespace dtcrit::packing;

void BM_OperatorOrder(benchmark::State& state) {
  LatticeSpec spec;
  spec.kind = LatticeKind::fcc;
  spec.n = 40;
  spec.compression = 2e-3;
  spec.radius_spread = 1e-3;
  const Packing lattice = make_lattice(spec);
  Packing p = lattice;
  if (state.range(0) >= 1) {
    std::vector<std::size_t> perm(p.centre.size());
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::shuffle(perm.begin(), perm.end(), std::mt19937(1));
    for (std::size_t k = 0; k < perm.size(); ++k) {
      p.centre[k] = lattice.centre[perm[k]], p.radius[k] = lattice.radius[perm[k]];
      p.mass[k] = lattice.mass[perm[k]], p.inertia[k] = lattice.inertia[perm[k]];
    }
  }
  if (state.range(0) == 2) sort_spatially(p);
  ContactLaws laws;
  laws.base = contact::HookeParams{1e5, 3e4, 0.0, 0.0, 0.0};
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws, {1e-9})), true);
  const Vector x = Vector::Random(g.dofs());
  Vector y(g.dofs());
  for (auto _ : state) {
    g.apply_scaled(1.0, 0.0, x.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
  const double contacts = static_cast<double>(g.contacts().contacts.size());
  state.counters["contacts"] = contacts;
  // Wall time per contact and application (printed with an SI prefix, e.g. 10.6ns).
  state.counters["per_contact"] =
      benchmark::Counter(contacts, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetLabel(state.range(0) == 0 ? "lattice order" : state.range(0) == 1 ? "shuffled" : "shuffled, then sort_spatially");
}

BENCHMARK(BM_OperatorOrder)->ArgName("order")->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
