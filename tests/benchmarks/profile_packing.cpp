// Where the time of `dtcrit packing` goes on one FCC case of bench_packing.cpp: the phases (lattice,
// contacts, global system, omega_max, the damped limit), the cost of one operator application, and,
// damped, every eigenvalue solve of the bracketed root for the velocity Verlet limit (its step h, its
// tolerance, its operator applications and its time) at the precision RTOL (environment; default
// PackingAnalysisOptions' rtol). The solves are those of half_step_damped_limit (global_system.cpp),
// replayed with a counter.
//
// Run: build with -DDTCRIT_BUILD_BENCHMARKS=ON, then
//   build/tests/benchmarks/profile_packing N POLY DAMPED     e.g. 29 1 1
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dtcrit/linalg/lanczos.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

namespace {

using namespace dtcrit;
using namespace dtcrit::packing;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Peak resident memory of the process so far (VmHWM) [MB].
double peak_mb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return std::nan("");
  char line[256];
  double kb = std::nan("");
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %lf kB", &kb) == 1) break;
  std::fclose(f);
  return kb / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s N POLY(0|1) DAMPED(0|1)\n", argv[0]);
    return 2;
  }
  LatticeSpec spec;
  spec.kind = LatticeKind::fcc;
  spec.n = std::atoi(argv[1]);
  spec.compression = 2e-3;
  spec.radius_spread = std::atoi(argv[2]) ? 1e-3 : 0.0;
  const double gn = std::atoi(argv[3]) ? 2000.0 : 0.0;
  ContactLaws laws;
  laws.base = contact::HookeParams{1e5, 3e4, gn, 0.5 * gn, 0.0};

  auto t0 = Clock::now();
  const Packing p = make_lattice(spec);
  std::printf("lattice            %8.3f s  %lld spheres\n", since(t0), static_cast<long long>(p.size()));
  t0 = Clock::now();
  ContactSet cs = find_contacts(p, laws, {1e-9});
  const auto nc = cs.contacts.size();
  std::printf("contacts           %8.3f s  %zu contacts\n", since(t0), nc);
  t0 = Clock::now();
  GlobalSystem g(round_assembly(p, std::move(cs)), true);
  if (const char* t = std::getenv("DTCRIT_THREADS")) g.set_threads(std::atoi(t));  // default: min(2, cores)
  std::printf("global system      %8.3f s  %lld dofs, threads %d\n", since(t0), static_cast<long long>(g.dofs()),
              g.threads());

  // One application, the mean of 20 (undamped operator and the damped limit's h^2 K + 2h C).
  {
    const Vector x = Vector::Random(g.dofs());
    Vector y(g.dofs());
    for (const auto& [a, b, what] : {std::tuple{1.0, 0.0, "K~"}, std::tuple{3.4e-11, 1.2e-5, "h^2 K~ + 2h C~"}}) {
      g.apply_scaled(a, b, x.data(), y.data());
      t0 = Clock::now();
      const std::clock_t c0 = std::clock();
      for (int r = 0; r < 20; ++r) g.apply_scaled(a, b, x.data(), y.data());
      const double per = since(t0) / 20.0;
      const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC / 20.0;
      std::printf("one application    %8.3f ms  (%s; %.2f ns per contact; CPU time of all threads %.3f ms)\n",
                  1e3 * per, what, 1e9 * per / static_cast<double>(nc), 1e3 * cpu);
    }
  }

  // omega_max as analyse_system computes it (the eigenvector only when damped).
  EigenOptions eigen;
  eigen.want_vector = g.damped();
  t0 = Clock::now();
  const ExtremeEigen top = largest_eigen(g, 1.0, 0.0, eigen);
  const double t_top = since(t0);
  const double omega = std::sqrt(top.lambda);
  std::printf("omega_max          %8.3f s  %lld applications (%.3f ms each, all included)  omega_max %.17g  "
              "peak RSS so far %.0f MB\n",
              t_top, static_cast<long long>(top.operations), 1e3 * t_top / static_cast<double>(top.operations), omega,
              peak_mb());
  t0 = Clock::now();
  const double gershgorin = g.gershgorin_omega2();
  std::printf("gershgorin bound   %8.3f s  omega^2 <= %.6e  peak RSS so far %.0f MB\n", since(t0), gershgorin, peak_mb());
  {
    // The same recurrence (lanczos_largest, as largest_eigen calls it) with the operator timed apart:
    // the rest is the recurrence's own vector work.
    linalg::LanczosOptions lo;
    lo.tolerance = eigen.tolerance;
    lo.max_steps = eigen.max_steps;
    lo.parts = g.operator_parts();  // as largest_eigen: the vector work on the operator's threads
    lo.run_parts = [&g](int parts, const std::function<void(int)>& f) { g.run_parts(parts, f); };
    double t_op = 0.0;
    t0 = Clock::now();
    const linalg::LanczosResult r = linalg::lanczos_largest(g.dofs(), [&](const double* x, double* y) {
      const auto ts = Clock::now();
      g.apply_scaled(1.0, 0.0, x, y);
      t_op += since(ts);
    }, lo);
    const double t_all = since(t0);
    std::printf("lanczos, no vector %8.3f s  %lld applications: operator %.3f s (%.3f ms each), recurrence %.3f s "
                "(%.3f ms per step)\n",
                t_all, static_cast<long long>(r.operations), t_op, 1e3 * t_op / static_cast<double>(r.operations),
                t_all - t_op, 1e3 * (t_all - t_op) / static_cast<double>(r.steps));
  }
  if (!g.damped()) return 0;

  double zeta = 0.0;
  {
    Vector w(g.dofs());
    g.apply_scaled(0.0, 1.0, top.vector.data(), w.data());
    zeta = top.vector.dot(w) / (2.0 * omega);
  }
  // The solves of half_step_damped_limit, counted.
  Index total_ops = 0;
  int solve = 0;
  t0 = Clock::now();
  const double rtol = std::getenv("RTOL") ? std::atof(std::getenv("RTOL")) : PackingAnalysisOptions{}.rtol;
  const DampedLimit d = half_step_root(
      omega, zeta, rtol,
      [&](double h, double tolerance) {
        EigenOptions o;
        o.want_vector = false;
        o.tolerance = tolerance;
        const auto ts = Clock::now();
        const ExtremeEigen e = largest_eigen(g, h * h, 2.0 * h, o);
        total_ops += e.operations;
        std::printf("  solve %d   %8.3f s  h = %.17g  tolerance %.2g  %lld applications  lambda - 4 = %.3e\n", ++solve,
                    since(ts), h, tolerance, static_cast<long long>(e.operations), e.lambda - 4.0);
        return TopAtStep{e.lambda, e.residual, e.operations};
      },
      g.stiffness_semidefinite());
  std::printf("damped limit       %8.3f s  %d solves, %lld applications  h_crit %.17g  h_low %.17g  zeta %.6f\n",
              since(t0), solve, static_cast<long long>(total_ops), d.h_crit, d.h_low, zeta);
  return 0;
}
