// The Cholesky certificates of symmetric packings' limits (system/certificate.hpp): they hold just
// beyond the exact limit computed densely (independently of the Lanczos path) and fail just above
// it, and analyse_system turns a certified limit into h_safe = the lower end of its bracket, h_low,
// less 1e-6, on which the recommended step rests.
#include <catch2/catch.hpp>

#include <cmath>

#include <fmt/format.h>

#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/packing/packing_checks.hpp"
#include "dtcrit/system/certificate.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "packing_test_support.hpp"

using Catch::Matchers::WithinRel;
using namespace dtcrit;
using namespace dtcrit::packing;

TEST_CASE("certificates hold just beyond the dense exact limits and fail above them", "[packing][certificate]") {
  const GlobalSystem g = test::polydisperse_sc_box("gran/hooke/history 1e5 3e4 2e4 1e4 0.5 0");
  REQUIRE(g.symmetric());
  REQUIRE(g.damped());
  const double omega_max = std::sqrt(largest_eigen_dense(g, 1.0, 0.0));
  const double half_step = half_step_damped_limit_dense(g);

  const Certificate w = certify_omega_max(g, omega_max);
  CHECK(w.attempted);
  CHECK(w.holds);
  CHECK_THAT(w.step, WithinRel(1.0 / omega_max, 1e-6));
  CHECK(w.step < 1.0 / omega_max);
  // An eigensolver that missed the top of the spectrum by 1e-4 is caught.
  CHECK_FALSE(certify_omega_max(g, omega_max * (1.0 - 1e-4)).holds);

  const Certificate h = certify_half_step(g, half_step);
  CHECK(h.holds);
  CHECK(h.step < half_step);
  CHECK_THAT(h.step, WithinRel(half_step, 2e-6));
  CHECK_FALSE(certify_half_step(g, half_step * (1.0 + 1e-4)).holds);
}

TEST_CASE("analyse_system: certified limits give h_safe = h_low less 1e-6 and the recommended step",
          "[packing][certificate]") {
  const bool damped = GENERATE(false, true);
  // The default precision, and the CLI's (rtol 1e-6) by Lanczos: the certificate is made at the
  // bracket's lower end, so a loose precision does not make it fail.
  const double rtol = GENERATE(PackingAnalysisOptions{}.rtol, 1e-6);
  CAPTURE(damped, rtol);
  const GlobalSystem g =
      test::polydisperse_sc_box(damped ? "gran/hooke/history 1e5 3e4 2e4 1e4 0.5 0" : "gran/hooke/history 1e5 3e4 0 0 0.5 0");
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet", "central_difference", "rk4"};
  o.amplification_dofs = 0;  // rk4 damped: every eigenvalue of A (dense, exact), which gets no certificate
  o.rtol = rtol;
  o.eigen.tolerance = omega_tolerance(rtol);
  o.eigen.method = EigenMethod::lanczos;
  const PackingReport r = analyse_system("block", g, o);
  for (const auto& row : r.integrators) {
    CAPTURE(row.name, row.h_safe_method);
    REQUIRE(row.converged);
    if (damped && row.name == "rk4") {
      CHECK_FALSE(row.certified);
      continue;
    }
    CHECK(row.certified);
    CHECK(row.h_crit - row.h_low <= rtol * row.h_crit);
    CHECK(row.h_safe < row.h_low);
    CHECK_THAT(row.h_safe, WithinRel(row.h_low, 1.01e-6));
  }
  const auto rec = recommend_from(r.integrators, 0.8);
  REQUIRE(rec);
  CHECK_THAT(rec->recommended(), WithinRel(0.8 * r.integrators.front().h_low, 1.01e-6));

  o.certify_dofs = g.dofs() - 1;  // above the size limit: Gershgorin's h_safe, well below the limit
  const PackingReport big = analyse_system("block", g, o);
  CHECK_FALSE(big.integrators.front().certified);
  CHECK(big.integrators.front().h_safe < 0.9 * big.integrators.front().h_crit);
}

namespace {
// The 108-sphere periodic FCC crystal (648 dofs, above the dense size) with dashpots gamma_n = gamma,
// gamma_t = gamma / 2.
GlobalSystem damped_fcc_crystal(double gamma) {
  LatticeSpec s;
  s.n = 3;
  s.compression = 2e-3;
  const Packing p = make_lattice(s);
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair(fmt::format("gran/hooke/history 1e5 3e4 {} {} 0.5 0", gamma, gamma / 2));
  return GlobalSystem(round_assembly(p, find_contacts(p, laws)), true);
}
}  // namespace

