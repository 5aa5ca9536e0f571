// The command-line tool end to end: output formats, and bad input that exits non-zero and leaves
// no file behind.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

struct Run {
  int status;
  std::string out;  // stdout and stderr together
};

Run run(const std::string& args) {
  const std::string cmd = std::string(DTCRIT_CLI) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

std::string fmt_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "dtcrit_cli_tests";
  std::filesystem::create_directories(dir);
  auto p = dir / name;
  std::filesystem::remove(p);
  return p;
}

const std::string equal_discs = "--body1 shape=disc,r=5e-4,m=0.003 --body2 shape=disc,r=5e-4,m=0.003 ";

}  // namespace

TEST_CASE("dtcrit pair --json: model, estimates and integrator limits", "[cli]") {
  const Run r = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 1 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double m = 0.003, k = 5e7;
  // Equal discs: zhat = diag(6/m, 2/m); omega = sqrt(2k/m), sqrt(6k/m).
  CHECK_THAT(j["zhat"][0][0].get<double>(), WithinRel(6 / m, 1e-14));
  CHECK_THAT(j["zhat"][1][1].get<double>(), WithinRel(2 / m, 1e-14));
  CHECK(std::abs(j["zhat"][0][1].get<double>()) < 1e-9);
  CHECK_THAT(j["omega"][0].get<double>(), WithinRel(std::sqrt(2 * k / m), 1e-12));
  CHECK_THAT(j["omega"][1].get<double>(), WithinRel(std::sqrt(6 * k / m), 1e-12));
  const double eq29 = std::numbers::pi / (2 * std::sqrt(6.0)) * std::sqrt(m / k);
  CHECK_THAT(j["estimates"]["burns2016"].get<double>(), WithinRel(eq29, 1e-12));
  CHECK_THAT(j["estimates"]["eq29_equal_discs"].get<double>(), WithinRel(eq29, 1e-14));
  CHECK_THAT(j["integrators"]["velocity_verlet"]["h_crit"].get<double>(), WithinRel(2 / std::sqrt(6 * k / m), 1e-9));
  CHECK(j["integrators"]["velocity_verlet"]["stability"] == "conditional");
  CHECK(j["integrators"]["newmark_average"]["stability"] == "unconditional");
  CHECK(j["integrators"]["newmark_average"]["h_crit"].is_null());
}

TEST_CASE("dtcrit pair prints an aligned table and tidy CSV", "[cli]") {
  const Run table = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --integrator velocity_verlet");
  REQUIRE(table.status == 0);
  CHECK_THAT(table.out, Contains("burns2016"));
  CHECK_THAT(table.out, Contains("h_crit velocity_verlet"));
  const Run csv = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --integrator rk4 --csv");
  REQUIRE(csv.status == 0);
  CHECK_THAT(csv.out, Contains("configuration,kind,name,seconds,over_sqrt_m_over_k,stability"));
  CHECK_THAT(csv.out, Contains(",integrator,rk4,"));
}

TEST_CASE("bad input exits non-zero, names the value and writes nothing", "[cli][errors]") {
  const auto out = scratch("bad.json");
  const Run r = run("pair --body1 shape=disc,r=5e-4,m=-2 --body2 shape=disc,r=5e-4,m=0.003 --kn 5e7 --kt 1e7 --json -o " +
                    out.string());
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Contains("body1 m = -2"));
  CHECK_FALSE(std::filesystem::exists(out));

  const Run missing = run("pair --body1 shape=disc,r=5e-4,m=0.003 --kn 5e7 --kt 1e7");
  CHECK(missing.status != 0);
  CHECK_THAT(missing.out, Contains("missing body2"));

  const Run unknown = run("pair " + equal_discs + "--kn 5e7 --kt 1e7 --integrator verlet_typo");
  CHECK(unknown.status != 0);
  CHECK_THAT(unknown.out, Contains("velocity_verlet"));  // the valid names are listed

  const Run nan = run("pair " + equal_discs + "--kn nan --kt 1e7");
  CHECK(nan.status != 0);
}

TEST_CASE("dtcrit table writes CSV and Markdown over a grid, and nothing on bad input", "[cli]") {
  const auto csv = scratch("grid.csv"), md = scratch("grid.md");
  const Run r = run("table " + equal_discs + "--kn 5e7 --vary kt_ratio=0.25:1:4 --vary body1.m=0.001,0.003 "
                    "--integrator velocity_verlet --csv " + csv.string() + " --markdown " + md.string());
  REQUIRE(r.status == 0);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  CHECK_THAT(header, Contains("kt_ratio,body1.m,omega_max,burns2016"));
  CHECK_THAT(header, Contains("h_crit:velocity_verlet"));
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  CHECK(rows == 8);
  CHECK(std::filesystem::exists(md));

  const auto bad = scratch("bad.csv");
  const Run b = run("table " + equal_discs + "--kn 5e7 --kt 1e7 --vary body1.m=0.001,-1 --csv " + bad.string());
  CHECK(b.status != 0);
  CHECK_THAT(b.out, Contains("m = -1"));
  CHECK_FALSE(std::filesystem::exists(bad));
  CHECK_FALSE(std::filesystem::exists(bad.string() + ".partial"));
}

