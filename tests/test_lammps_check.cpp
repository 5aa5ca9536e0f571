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
