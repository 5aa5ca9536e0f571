// dtcrit lammps-check without LAMMPS: the errors that stop it before or around the LAMMPS run (the
// live confirmation by LAMMPS is the CTest `lammps_check_live`, tests/data/lammps/lammps_check.sh).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "cli_test_support.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/packing/lammps_probe.hpp"

namespace fs = std::filesystem;

namespace {
const std::string box = "lammps-check --lattice sc --n 2 --periodic none --box-walls --compression 1e-3 --kn 1e5 --kt 5e4";
}

TEST_CASE("lammps-check: a missing LAMMPS is a named error, before any computation", "[lammps_check][cli]") {
  const auto r = run_cli(box + " --lmp /nonexistent/lmp");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("--lmp '/nonexistent/lmp': LAMMPS not found"));
  const auto path = run_cli("lammps-check --lammps-input " DTCRIT_SOURCE_DIR "/tests/data/lammps/in.box_hooke --lmp no-such-lmp-dtcrit");
  CHECK(path.status != 0);
  CHECK_THAT(path.out, Catch::Matchers::Contains("--lmp 'no-such-lmp-dtcrit': LAMMPS not found on PATH"));
}

TEST_CASE("lammps-check: bad options name the option and the value", "[lammps_check][cli]") {
  const auto steps = run_cli(box + " --steps 0");
  CHECK(steps.status != 0);
  CHECK_THAT(steps.out, Catch::Matchers::Contains("--steps 0 must be at least 1"));
  const auto pert = run_cli(box + " --perturbation -1");
  CHECK(pert.status != 0);
  CHECK_THAT(pert.out, Catch::Matchers::Contains("--perturbation -1 must be a positive number"));
  const auto hist = run_cli(box + " --lammps-contacts " DTCRIT_SOURCE_DIR "/tests/data/lammps/contacts_hertz.dump");
  CHECK(hist.status != 0);
  CHECK_THAT(hist.out, Catch::Matchers::Contains("--lammps-contacts does not apply"));
  const auto rot = run_cli(box + " --no-rotation");
  CHECK(rot.status != 0);
  CHECK_THAT(rot.out, Catch::Matchers::Contains("--no-rotation does not apply"));
  const auto law = run_cli("lammps-check --lattice sc --n 2 --periodic none --box-walls --compression 1e-3 "
                           "--hertz-mindlin E=7e10,nu=0.3,e=0.5,mu=0.5 --lmp /bin/true");
  CHECK(law.status != 0);
  CHECK_THAT(law.out, Catch::Matchers::Contains("LAMMPS 29 Sep 2021 does not have"));
  const auto script = run_cli("lammps-check --lammps-input " DTCRIT_SOURCE_DIR "/tests/data/lammps/in.box_hooke --kn 1e5");
  CHECK(script.status != 0);
  CHECK_THAT(script.out, Catch::Matchers::Contains("--kn conflicts with --lammps-input"));
  const fs::path full = fs::temp_directory_path() / "dtcrit-test-keep-probe-full";
  fs::create_directories(full);
  { std::ofstream(full / "something") << "x"; }
  const auto keep = run_cli(box + " --keep-probe " + full.string());
  CHECK(keep.status != 0);
  CHECK_THAT(keep.out, Catch::Matchers::Contains("exists and is not an empty folder"));
  fs::remove_all(full);
}

TEST_CASE("lammps-check: a LAMMPS that fails is reported with its exit status, and no probe file is left",
          "[lammps_check][cli]") {
  const fs::path tmp = fs::temp_directory_path() / "dtcrit-test-lammps-check-tmp";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  setenv("TMPDIR", tmp.c_str(), 1);  // the command's temporary probe folder goes here
  const auto r = run_cli(box + " --lmp /bin/false");
  if (old) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("LAMMPS failed (exit status 1) on the probe at 0.5 h_crit"));
  CHECK(fs::is_empty(tmp));  // the temporary probe folder was removed
  fs::remove_all(tmp);
}

#include "dtcrit/contact/law.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/packing/lammps_probe.hpp"

