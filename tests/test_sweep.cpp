// Tests of the sweep engine and cases (lib/dtcrit/sweep): the order fit on synthetic data, and the
// claims of issue 5 that run in seconds. Longer sweeps carry [slow]; the full tables are in
// results/sweeps/.
#include <cmath>
#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/sweep/order_fit.hpp"
#include "dtcrit/sweep/report.hpp"
#include "dtcrit/sweep/sweep.hpp"

using namespace dtcrit;
using namespace dtcrit::sweep;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// The tests' sweep: short stability runs, no accuracy-limited step.
SweepOptions test_options(const std::vector<std::string>& specs, int levels, bool stability, int phases = 0) {
  SweepOptions o;
  o.integrators = specs;
  o.levels = levels;
  o.phases = phases;
  o.stability = stability ? 1 : 0;
  o.accuracy = false;
  o.stability_steps = 5000;
  return o;
}

SweepResult run(const std::string& case_name, const std::vector<std::string>& specs, const std::string& set = "",
                  const std::string& tangential = "traditional", int levels = 5, bool stability = false,
                  int phases = 0) {
  const auto c = make_case(case_name, CaseOptions{KeyValues(set, "--set"), tangential, true});
  return run_sweep(*c, tangential, test_options(specs, levels, stability, phases));
}

double order(const SweepResult& r, std::size_t i, const std::string& q) { return r.integrators.at(i).order.at(q).order; }

}  // namespace

TEST_CASE("fit_order finds the asymptotic slope and leaves out round-off and pre-asymptotic points", "[sweep]") {
  std::vector<double> h, e;
  for (int k = 0; k < 8; ++k) {
    h.push_back(std::pow(0.5, k));
    e.push_back(3.0 * std::pow(h.back(), 2));
  }
  e[0] = 10.0;     // pre-asymptotic
  e[7] = 1e-15;    // round-off
  const OrderFit f = fit_order(h, e);
  CHECK_THAT(f.order, WithinAbs(2.0, 1e-12));
  CHECK(f.first == 1);
  CHECK(f.last == 6);
  CHECK(f.slopes.size() == 7);
  CHECK(std::isnan(f.slopes[6]));
  CHECK_THAT(f.h_hi, WithinRel(0.5, 1e-15));
  // Too few usable points: NaN.
  CHECK(std::isnan(fit_order({1.0, 0.5}, {1.0, 0.0}).order));
}

// The consistent history everywhere it exists; rolling-resistance carries LAMMPS' rolling history,
// which only the traditional mode has (the case rejects consistent by name).
namespace {
std::string history_mode_of(const std::string& case_name) {
  return case_name == "rolling-resistance" ? "traditional" : "consistent";
}
}  // namespace

TEST_CASE("sweep cases: unknown names and keys are rejected with the valid ones listed", "[sweep]") {
  CHECK_THROWS_WITH(make_case("no-such-case", CaseOptions{}), Catch::Contains("bonded-pair") && Catch::Contains("box-settle"));
  CHECK_THROWS_WITH(make_case("head-on", CaseOptions{KeyValues("kn=1e5,stiffnes=2", "--set"), "traditional", false}),
                    Catch::Contains("stiffnes") && Catch::Contains("restitution"));
  CHECK_THROWS_WITH(make_case("bonded-pair", CaseOptions{KeyValues("", "--set"), "sideways", false}),
                    Catch::Contains("traditional"));
  for (const auto& name : case_names()) {
    const auto c = make_case(name, CaseOptions{KeyValues("", "--set"), history_mode_of(name), true});
    CHECK(!c->parameters().empty());
    CHECK(c->t_end() > c->h0());
  }
}

TEST_CASE("bonded-pair undamped: velocity Verlet 2, RK4 4, variational alpha = 0 first order in velocity, 1/2 second",
          "[sweep]") {
  const auto r = run("bonded-pair", {"velocity_verlet", "rk4", "variational_1", "variational_2", "leapfrog"});
  CHECK_THAT(order(r, 0, "position"), WithinAbs(2.0, 0.1));
  CHECK_THAT(order(r, 0, "velocity"), WithinAbs(2.0, 0.1));
  CHECK_THAT(order(r, 0, "energy"), WithinAbs(2.0, 0.1));
  CHECK_THAT(order(r, 1, "position"), WithinAbs(4.0, 0.15));
  CHECK_THAT(order(r, 1, "velocity"), WithinAbs(4.0, 0.15));
  CHECK_THAT(order(r, 2, "velocity"), WithinAbs(1.0, 0.1));
  CHECK_THAT(order(r, 3, "velocity"), WithinAbs(2.0, 0.1));
  // Leapfrog compared at its own (half-step) velocity level is second order.
  CHECK(r.integrators[4].velocity_offset == -0.5);
  CHECK_THAT(order(r, 4, "velocity"), WithinAbs(2.0, 0.1));
}

