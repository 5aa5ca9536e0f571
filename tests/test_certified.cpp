// critical_step's certificate: at the limit one crossing function of the amplification matrix,
// det(A + I) (a real eigenvalue through -1), det(A - I) (through +1) or the bialternate
// det(A (x) A - I) (a complex pair through the unit circle), changes sign, and the limit is its
// root. Hand cases whose crossing type is known, and the verdicts confirmed by running the schemes.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/stability/amplification.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinRel;

namespace {

// A damped chain of three masses, fixed at one end, damping not proportional to stiffness.
LinearSystem damped_chain(double c_scale = 1.0) {
  Matrix K(3, 3), C(3, 3);
  K << 3, -1, 0, -1, 2, -1, 0, -1, 1;
  C << 0.3, -0.1, 0, -0.1, 0.1, 0, 0, 0, 0.05;
  return LinearSystem(Vector((Vector(3) << 1.0, 2.0, 0.5).finished()), K, c_scale * C);
}

double omega_max_of(const LinearSystem& s) {
  const Vector w = s.mass().cwiseSqrt().cwiseInverse();
  const Matrix Kt = w.asDiagonal() * Matrix(s.stiffness()) * w.asDiagonal();
  return std::sqrt(linalg::symmetric_eigenvalues(Kt).maxCoeff());
}

// max E over the last quarter of the run / max E over the first quarter, E = ½vᵀMv + ½xᵀKx.
double energy_growth(const std::string& spec, LinearSystem& sys, double h, long steps) {
  auto integ = make_integrator(spec);
  const Vector x0 = (Vector(sys.dofs()) << 1.0, -0.5, 0.25).finished();
  integ->start(sys, 0.0, x0, Vector::Zero(sys.dofs()), h);
  double first = 0.0, last = 0.0;
  for (long n = 0; n < steps; ++n) {
    integ->step(sys);
    const double E = sys.energy(integ->position(), integ->velocity());
    if (!std::isfinite(E)) return INFINITY;
    if (n < steps / 4) first = std::max(first, E);
    if (n >= steps - steps / 4) last = std::max(last, E);
  }
  return last / first;
}

}  // namespace

TEST_CASE("the certificate names the crossing: -1 for central difference, a complex pair for RK4", "[stability][certified]") {
  auto undamped = scalar_oscillator(1.0, 0.0);
  // Central difference / velocity Verlet undamped: lambda² - (2 - Omega²) lambda + 1 = 0, so
  // det(A + I) ∝ 4 - Omega² changes sign at Omega = 2 (the Jordan block at -1).
  for (const char* spec : {"central_difference", "velocity_verlet", "leapfrog"}) {
    const CriticalStep c = critical_step(spec, undamped, 1.0);
    INFO(spec << ": " << c.method);
    CHECK_THAT(c.method, StartsWith("certified") && Contains("through -1"));
    CHECK_THAT(c.h_crit, WithinRel(2.0, 1e-14));
    CHECK(c.h_crit <= 2.0 * (1.0 + 1e-15));  // the stable end of the root bracket: not above the limit
  }
  // RK4 damped: a complex pair leaves the unit circle (the bialternate determinant changes sign).
  auto lightly_damped = scalar_oscillator(1.0, 0.05);
  const CriticalStep rk4 = critical_step("rk4", lightly_damped, 1.0);
  CHECK_THAT(rk4.method, StartsWith("certified") && Contains("complex pair"));
  // Explicit Euler damped: eigenvalues 1 + h s, a complex pair with |1 + hs| = 1 at Omega = 2 zeta.
  auto damped = scalar_oscillator(1.0, 0.1);
  const CriticalStep euler = critical_step("explicit_euler", damped, 1.0);
  CHECK_THAT(euler.method, StartsWith("certified") && Contains("complex pair"));
  CHECK_THAT(euler.h_crit, WithinRel(0.2, 1e-13));
  // Gear, damped: the limit is also where a complex pair leaves (the textbook matrices' spectra).
  for (const char* spec : {"gear4", "gear5"}) {
    const CriticalStep c = critical_step(spec, damped, 1.0);
    INFO(spec << ": " << c.method);
    CHECK_THAT(c.method, StartsWith("certified"));
  }
  // gear5 undamped stays "unstable": rho - 1 ~ Omega⁶/27 > 0 has no crossing to certify.
  CHECK(critical_step("gear5", undamped, 1.0).stability == Stability::unstable);
}

TEST_CASE("the scan is refined until it agrees, and uncertified answers get a dense check below", "[stability][certified]") {
  LinearSystem chain = damped_chain();
  const CriticalStep c = critical_step("velocity_verlet", chain, omega_max_of(chain));
  INFO(c.method);
  CHECK_THAT(c.method, StartsWith("certified") && Contains("refined 1 time"));
  CHECK_THAT(c.method, !Contains("-point check"));
  // RK4 undamped is dissipative below its limit (|R(iy)|² = 1 - y⁶/72 + y⁸/576 < 1), so its
  // complex pair crosses from strictly inside: certified by the bialternate determinant.
  auto undamped = scalar_oscillator(1.0, 0.0);
  const CriticalStep rk4 = critical_step("rk4", undamped, 1.0);
  INFO(rk4.method);
  CHECK_THAT(rk4.method, StartsWith("certified") && Contains("complex pair"));
  CHECK_THAT(rk4.h_crit, WithinRel(2.0 * std::sqrt(2.0), 1e-13));
  // (The dense check of uncertified answers: explicit Euler on the floor packing,
  // tests/test_free_modes.cpp, whose state is too large for the bialternate product.)
}

TEST_CASE("unconditional rows stay bounded at Omega = 10, 100, 1000 on a damped coupled system", "[stability][certified]") {
  LinearSystem chain = damped_chain();
  const double w = omega_max_of(chain);
  for (const auto& row : integrator_registry()) {
    const CriticalStep c = critical_step(row.name, chain, w);
    if (c.stability != Stability::unconditional) continue;
    for (double Omega : {10.0, 100.0, 1000.0}) {
      INFO(row.name << " at Omega = " << Omega);
      // 400 steps: the slowest-decaying mode loses little per step at these Omega, so bounded
      // means "no growth", not "decayed".
      CHECK(energy_growth(row.name, chain, Omega / w, 400) <= 1.0 + 1e-9);
    }
  }
}

TEST_CASE("gear5 undamped grows at every step size", "[stability][certified]") {
  // rho - 1 ≈ Omega⁶/27: at Omega = 0.5, 0.8 the growth per step is ~6e-4, ~1e-2; the run is long
  // enough for e^5.
  LinearSystem chain = damped_chain(0.0);
  const double w = omega_max_of(chain);
  for (double Omega : {0.5, 0.8}) {
    auto integ = make_integrator("gear5");
    const double rho = spectral_radius(amplification_matrix(*integ, chain, Omega / w));
    REQUIRE(rho > 1.0);
    const long steps = static_cast<long>(20.0 / std::log(rho));
    INFO("Omega = " << Omega << " rho - 1 = " << rho - 1.0 << " steps " << steps);
    CHECK(energy_growth("gear5", chain, Omega / w, steps) > 100.0);
  }
}