TEST_CASE("lammps-check: the probe repeats the script's law, wall and gravity lines", "[lammps_check]") {
  const auto in = dtcrit::packing::read_lammps_input(DTCRIT_SOURCE_DIR "/tests/data/lammps/in.hertz");
  CHECK(in.law_commands == std::vector<std::string>{
                               "pair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1", "pair_coeff * *",
                               "fix wall all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 zplane 0.0 NULL"});
  CHECK(in.load_commands == std::vector<std::string>{"fix grav all gravity 9.81 vector 0 0 -1"});
}

TEST_CASE("lammps-check: the probe writes a tsuji wall's restitution for its own initialisations",
          "[lammps_check]") {
  // LAMMPS converts a wall's tsuji restitution at every initialisation (tests/test_lammps_input.cpp,
  // "[walls]"): a probe that settles, writes its state and runs initialises 3 times, so the drum's
  // walls (e = 0.1, converted twice by the run analysed) are written with the e that three
  // conversions take to that coefficient.
  using namespace dtcrit;
  const double analysed = contact::tsuji_polynomial(contact::tsuji_polynomial(0.1));
  const double e = packing::tsuji_restitution_for(analysed, 3);
  CHECK(e >= 0.0);
  CHECK(e <= 1.0);
  CHECK_THAT(contact::tsuji_polynomial(contact::tsuji_polynomial(contact::tsuji_polynomial(e))),
             Catch::Matchers::WithinRel(analysed, 1e-12));
  CHECK(packing::tsuji_restitution_for(contact::tsuji_coefficient(0.3), 1) == Approx(0.3).epsilon(1e-13));
  CHECK_THROWS_WITH(packing::tsuji_restitution_for(2.0, 1), Catch::Matchers::Contains("no tsuji restitution in [0, 1]"));
  CHECK(packing::probe_initialisations("timestep 1\nrun 10\nreset_timestep 0\nwrite_data a.data nocoeff\n"
                                       "run 5\n") == 3);
  const std::string wall = "fix 3 all wall/gran/region granular hertz/material 1e5 0.1 0.3 tangential mindlin NULL "
                           "1.0 0.5 damping tsuji region curved_wall";
  contact::ContactLaw law;
  law.damping = contact::DampingModel::tsuji;
  law.damping_coefficient = analysed;
  std::vector<std::string> notes;
  const auto out = packing::probe_wall_commands({"pair_style granular", wall}, {{"3", law}}, 3, notes);
  REQUIRE(out.size() == 2);
  CHECK(out[0] == "pair_style granular");
  CHECK(out[1] == fmt::format("fix 3 all wall/gran/region granular hertz/material 1e5 {:.17g} 0.3 tangential mindlin "
                              "NULL 1.0 0.5 damping tsuji region curved_wall", e));
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Matchers::Contains("fix 3's tsuji restitution 0.1"));
}

TEST_CASE("lammps-check: law and wall commands written from a law face the packing", "[lammps_check]") {
  using namespace dtcrit::packing;
  Packing p;
  p.add({0.0, 0.0, 0.0}, 1e-3, 2500.0, BodyModel::sphere);
  p.add({2e-3, 0.0, 0.0}, 1e-3, 2500.0, BodyModel::sphere);
  ContactLaws laws;
  laws.base = dtcrit::contact::hooke_history(1e5, 5e4, 10.0, 5.0, 0.3);
  p.walls.push_back(parse_wall("x=-0.5e-3", p, laws.base));  // the packing lies on its + side
  p.walls.push_back(parse_wall("x=2.5e-3", p, laws.base));   // on its - side
  const auto c = lammps_law_commands(p, laws, "", 1e4);
  REQUIRE(c.size() == 4);
  CHECK(c[0] == "pair_style gran/hooke/history 100000 50000 10 5 10000 1");
  CHECK(c[1] == "pair_coeff * *");
  CHECK(c[2] == "fix dtcrit_wall1 all wall/gran hooke/history 100000 50000 10 5 10000 1 xplane -0.0005 NULL");
  CHECK(c[3] == "fix dtcrit_wall2 all wall/gran hooke/history 100000 50000 10 5 10000 1 xplane NULL 0.0025");
  laws.by_types[{1, 2}] = laws.base;
  CHECK_THROWS_WITH(lammps_law_commands(p, laws, "", 1e4), Catch::Matchers::Contains("per-type laws"));
}

