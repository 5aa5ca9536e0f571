// sweep/exchange.hpp: the per-integrator results of a real sweep survive to_bytes() and back exactly
// (the report written from them is the same, byte for byte, and re-encoding gives the same bytes), and
// the values JSON cannot hold (NaN, infinities, -0) come back as they went.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "dtcrit/sweep/exchange.hpp"
#include "dtcrit/sweep/report.hpp"
#include "dtcrit/sweep/sweep.hpp"

using namespace dtcrit;
using namespace dtcrit::sweep;

TEST_CASE("integrator sweeps round-trip through to_bytes exactly", "[sweep][exchange]") {
  const auto c = make_case("head-on", CaseOptions{KeyValues("", "--set"), "traditional", true});
  SweepOptions o;
  o.integrators = {"velocity_verlet", "rk4", "newmark_average"};  // explicit, multi-stage, implicit
  o.levels = 3;
  o.stability = 1;
  o.stability_steps = 2000;
  SweepResult r = run_sweep(*c, "traditional", o);
  REQUIRE(r.integrators.size() == 3);
  REQUIRE(!r.integrators[0].points.empty());
  REQUIRE(!r.integrators[0].order.empty());
  REQUIRE(!r.integrators[0].points[0].phase_errors.empty());

  const std::string bytes = to_bytes(r.integrators);
  SweepResult back = r;
  back.integrators = integrator_sweeps_from_bytes(bytes);
  REQUIRE(back.integrators.size() == 3);
  CHECK(to_json(back).dump() == to_json(r).dump());
  CHECK(to_bytes(back.integrators) == bytes);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto &a = r.integrators[i], &b = back.integrators[i];
    CHECK(a.spec == b.spec);
    CHECK(a.points.size() == b.points.size());
    CHECK(a.points.back().error == b.points.back().error);
    CHECK(a.points.back().phase_errors == b.points.back().phase_errors);
    CHECK(a.predicted.stability == b.predicted.stability);
    CHECK(a.empirical.status == b.empirical.status);
    CHECK(a.empirical.lo == b.empirical.lo);
    CHECK(a.empirical.hi == b.empirical.hi);
  }
}

TEST_CASE("integrator sweeps keep NaN, infinities and signed zeros", "[sweep][exchange]") {
  IntegratorSweep s;
  s.spec = "rk4";
  s.predicted.h = std::numeric_limits<double>::quiet_NaN();
  s.empirical.status = sweep::EmpiricalStatus::none_found;
  s.empirical.h = std::numeric_limits<double>::infinity();
  s.empirical.smallest_unconverged_h = -std::numeric_limits<double>::infinity();
  s.velocity_offset = -0.0;
  s.accuracy.h = 1.0 / 3.0;
  SweepPoint p;
  p.error["position"] = std::numeric_limits<double>::quiet_NaN();
  p.phase_errors["position"] = {0.1, std::nextafter(0.1, 1.0)};
  s.points.push_back(p);
  const auto back = integrator_sweeps_from_bytes(to_bytes({s})).at(0);
  CHECK(std::isnan(back.predicted.h));
  CHECK(!back.predicted.stability.has_value());
  CHECK(back.empirical.h == std::numeric_limits<double>::infinity());
  CHECK(back.empirical.smallest_unconverged_h == -std::numeric_limits<double>::infinity());
  CHECK(std::signbit(back.velocity_offset));
  CHECK(back.accuracy.h == 1.0 / 3.0);
  CHECK(std::isnan(back.points.at(0).error.at("position")));
  CHECK(back.points.at(0).phase_errors.at("position") == std::vector<double>{0.1, std::nextafter(0.1, 1.0)});

  CHECK_THROWS_WITH(integrator_sweeps_from_bytes("not cbor"), Catch::Contains("integrator sweeps") && Catch::Contains("8 bytes"));
}
