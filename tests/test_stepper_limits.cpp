// Predicted limits confirmed by the DEM stepper itself: a bonded pair of spheres, advanced by every
// conditionally stable registry integrator at 0.999 and 1.001 of the limit (0.99 / 1.01 where the
// growth at 1.001 is too slow to see in 2e6 steps: explicit Euler damped) predicted from the
// integrator's amplification matrix on the pair's linear system, stays bounded below and grows above.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "dtcrit/stepper/particle_system.hpp"

using namespace dtcrit;
using namespace dtcrit::stepper;

namespace {

struct BondedPair {
  double m1 = 2e-3, m2 = 3e-3, r = 1e-3, kB = 5e4, rest = 2.5e-3, gamma_n;
  double m_eff() const { return m1 * m2 / (m1 + m2); }
  double omega() const { return std::sqrt(kB / m_eff()); }
  // The same pair as M a + C v + K x = 0 along the bond axis.
  LinearSystem linear() const {
    Matrix K(2, 2), C(2, 2);
    K << kB, -kB, -kB, kB;
    const double c = gamma_n * m_eff();
    C << c, -c, -c, c;
    return LinearSystem(Vector((Vector(2) << m1, m2).finished()), K, C);
  }
};

// Largest stretch amplitude |d - rest| over the last tenth of the run divided by that over the
// first tenth (inf if the run blew up): <= 1 when stable (constant or decaying), >> 1 when unstable.
double growth(const BondedPair& p, const std::string& spec, double h, long steps) {
  // gamma_n is the particle law's; the bond takes it with the pair's m_eff. kn is irrelevant (no contact).
  ParticleSystem sys(3, HookeParams{1e4, 0.0, p.gamma_n, 0.0, 0.0});
  const Index a = sys.add_particle(p.r, p.m1, sphere_inertia(p.m1, p.r));
  const Index b = sys.add_particle(p.r, p.m2, sphere_inertia(p.m2, p.r));
  sys.add_bond(a, b, p.kB, p.rest);
  Vector x = Vector::Zero(sys.dofs()), v = Vector::Zero(sys.dofs());
  const double amp0 = 1e-6 * p.rest;  // tiny: the spheres come nowhere near touching
  sys.set_centre(x, a, Vec3::Zero());
  sys.set_centre(x, b, Vec3(p.rest + amp0, 0, 0));
  auto integ = make_integrator(spec);
  integ->start(sys, 0.0, x, v, h);
  double first = 0.0, last = 0.0;
  for (long n = 0; n < steps; ++n) {
    integ->step(sys);
    const Vector& q = integ->position();
    const double d = (sys.centre(q, b) - sys.centre(q, a)).norm();
    // Growth by 1e3 counts as blow-up, long before the spheres could touch and make it nonlinear.
    if (!std::isfinite(d) || std::abs(d - p.rest) > 1e3 * amp0) return INFINITY;
    if (n < steps / 10) first = std::max(first, std::abs(d - p.rest));
    if (n >= steps - steps / 10) last = std::max(last, std::abs(d - p.rest));
  }
  return last / first;
}

}  // namespace

TEST_CASE("the stepper confirms every predicted limit on a bonded pair", "[stepper-limits]") {
  auto gamma_n = GENERATE(0.0, 300.0);  // undamped, and damping ratio ~ 0.07
  BondedPair pair;
  pair.gamma_n = gamma_n;
  for (const auto& spec : default_integrator_specs()) {
    LinearSystem lin = pair.linear();
    const CriticalStep c = critical_step(spec, lin, std::sqrt(pair.kB * (1 / pair.m1 + 1 / pair.m2)));
    if (c.stability != Stability::conditional) continue;
    INFO(spec << " gamma_n = " << gamma_n << " predicted h_crit = " << c.h_crit);
    // 0.1 % either side of the limit where the run can show it: long enough for the growth measured
    // at (1 + d) h_crit to reach e^20 (the unstable mode may start small: gear5's is a
    // corrector mode). rho(1.001 h) - 1 ranges from ~1e-6 (explicit Euler damped,
    // 2e7 steps: too long; it gets d = 0.01) through ~1e-4 (linear crossings) to ~0.05 (the Jordan
    // block at -1 splits like a square root).
    auto integ = make_integrator(spec);
    double d = 0.0;
    long steps = 0;
    for (double trial : {0.001, 0.003, 0.01}) {
      const double rho = spectral_radius(amplification_matrix(*integ, lin, (1.0 + trial) * c.h_crit));
      REQUIRE(rho > 1.0);
      d = trial;
      steps = std::max(5000L, static_cast<long>(std::ceil(20.0 / std::log(rho))));
      if (steps <= 2000000L) break;
    }
    INFO("checked at (1 -/+ " << d << ") h_crit, " << steps << " steps");
    REQUIRE(steps <= 2000000L);
    // The windows sample an oscillation: allow 1 % for where the peaks fall.
    CHECK(growth(pair, spec, (1.0 - d) * c.h_crit, steps) <= 1.01);
    CHECK(growth(pair, spec, (1.0 + d) * c.h_crit, steps) > 10.0);
  }
}