namespace {
// A dump custom file of the probe's columns, one frame per entry of `frames` (rows "id mass radius v...").
void write_probe_dump(const fs::path& path, const std::vector<std::pair<long, std::vector<std::string>>>& frames) {
  std::ofstream out(path);
  for (const auto& [step, rows] : frames) {
    out << "ITEM: TIMESTEP\n" << step << "\nITEM: NUMBER OF ATOMS\n" << rows.size()
        << "\nITEM: BOX BOUNDS mm mm mm\n0 1\n0 1\n0 1\nITEM: ATOMS id mass radius vx vy vz omegax omegay omegaz\n";
    for (const auto& r : rows) out << r << "\n";
  }
}
}  // namespace

TEST_CASE("lammps-check: the separation energy of two probe dumps, by hand", "[lammps_check]") {
  using dtcrit::packing::read_probe_separation;
  const fs::path dir = fs::temp_directory_path() / "dtcrit-test-probe-separation";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Two atoms, m = 2 and 3 kg, r = 0.5 and 1 m: I = 2/5 m r^2 = 0.2 and 1.2 kg m^2.
  write_probe_dump(dir / "rest.dump", {{0, {"1 2 0.5 0 0 0 0 0 0", "2 3 1 0 0 0 0 0 0"}},
                                       {10, {"1 2 0.5 1 0 0 0 0 0", "2 3 1 0 0 0 0 0 2"}},
                                       {20, {"1 2 0.5 1 0 0 0 0 0", "2 3 1 0 0 0 0 0 2"}}});
  write_probe_dump(dir / "pert.dump", {{0, {"1 2 0.5 1 0 0 0 0 0", "2 3 1 0 0 0 0 0 0"}},
                                       {10, {"1 2 0.5 1 2 0 0 0 0", "2 3 1 0 0 0 0 0 -1"}}});
  const auto s = read_probe_separation((dir / "rest.dump").string(), (dir / "pert.dump").string());
  REQUIRE(s.size() == 2);  // the perturbed run halted after step 10: common frames only
  CHECK(s[0].step == 0);
  CHECK(s[0].separation_energy == Approx(0.5 * 2 * 1));
  CHECK(s[0].rest_energy == 0.0);
  CHECK(s[1].step == 10);
  CHECK(s[1].separation_energy == Approx(0.5 * 2 * 4 + 0.5 * 1.2 * 9));  // dvy = 2 on atom 1, dwz = -3 on atom 2
  CHECK(s[1].rest_energy == Approx(0.5 * 2 * 1 + 0.5 * 1.2 * 4));
  // A blown-up run (nan) is an infinite separation; atoms out of order are an error naming the step.
  write_probe_dump(dir / "nan.dump", {{0, {"1 2 0.5 nan 0 0 0 0 0", "2 3 1 0 0 0 0 0 0"}}});
  CHECK(read_probe_separation((dir / "rest.dump").string(), (dir / "nan.dump").string())[0].separation_energy ==
        std::numeric_limits<double>::infinity());
  write_probe_dump(dir / "swapped.dump", {{0, {"2 3 1 0 0 0 0 0 0", "1 2 0.5 0 0 0 0 0 0"}}});
  CHECK_THROWS_WITH(read_probe_separation((dir / "rest.dump").string(), (dir / "swapped.dump").string()),
                    Catch::Matchers::Contains("step 0: atom 1 against atom 2"));
  { std::ofstream(dir / "short.dump") << "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\n"; }
  CHECK_THROWS_WITH(read_probe_separation((dir / "rest.dump").string(), (dir / "short.dump").string()),
                    Catch::Matchers::Contains("the dump ends inside a frame"));
  fs::remove_all(dir);
}

namespace {
// Frames every `every` steps up to `steps`, with separation S(step) = f(step), the run from rest at rest.
std::vector<dtcrit::packing::SeparationFrame> series(long steps, long every, const std::function<double(long)>& f) {
  std::vector<dtcrit::packing::SeparationFrame> out;
  for (long s = 0; s <= steps; s += every) out.push_back({s, f(s), 0.0});
  return out;
}
}  // namespace