TEST_CASE("RK4 above the dense size: an upper bound from A's largest eigenvalues and a proven safe step",
          "[packing][certificate][region]") {
  // Above 600 dofs the Runge-Kutta rows take the largest eigenvalues of the first-order system
  // (Arnoldi): an upper bound of the limit. Below it h_safe comes from the region that bounds every
  // eigenvalue (stability/eigenvalue_region.hpp), certified with omega_max's Cholesky certificate.
  // The reference is the exact limit from every eigenvalue (--eigensolver dense), which shares
  // neither the region nor Arnoldi. Before, the row was the scalar limit at the top mode's damping
  // ratio, labelled estimate: no step, no verdict.
  const double gamma = GENERATE(2e3, 2e5);  // light damping (the top modes set the limit), heavy
  CAPTURE(gamma);
  const GlobalSystem g = damped_fcc_crystal(gamma);
  REQUIRE(g.symmetric());
  REQUIRE(g.dofs() > 600);
  PackingAnalysisOptions o;
  o.integrators = {"rk4", "explicit_euler"};
  const PackingReport r = analyse_system("fcc", g, o);
  o.eigen.method = EigenMethod::dense;
  const PackingReport exact = analyse_system("fcc", g, o);
  const auto& row = r.integrators[0];
  const auto& ref = exact.integrators[0];
  CAPTURE(row.method, row.h_safe_method, ref.method);
  REQUIRE(ref.exact);
  REQUIRE_FALSE(ref.upper_bound);
  REQUIRE(ref.stability == Stability::conditional);
  CHECK(row.upper_bound);
  CHECK(row.certified);
  CHECK_THAT(row.h_safe_method, Catch::Matchers::Contains("certified"));
  CHECK(row.h_safe <= ref.h_crit);
  CHECK(ref.h_crit <= row.h_crit * (1.0 + 1e-9));
  // Light damping: the region hugs the imaginary axis, and the bracket is narrow.
  if (gamma == 2e3) CHECK(row.h_safe >= 0.97 * ref.h_crit);
  CAPTURE(row.h_safe / ref.h_crit, row.h_crit / ref.h_crit);
  // Explicit Euler: no region with undamped oscillators is stable, so no safe step. Lightly damped,
  // a computed mode is unstable at every step (exact); heavily, the row is an upper bound.
  const auto& euler = r.integrators[1];
  CAPTURE(euler.method);
  CHECK(std::isnan(euler.h_safe));
  CHECK(euler.stability == (gamma == 2e3 ? Stability::unstable : Stability::conditional));
  if (gamma == 2e5) {
    CHECK(euler.upper_bound);
    CHECK_THAT(euler.h_safe_method, Catch::Matchers::Contains("none: |R(iy)| > 1"));
  }

  // The recommended step rests on the proven step, and a script's timestep gets a verdict from it.
  const auto rec = recommend_from(r.integrators, 0.8);
  REQUIRE(rec);
  CHECK_THAT(rec->recommended(), WithinRel(0.8 * row.h_safe, 1e-15));
  CHECK_THAT(format_recommendation(*rec), Catch::Matchers::Contains("a proven safe step of rk4"));
  LammpsInput script;
  script.units = si_units();
  script.integrator = "rk4";
  const std::vector<std::pair<double, TimestepVerdict>> steps{
      {0.99 * row.h_safe, TimestepVerdict::safe},
      {0.5 * (row.h_safe + row.h_crit), TimestepVerdict::unknown},
      {1.01 * row.h_crit, TimestepVerdict::unsafe}};
  for (const auto& [dt, verdict] : steps) {
    script.timestep = dt;
    const TimestepCheck tc = check_timestep(script, r, 0.8, "zero histories", std::nullopt);
    CAPTURE(dt, tc.text, tc.json.dump());
    CHECK(tc.verdict == verdict);
  }
}

TEST_CASE("Runge-Kutta rows whose Arnoldi run does not converge: no limit, the proven safe step alone",
          "[packing][certificate][region]") {
  // The whole analysis with the Arnoldi runs of the first-order system cut to one restart each, so
  // that neither the pair nor the six of largest magnitude converge (648 dofs: above the dense size).
  // RK4 keeps the region's safe step, certified with omega_max, and no limit; explicit Euler gets no
  // number; no step is recommended from a limit that was not found. The reference is the exact limit
  // from every eigenvalue.
  const GlobalSystem g = damped_fcc_crystal(2e3);
  REQUIRE(g.dofs() > 600);
  PackingAnalysisOptions o;
  o.integrators = {"rk4", "explicit_euler"};
  o.eigen.method = EigenMethod::dense;
  const double limit = analyse_system("fcc", g, o).integrators[0].h_crit;
  REQUIRE(std::isfinite(limit));
  o.eigen.method = EigenOptions{}.method;
  o.first_order_max_restarts = 1;
  const PackingReport r = analyse_system("fcc", g, o);
  const auto& rk4 = r.integrators[0];
  const auto& euler = r.integrators[1];
  CAPTURE(rk4.method, rk4.h_safe_method, euler.method);
  CHECK_THAT(rk4.method, Catch::Matchers::Contains("did not converge"));
  CHECK(std::isnan(rk4.h_crit));
  CHECK(rk4.upper_bound);
  CHECK(rk4.certified);
  CHECK(rk4.h_safe <= limit);
  CHECK(rk4.h_safe >= 0.5 * limit);
  CAPTURE(rk4.h_safe / limit);
  CHECK_THAT(euler.method, Catch::Matchers::Contains("did not converge"));
  CHECK(std::isnan(euler.h_crit));
  CHECK(std::isnan(euler.h_safe));
  CHECK_FALSE(euler.computed);
  const auto rec = recommend_from(r.integrators, 0.8);
  REQUIRE(rec);
  CHECK_THAT(rec->recommended(), WithinRel(0.8 * rk4.h_safe, 1e-15));
}

