// The command-line tool end to end: output formats, and bad input that exits non-zero and leaves
// no file behind.
#include <catch2/catch.hpp>
#include "cli_test_support.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

CliRun run(const std::string& args) { return run_cli(args); }

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
  const CliRun r = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 1 --json");
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
  CHECK(j["integrators"]["newmark_average"]["checked_omega_max"] == 1e4);  // what "unconditional" means
}

TEST_CASE("dtcrit pair prints an aligned table and tidy CSV", "[cli]") {
  const CliRun table = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --integrator velocity_verlet");
  REQUIRE(table.status == 0);
  CHECK_THAT(table.out, Contains("burns2016"));
  CHECK_THAT(table.out, Contains("h_crit velocity_verlet"));
  const CliRun csv = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --integrator rk4 --csv");
  REQUIRE(csv.status == 0);
  CHECK_THAT(csv.out, Contains("configuration,kind,name,value,unit,over_sqrt_m_over_k,stability"));
  CHECK_THAT(csv.out, Contains(",integrator,rk4,"));
}

TEST_CASE("bad input exits non-zero, names the value and writes nothing", "[cli][errors]") {
  const auto out = scratch("bad.json");
  const CliRun r = run("pair --body1 shape=disc,r=5e-4,m=-2 --body2 shape=disc,r=5e-4,m=0.003 --kn 5e7 --kt 1e7 --json -o " +
                    out.string());
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Contains("body1 m = -2"));
  CHECK_FALSE(std::filesystem::exists(out));

  const CliRun missing = run("pair --body1 shape=disc,r=5e-4,m=0.003 --kn 5e7 --kt 1e7");
  CHECK(missing.status != 0);
  CHECK_THAT(missing.out, Contains("missing body2"));

  const CliRun unknown = run("pair " + equal_discs + "--kn 5e7 --kt 1e7 --integrator verlet_typo");
  CHECK(unknown.status != 0);
  CHECK_THAT(unknown.out, Contains("velocity_verlet"));  // the valid names are listed

  const CliRun nan = run("pair " + equal_discs + "--kn nan --kt 1e7");
  CHECK(nan.status != 0);
}

TEST_CASE("sweep --plot of an output exact at every step: a clear refusal, no file", "[cli][errors]") {
  // chung-ooi-7's spins are kept exactly: no positive error to draw on log axes.
  const auto out = scratch("exact.png");
  const CliRun r = run("sweep --case chung-ooi-7 --integrator velocity_verlet --levels 2 --phases 1 --no-stability "
                       "--no-accuracy --plot " + out.string() + " --plot-quantity spin");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Contains("--plot-quantity 'spin'") && Contains("exact at every step"));
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("dtcrit table writes CSV and Markdown over a grid, and nothing on bad input", "[cli]") {
  const auto csv = scratch("grid.csv"), md = scratch("grid.md");
  const CliRun r = run("table " + equal_discs + "--kn 5e7 --vary kt_ratio=0.25:1:4 --vary body1.m=0.001,0.003 "
                    "--integrator velocity_verlet --csv " + csv.string() + " --markdown " + md.string());
  REQUIRE(r.status == 0);
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  CHECK_THAT(header, Contains("kt_ratio,body1.m,body1.I,"));  // the varied body1.m is not repeated
  CHECK_THAT(header, Contains(",gamma_t,omega_max,burns2016"));
  CHECK_THAT(header, Contains("h_crit:velocity_verlet"));
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  CHECK(rows == 8);
  CHECK(std::filesystem::exists(md));

  const auto bad = scratch("bad.csv");
  const CliRun b = run("table " + equal_discs + "--kn 5e7 --kt 1e7 --vary body1.m=0.001,-1 --csv " + bad.string());
  CHECK(b.status != 0);
  CHECK_THAT(b.out, Contains("m = -1"));
  CHECK_FALSE(std::filesystem::exists(bad));
  CHECK_FALSE(std::filesystem::exists(bad.string() + ".partial"));
}

TEST_CASE("dtcrit example prints the Fig. 6(b) table", "[cli]") {
  const CliRun r = run("example --integrator velocity_verlet");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("plate-plate"));
  CHECK_THAT(r.out, Contains("disc-disc"));
  CHECK_THAT(r.out, Contains("eq28_two_discs"));
}