TEST_CASE("lammps-check judges each step against the reference step over the same physical time", "[lammps_check]") {
  using namespace dtcrit::packing;
  const double ref = probe_reference_factor;
  // A packing that separates by itself: S grows as exp(t) in time t = step x factor x 2e-2, then
  // saturates at 1e6 (a flowing packing, chaotic, not the step's doing).
  auto flowing = [](double factor) {
    return [factor](long s) { return std::min(1e6, std::exp(s * factor * 2e-2)); };
  };
  const auto reference = series(2020, 4, flowing(ref));
  const ProbeStep r = judge_probe_step(reference, ref, false, reference, ref);
  CHECK(r.excess == Approx(1.0));
  CHECK(r.course == ProbeCourse::bounded);
  // At 0.99 the same growth over the same time: excess 1, bounded, though its growth is 1e3.
  const ProbeStep below = judge_probe_step(series(1000, 2, flowing(0.99)), 0.99, false, reference, ref);
  CHECK(below.growth == Approx(1e3).epsilon(1e-9));
  CHECK(below.reference_growth == Approx(1e3).epsilon(1e-9));
  // Before saturation the reference is read up to the same time only: 100 steps at 0.99 are 198 at 0.5.
  const ProbeStep early = judge_probe_step(series(100, 2, flowing(0.99)), 0.99, false, reference, ref);
  CHECK(early.reference_growth == Approx(std::sqrt(std::exp(196 * ref * 2e-2))).epsilon(1e-9));  // last frame <= 198
  CHECK(below.excess <= 1.5);
  CHECK(below.course == ProbeCourse::bounded);
  // Above: growing by 1.03 per step on top (amplitude), capped at 1e16 (saturated) or not (growing).
  auto unstable = [&](double cap) {
    return [&, cap](long s) { return std::min(cap, flowing(1.01)(s) * std::pow(1.03, 2.0 * s)); };
  };
  const ProbeStep growing = judge_probe_step(series(1000, 2, unstable(1e300)), 1.01, false, reference, ref);
  CHECK(growing.excess > 1e10);
  CHECK(growing.course == ProbeCourse::growing);
  const ProbeStep saturated = judge_probe_step(series(1000, 2, unstable(1e16)), 1.01, false, reference, ref);
  CHECK(saturated.course == ProbeCourse::saturated);
  const ProbeStep halted = judge_probe_step(series(400, 2, unstable(1e300)), 1.01, true, reference, ref);
  CHECK(halted.course == ProbeCourse::diverged);

  const auto confirmed = probe_verdict(r, below, saturated);
  CHECK(confirmed.confirmed);
  CHECK_THAT(confirmed.text, Catch::Matchers::StartsWith("CONFIRMED") && Catch::Matchers::Contains("stopped growing"));
  CHECK(probe_verdict(r, below, halted).confirmed);
  CHECK_THAT(probe_verdict(r, below, halted).text, Catch::Matchers::Contains("diverged"));
  // Nothing beyond the reference at 1.01: not seen, and the packing named as not at rest.
  const ProbeStep flat = judge_probe_step(series(1000, 2, flowing(1.01)), 1.01, false, reference, ref);
  const auto unseen = probe_verdict(r, below, flat);
  CHECK_FALSE(unseen.confirmed);
  CHECK_THAT(unseen.text, Catch::Matchers::Contains("was not seen") && Catch::Matchers::Contains("not at rest"));
  // Growth at 0.99 beyond the reference: the prediction is too large.
  const auto unsafe = probe_verdict(r, judge_probe_step(series(1000, 2, unstable(1e300)), 0.99, false, reference, ref), growing);
  CHECK_FALSE(unsafe.confirmed);
  CHECK_THAT(unsafe.text, Catch::Matchers::Contains("unstable below the predicted limit"));
  // A reference that runs away: nothing to judge against.
  const ProbeStep away = judge_probe_step(series(800, 4, flowing(ref)), ref, true, reference, ref);
  CHECK_THAT(probe_verdict(away, below, growing).text, Catch::Matchers::Contains("runs away at half the predicted step"));
  // A packing at rest (S constant): the reference's growth is 1 and the excess is the growth itself.
  const auto still = series(2020, 4, [](long) { return 1.0; });
  const ProbeStep at_rest = judge_probe_step(series(1000, 2, [](long s) { return std::pow(1.02, 2.0 * s); }), 1.01, false,
                                             still, ref);
  CHECK(at_rest.reference_growth == 1.0);
  CHECK(at_rest.excess == Approx(std::pow(1.02, 1000.0)).epsilon(1e-9));
  // A packing at rest that stays bounded at 1.01 too (LAMMPS' drum: its rolling dashpots set the
  // limit, and LAMMPS grows only from 1.1): not seen, and the advice is to probe larger steps.
  const ProbeStep rest_ref = judge_probe_step(still, ref, false, still, ref);
  const ProbeStep rest_below = judge_probe_step(series(1000, 2, [](long) { return 1.0; }), 0.99, false, still, ref);
  const ProbeStep rest_above = judge_probe_step(series(1000, 2, [](long) { return 1.0; }), 1.01, false, still, ref);
  const auto quiet = probe_verdict(rest_ref, rest_below, rest_above);
  CHECK_FALSE(quiet.confirmed);
  CHECK_THAT(quiet.text, Catch::Matchers::Contains("was not seen") && Catch::Matchers::Contains("--factors") &&
                             !Catch::Matchers::Contains("not at rest"));
  CHECK_THAT(quiet.text, Catch::Matchers::Contains("(--lift-caps runs every contact sticking"));
  // With the caps lifted already, no advice to lift them.
  const auto quiet_lifted = probe_verdict(rest_ref, rest_below, rest_above, true);
  CHECK_FALSE(quiet_lifted.confirmed);
  CHECK_THAT(quiet_lifted.text, Catch::Matchers::Contains("--factors") &&
                                    Catch::Matchers::Contains("every contact ran sticking (--lift-caps)") &&
                                    !Catch::Matchers::Contains("runs every contact sticking"));
  // A damped packing: both runs' separation decays as exp(-t), t = step x factor x 1e-2. At 1.01 it
  // rises by 1.03 per step on top and is capped at 50 times its start (contacts sliding, as on the
  // 500-sphere pour of results/nonsymmetric_larger/): excess 50, under 100, but against the
  // reference at the same time far more. Seen, CONFIRMED; the step below decays as the reference.
  auto decaying = [](double factor) { return [factor](long s) { return std::exp(-s * factor * 1e-2); }; };
  const auto damped_reference = series(2020, 4, decaying(ref));
  const ProbeStep damped_ref = judge_probe_step(damped_reference, ref, false, damped_reference, ref);
  const ProbeStep damped_below = judge_probe_step(series(1000, 5, decaying(0.99)), 0.99, false, damped_reference, ref);
  CHECK(damped_below.course == ProbeCourse::bounded);
  CHECK(damped_below.same_time_excess < 1.01);
  const ProbeStep capped = judge_probe_step(
      series(1000, 5, [&](long s) { return std::min(2500.0, decaying(1.01)(s) * std::pow(1.03, 2.0 * s)); }), 1.01,
      false, damped_reference, ref);
  CHECK(capped.excess == Approx(50.0).epsilon(1e-9));
  // At step 1000, physical time t = 1010 (step x factor): sqrt(2500) against the reference's envelope,
  // its largest S over the window (t - 50.5, t], the twentieth of the run: its first frame there is
  // at t = 960 (its frames every 4 steps of 0.5), S_ref = exp(-9.6).
  CHECK(capped.same_time_excess == Approx(50.0 * std::exp(0.5 * 960 * 1e-2)).epsilon(1e-9));
  const auto seen_capped = probe_verdict(damped_ref, damped_below, capped);
  CHECK(seen_capped.confirmed);
  CHECK_THAT(seen_capped.text, Catch::Matchers::Contains("at most") && Catch::Matchers::Contains("stopped growing"));
  // A stable run near the limit whose top mode barely decays, against the decaying reference: far
  // above it at the same time (sqrt(1 / exp(-9.6)) = 122), but it never grew: not seen.
  const ProbeStep slow = judge_probe_step(series(1000, 5, [](long) { return 1.0; }), 1.01, false, damped_reference, ref);
  CHECK(slow.same_time_excess > 100.0);
  CHECK(slow.course == ProbeCourse::bounded);
  CHECK_FALSE(probe_verdict(damped_ref, damped_below, slow).confirmed);
  // The cases above: the same time changes nothing (1.02 at most, the reference's frame lagging by
  // up to its 4 steps).
  CHECK(flat.same_time_excess < 1.05);
  CHECK(rest_above.same_time_excess == 1.0);
}

