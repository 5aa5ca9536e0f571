// The Cholesky certificates of symmetric packings' limits (system/certificate.hpp): they hold just
// beyond the exact limit computed densely (independently of the Lanczos path) and fail just above
// it, and analyse_system turns a certified limit into h_safe = the lower end of its bracket, h_low,
// less 1e-6, on which the recommended step rests.
#include <catch2/catch.hpp>

#include <cmath>

#include "dtcrit/io/step_recommendation.hpp"
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
  o.amplification_dofs = 0;  // rk4 damped: the labelled estimate, which gets no certificate
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