TEST_CASE("packing with a Hertz law: the stepper confirms the limit (bounded at 0.99, grows at 1.01)", "[cli][contact]") {
  for (const std::string law : {"gran/hertz/history 4e9 NULL 0 NULL 0.5 1", "gran/hertz/history 4e9 NULL 3e4 NULL 0.5 1"}) {
    INFO(law);
    const CliRun r = run("packing --lattice sc --n 3 --compression 1e-3 --periodic none --box-walls --lammps-pair '" + law +
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
  const CliRun r = run("pair " + bodies +
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
  const CliRun r2 = run("pair " + bodies + "--lammps-pair 'granular hertz/material 5e10 0 0.22 tangential mindlin NULL 0 0.5' "
                     "--overlap " + fmt_g(overlap) + " --integrator velocity_verlet --json");
  REQUIRE(r2.status == 0);
  CHECK_THAT(nlohmann::json::parse(r2.out)["law"]["kn"].get<double>(), WithinRel(kn, 1e-12));
  // A linear law in LAMMPS syntax is the --kn path exactly.
  const CliRun a = run("pair " + bodies + "--kn 1e5 --kt 3e4 --gamma-n 40 --gamma-t 20 --integrator velocity_verlet --json");
  const CliRun b = run("pair " + bodies + "--lammps-pair 'gran/hooke/history 1e5 3e4 40 20 0.5 1' --integrator velocity_verlet --json");
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(nlohmann::json::parse(a.out)["integrators"] == nlohmann::json::parse(b.out)["integrators"]);
  // Errors name the value.
  const CliRun e1 = run("pair " + bodies + "--lammps-pair 'gran/hertz/history 4e9 NULL 0 NULL 0.5 1'");
  CHECK(e1.status != 0);
  CHECK_THAT(e1.out, Contains("overlap, normal_force or impact_velocity"));
  const CliRun e2 = run("pair " + bodies + "--kn 1e5 --lammps-pair 'gran/hooke/history 1e5 3e4 40 20 0.5 1'");
  CHECK(e2.status != 0);
  CHECK_THAT(e2.out, Contains("kn = 100000 cannot be combined with --lammps-pair"));
  // jkr is analysed (tests/test_cohesive.cpp); LAMMPS refuses it with limit_damping, and so does dtcrit.
  const CliRun e3 = run("pair " + bodies +
                        "--lammps-pair 'granular jkr 1e9 0.3 0.3 50 tangential mindlin NULL 1 0.5 limit_damping' "
                        "--overlap 1e-6");
  CHECK(e3.status != 0);
  CHECK_THAT(e3.out, Contains("limit_damping cannot be used with the jkr normal model"));
}

// --- issue 19: the answer a user acts on -------------------------------------------------------

namespace {
nlohmann::json json_of(const CliRun& r) {
  INFO(r.out);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}
std::string last_line(const std::string& text) {
  const auto end = text.find_last_not_of('\n');
  const auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}
// Two glass discs of the issue: r = 0.5 mm, rho = 2500, t = 1 mm, kn = 1e5, kt/kn = 0.8, e = 0.5.
const std::string glass_discs = "--body1 shape=disc,r=5e-4,rho=2500,t=1e-3 --body2 shape=disc,r=5e-4,rho=2500,t=1e-3 "
                                "--kn 1e5 --kt-ratio 0.8 --restitution 0.5 --integrator velocity_verlet ";
}  // namespace

TEST_CASE("pair: without tangential damping ct = cn / 2 (LAMMPS' gamma_t = gamma_n / 2), and the report says so",
          "[cli][defaults]") {
  const auto d = json_of(run("pair " + glass_discs + "--json"));
  const auto half = json_of(run("pair " + glass_discs + "--ct-ratio 0.5 --json"));
  const auto none = json_of(run("pair " + glass_discs + "--ct 0 --json"));
  // cn from e through the normal effective mass m/2 (equal discs): cn = 2 zeta sqrt(kn m/2).
  const double m = 2500 * std::numbers::pi * 5e-4 * 5e-4 * 1e-3, le = std::log(0.5);
  const double zeta = -le / std::sqrt(std::numbers::pi * std::numbers::pi + le * le);
  CHECK_THAT(d["law"]["cn"].get<double>(), WithinRel(2 * zeta * std::sqrt(1e5 * m / 2), 1e-12));
  CHECK_THAT(d["law"]["ct"].get<double>(), WithinRel(0.5 * d["law"]["cn"].get<double>(), 1e-15));
  CHECK_THAT(d["law"]["gamma_t"].get<double>(), WithinRel(0.5 * d["law"]["gamma_n"].get<double>(), 1e-15));
  CHECK_THAT(d["body1"]["m"].get<double>(), WithinRel(m, 1e-14));
  const double h = d["integrators"]["velocity_verlet"]["h_crit"].get<double>();
  CHECK(h == half["integrators"]["velocity_verlet"]["h_crit"].get<double>());
  // The numbers: 3.28829e-06 s with ct = cn/2, 4.04505e-06 s without a tangential dashpot.
  CHECK_THAT(h, WithinRel(3.28829e-06, 1e-5));
  CHECK_THAT(none["integrators"]["velocity_verlet"]["h_crit"].get<double>(), WithinRel(4.04505e-06, 1e-5));
  REQUIRE(d["defaults_applied"].size() == 1);
  CHECK_THAT(d["defaults_applied"][0].get<std::string>(), Contains("ct = 0.5 cn"));
  CHECK(half["defaults_applied"].empty());
  for (const char* cmd : {"pair", "table", "packing", "example"}) {
    const CliRun help = run(std::string(cmd) + " --help");
    INFO(cmd);
    CHECK(help.status == 0);
    std::string flat;  // CLI11 wraps the footer: compare with single spaces
    for (char c : help.out)
      if (!std::isspace(static_cast<unsigned char>(c))) flat += c;
      else if (!flat.empty() && flat.back() != ' ') flat += ' ';
    CHECK_THAT(flat, Contains("gamma_t = gamma_n / 2"));
  }
}

TEST_CASE("packing: without --gamma-t, gamma_t = gamma_n / 2, echoed with the law, periodicity and walls",
          "[cli][defaults]") {
  const std::string base = "packing --lattice fcc --n 2 --compression 1e-3 --kn 1e4 --kt 5e3 --gamma-n 100 "
                           "--integrator velocity_verlet ";
  const auto d = json_of(run(base + "--json"));
  const auto given = json_of(run(base + "--gamma-t 50 --json"));
  const auto none = json_of(run(base + "--gamma-t 0 --json"));
  CHECK(d["inputs"]["law"]["gamma_t"].get<double>() == 50.0);
  CHECK(d["inputs"]["periodic"] == "x,y,z");
  CHECK(d["inputs"]["walls"].empty());
  const double h = d["integrators"]["velocity_verlet"]["h_crit"].get<double>();
  CHECK(h == given["integrators"]["velocity_verlet"]["h_crit"].get<double>());
  CHECK(h < none["integrators"]["velocity_verlet"]["h_crit"].get<double>());  // tangential damping lowers it
  CHECK_THAT(d["inputs"]["defaults_applied"].dump(), Contains("gamma_t = 0.5 gamma_n"));
  CHECK_THAT(given["inputs"]["defaults_applied"].dump(), !Contains("gamma_t"));
  const CliRun text = run(base + "--periodic none --box-walls");
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Contains("inputs:"));
  CHECK_THAT(text.out, Contains("law: gran/hooke/history kn = 10000 N/m, kt = 5000 N/m, gamma_n = 100 1/s, gamma_t = 50 1/s"));
  CHECK_THAT(text.out, Contains("periodic: none; walls: "));
  CHECK_THAT(text.out, !Contains("walls: none"));
}

TEST_CASE("a disc or rect given by density needs its thickness", "[cli][errors]") {
  const CliRun r = run("pair --body1 shape=disc,r=5e-4,rho=2500 --body2 shape=disc,r=5e-4,m=0.003 --kn 1e5 --kt 1e5");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Contains("body1: missing the thickness t="));
  CHECK_THAT(r.out, Contains("rho = 2500"));
  const CliRun rect = run("pair --body1 shape=rect,a=1e-3,b=1e-3,rho=2500 --body2 shape=disc,r=5e-4,m=0.003 --kn 1e5 --kt 1e5");
  CHECK(rect.status != 0);
  CHECK_THAT(rect.out, Contains("body1: missing the thickness t="));
}

TEST_CASE("shape=sphere: I = 2/5 m r^2, the planar motion of a sphere", "[cli]") {
  const double m = 0.003, r = 5e-4, k = 5e7;
  const auto j = json_of(run("pair --body1 shape=sphere,r=5e-4,m=0.003 --body2 shape=sphere,r=5e-4,m=0.003 "
                             "--kn 5e7 --kt 5e7 --json"));
  CHECK(j["body1"]["shape"] == "sphere");
  CHECK_THAT(j["body1"]["I"].get<double>(), WithinRel(0.4 * m * r * r, 1e-14));
  CHECK_THAT(j["body1"]["rn"].get<double>(), WithinRel(r, 1e-15));
  // Equal spheres: tangential mobility 2 (1/m + r^2/I) = 7/m, normal 2/m: omega = sqrt(2k/m), sqrt(7k/m).
  CHECK_THAT(j["omega"][1].get<double>(), WithinRel(std::sqrt(7 * k / m), 1e-12));
  CHECK_THAT(j["omega"][0].get<double>(), WithinRel(std::sqrt(2 * k / m), 1e-12));
  CHECK_THAT(j["integrators"]["velocity_verlet"]["h_crit"].get<double>(), WithinRel(2 / std::sqrt(7 * k / m), 1e-9));
  const auto rho = json_of(run("pair --body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 "
                               "--kn 5e7 --kt 5e7 --json"));
  CHECK_THAT(rho["body1"]["m"].get<double>(), WithinRel(2500 * 4.0 / 3.0 * std::numbers::pi * r * r * r, 1e-14));
  const CliRun bad = run("pair --body1 shape=sphere,r=5e-4,rho=2500,t=1e-3 --body2 shape=sphere,r=5e-4,m=1 --kn 1 --kt 1");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.out, Contains("t"));
}