TEST_CASE("dtcrit example prints the Fig. 6(b) table", "[cli]") {
  const Run r = run("example --integrator velocity_verlet");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("plate-plate"));
  CHECK_THAT(r.out, Contains("disc-disc"));
  CHECK_THAT(r.out, Contains("eq28_two_discs"));
}

TEST_CASE("packing with a Hertz law: the stepper confirms the limit (bounded at 0.99, grows at 1.01)", "[cli][contact]") {
  for (const std::string law : {"gran/hertz/history 4e9 NULL 0 NULL 0.5 1", "gran/hertz/history 4e9 NULL 3e4 NULL 0.5 1"}) {
    INFO(law);
    const Run r = run("packing --lattice sc --n 3 --compression 1e-3 --periodic none --box-walls --lammps-pair '" + law +
                      "' --integrator velocity_verlet --confirm 2000 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["confirmation"].size() == 2);
    for (const auto& c : j["confirmation"]) {
      CHECK(c["equilibrium_residual"].get<double>() < 1e-9);
      if (c["factor"].get<double>() < 1.0) CHECK(c["growth"].get<double>() < 1.5);
      else CHECK((c["growth"].is_null() || c["growth"].get<double>() > 1e3));
    }
  }
}

TEST_CASE("pair with --lammps-pair: the state it is linearised at, the integrated impact, named errors", "[cli][contact]") {
  const std::string bodies = "--body1 shape=disc,r=5e-4,m=1.309e-6 --body2 shape=disc,r=5e-4,m=1.309e-6 ";
  const Run r = run("pair " + bodies +
                    "--lammps-pair 'granular hertz/material 5e10 0 0.22 tangential mindlin NULL 0 0.5' "
                    "--impact-velocity 1 --integrator velocity_verlet --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["operating_point"]["from"] == "impact_velocity");
  // The integrated duration and the closed form agree to the closed form's four digits.
  CHECK_THAT(j["estimates"]["collision_time"].get<double>(),
             WithinRel(j["estimates"]["hertz_collision_time_formula"].get<double>(), 2e-4));
  // At the peak the linearised kn is 3/2 k_n a: omega_max of collinear discs is sqrt(kn / m_eff).
  const double kn = j["law"]["kn"].get<double>(), overlap = j["operating_point"]["overlap"].get<double>();
  const double kn_hertz = 4.0 / 3.0 * 5e10 / (2.0 * (1.0 - 0.22 * 0.22));
  CHECK_THAT(kn, WithinRel(1.5 * kn_hertz * std::sqrt(2.5e-4 * overlap), 1e-12));
  // The same law at the same overlap, given directly.
  const Run r2 = run("pair " + bodies + "--lammps-pair 'granular hertz/material 5e10 0 0.22 tangential mindlin NULL 0 0.5' "
                     "--overlap " + fmt_g(overlap) + " --integrator velocity_verlet --json");
  REQUIRE(r2.status == 0);
  CHECK_THAT(nlohmann::json::parse(r2.out)["law"]["kn"].get<double>(), WithinRel(kn, 1e-12));
  // A linear law in LAMMPS syntax is the --kn path exactly.
  const Run a = run("pair " + bodies + "--kn 1e5 --kt 3e4 --gamma-n 40 --gamma-t 20 --integrator velocity_verlet --json");
  const Run b = run("pair " + bodies + "--lammps-pair 'gran/hooke/history 1e5 3e4 40 20 0.5 1' --integrator velocity_verlet --json");
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(nlohmann::json::parse(a.out)["integrators"] == nlohmann::json::parse(b.out)["integrators"]);
  // Errors name the value.
  const Run e1 = run("pair " + bodies + "--lammps-pair 'gran/hertz/history 4e9 NULL 0 NULL 0.5 1'");
  CHECK(e1.status != 0);
  CHECK_THAT(e1.out, Contains("overlap, normal_force or impact_velocity"));
  const Run e2 = run("pair " + bodies + "--kn 1e5 --lammps-pair 'gran/hooke/history 1e5 3e4 40 20 0.5 1'");
  CHECK(e2.status != 0);
  CHECK_THAT(e2.out, Contains("kn = 100000 cannot be combined with --lammps-pair"));
  const Run e3 = run("pair " + bodies + "--lammps-pair 'granular jkr 1e9 0.3 0.3 50 tangential mindlin NULL 1 0.5' --overlap 1e-6");
  CHECK(e3.status != 0);
  CHECK_THAT(e3.out, Contains("'jkr'"));
}