TEST_CASE("bonded-pair damped: dashpot at v_{n+1/2} is first order, implicit damping second", "[sweep]") {
  const auto r = run("bonded-pair", {"velocity_verlet", "velocity_verlet_implicit_damping", "central_difference"},
                       "gamma_n=100");
  CHECK_THAT(order(r, 0, "velocity"), WithinAbs(1.0, 0.15));
  CHECK_THAT(order(r, 0, "position"), WithinAbs(1.0, 0.15));
  CHECK_THAT(order(r, 1, "velocity"), WithinAbs(2.0, 0.1));
  CHECK_THAT(order(r, 2, "position"), WithinAbs(2.0, 0.1));
}

TEST_CASE("bonded-pair: empirical and predicted stability limits agree within 2e-3 for conditionally stable schemes",
          "[sweep]") {
  const std::vector<std::string> specs{"symplectic_euler", "velocity_verlet", "velocity_verlet_implicit_damping",
                                       "leapfrog",         "central_difference", "position_verlet",
                                       "rk4",              "gear4",              "newmark_linear",
                                       "variational_1"};
  for (const char* set : {"", "gamma_n=100"}) {
    const auto r = run("bonded-pair", specs, set, "traditional", 2, true);
    for (const auto& s : r.integrators) {
      INFO(s.spec << " " << set << ": predicted " << s.predicted.h << ", empirical " << s.empirical.h);
      REQUIRE(s.predicted.conditional());
      REQUIRE(s.empirical.status == sweep::EmpiricalStatus::found);
      CHECK_THAT(s.empirical.h, WithinRel(s.predicted.h, 2e-3));
    }
  }
}

TEST_CASE("head-on: velocity Verlet second order undamped, with damping the restitution error is first order "
          "(dashpot at v_{n+1/2}) or second (implicit damping), and RK4 loses its order",
          "[sweep]") {
  // Contact onset inside a step: 8 onset phases make the slopes regular.
  const auto u = run("head-on", {"velocity_verlet"}, "restitution=1", "traditional", 5, false, 8);
  CHECK_THAT(order(u, 0, "position"), WithinAbs(2.0, 0.15));
  CHECK_THAT(order(u, 0, "energy"), WithinAbs(2.0, 0.2));
  const auto d = run("head-on", {"velocity_verlet", "velocity_verlet_implicit_damping", "rk4"}, "", "traditional", 6);
  CHECK_THAT(order(d, 0, "restitution"), WithinAbs(1.0, 0.3));
  CHECK_THAT(order(d, 1, "restitution"), WithinAbs(2.0, 0.3));
  CHECK(order(d, 2, "position") < 2.5);  // RK4 is fourth order only for smooth forces
  // Converged restitution: the analytic value.
  CHECK_THAT(d.integrators[1].points.back().outcome.at("restitution"), WithinAbs(0.7, 1e-4));
}

TEST_CASE("spinning-disk: traditional tangential update first order, consistent second (central difference)", "[sweep]") {
  for (const char* spec : {"central_difference", "newmark_average"}) {
    const auto t = run("spinning-disk", {spec}, "", "traditional");
    const auto c = run("spinning-disk", {spec}, "", "consistent");
    INFO(spec);
    CHECK(order(t, 0, "position") < 1.2);
    CHECK(order(t, 0, "position") > 0.7);
    CHECK_THAT(order(c, 0, "position"), WithinAbs(2.0, 0.1));
  }
  // Under velocity Verlet the traditional increment h v_{n+1/2} equals the position increment.
  const auto vv = run("spinning-disk", {"velocity_verlet"}, "", "traditional");
  CHECK_THAT(order(vv, 0, "position"), WithinAbs(2.0, 0.1));
}