TEST_CASE("pair echoes the effective inputs in the table, CSV and JSON", "[cli]") {
  const CliRun t = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --gamma-n 100 --integrator velocity_verlet");
  REQUIRE(t.status == 0);
  for (const char* row : {"body1 m", "body1 I", "body1 arm rt", "body2 arm rn", "kn ", "kt ", "cn ", "ct ",
                          "gamma_n = cn/m_eff", "gamma_t = ct/m_eff", "default: ct = 0.5 cn"})
    CHECK_THAT(t.out, Contains(row));
  // gamma_n = 100 through the translational effective mass m/2 of equal discs: cn = 0.15 N s/m.
  const auto j = json_of(run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --gamma-n 100 --json"));
  CHECK_THAT(j["law"]["cn"].get<double>(), WithinRel(100 * 0.0015, 1e-12));
  CHECK_THAT(j["law"]["gamma_n"].get<double>(), WithinRel(100.0, 1e-12));
  const CliRun csv = run("pair " + equal_discs + "--kn 5e7 --kt-ratio 0.5 --integrator rk4 --csv");
  REQUIRE(csv.status == 0);
  CHECK_THAT(csv.out, Contains(",input,body1 I,"));
  CHECK_THAT(csv.out, Contains(",input,kt,25000000,N/m"));
  CHECK_THAT(csv.out, Contains(",default,cn = ct = 0 (no damping given)"));
  const auto out = scratch("echo.csv");
  const CliRun table = run("table " + equal_discs + "--kn 5e7 --vary kt_ratio=0.5,1 --integrator velocity_verlet --csv " +
                        out.string());
  REQUIRE(table.status == 0);
  std::ifstream in(out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK_THAT(header, Contains("kt_ratio,body1.m,body1.I,body1.rt,body1.rn,body2.m,"));
  CHECK_THAT(header, Contains(",kn,kt,cn,ct,gamma_n,gamma_t,omega_max,"));
  CHECK_THAT(header, Contains(",defaults_applied"));
  CHECK_THAT(row, Contains("\"cn = ct = 0 (no damping given)\""));
}

TEST_CASE("pair and packing end with the recommended step: margin x the velocity_verlet limit", "[cli]") {
  const auto j = json_of(run("pair " + glass_discs + "--json"));
  const double h = j["integrators"]["velocity_verlet"]["h_crit"].get<double>();
  CHECK(j["recommended_step"]["integrator"] == "velocity_verlet");
  CHECK(j["recommended_step"]["basis"] == "h_crit");
  CHECK(j["recommended_step"]["h_safe"].is_null());
  CHECK_THAT(j["recommended_step"]["h_recommended"].get<double>(), WithinRel(0.8 * h, 1e-15));
  const CliRun text = run("pair " + glass_discs + "--margin 0.5");
  REQUIRE(text.status == 0);
  const std::string line = last_line(text.out);
  CHECK(line.rfind("recommended step: ", 0) == 0);
  CHECK_THAT(line, Contains("= 0.5 (--margin) x "));
  CHECK_THAT(line, Contains("the stability limit of velocity_verlet (no certified h_safe yet"));
  const double printed = std::stod(line.substr(std::string("recommended step: ").size()));
  CHECK_THAT(printed, WithinRel(0.5 * h, 1e-5));
  // Another integrator when velocity_verlet is not asked for; none when it is unconditional.
  const auto rk4 = json_of(run("pair " + equal_discs + "--kn 5e7 --kt 5e7 --integrator rk4 --json"));
  CHECK(rk4["recommended_step"]["integrator"] == "rk4");
  const CliRun unc = run("pair " + equal_discs + "--kn 5e7 --kt 5e7 --integrator newmark_average");
  CHECK_THAT(last_line(unc.out), Contains("no stability limit for newmark_average"));
  for (const char* m : {"1.2", "0", "-1"}) {
    const CliRun bad = run("pair " + glass_discs + "--margin " + m);
    CHECK(bad.status != 0);
    CHECK_THAT(bad.out, Contains("margin = "));
  }
  const CliRun pk = run("packing --lattice sc --n 3 --compression 1e-3 --kn 1e4 --kt 5e3 --integrator velocity_verlet");
  REQUIRE(pk.status == 0);
  CHECK(last_line(pk.out).rfind("recommended step: ", 0) == 0);
  const auto pj = json_of(run("packing --lattice sc --n 3 --compression 1e-3 --kn 1e4 --kt 5e3 --margin 0.7 --json"));
  // Packings carry a certified h_safe (Gershgorin) below h_crit: the margin applies to it.
  const double h_safe = pj["integrators"]["velocity_verlet"]["h_safe"].get<double>();
  CHECK(h_safe <= pj["integrators"]["velocity_verlet"]["h_crit"].get<double>());
  CHECK(pj["recommended_step"]["basis"] == "h_safe");
  CHECK_THAT(pj["recommended_step"]["h_recommended"].get<double>(), WithinRel(0.7 * h_safe, 1e-15));
}

TEST_CASE("packing warns about particles at unwalled, non-periodic box bounds, and counts rattlers", "[cli]") {
  const auto data = scratch("bounds.data");
  {
    std::ofstream f(data);
    f << "two spheres, one at the x bound\n\n2 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\n"
         "Atoms # sphere\n\n1 1 0.1 1000 0.05 0.5 0.5\n2 1 0.1 1000 0.149 0.5 0.5\n";
  }
  const std::string base = "packing --lammps-data " + data.string() + " --kn 1e4 --kt 5e3 --integrator velocity_verlet ";
  const CliRun warned = run(base);
  REQUIRE(warned.status == 0);
  CHECK_THAT(warned.out, Contains("warning: 1 particles reach the box bounds in x"));
  const auto out = scratch("bounds.json");
  const CliRun jr = run(base + "--json -o " + out.string());
  REQUIRE(jr.status == 0);
  CHECK_THAT(jr.out, Contains("warning: 1 particles"));  // on stderr as well
  std::ifstream jin(out);
  const auto wj = nlohmann::json::parse(jin);
  CHECK(wj["warnings"].size() == 1);
  CHECK(wj["packing"]["rattlers"] == 2);  // one contact each, fewer than d + 1 = 4
  for (const char* fix : {"--periodic x", "--wall x=0"}) {
    const CliRun ok = run(base + fix);
    INFO(fix);
    REQUIRE(ok.status == 0);
    CHECK_THAT(ok.out, !Contains("warning"));
  }
  // A square lattice between no walls: the 4 corner discs have 2 contacts, fewer than d + 1 = 3.
  const auto sq = json_of(run("packing --lattice square --n 4 --periodic none --kn 1e4 --kt 5e3 "
                              "--integrator velocity_verlet --json"));
  CHECK(sq["packing"]["rattlers"] == 4);
  CHECK_THAT(sq["packing"]["rattler_definition"].get<std::string>(), Contains("fewer than d + 1 = 3 contacts"));
}

TEST_CASE("a file name that is not UTF-8 is echoed in --json, not an error", "[cli]") {
  // nlohmann's dump() throws on such strings; the outputs show the bad byte as U+FFFD.
  const auto data = scratch("\xa2two.data");
  {
    std::ofstream f(data);
    f << "two spheres\n\n2 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\n"
         "Atoms # sphere\n\n1 1 0.1 1000 0.45 0.5 0.5\n2 1 0.1 1000 0.549 0.5 0.5\n";
  }
  const CliRun r = run("packing --lammps-data '" + data.string() + "' --kn 1e4 --kt 5e3 --wall x=0 --wall x=1 "
                       "--integrator velocity_verlet --json");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("\xEF\xBF\xBDtwo.data"));
  std::filesystem::remove(data);
}

TEST_CASE("CLI11's parse errors read like ours", "[cli][errors]") {
  const CliRun kn = run("pair " + equal_discs + "--kn 1e5x --kt 1");
  CHECK(kn.status != 0);
  CHECK_THAT(kn.out, Contains("dtcrit: error: kn = '1e5x' is not a number"));
  const CliRun cmd = run("pairs --kn 1");
  CHECK(cmd.status != 0);
  CHECK_THAT(cmd.out, Contains("dtcrit: error: unknown command 'pairs'; commands: pair, table, example, integrators, "
                               "sweep, packing"));
  const CliRun none = run("");
  CHECK(none.status != 0);
  CHECK_THAT(none.out, Contains("a command is required; commands: pair,"));
}

TEST_CASE("progress goes to stderr only when it is a terminal", "[cli]") {
  // The tests read stderr through a pipe: no bar, no time-left estimate may appear.
  const CliRun r = run("packing --lattice sc --n 3 --periodic none --box-walls --compression 1e-4 --kn 1e5 --kt 5e4 "
                    "--gamma-n 400 --integrator velocity_verlet --confirm 50");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, !Contains("left"));
  CHECK(r.out.find('\r') == std::string::npos);
}

