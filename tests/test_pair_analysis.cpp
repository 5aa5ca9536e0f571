// Exact integrator limits of one contact: the reduced 2-DOF system against the full 6-coordinate
// system, the undamped modal shortcut against the direct computation, and closed forms.
#include <catch2/catch.hpp>

#include <iomanip>

#include <cmath>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stability/amplification.hpp"

using namespace dtcrit;
using Catch::Matchers::WithinRel;

namespace {
const PlanarBody plate = make_rect(0.001, 0.00075, 0.003, 4e-4);
const PlanarBody disc = make_disc(5e-4, 0.003);
}  // namespace

TEST_CASE("undamped pair: the modal shortcut equals the amplification matrix of the 2-DOF system", "[pair-analysis]") {
  const ContactPointModel model(plate, disc, {8e7, 4e7, 0, 0});
  LinearSystem reduced = model.reduced_system();
  for (const auto& spec : default_integrator_specs()) {
    INFO(spec);
    const auto shortcut = integrator_limits(model, {spec}).front();
    const CriticalStep direct = critical_step(spec, reduced, model.omega_max());
    INFO(direct.method << ": " << std::setprecision(16) << direct.h_crit << " against " << shortcut.h_crit);
    REQUIRE(shortcut.stability == direct.stability);
    if (direct.stability == Stability::conditional) CHECK_THAT(shortcut.h_crit, WithinRel(direct.h_crit, 1e-9));
  }
}

TEST_CASE("damped pair: the reduced 2-DOF limit equals the full 6-coordinate system's", "[pair-analysis]") {
  const ContactPointModel model(plate, plate, {5e7, 5e7, 250, 125});
  LinearSystem reduced = model.reduced_system();
  LinearSystem full(Vector(model.full_mass()), Matrix(model.full_stiffness()), Matrix(model.full_damping()));
  for (const char* spec : {"velocity_verlet", "leapfrog", "central_difference", "rk4", "gear4"}) {
    INFO(spec);
    const CriticalStep a = critical_step(spec, reduced, model.omega_max());
    const CriticalStep b = critical_step(spec, full, model.omega_max());
    REQUIRE(a.stability == Stability::conditional);
    REQUIRE(b.stability == Stability::conditional);
    CHECK_THAT(a.h_crit, WithinRel(b.h_crit, 1e-8));
  }
}

TEST_CASE("damped collinear contact: Belytschko's limit for LAMMPS velocity Verlet, 2/omega for central difference",
          "[pair-analysis][closed-form]") {
  auto cn = GENERATE(50.0, 250.0, 1000.0);
  const ContactPointModel model(disc, disc, {8e7, 0.0, cn, 0.0});
  const double D = model.zhat()(1, 1);
  const double omega = std::sqrt(8e7 * D), zeta = cn * D / (2 * omega);
  const auto limits = integrator_limits(model, {"velocity_verlet", "leapfrog", "central_difference"});
  const double belytschko = 2 / omega * (std::sqrt(1 + zeta * zeta) - zeta);
  CHECK_THAT(limits[0].h_crit, WithinRel(belytschko, 1e-9));
  CHECK_THAT(limits[1].h_crit, WithinRel(belytschko, 1e-9));
  CHECK_THAT(limits[2].h_crit, WithinRel(2 / omega, 1e-9));
  // The paper's estimate is pi/4 of the velocity Verlet limit here.
  CHECK_THAT(burns2016(model), WithinRel(std::numbers::pi / 4 * limits[0].h_crit, 1e-9));
}

TEST_CASE("LAMMPS velocity Verlet's exact limit is 2 / max lambda(Q) of the paper's Q, damped and eccentric",
          "[pair-analysis][closed-form]") {
  // One-step eigenvalue -1 <=> 4 - 2h zhat C - h^2 zhat K singular <=> s = 2/h solves
  // det(s^2 - s zhat C - zhat K) = 0, the eigenvalue problem of Q with its +k, +c signs.
  auto e = GENERATE(0.0, 1e-4, 4e-4);
  auto c = GENERATE(0.0, 100.0, 500.0, 3000.0);
  auto kt_ratio = GENERATE(0.3, 1.0);
  const ContactPointModel model(make_rect(0.001, 0.00075, 0.003, e), disc, {8e7, kt_ratio * 8e7, c, 0.7 * c});
  const auto vv = integrator_limits(model, {"velocity_verlet"}).front();
  REQUIRE(vv.stability == Stability::conditional);
  CHECK_THAT(vv.h_crit, WithinRel(2.0 / model.paper_spectral_abscissa(), 1e-9));
  CHECK_THAT(burns2016(model), WithinRel(std::numbers::pi / 4 * vv.h_crit, 1e-9));
}

TEST_CASE("damped pair: the closed forms table and pair use equal the amplification matrix, row by row",
          "[pair-analysis][closed-form]") {
  // integrator_limits answers the rows whose dashpots read the backward difference by the first h
  // where 4M - 2hC - h^2 K is singular (half_step_damped_limit) and those that read v_{n+1} by
  // 2 / omega_max; critical_step scans and bisects the amplification matrix instead.
  auto e = GENERATE(0.0, 2e-4, 4e-4);
  auto c = GENERATE(20.0, 250.0, 3000.0);
  auto kt_ratio = GENERATE(0.05, 0.5, 1.0);
  const ContactPointModel model(make_rect(0.001, 0.00075, 0.003, e), plate, {8e7, kt_ratio * 8e7, c, 0.5 * c});
  LinearSystem reduced = model.reduced_system();
  int closed = 0;
  for (const auto& spec : default_integrator_specs()) {
    const auto dashpot = integrator_info(spec).dashpot_velocity;
    if (dashpot != DashpotVelocity::backward_difference && dashpot != DashpotVelocity::central_difference) continue;
    INFO(spec << " e = " << e << " c = " << c << " kt/kn = " << kt_ratio);
    ++closed;
    const auto fast = integrator_limits(model, {spec}).front();
    const CriticalStep scan = critical_step(spec, reduced, model.omega_max());
    REQUIRE(scan.stability == Stability::conditional);
    CHECK(fast.stability == Stability::conditional);
    CHECK_THAT(fast.h_crit, WithinRel(scan.h_crit, 1e-10));
  }
  CHECK(closed >= 8);
}