TEST_CASE("sweep reports: JSON keys, tidy CSV rows, text table", "[sweep]") {
  const auto c = make_case("bonded-pair", CaseOptions{KeyValues("", "--set"), "traditional", true});
  SweepOptions o;
  o.integrators = {"velocity_verlet"};
  o.levels = 3;
  o.stability_steps = 2000;
  const auto r = run_sweep(*c, "traditional", o);
  const auto j = to_json(r);
  const auto& i = j.at("integrators").at(0);
  CHECK(i.at("order").contains("position"));
  CHECK(i.at("order").contains("velocity"));
  CHECK(i.at("order").contains("energy"));
  CHECK(i.contains("h_crit_empirical"));
  CHECK(i.contains("h_crit_predicted"));
  CHECK(i.at("points").size() == 3);
  const std::string csv = to_csv(r);
  CHECK(csv.rfind("case,tangential,integrator,level,h,h_over_scale,phase,kind,quantity,value\n", 0) == 0);
  CHECK(csv.find("h_crit_empirical") != std::string::npos);
  CHECK(to_text(r).find("velocity_verlet") != std::string::npos);
  const PlotSpec p = error_plot(r, "position");
  CHECK(p.logx);
  // The integrator, its predicted limit where it lies inside the plotted steps, the tolerance (position
  // is bonded-pair's accuracy quantity) and slopes 1, 2, 4.
  const bool inside = r.integrators[0].predicted.h <= r.integrators[0].points.front().h;
  CHECK(p.series.size() == (inside ? 6u : 5u));
  CHECK(p.series[0].label == "velocity_verlet");
  CHECK(p.series[inside ? 2 : 1].label == "tolerance 0.01 (h_accuracy)");
  CHECK(p.title.find("tangential") == std::string::npos);  // bonded-pair has no tangential spring
}

TEST_CASE("sweep reports of a collision case: outcome spread over phases, h_blowup is not a limit, plot marks",
          "[sweep]") {
  const auto c = make_case("head-on", CaseOptions{KeyValues("", "--set"), "traditional", true});
  SweepOptions o;
  o.integrators = {"velocity_verlet", "explicit_euler"};
  o.levels = 3;
  o.phases = 4;
  o.stability = 1;
  o.stability_steps = 2000;
  const auto r = run_sweep(*c, "traditional", o);
  REQUIRE(r.transient_contacts);
  const std::string text = to_text(r);
  CHECK(text.find("h_blowup") != std::string::npos);
  CHECK(text.find("not a stability limit") != std::string::npos);
  CHECK(text.find("h_crit emp") == std::string::npos);
  CHECK(text.find("[smallest, largest single phase]") != std::string::npos);
  const auto j = to_json(r);
  CHECK(j["integrators"][0]["h_crit_empirical_is_stability_limit"] == false);
  // The range is the phases' own extremes, and brackets their mean.
  const auto& pt = r.integrators[0].points[0];
  const auto& phases = pt.phase_outcomes.at("restitution");
  REQUIRE(phases.size() == 4);
  const auto range = j["integrators"][0]["points"][0]["outcome_range"]["restitution"];
  CHECK(range[0].get<double>() == *std::min_element(phases.begin(), phases.end()));
  CHECK(range[1].get<double>() == *std::max_element(phases.begin(), phases.end()));
  CHECK(range[0].get<double>() < range[1].get<double>());  // at h = t_c/8 the phases differ
  const std::string row = fmt::format("{} [{:.4g}, {:.4g}]", format_number(pt.outcome.at("restitution")),
                                      range[0].get<double>(), range[1].get<double>());
  CHECK(text.find(row) != std::string::npos);
  // The restitution plot: distinct styles, the tolerance and explicit Euler's limit (inside the steps).
  const PlotSpec p = error_plot(r, "restitution");
  CHECK(p.series[0].rgb != p.series[1].rgb);
  bool tolerance = false, limit = false;
  for (const auto& s : p.series) {
    tolerance = tolerance || s.label.rfind("tolerance 0.01", 0) == 0;
    limit = limit || s.label == "predicted limit of explicit_euler";
  }
  CHECK(tolerance);
  CHECK(limit);
}

TEST_CASE("distinct_style: every registry row gets its own colour x dash pair", "[sweep]") {
  const std::size_t n = integrator_registry().size();
  REQUIRE(n >= 21);
  std::set<std::pair<std::string, int>> seen;
  for (std::size_t i = 0; i < n; ++i) {
    PlotSeries s;
    distinct_style(s, i);
    seen.insert({s.rgb, s.dash});
  }
  CHECK(seen.size() == n);
}