TEST_CASE("pair --accuracy restitution=1%: the sweep engine's accuracy-limited step bounds the recommended one",
          "[cli]") {
  // Two glass spheres, e = 0.5: a collinear contact, normal effective mass m/2.
  const std::string spheres = "--body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 "
                              "--kn 1e5 --kt-ratio 0.8 --restitution 0.5 --integrator velocity_verlet ";
  const auto j = json_of(run("pair " + spheres + "--accuracy restitution=1% --json"));
  const auto& rec = j["recommended_step"];
  const double h_acc = rec["h_accuracy"].get<double>();
  const double h_crit = j["integrators"]["velocity_verlet"]["h_crit"].get<double>();
  CHECK(rec["h_recommended"].get<double>() == std::min(0.8 * h_crit, h_acc));
  CHECK_THAT(rec["accuracy"].get<std::string>(), Contains("restitution within 1%"));
  // The same collision through `dtcrit sweep`, set up here from the sphere's mass: two spheres of mass
  // m each (m_eff = m/2, the pair's normal effective mass).
  const double m = 2500 * 4.0 / 3.0 * std::numbers::pi * 1.25e-10;
  const auto s = json_of(run(fmt::format("sweep --case head-on --set m={:.17g},kn=1e5,restitution=0.5 "
                                         "--integrator velocity_verlet --no-stability --accuracy-quantity restitution "
                                         "--tolerance 0.01 --json", m)));
  CHECK_THAT(h_acc, WithinRel(s["integrators"][0]["accuracy"]["h"].get<double>(), 1e-12));
  CHECK(h_acc < h_crit);  // 1 % of restitution needs a far smaller step than stability
  const CliRun text = run("pair " + spheres + "--accuracy restitution=1%");
  CHECK_THAT(last_line(text.out), Contains("the accuracy-limited step for restitution within 1%"));
  // Eccentric contacts couple to rotation: not the head-on collision.
  const CliRun ecc = run("pair --body1 shape=rect,a=1e-3,b=1e-3,m=1e-3,e=2e-4 --body2 shape=disc,r=5e-4,m=1e-3 "
                      "--kn 1e5 --kt 1e5 --restitution 0.5 --accuracy restitution=1%");
  CHECK(ecc.status != 0);
  CHECK_THAT(ecc.out, Contains("collinear"));
  const CliRun bad = run("pair " + spheres + "--accuracy speed=1%");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.out, Contains("unknown quantity 'speed'"));
}

