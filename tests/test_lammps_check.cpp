// dtcrit lammps-check without LAMMPS: the errors that stop it before or around the LAMMPS run (the
// live confirmation by LAMMPS is the CTest `lammps_check_live`, tests/data/lammps/lammps_check.sh).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "cli_test_support.hpp"

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
  CHECK_THAT(r.out, Catch::Matchers::Contains("LAMMPS failed (exit status 1) on the probe at 0.99 h_crit"));
  CHECK(fs::is_empty(tmp));  // the temporary probe folder was removed
  fs::remove_all(tmp);
}

#include "dtcrit/contact/law.hpp"
#include "dtcrit/packing/lammps_input.hpp"
#include "dtcrit/packing/lammps_probe.hpp"

TEST_CASE("lammps-check: the probe repeats the script's law, wall and gravity lines", "[lammps_check]") {
  const auto in = dtcrit::packing::read_lammps_input(DTCRIT_SOURCE_DIR "/tests/data/lammps/in.hertz");
  CHECK(in.law_commands == std::vector<std::string>{
                               "pair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1", "pair_coeff * *",
                               "fix wall all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 zplane 0.0 NULL"});
  CHECK(in.load_commands == std::vector<std::string>{"fix grav all gravity 9.81 vector 0 0 -1"});
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