TEST_CASE("Runge-Kutta rows whose first-order eigenvalues are not computed: the proven safe step alone",
          "[packing][certificate][region]") {
  // Above first_order_arnoldi_dofs, and on the distributed path at any size, explicit Euler and RK4
  // get no eigenvalue of the first-order system: RK4 keeps the region's proven safe step from the
  // Gershgorin bounds and no limit (no number labelled estimate); explicit Euler, whose region gives
  // no step, is not computed. The reference is the exact limit from every eigenvalue.
  const double gamma = GENERATE(2e3, 2e5);
  CAPTURE(gamma);
  const GlobalSystem g = damped_fcc_crystal(gamma);
  PackingAnalysisOptions o;
  o.integrators = {"rk4", "explicit_euler"};
  o.eigen.method = EigenMethod::dense;
  const PackingReport exact = analyse_system("fcc", g, o);
  REQUIRE(exact.integrators[0].exact);
  REQUIRE_FALSE(exact.integrators[0].upper_bound);
  const double limit = exact.integrators[0].h_crit;
  o.eigen.method = EigenOptions{}.method;  // (dense would solve A at any size)

  SpectrumFacts f;
  f.damped = true;
  f.omega_max = exact.omega_max;
  f.gershgorin_k = g.gershgorin_bound(1.0, 0.0);
  f.gershgorin_c = g.gershgorin_bound(0.0, 1.0);
  f.semidefinite = g.stiffness_semidefinite() && g.damping_semidefinite();
  REQUIRE(f.semidefinite);
  // The distributed path (whole_system false) at this size, and the serial path's facts above the
  // Arnoldi size (dofs stand only for the size the path decides by).
  for (const auto& [whole, dofs] : {std::pair{false, g.dofs()}, std::pair{true, first_order_arnoldi_dofs + 1}}) {
    f.whole_system = whole;
    f.dofs = dofs;
    CAPTURE(whole, dofs);
    const auto rk4 = limit_from_spectrum("rk4", f, o);
    REQUIRE(rk4);
    CAPTURE(rk4->method, rk4->h_safe_method);
    CHECK(rk4->exact);
    CHECK(rk4->upper_bound);
    CHECK(std::isnan(rk4->h_crit));
    CHECK(rk4->stability == Stability::conditional);
    CHECK(rk4->h_safe <= limit);
    CHECK(rk4->h_safe >= 0.5 * limit);  // Gershgorin's bounds: the FCC rows sum to about 1.3 omega_max^2
    CAPTURE(rk4->h_safe / limit);
    const auto euler = limit_from_spectrum("explicit_euler", f, o);
    REQUIRE(euler);
    CHECK_FALSE(euler->computed);
    CHECK(std::isnan(euler->h_crit));
    CHECK(std::isnan(euler->h_safe));

    // The step rests on the proven step; a timestep gets SAFE at or below it, UNKNOWN above, and no
    // confirmation run is made of a row without a limit.
    PackingReport r = exact;
    r.integrators = {*rk4, *euler};
    const auto rec = recommend_from(r.integrators, 0.8);
    REQUIRE(rec);
    CHECK_THAT(rec->recommended(), WithinRel(0.8 * rk4->h_safe, 1e-15));
    CHECK_THAT(format_recommendation(*rec), Catch::Matchers::Contains("its limit lies above that step"));
    LammpsInput script;
    script.units = si_units();
    for (const auto& [integrator, dt, verdict] :
         {std::tuple{"rk4", rk4->h_safe, TimestepVerdict::safe}, std::tuple{"rk4", 1.01 * rk4->h_safe, TimestepVerdict::unknown},
          std::tuple{"rk4", 10.0 * limit, TimestepVerdict::unknown},
          std::tuple{"explicit_euler", 1e-12, TimestepVerdict::unknown}}) {
      script.integrator = integrator;
      script.timestep = dt;
      const TimestepCheck tc = check_timestep(script, r, 0.8, "zero histories", std::nullopt);
      CAPTURE(integrator, dt, tc.text, tc.json.dump());
      CHECK(tc.verdict == verdict);
    }
    const auto euler_rec = recommend_from(std::vector<PackingIntegratorLimit>{*euler}, 0.8);
    CHECK(std::isnan(euler_rec->recommended()));
    CHECK_THAT(format_recommendation(*euler_rec), Catch::Matchers::Contains("was not computed here"));
    int runs = 0;
    confirm_limits(r.integrators, ConfirmationModel::fixed_arm_linear,
                   0.0, [&](const PackingIntegratorLimit&, double) { ++runs; return ConfirmationRun{}; }, {});
    CHECK(runs == 0);
  }
}