TEST_CASE("pair --accuracy with a Hertz law: the law's own collision, the step sweep hertz-head-on finds", "[cli]") {
  // Glass beads d = 1 mm, E = 63 GPa, nu = 0.22, e = 0.5 under Hertz-Mindlin, 2 m/s relative: the pair
  // once integrated a linear collision with the linearised k_n (5.3e-8 s) while the sweep of the same
  // beads found 1.39e-7 s. Both now run the law's collision.
  const std::string beads = "pair --body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 "
                            "--hertz-mindlin E=63e9,nu=0.22,e=0.5,mu=0.5 --integrator velocity_verlet ";
  const auto p = json_of(run(beads + "--impact-velocity 2 --accuracy restitution=1% --json"));
  const auto s = json_of(run("sweep --case hertz-head-on --set youngs=63e9,poisson=0.22,d=1e-3,density=2500,v=1,"
                             "restitution=0.5 --integrator velocity_verlet --no-stability --accuracy-quantity "
                             "restitution --tolerance 0.01 --json"));
  const double h_sweep = s["integrators"][0]["accuracy"]["h"].get<double>();
  CHECK(p["recommended_step"]["h_accuracy"].get<double>() == h_sweep);
  CHECK_THAT(h_sweep, WithinRel(1.39e-7, 5e-3));
  // Linearised at an overlap, there is no collision to measure.
  const CliRun none = run(beads + "--overlap 1e-6 --accuracy restitution=1%");
  CHECK(none.status != 0);
  CHECK_THAT(none.out, Contains("needs --impact-velocity"));
}