TEST_CASE("every sweep case runs in quick mode", "[sweep]") {
  for (const auto& name : case_names()) {
    const auto c = make_case(name, CaseOptions{KeyValues("", "--set"), history_mode_of(name), true});
    SweepOptions o;
    o.integrators = {"velocity_verlet", "rk4"};
    o.levels = 2;
    o.stability = 0;
    const auto r = run_sweep(*c, history_mode_of(name), o);
    INFO(name);
    CHECK(r.integrators.size() == 2);
    for (const auto& s : r.integrators)
      for (const auto& p : s.points) CHECK_FALSE(p.blew_up);
  }
}

TEST_CASE("bonded-pair: the stability search starts at the prediction and ends on a valid bracket in a few runs",
          "[sweep]") {
  // The search tests a bracket of width 0.9 tol around the predicted limit, then widens it by x4
  // per run: the old search (halving / doubling from the prediction, then bisection from a factor
  // of 2 down to 1e-4) took at least 15 runs per integrator.
  const std::vector<std::string> specs{"symplectic_euler", "velocity_verlet", "velocity_verlet_implicit_damping",
                                       "rk4", "gear4", "newmark_linear"};
  for (const char* set : {"", "gamma_n=100"}) {
    const auto c = make_case("bonded-pair", CaseOptions{KeyValues(set, "--set"), "traditional", true});
    const SweepOptions o = test_options(specs, 2, true);
    const auto r = run_sweep(*c, "traditional", o);
    for (const auto& s : r.integrators) {
      const auto& e = s.empirical;
      INFO(s.spec << " " << set << ": bracket [" << e.lo << ", " << e.hi << "], predicted " << s.predicted.h
                  << ", runs " << e.runs);
      REQUIRE(e.status == EmpiricalStatus::found);
      CHECK(e.hi - e.lo <= o.stability_rel_tol * e.lo);
      CHECK(e.lo < e.hi);
      CHECK(e.h == 0.5 * (e.lo + e.hi));
      // The verdicts the bracket claims, checked by runs of their own.
      CHECK(stability_run(*c, s.spec, e.hi, o).blew_up);
      CHECK_FALSE(stability_run(*c, s.spec, e.lo, o).blew_up);
      CHECK(e.runs >= 2);
      CHECK(e.runs <= 8);
      CHECK(e.steps_taken > 0);
      CHECK(e.steps_taken <= e.runs * e.steps);
    }
  }
}

TEST_CASE("bonded-pair: an unconditionally stable prediction is checked at the top of the range in one run",
          "[sweep]") {
  const auto c = make_case("bonded-pair", CaseOptions{KeyValues("", "--set"), "traditional", true});
  const SweepOptions o = test_options({"hht", "gs4_u0"}, 2, true);
  const auto r = run_sweep(*c, "traditional", o);
  for (const auto& s : r.integrators) {
    INFO(s.spec);
    REQUIRE(s.predicted.stability == Stability::unconditional);
    CHECK(s.empirical.status == sweep::EmpiricalStatus::none_found);
    CHECK(s.empirical.runs == 1);
    // The range of the doubling search: stable at 64 x 2/omega_max, the bracket's hi untested.
    CHECK(s.empirical.lo == 64.0 * (2.0 / r.omega_max));
    CHECK(s.empirical.hi == 2.0 * s.empirical.lo);
    CHECK_FALSE(stability_run(*c, s.spec, s.empirical.lo, o).blew_up);
  }
}

TEST_CASE("head-on (collisions only): the stability search does not start from the prediction", "[sweep]") {
  // The blow-up step of a collision case is not the linear limit (4.3 t_c against 0.57 t_c for
  // velocity Verlet): halving / doubling from the prediction, then bisection, as before.
  REQUIRE_FALSE(make_case("head-on", CaseOptions{})->linear_stability());
  REQUIRE(make_case("bonded-pair", CaseOptions{})->linear_stability());
  const auto c = make_case("head-on", CaseOptions{KeyValues("", "--set"), "traditional", true});
  const SweepOptions o = test_options({"velocity_verlet", "hht"}, 2, true);
  const auto r = run_sweep(*c, "traditional", o);
  const auto& vv = r.integrators[0].empirical;
  REQUIRE(vv.status == EmpiricalStatus::found);
  CHECK(vv.hi - vv.lo <= o.stability_rel_tol * vv.lo);
  CHECK(vv.runs >= 15);  // at least one doubling and 14 bisections from a factor of 2 to 1e-4
  CHECK(stability_run(*c, "velocity_verlet", vv.hi, o).blew_up);
  CHECK_FALSE(stability_run(*c, "velocity_verlet", vv.lo, o).blew_up);
  const auto& hht = r.integrators[1].empirical;
  CHECK(hht.status == EmpiricalStatus::none_found);
  CHECK(hht.runs == 7);  // 2/omega_max x 1, 2, 4, ..., 64
}