TEST_CASE("lammps-check: the same-time excess equals its definition, envelopes taken by brute force",
          "[lammps_check]") {
  // Random separation series on different dump grids (a NaN now and then, as a run that blows up
  // writes): judge_probe_step's one-pass envelopes against the definition, each envelope the largest
  // S over [t - window, t] found by scanning every frame.
  using namespace dtcrit::packing;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const long every = 1 + static_cast<long>(rng() % 7), every_ref = 1 + static_cast<long>(rng() % 7);
    const int n = 5 + static_cast<int>(rng() % 300), n_ref = 5 + static_cast<int>(rng() % 300);
    std::vector<SeparationFrame> run, ref;
    for (int i = 0; i < n; ++i)
      run.push_back({i * every, i > 0 && u(rng) < 0.02 ? std::nan("") : std::exp(10.0 * u(rng)), 0.0});
    for (int i = 0; i < n_ref; ++i) ref.push_back({i * every_ref, std::exp(10.0 * u(rng)), 0.0});
    const double factor = 0.99 + 0.02 * u(rng), ref_factor = 0.1 + 0.4 * u(rng);
    const double window = 0.05 * static_cast<double>(run.back().step) * factor;
    auto envelope = [&](const std::vector<SeparationFrame>& frames, double f, double t) {
      double e = 0.0;
      for (const auto& x : frames) {
        const double at = static_cast<double>(x.step) * f;
        if (at <= t * (1.0 + 1e-12) && at >= t - window && x.separation_energy > e) e = x.separation_energy;
      }
      return e;
    };
    double expected = 1.0;
    for (const auto& x : run) {
      const double t = static_cast<double>(x.step) * factor;
      if (t > static_cast<double>(ref.back().step) * ref_factor * (1.0 + 1e-12)) break;
      const double e = envelope(run, factor, t), e_ref = envelope(ref, ref_factor, t);
      if (e_ref > 0.0)
        expected = std::max(expected, std::sqrt((e / run.front().separation_energy) / (e_ref / ref.front().separation_energy)));
    }
    CAPTURE(trial);
    CHECK(judge_probe_step(run, factor, false, ref, ref_factor).same_time_excess == expected);
  }
}