TEST_CASE("pair --accuracy spin with --impact-angle: the law's oblique collision, refused where it cannot run",
          "[cli]") {
  // The same beads struck at 60 deg from the normal (normal approach 2 m/s): velocity Verlet's step for
  // 1 % of the spin after impact, below the 1 % restitution step of the head-on impact (1.39e-7 s).
  const std::string beads = "pair --body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 "
                            "--hertz-mindlin E=63e9,nu=0.22,e=0.5,mu=0.3 --integrator velocity_verlet "
                            "--impact-velocity 2 ";
  const auto p = json_of(run(beads + "--accuracy spin=1% --impact-angle 60 --json"));
  const double h = p["recommended_step"]["h_accuracy"].get<double>();
  CHECK(h > 0.0);
  CHECK(h < 1.39e-7);
  CHECK(p["recommended_step"]["h_recommended"].get<double>() == h);
  CHECK_THAT(p["recommended_step"]["accuracy"].get<std::string>(), Contains("spin within 1%") && Contains("60 deg"));
  const std::vector<std::pair<std::string, std::string>> refused{
      {beads + "--accuracy spin=1%", "needs --impact-angle"},
      {beads + "--impact-angle 30", "--impact-angle is read only by --accuracy"},
      {beads + "--accuracy restitution=1% --impact-angle 30", "not restitution"},
      {"pair --body1 shape=rect,a=1e-3,b=1e-3,rho=2500,t=1e-3 --body2 shape=sphere,r=5e-4,rho=2500 "
       "--hertz-mindlin E=63e9,nu=0.22,e=0.5,mu=0.3 --r-eff 2.5e-4 --impact-velocity 2 "
       "--accuracy spin=1% --impact-angle 30",
       "not round"},
      {beads + "--accuracy spin=1% --impact-angle 95", "--impact-angle = 95"},
      {beads + "--accuracy spin=1% --impact-angle 0", "--impact-angle = 0 deg must lie in (0, 89]"}};
  for (const auto& [args, message] : refused) {
    CAPTURE(args);
    const CliRun r = run(args);
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Contains(message));
  }
}

