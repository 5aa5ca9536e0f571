// The one bisection and the monotone root (core/roots.hpp), and the one time loop
// (integrators/integrate.hpp): where each stops, which steps the observer sees, the blow-up rule.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "dtcrit/core/roots.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/integrate.hpp"
#include "dtcrit/integrators/registry.hpp"

using namespace dtcrit;

TEST_CASE("bisect stops where its caller says, or at neighbouring doubles", "[roots]") {
  int calls = 0;
  auto above = [&](double x) {
    ++calls;
    return x >= 0.3;
  };
  // A width: 2^-10 is the first halving of [0, 1] narrower than 1e-3.
  const Bracket w = bisect(above, 0.0, 1.0, [](double lo, double hi) { return hi - lo > 1e-3; });
  CHECK(calls == 10);
  CHECK(w.lo < 0.3);
  CHECK(w.hi >= 0.3);
  CHECK(w.hi - w.lo == std::ldexp(1.0, -10));
  // A number of halvings.
  calls = 0;
  const Bracket n = bisect(above, 0.0, 1.0, any_width, 6);
  CHECK(calls == 6);
  CHECK(n.hi - n.lo == 1.0 / 64.0);
  // More halvings than doubles between the ends: it stops once lo and hi are neighbours.
  calls = 0;
  const Bracket d = bisect(above, 0.0, 1.0, any_width, 200);
  CHECK(d.hi == 0.3);
  CHECK(std::nextafter(d.lo, 1.0) == d.hi);
  CHECK(calls < 70);
  // Geometric midpoints: sqrt(1 * 4) = 2, then sqrt(2 * 4).
  const Bracket g = bisect([](double x) { return x > 3.0; }, 1.0, 4.0, any_width, 2, Midpoint::geometric);
  CHECK(g.lo == std::sqrt(8.0));
  CHECK(g.hi == 4.0);
}

TEST_CASE("monotone_root: the root of a monotone function to a few ulp", "[roots]") {
  const double root = std::cbrt(2.0), eps = std::numeric_limits<double>::epsilon();
  const Bracket r = monotone_root([](double x) { return x * x * x - 2.0; }, 0.0, 2.0);
  CHECK(r.lo <= r.hi);
  CHECK(std::abs(r.mid() - root) <= 8.0 * eps * root);
  const Bracket falling = monotone_root([](double x) { return 2.0 - x * x * x; }, 0.0, 2.0);
  CHECK(std::abs(falling.mid() - root) <= 8.0 * eps * root);
}

TEST_CASE("integrate_n_steps: checked steps, a stop by the observer, the blow-up rule", "[integrate]") {
  LinearSystem sys = scalar_oscillator(1.0, 0.0);
  const auto integ = make_integrator("velocity_verlet");
  const Vector x0 = Vector::Ones(1), v0 = Vector::Zero(1);
  std::vector<long> seen;
  auto record = [&](const Integrator& in, const Vector& x, const Vector& v) {
    CHECK(x.allFinite());
    CHECK(v.allFinite());
    CHECK(in.time() == 0.1 * static_cast<double>(in.steps_taken()));
    seen.push_back(in.steps_taken());
  };

  integ->start(sys, 0.0, x0, v0, 0.1);
  IntegrateRun run = integrate_n_steps(*integ, sys, 10, 4, record);
  CHECK(run.end == RunEnd::completed);
  CHECK(run.steps == 10);
  CHECK(seen == std::vector<long>{4, 8, 10});  // every 4th step and the last, never step 0

  integ->start(sys, 0.0, x0, v0, 0.1);
  seen.clear();
  run = integrate_n_steps(*integ, sys, 10, 1, [&](const Integrator& in, const Vector& x, const Vector& v) {
    record(in, x, v);
    return seen.size() < 3;
  });
  CHECK(run.end == RunEnd::stopped);
  CHECK(run.steps == 3);
  CHECK(integ->steps_taken() == 3);

  // Omega = 2.5 > 2: velocity Verlet grows by 4 per step and overflows within ~520 steps.
  integ->start(sys, 0.0, x0, v0, 2.5);
  seen.clear();
  run = integrate_n_steps(*integ, sys, 2000, 1, [&](const Integrator& in, const Vector& x, const Vector& v) {
    seen.push_back(in.steps_taken());
    return x.allFinite() && v.allFinite();  // never false: the loop stops first
  });
  CHECK(run.blew_up());
  CHECK(run.steps < 600);
  CHECK(static_cast<long>(seen.size()) == run.steps - 1);  // the blown-up step is not observed
}
