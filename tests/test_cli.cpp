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