TEST_CASE("sweep --threads: the JSON equals the one-thread JSON apart from wall times, and rejects 0 by name", "[cli]") {
  auto strip = [](nlohmann::json j) {
    j.erase("reference_seconds");
    for (auto& i : j["integrators"]) {
      i.erase("seconds");
      i.erase("seconds_by_part");
    }
    return j;
  };
  const std::string cmd = "sweep --case bonded-pair --quick --levels 3 --stability-steps 2000 --integrator "
                          "velocity_verlet --integrator newmark_linear --integrator hht --json --threads ";
  const auto one = json_of(run(cmd + "1"));
  const auto three = json_of(run(cmd + "3"));
  CHECK(strip(three) == strip(one));
  CHECK(three["integrators"].size() == 3);
  const CliRun bad = run(cmd + "0");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.out, Contains("--threads = 0"));
}

TEST_CASE("a mistyped option gets the nearest one as a suggestion", "[cli][errors]") {
  // CLI11 alone said "The following arguments were not expected: 0.8 --kt-raito".
  const CliRun swap = run_cli("pair --kt-raito 0.8");
  CHECK(swap.status != 0);
  CHECK_THAT(swap.out, Catch::Matchers::Contains("unknown option --kt-raito; did you mean --kt-ratio?"));
  const CliRun missing = run_cli("packing --lattice fcc --n 3 --kn 1e4 --gama-n 3");
  CHECK(missing.status != 0);
  CHECK_THAT(missing.out, Catch::Matchers::Contains("unknown option --gama-n; did you mean --gamma-n?"));
  // Nothing near: the command's help is named instead of a guess.
  const CliRun far = run_cli("sweep --frobnicate 2");
  CHECK(far.status != 0);
  CHECK_THAT(far.out, Catch::Matchers::Contains("unknown option --frobnicate; dtcrit sweep --help lists the options"));
}