TEST_CASE("lammps-check --lift-caps: every friction coefficient of the probe's law at 1e4, nothing else",
          "[lammps_check]") {
  using dtcrit::packing::with_friction_caps_lifted;
  const std::vector<std::string> in{
      "pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 0.5 0",
      "pair_style granular",
      "pair_coeff * *",
      "pair_coeff 1 * hertz/material 1e5 0.2 0.3 tangential mindlin NULL 1.0 0.5 damping tsuji",
      "pair_coeff 2 2 jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 1e3 0.1 twisting marshall "
      "damping tsuji",
      "pair_coeff * * hooke 1e4 60.94 tangential linear_nohistory 1 0.4 twisting sds 1 2 0.3",
      "fix 3 all wall/gran/region granular hertz/material 1e5 0.1 0.3 tangential mindlin NULL 1.0 0.5 damping tsuji "
      "region curved_wall",
      "fix 2 all wall/gran hooke/history 2000.0 NULL 50.0 NULL 0.5 0 zplane 0.0 2000.0",
      "fix grav all gravity 1.0 vector 0 0 -1"};
  const std::vector<std::string> expected{
      "pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 10000 0",
      "pair_style granular",
      "pair_coeff * *",
      "pair_coeff 1 * hertz/material 1e5 0.2 0.3 tangential mindlin NULL 1.0 10000 damping tsuji",
      "pair_coeff 2 2 jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 10000 rolling sds 1e3 1e3 10000 twisting marshall "
      "damping tsuji",
      "pair_coeff * * hooke 1e4 60.94 tangential linear_nohistory 1 10000 twisting sds 1 2 10000",
      "fix 3 all wall/gran/region granular hertz/material 1e5 0.1 0.3 tangential mindlin NULL 1.0 10000 damping tsuji "
      "region curved_wall",
      "fix 2 all wall/gran hooke/history 2000.0 NULL 50.0 NULL 10000 0 zplane 0.0 2000.0",
      "fix grav all gravity 1.0 vector 0 0 -1"};
  std::vector<std::string> notes;
  const auto out = with_friction_caps_lifted(in, 1e4, notes);
  CHECK(out == expected);
  CHECK(notes.size() == 6);  // one per command rewritten
  CHECK_THAT(notes.front(), Catch::Matchers::Contains("--lift-caps: the probe writes"));
  // A model cut short is named, not written wrong.
  CHECK_THROWS_WITH(with_friction_caps_lifted({"pair_coeff * * hooke 1 2 tangential linear_history 3 4"}, 1e4, notes),
                    Catch::Matchers::Contains("tangential linear_history lacks its friction coefficient"));
}