TEST_CASE("sweep options: a bad stability tolerance is named with its value", "[sweep]") {
  const auto c = make_case("bonded-pair", CaseOptions{KeyValues("", "--set"), "traditional", true});
  SweepOptions o;
  o.integrators = {"velocity_verlet"};
  o.stability_rel_tol = 0.0;
  CHECK_THROWS_WITH(run_sweep(*c, "traditional", o), Catch::Contains("stability_rel_tol = 0"));
}

namespace {

// The JSON of a sweep without its wall times, which vary from run to run.
nlohmann::json without_timing(const SweepResult& r) {
  auto j = to_json(r);
  j.erase("reference_seconds");
  for (auto& i : j["integrators"]) {
    i.erase("seconds");
    i.erase("seconds_by_part");
  }
  return j;
}

}  // namespace

TEST_CASE("sweep on several threads: the same result as on one, field by field, and a serial progress count",
          "[sweep]") {
  // bonded-pair: analytic, stability search from the prediction; head-on: outcomes, accuracy
  // bisection; oblique: fine reference runs (one per phase, made on the threads too).
  for (const char* name : {"bonded-pair", "head-on", "oblique"}) {
    const auto c = make_case(name, CaseOptions{KeyValues("", "--set"), "traditional", true});
    SweepOptions o;
    o.integrators = {"velocity_verlet", "rk4", "newmark_linear", "central_difference", "hht", "leapfrog"};
    o.levels = 3;
    o.stability = 1;
    o.stability_steps = 2000;
    o.threads = 1;
    const auto serial = run_sweep(*c, "traditional", o);
    std::mutex m;
    std::vector<std::size_t> done;
    std::size_t last_total = 0;
    o.threads = 3;
    o.progress = [&](std::size_t d, std::size_t total) {
      std::lock_guard lock(m);
      done.push_back(d);
      last_total = total;
    };
    const auto parallel = run_sweep(*c, "traditional", o);
    INFO(name);
    CHECK(without_timing(parallel) == without_timing(serial));
    REQUIRE(parallel.integrators.size() == o.integrators.size());
    for (std::size_t i = 0; i < o.integrators.size(); ++i) CHECK(parallel.integrators[i].spec == o.integrators[i]);
    // One call per run, counted without gaps or repeats, ending at the plan.
    REQUIRE_FALSE(done.empty());
    for (std::size_t k = 0; k < done.size(); ++k) CHECK(done[k] == k + 1);
    CHECK(last_total == done.back());
    if (std::string(name) == "oblique") CHECK(parallel.reference_seconds > 0.0);
    if (std::string(name) == "bonded-pair") CHECK(parallel.reference_seconds == 0.0);  // analytic, no outcomes
  }
}

TEST_CASE("sweep on several threads: a failure inside the runs reaches the caller as on one thread", "[sweep]") {
  const auto c = make_case("bonded-pair", CaseOptions{KeyValues("", "--set"), "traditional", true});
  SweepOptions o;
  o.integrators = {"velocity_verlet", "rk4", "leapfrog"};
  o.levels = 2;
  o.stability = 0;
  o.accuracy_quantity = "restitution";  // bonded-pair has no collision: fails in every integrator's task
  std::string serial, parallel;
  try {
    run_sweep(*c, "traditional", o);
  } catch (const std::exception& e) {
    serial = e.what();
  }
  o.threads = 3;
  try {
    run_sweep(*c, "traditional", o);
  } catch (const std::exception& e) {
    parallel = e.what();
  }
  CHECK_THAT(serial, Catch::Contains("accuracy quantity 'restitution'"));
  CHECK(parallel == serial);
  // A bad spec fails before any run, naming itself; a bad thread count names its value.
  o.integrators = {"velocity_verlet", "hht:alpha=7"};
  CHECK_THROWS_WITH(run_sweep(*c, "traditional", o), Catch::Contains("alpha"));
  o.threads = -1;
  CHECK_THROWS_WITH(run_sweep(*c, "traditional", o), Catch::Contains("threads = -1"));
}