TEST_CASE("an option that takes a value does not take the next option as it", "[cli][errors]") {
  // CLI11 alone took `--write-mode --json` as the file "--json" and wrote it in the working folder,
  // and `--keep-probe --json` made a folder of that name before LAMMPS failed in it.
  const auto dir = scratch("option_as_value");
  std::filesystem::create_directories(dir);
  const std::string lattice = "packing --lattice fcc --n 3 --kn 1e5 --kt 1e4 ";
  const CliRun mode = run_cli(lattice + "--write-mode --json", true, dir.string());
  CHECK(mode.status != 0);
  CHECK_THAT(mode.out, Catch::Matchers::Contains("--write-mode needs a value, got the option --json"));
  const CliRun keep = run_cli("lammps-check --lammps-data x.data --kn 1e5 --keep-probe --json", true, dir.string());
  CHECK(keep.status != 0);
  CHECK_THAT(keep.out, Catch::Matchers::Contains("--keep-probe needs a value, got the option --json"));
  CHECK(std::filesystem::is_empty(dir));
  // Written with '=', the value is the user's: a path that begins with --.
  const CliRun explicit_value = run_cli(lattice + "--write-mode=--json", true, dir.string());
  CHECK(explicit_value.status == 0);
  CHECK(std::filesystem::exists(dir / "--json"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("--help gives every number option its unit ([-] for ratios)", "[cli]") {
  for (const char* command : {"pair", "packing", "table", "sweep", "example", "lammps-check"}) {
    const CliRun help = run_cli(std::string(command) + " --help");
    REQUIRE(help.status == 0);
    // An option's block: its line "  --name FLOAT ..." and the indented lines that continue its text.
    std::istringstream in(help.out);
    std::string line, block;
    auto check = [&] {
      if (block.find(" FLOAT") != std::string::npos) {
        CAPTURE(command, block);
        CHECK(block.find('[') != std::string::npos);
      }
    };
    while (std::getline(in, line)) {
      const auto first = line.find_first_not_of(' ');
      if (first != std::string::npos && line[first] == '-') {
        check();
        block = line;
      } else if (!block.empty()) {
        block += " " + line;
      }
    }
    check();
  }
}

TEST_CASE("a mistyped case, integrator, key, input or shape gets the nearest valid one", "[cli][errors]") {
  const std::string beads = "pair --body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 --kn 1e5 ";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"sweep --case head-o", "unknown sweep case 'head-o' (did you mean 'head-on'?); valid cases:"},
      {beads + "--kt-ratio 0.8 --integrator velocity_verlett",
       "unknown integrator 'velocity_verlett' (did you mean 'velocity_verlet'?); valid integrators:"},
      {"sweep --case head-on --set restitutoin=0.5",
       "key 'restitutoin' (= 0.5) is not used here (did you mean 'restitution'?); accepted keys:"},
      {"table --body1 shape=sphere,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 --kn 1e5 --vary kt_raito=0.1,0.2",
       "unknown input 'kt_raito' (did you mean 'kt_ratio'?); valid:"},
      {"pair --body1 shape=sphre,r=5e-4,rho=2500 --body2 shape=sphere,r=5e-4,rho=2500 --kn 1e5 --kt-ratio 0.8",
       "body1: unknown shape 'sphre' (did you mean 'sphere'?); valid shapes:"},
      // Nothing near: no guess.
      {"sweep --case zzzzzz", "unknown sweep case 'zzzzzz'; valid cases:"}};
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const CliRun r = run_cli(args);
    CHECK(r.status != 0);
    CHECK_THAT(r.out, Catch::Matchers::Contains(message));
  }
}
