// The integrator registry and every scheme in it: names and parameters, declared orders against
// orders measured from h sweeps on the exact damped oscillator, the calls each step makes, and
// the identities between schemes that the literature states.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "dtcrit/integrators/explicit_schemes.hpp"
#include "dtcrit/integrators/gear.hpp"
#include "dtcrit/integrators/gs4.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/integrators/variational.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "integrator_test_support.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

std::string thrown_message(const std::string& spec) {
  try {
    make_integrator(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace

TEST_CASE("every registry row builds, names itself and has sane parameters", "[integrators]") {
  const auto& rows = integrator_registry();
  REQUIRE(rows.size() == 21);
  std::set<std::string> names;
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(names.insert(row.name).second);
    CHECK(make_integrator(row.name) != nullptr);
    CHECK(integrator_info(row.name).name == row.name);
    CHECK(!row.description.empty());
    CHECK(row.order >= 1);
    CHECK(row.order_damped >= 1);
    CHECK(row.order_damped <= row.order);
    for (const auto& p : row.parameters) {
      CHECK(p.min <= p.default_value);
      CHECK(p.default_value <= p.max);
      CHECK(!p.meaning.empty());
    }
  }
  for (const char* name : {"explicit_euler", "symplectic_euler", "velocity_verlet", "velocity_verlet_implicit_damping",
                           "leapfrog", "central_difference", "position_verlet", "rigid_small", "rk4", "gear4", "gear5",
                           "newmark", "newmark_average", "newmark_linear", "hht", "generalized_alpha", "gs4_u0", "gs4_v0",
                           "variational", "variational_1", "variational_2"})
    CHECK(names.count(name) == 1);
}

TEST_CASE("default specs list every scheme once, aliases in place of equal defaults", "[integrators]") {
  const auto specs = default_integrator_specs();
  std::set<std::string> canonical;
  for (const auto& s : specs) CHECK(canonical.insert(canonical_integrator_spec(s)).second);
  // newmark's defaults are the average-acceleration alias; variational's are variational_1
  CHECK(std::find(specs.begin(), specs.end(), "newmark") == specs.end());
  CHECK(std::find(specs.begin(), specs.end(), "variational") == specs.end());
  for (const char* s : {"newmark_average", "newmark_linear", "variational_1", "variational_2", "hht", "gs4_u0", "rk4"})
    CHECK(std::find(specs.begin(), specs.end(), s) != specs.end());
  CHECK(specs.size() == integrator_registry().size() - 2);
}

TEST_CASE("specs: aliases resolve, parameters are parsed, errors name what is wrong", "[integrators]") {
  CHECK(canonical_integrator_spec("newmark_average") == "newmark:beta=0.25,gamma=0.5");
  CHECK(canonical_integrator_spec(" hht ") == "hht:alpha=-0.1");
  CHECK(canonical_integrator_spec("gs4_u0:rho_ss=0.1, rho=0.9") == "gs4_u0:rho=0.9,rho_s=0.5,rho_ss=0.1");
  CHECK(integrator_info("newmark:beta=0.25,gamma=0.5").name == "newmark_average");
  CHECK(integrator_info("variational:alpha=0.5").name == "variational_2");
  CHECK(integrator_info("variational:alpha=0.5").order == 2);
  // non-default parameters: orders follow the parameter values
  CHECK(integrator_info("newmark:beta=0.3,gamma=0.6").order == 1);
  CHECK(integrator_info("newmark:beta=0,gamma=0.5").is_explicit);
  CHECK(integrator_info("variational:alpha=0.3").order == 1);
  CHECK(&integrator_info("newmark:beta=0.3,gamma=0.6") == &integrator_info("newmark:gamma=0.6,beta=0.3"));

  CHECK_THROWS_AS(make_integrator("verlet"), std::invalid_argument);
  CHECK_THAT(thrown_message("verlet"), Contains("unknown integrator 'verlet'") && Contains("velocity_verlet") &&
                                           Contains("gs4_v0"));
  CHECK_THAT(thrown_message("newmark:delta=0.3"), Contains("unknown parameter 'delta'") && Contains("beta, gamma"));
  CHECK_THAT(thrown_message("newmark:beta=0.7"), Contains("beta") && Contains("0.7") && Contains("[0, 0.5]"));
  CHECK_THAT(thrown_message("hht:alpha=abc"), Contains("alpha") && Contains("abc"));
  CHECK_THAT(thrown_message("hht:alpha=-0.1,alpha=-0.2"), Contains("twice"));
  CHECK_THAT(thrown_message("rk4:order=5"), Contains("takes no parameters"));
  CHECK_THAT(thrown_message("newmark_average:beta=0.3"), Contains("alias of newmark:beta=0.25,gamma=0.5"));
  CHECK_THAT(thrown_message("gs4_v0:rho"), Contains("key=value"));
  CHECK_THAT(thrown_message("generalized_alpha:rho_inf=nan"), Contains("rho_inf"));
  CHECK_THROWS_AS(integrator_info("nope"), std::invalid_argument);
}

TEST_CASE("measured order equals the declared order for every row, undamped and damped", "[integrators]") {
  for (const auto& row : integrator_registry()) {
    for (double zeta : {0.0, 0.2}) {
      const int declared = zeta == 0.0 ? row.order : row.order_damped;
      const double p = test::observed_order(row.name, zeta);
      INFO(row.name << " zeta = " << zeta << ": observed order " << p << ", declared " << declared);
      CHECK_THAT(p, WithinAbs(declared, 0.2));
    }
  }
}

TEST_CASE("measured order follows the parameters", "[integrators]") {
  for (const char* spec : {"newmark:beta=0.3,gamma=0.6", "newmark:beta=0,gamma=0.5", "hht:alpha=-0.3",
                           "generalized_alpha:rho_inf=0", "gs4_u0:rho=0.2,rho_s=0.6,rho_ss=0.9",
                           "gs4_v0:rho=0.2,rho_s=0.6,rho_ss=0.9", "gs4_v0:rho=1,rho_s=0,rho_ss=0.3",
                           "gs4_u0:rho=1,rho_s=1,rho_ss=1", "variational:alpha=0.3"}) {
    const auto& info = integrator_info(spec);
    for (double zeta : {0.0, 0.2}) {
      const double p = test::observed_order(spec, zeta);
      INFO(spec << " zeta = " << zeta << ": observed order " << p);
      CHECK_THAT(p, WithinAbs(zeta == 0.0 ? info.order : info.order_damped, 0.2));
    }
  }
}

TEST_CASE("every step accepts once, implicit schemes need one Newton iteration on linear systems", "[integrators]") {
  for (const auto& row : integrator_registry()) {
    INFO(row.name);
    test::CountingSystem sys(test::coupled_two_dof(1.0));
    auto integrator = make_integrator(row.name);
    integrator->start(sys, 0.0, (Vector(2) << 1.0, -0.5).finished(), (Vector(2) << 0.2, 0.1).finished(), 0.05);
    sys.forces = sys.tangents = sys.accepts = 0;
    const int steps = 10;
    for (int n = 0; n < steps; ++n) integrator->step(sys);
    CHECK(sys.accepts == steps);
    CHECK(integrator->steps_taken() == steps);
    CHECK_THAT(integrator->time(), WithinRel(0.5, 1e-15));
    // one tangent (one Newton solve) per step at most; explicit one-evaluation schemes none
    CHECK(sys.tangents <= steps);
    if (row.name == "rk4") CHECK(sys.forces == 4 * steps);
    else CHECK(sys.forces <= 2 * steps);
    if (!row.is_explicit) CHECK(sys.tangents == steps);
  }
}

TEST_CASE("variational alpha=0 moves the positions of velocity Verlet (and leapfrog)", "[integrators]") {
  // All three advance v_{n+1/2} = v_{n-1/2} + h a(x_n, v_{n-1/2}), x_{n+1} = x_n + h v_{n+1/2}: from
  // the same (x_1, v_{1/2}) they give the same positions to round-off, damped or not.
  for (double zeta : {0.0, 0.15}) {
    INFO("zeta = " << zeta);
    auto sys = test::coupled_two_dof(zeta / 0.1);
    const double h = 0.07;
    const Vector x0 = (Vector(2) << 1.0, -0.5).finished(), v0 = (Vector(2) << 0.2, 0.1).finished();
    VelocityVerlet vv(VelocityVerlet::DampingVelocity::half_step);
    vv.start(sys, 0.0, x0, v0, h);
    vv.step(sys);
    const Vector z = vv.state();  // (x_1, v_1, a_1) with a_1 = a(x_1, v_{1/2})
    const Vector x1 = z.segment(0, 2), vhalf = z.segment(2, 2) - 0.5 * h * z.segment(4, 2);
    auto var = make_integrator("variational:alpha=0");
    var->start(sys, h, x1, vhalf, h);  // p = M v_{1/2}
    auto lf = make_integrator("leapfrog");
    lf->start(sys, h, x1, vhalf, h);
    lf->set_state((Vector(4) << x1, vhalf).finished());
    for (int n = 0; n < 300; ++n) {
      vv.step(sys);
      var->step(sys);
      lf->step(sys);
      REQUIRE_THAT((var->position() - vv.position()).norm(), WithinAbs(0.0, 1e-13));
      REQUIRE_THAT((lf->position() - vv.position()).norm(), WithinAbs(0.0, 1e-13));
    }
  }
  // Undamped, from the initial conditions: starting the variational momentum at v0 - (h/2) a0
  // reproduces velocity Verlet's x_1 = x0 + h v0 + (h²/2) a0 and hence every later position.
  auto sys = test::coupled_two_dof(0.0);
  const double h = 0.05;
  const Vector x0 = (Vector(2) << 1.0, -0.5).finished(), v0 = (Vector(2) << 0.2, 0.1).finished();
  Vector f;
  sys.force(0.0, x0, v0, f);
  const Vector a0 = f.cwiseQuotient(sys.mass());
  auto vv = make_integrator("velocity_verlet");
  auto var = make_integrator("variational_1");
  vv->start(sys, 0.0, x0, v0, h);
  var->start(sys, 0.0, x0, v0 - 0.5 * h * a0, h);
  for (int n = 0; n < 300; ++n) {
    vv->step(sys);
    var->step(sys);
    REQUIRE_THAT((var->position() - vv->position()).norm(), WithinAbs(0.0, 1e-13));
  }
}

TEST_CASE("rigid_small (fix rigid/small, linearised) is velocity Verlet in momentum variables", "[integrators]") {
  // fix rigid/small kicks momentum and angular momentum, drifts with omega½ = I^{-1} L½ and lets the
  // atoms' dashpots see v½: the map of fix nve/sphere in other variables. Same trajectory to
  // round-off, and the same limit from its own amplification matrix, damped and undamped.
  for (double damping : {0.0, 1.5}) {
    INFO("damping scale " << damping);
    auto sys = test::coupled_two_dof(damping);
    const double h = 0.07;
    const Vector x0 = (Vector(2) << 1.0, -0.5).finished(), v0 = (Vector(2) << 0.2, 0.1).finished();
    auto vv = make_integrator("velocity_verlet");
    auto rigid = make_integrator("rigid_small");
    vv->start(sys, 0.0, x0, v0, h);
    rigid->start(sys, 0.0, x0, v0, h);
    for (int n = 0; n < 300; ++n) {
      vv->step(sys);
      rigid->step(sys);
      REQUIRE_THAT((rigid->position() - vv->position()).norm(), WithinAbs(0.0, 1e-13));
      REQUIRE_THAT((rigid->velocity() - vv->velocity()).norm(), WithinAbs(0.0, 1e-13));
    }
    const double wmax = test::omega_max_of(sys);
    const CriticalStep a = critical_step("rigid_small", sys, wmax), b = critical_step("velocity_verlet", sys, wmax);
    REQUIRE(a.stability == Stability::conditional);
    CHECK_THAT(a.h_crit, WithinRel(b.h_crit, 1e-10));
    // Undamped, the closed form 2 / omega_max.
    if (damping == 0.0) CHECK_THAT(a.h_crit, WithinRel(2.0 / wmax, 1e-10));
  }
}

TEST_CASE("Gear starts from exact derivatives", "[integrators]") {
  // r_k = h^k/k! x^(k)(0) with x''' = -x' - 2 zeta x'', x'''' = -x'' - 2 zeta x''' (omega = 1)
  const double zeta = 0.3, h = 0.1, x0 = 1.0, v0 = 0.3;
  auto sys = scalar_oscillator(1.0, zeta);
  GearIntegrator gear(gear5_corrector());
  gear.start(sys, 0.0, Vector::Constant(1, x0), Vector::Constant(1, v0), h);
  const double a = -x0 - 2 * zeta * v0, j = -v0 - 2 * zeta * a, s = -a - 2 * zeta * j;
  const Vector r = gear.state();
  CHECK_THAT(r[0], WithinRel(x0, 1e-15));
  CHECK_THAT(r[1], WithinRel(h * v0, 1e-15));
  CHECK_THAT(r[2], WithinRel(h * h / 2 * a, 1e-14));
  CHECK_THAT(r[3], WithinRel(h * h * h / 6 * j, 1e-14));
  CHECK_THAT(r[4], WithinRel(h * h * h * h / 24 * s, 1e-14));
  CHECK_THAT(gear.velocity()[0], WithinRel(v0, 1e-15));
}

TEST_CASE("leapfrog keeps velocities at half steps", "[integrators]") {
  auto lf = make_integrator("leapfrog");
  auto sys = scalar_oscillator(1.0, 0.0);
  const double h = 0.01;
  lf->start(sys, 0.0, Vector::Constant(1, 1.0), Vector::Constant(1, 0.0), h);
  CHECK(lf->velocity_offset() == -0.5 * h);
  for (int n = 0; n < 100; ++n) lf->step(sys);
  // exact: x = cos t, v = -sin t; the half-step velocity is second-order accurate at t - h/2
  CHECK_THAT(lf->velocity()[0], WithinAbs(-std::sin(lf->time() - 0.5 * h), 1e-5));
  CHECK(std::abs(lf->velocity()[0] + std::sin(lf->time())) > 1e-3);
}

TEST_CASE("integrators reject bad input with a message naming it", "[integrators]") {
  auto sys = scalar_oscillator(1.0, 0.0);
  for (const auto& spec : default_integrator_specs()) {
    INFO(spec);
    auto integrator = make_integrator(spec);
    CHECK_THROWS_AS(integrator->start(sys, 0.0, Vector::Zero(1), Vector::Zero(1), -0.1), std::invalid_argument);
    CHECK_THROWS_AS(integrator->start(sys, 0.0, Vector::Zero(2), Vector::Zero(1), 0.1), std::invalid_argument);
    integrator->start(sys, 0.0, Vector::Zero(1), Vector::Zero(1), 0.1);
    CHECK_THROWS_AS(integrator->set_state(Vector::Zero(integrator->state().size() + 1)), std::invalid_argument);
  }
  CHECK_THROWS_AS(VariationalIntegrator(1.5), std::invalid_argument);
}

TEST_CASE("Gear 5-value with c0 = 19/90 (A&T's velocity-dependent variant) is also fourth order", "[integrators]") {
  // Not a registry row; recorded because Allen & Tildesley recommend it for velocity-dependent forces
  // (integrators/README.md).
  for (double zeta : {0.0, 0.2}) {
    GearIntegrator coarse(gear5_velocity_corrector()), fine(gear5_velocity_corrector());
    const double p = std::log2(test::oscillator_error(coarse, zeta, 120) / test::oscillator_error(fine, zeta, 240));
    INFO("zeta = " << zeta << ": observed order " << p);
    CHECK_THAT(p, WithinAbs(4.0, 0.2));
  }
}