TEST_CASE("lammps-check: the probe touches jkr contacts held open within their pull-off distance", "[lammps_check]") {
  // LAMMPS keeps a jkr pair at negative overlap only once it has touched; a data file carries no
  // touch flag. Three spheres of radius 0.5 in a row: the first two overlap by 0.01, the last two
  // stand 0.004 apart, inside the pull-off distance (about 0.0073 for this law at R_eff = 0.25).
  using namespace dtcrit::packing;
  Packing p;
  p.add({0.0, 0.0, 0.0}, 0.5, 1.0, BodyModel::sphere);
  p.add({0.99, 0.0, 0.0}, 0.5, 1.0, BodyModel::sphere);
  p.add({1.994, 0.0, 0.0}, 0.5, 1.0, BodyModel::sphere);
  ContactLaws laws;
  laws.base = dtcrit::contact::parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  const ContactSet contacts = find_contacts(p, laws);
  REQUIRE(contacts.pair_contacts == 2);
  const ProbeContacts seen = probe_contacts(p, contacts);
  CHECK(seen.smallest_overlap == Approx(0.01).epsilon(1e-12));
  CHECK(seen.open_cohesive == 1);
  // Both radii grow: half the gap, with 1 % and 1e-6 r to spare.
  CHECK(seen.touch_growth == Approx(1.01 * 0.002 + 0.5e-6).epsilon(1e-9));

  ProbeRun run;
  run.factor = 0.99;
  run.h = 1e-3;
  run.steps = 10;
  run.settle_steps = 20;
  run.settle_h = 5e-4;
  run.settled_data = "settled.data";
  run.touch_growth = seen.touch_growth;
  const std::vector<std::string> law{"pair_style granular",
                                     "pair_coeff * * jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5"};
  const std::string script = probe_script(p, law, "probe.data", "v.dump", run, 1e9, "lj");
  const auto grow = script.find(fmt::format("variable        dtcrit_touch atom 2.0*(f_dtcrit_radii+{:.17g})",
                                            seen.touch_growth));
  const auto touch = script.find("set             group all diameter v_dtcrit_touch\nrun             0\n");
  const auto back = script.find("set             group all diameter v_dtcrit_back\n");
  const auto settle = script.find("run             20\n");
  REQUIRE(grow != std::string::npos);
  REQUIRE(touch != std::string::npos);
  REQUIRE(back != std::string::npos);
  REQUIRE(settle != std::string::npos);
  CHECK(grow < touch);
  CHECK(touch < back);
  CHECK(back < settle);  // touched before anything moves
  // run 0 is one more initialisation (a tsuji wall's restitution is converted at each): 4 in all.
  CHECK(probe_initialisations(script) == 4);
  run.touch_growth = 0.0;
  const std::string plain = probe_script(p, law, "probe.data", "v.dump", run, 1e9, "lj");
  CHECK(plain.find("dtcrit_touch") == std::string::npos);
  CHECK(probe_initialisations(plain) == 3);

  // The same gap under a law without adhesion is no contact LAMMPS would see.
  ContactLaws hooke;
  hooke.base = dtcrit::contact::hooke_history(1e5, 5e4, 10.0, 5.0, 0.3);
  ContactOptions loose;
  loose.gap_tolerance = 0.005;
  const ContactSet apart = find_contacts(p, hooke, loose);
  REQUIRE(apart.pair_contacts == 2);
  CHECK_THROWS_WITH(probe_contacts(p, apart), Catch::Matchers::Contains("the probe needs every contact closed"));
}
