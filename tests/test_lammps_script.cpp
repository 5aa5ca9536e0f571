// The scripts users have: LAMMPS' equal-style formulas, units other than SI, the state beside a
// script that makes its own particles, the physics of a chosen run, type ranges and hybrid styles.
// Expected values are closed forms or conversions written out here, never the code under test.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "cli_test_support.hpp"
#include "dtcrit/lammps/lammps_expression.hpp"
#include "dtcrit/lammps/lammps_input.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;

namespace {


std::string write_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "dtcrit_lammps_script_tests";
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

double formula(const std::string& text) { return packing::evaluate_lammps_formula(text, {}); }

}  // namespace

TEST_CASE("LAMMPS formulas: LAMMPS' precedence, functions and constants", "[lammps][script]") {
  CHECK(formula("30*0.5") == 15.0);
  CHECK(formula("10^5") == 1e5);
  // Unary minus binds tighter than ^ in LAMMPS (variable.html), and ^ is evaluated left to right:
  // Debian's lmp prints -2^2 = 4, 2^3^2 = 64, 2+3*4-7%4 = 11 and log(1000)+ln(1) = 3.
  CHECK(formula("-2^2") == 4.0);
  CHECK(formula("2^3^2") == 64.0);
  CHECK(formula("2+3*4") == 14.0);
  CHECK(formula("(2+3)*4") == 20.0);
  CHECK(formula("7%4") == 3.0);
  CHECK(formula("2+3*4-7%4") == 11.0);
  CHECK(formula("1 < 2 && 3 >= 3") == 1.0);
  CHECK(formula("1 == 2 || !0") == 1.0);
  CHECK(formula("1 |^ 1") == 0.0);
  CHECK(formula("sqrt(16)") == 4.0);
  CHECK(formula("log(1000)") == 3.0);  // LAMMPS' log is base 10, ln the natural one
  CHECK(formula("ln(1)") == 0.0);
  CHECK(formula("ternary(0, 1, 2)") == 2.0);
  CHECK(formula("atan2(1, 1)") == std::atan2(1.0, 1.0));
  CHECK(formula("4.0*PI/5000") == 4.0 * 3.141592653589793 / 5000.0);
  CHECK(formula("2.5e-3*2") == 5e-3);
  // in.granregion.mixer's damping: the expression as written there, against its closed form.
  const double a = std::pow(-2.0 * std::log10(0.1) / 3.141592653589793, 2.0);
  const double min_mass = 1.0 * 4.0 / 3.0 * 3.141592653589793 * 0.3 * 0.3 * 0.3;
  CHECK(formula(fmt::format("sqrt({:.17g}*2*1e5/{:.17g}/(1+0.25*{:.17g}))", a, min_mass, a)) ==
        std::sqrt(a * 2 * 1e5 / min_mass / (1 + 0.25 * a)));
  packing::FormulaNames names;
  names.keyword = [](const std::string& k) -> std::optional<double> {
    if (k == "step") return 7500.0;
    return std::nullopt;
  };
  CHECK(packing::evaluate_lammps_formula("(step-5000)*(4.0*PI/5000)", names) ==
        (7500.0 - 5000.0) * (4.0 * 3.141592653589793 / 5000.0));

  CHECK_THROWS_WITH(formula("1/0"), Contains("division by zero"));
  CHECK_THROWS_WITH(formula("sqrt(-1)"), Contains("sqrt(-1) of a negative value"));
  CHECK_THROWS_WITH(formula("c_1*2"), Contains("'c_1' is a compute or fix value"));
  CHECK_THROWS_WITH(formula("v_x+1"), Contains("variable 'x'"));
  CHECK_THROWS_WITH(formula("step"), Contains("'step' is not a value dtcrit can evaluate"));
  CHECK_THROWS_WITH(formula("(1+2"), Contains("without a closing ')'"));
  CHECK_THROWS_WITH(formula("1+"), Contains("ends where a value is expected"));
  CHECK_THROWS_WITH(formula("random(1,2,3)"), Contains("function 'random()' is not evaluated"));
  // User text nested 10^5 deep is an error, not a stack overflow.
  CHECK_THROWS_WITH(formula(std::string(100000, '(') + "1" + std::string(100000, ')')), Contains("nested more than 200 deep"));
  CHECK_THROWS_WITH(formula(std::string(100000, '-') + "1"), Contains("nested more than 200 deep"));
  CHECK(formula(std::string(100, '(') + "1" + std::string(100, ')')) == 1.0);
}

namespace {

// The checked-in settled Hertz packing (SI) and its law, rescaled to another unit system: 1 m is
// L length units, 1 kg is M mass units, 1 s is T time units.
struct Scale {
  std::string units;
  double L, M, T;
};

std::string rescaled_data(const Scale& s) {
  std::ifstream in(lammps_data_dir + "settled_hertz.data");
  std::ostringstream out;
  std::string line;
  bool atoms = false;
  while (std::getline(in, line)) {
    std::istringstream w(line);
    std::vector<std::string> words;
    for (std::string x; w >> x;) words.push_back(x);
    if (line.rfind("Atoms", 0) == 0) atoms = true;
    else if (!words.empty() && std::isalpha(static_cast<unsigned char>(words[0][0]))) atoms = false;
    if (words.size() == 4 && words[2].size() == 3 && words[3].size() == 3 && words[3].substr(1) == "hi") {
      out << fmt::format("{:.17g} {:.17g} {} {}\n", std::stod(words[0]) * s.L, std::stod(words[1]) * s.L, words[2],
                         words[3]);
    } else if (atoms && words.size() == 10) {  // id type diameter density x y z ix iy iz
      out << fmt::format("{} {} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {} {}\n", words[0], words[1],
                         std::stod(words[2]) * s.L, std::stod(words[3]) * s.M / (s.L * s.L * s.L),
                         std::stod(words[4]) * s.L, std::stod(words[5]) * s.L, std::stod(words[6]) * s.L, words[7],
                         words[8], words[9]);
    } else {
      out << line << "\n";
    }
  }
  return out.str();
}

// gran/hertz/history: F = (k_n delta - m_eff gamma_n v_n) sqrt(R delta), so k_n is a pressure,
// M / (L T^2), and gamma_n is 1 / (L T).
std::string rescaled_script(const Scale& s, const std::string& data) {
  const double kn = 1e8 * s.M / (s.L * s.T * s.T), gn = 3e4 / (s.L * s.T);
  return fmt::format(
      "units {}\natom_style sphere\nboundary p p f\nread_data {}\n"
      "pair_style gran/hertz/history {:.17g} NULL {:.17g} NULL 0.5 1\npair_coeff * *\n"
      "fix wall all wall/gran hertz/history {:.17g} NULL {:.17g} NULL 0.5 1 zplane 0.0 NULL\n"
      "fix integ all nve/sphere\ntimestep {:.17g}\n",
      s.units, data, kn, gn, kn, gn, 1e-6 * s.T);
}

}  // namespace

TEST_CASE("one packing in si, cgs, micro, nano and lj: the same limit after conversion", "[lammps][script][cli]") {
  const std::vector<Scale> scales{{"si", 1.0, 1.0, 1.0},
                                  {"cgs", 100.0, 1000.0, 1.0},
                                  {"micro", 1e6, 1e15, 1e6},
                                  {"nano", 1e9, 1e21, 1e9},
                                  // lj: sigma = 1 mm, m = 1 mg, tau = 1 ms (any consistent choice)
                                  {"lj", 1e3, 1e6, 1e3}};
  double h_si = 0.0, ratio_si = 0.0;
  for (const Scale& s : scales) {
    INFO(s.units);
    const std::string data = write_file("scaled_" + s.units + ".data", rescaled_data(s));
    const std::string script = write_file("in.scaled_" + s.units, rescaled_script(s, data));
    const CliRun r = run_cli("packing --lammps-input " + script + " --integrator velocity_verlet --json", false);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    const double h = j.at("integrators").at("velocity_verlet").at("h_crit").get<double>();
    const double ratio = j.at("timestep_check").at("ratio").get<double>();
    CHECK(j.at("timestep_check").at("timestep_unit") == (s.units == "si" || s.units == "cgs" ? "s"
                                                         : s.units == "micro"                 ? "us"
                                                         : s.units == "nano"                  ? "ns"
                                                                                              : "tau"));
    CHECK(j.at("lammps_input").at("units") == s.units);
    if (s.units == "si") {
      h_si = h;
      ratio_si = ratio;
      continue;
    }
    CHECK(std::abs(h / s.T - h_si) <= 1e-12 * h_si);
    CHECK(std::abs(ratio - ratio_si) <= 1e-12 * ratio_si);
  }
  // The text names the units.
  const Scale lj = scales.back();
  const CliRun t = run_cli("packing --lammps-input " + write_file("in.scaled_lj", rescaled_script(lj, write_file(
                                                                      "scaled_lj.data", rescaled_data(lj)))) +
                           " --integrator velocity_verlet");
  CHECK_THAT(t.out, Contains("h_crit [tau]"));
  CHECK_THAT(t.out, Contains("timestep                    0.001 tau"));
  CHECK_THAT(t.out, Contains("tau = 0.8 (--margin)"));
}

namespace {

// in.hertz's physics made the way LAMMPS' examples make theirs: a box, an insertion fix and runs.
// The state is the settled packing beside the script.
const std::string pour_script =
    "# made as LAMMPS' pour example is\n"
    "variable        kn equal 10^8\n"
    "variable        gn equal 3*10^4\n"
    "variable        dt equal 2*5e-7\n"
    "units           si\n"
    "atom_style      sphere\n"
    "boundary        p p fm\n"
    "region          reg block 0 0.006 0 0.006 0 0.03 units box\n"
    "create_box      1 reg\n"
    "pair_style      gran/hertz/history ${kn} NULL ${gn} NULL 0.5 1\n"
    "pair_coeff      * *\n"
    "timestep        ${dt}\n"
    "fix             1 all nve/sphere\n"
    "fix             2 all gravity 9.81 vector 0 0 -1\n"
    "fix             zlower all wall/gran hertz/history ${kn} NULL ${gn} NULL 0.5 1 zplane 0.0 NULL\n"
    "region          slab block 0 0.006 0 0.006 0.01 0.03 units box\n"
    "fix             ins all pour 100 1 300719 vol 0.3 50 diam one 0.001 dens 2500 2500 region slab\n"
    "thermo          1000\n"
    "run             2000\n"
    "unfix           ins\n"
    "timestep        $(v_dt/2)\n"
    "run             1000\n";

}  // namespace

TEST_CASE("a script that makes its own particles: the state beside it, the physics of its last run",
          "[lammps][script]") {
  const std::string script = write_file("in.pour_like", pour_script);
  // Without the state: the error says what to give.
  REQUIRE_THROWS_WITH(packing::read_lammps_input(script),
                      Contains(script + ":9: the script makes its particles itself (create_box") &&
                          Contains("--lammps-data") && Contains("--run-in-lammps"));
  packing::LammpsInputOptions o;
  o.data_file = lammps_data_dir + "settled_hertz.data";
  const auto in = packing::read_lammps_input(script, o);
  CHECK(in.units.name == "si");
  CHECK(in.runs == 2);
  CHECK_THAT(in.run_taken, Contains("run 2 of 2") && Contains(":22: run 1000"));
  CHECK(in.timestep == 5e-7);  // $(v_dt/2) at the second run
  CHECK(in.packing.size() == 100);
  REQUIRE(in.packing.walls.size() == 1);
  CHECK(in.packing.walls[0].normal.z() == 1.0);
  CHECK(in.laws.base.kn == 1e8);
  CHECK(in.laws.base.damping_coefficient == 3e4);
  CHECK(in.load_commands.size() == 1);
  CHECK_THAT(fmt::format("{}", fmt::join(in.skipped, ",")), Contains("create_box") && Contains("fix pour"));

  // The first run: the timestep then, and fix pour was in effect (skipped, it only inserts).
  o.run = 1;
  const auto first = packing::read_lammps_input(script, o);
  CHECK(first.timestep == 1e-6);
  CHECK_THAT(first.run_taken, Contains("run 1 of 2"));
  o.run = 3;
  CHECK_THROWS_WITH(packing::read_lammps_input(script, o), Contains("--lammps-run 3") && Contains("has 2 run commands"));

  // The same packing and physics as in.hertz: the same limit through the CLI.
  const CliRun a = run_cli("packing --lammps-input " + script + " --lammps-data " + lammps_data_dir +
                               "settled_hertz.data --integrator velocity_verlet --json",
                           false);
  const CliRun b = run_cli("packing --lammps-input " + lammps_data_dir + "in.hertz --integrator velocity_verlet --json", false);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  CHECK(ja.at("integrators").at("velocity_verlet").at("h_crit") == jb.at("integrators").at("velocity_verlet").at("h_crit"));
  CHECK(ja.at("lammps_input").at("state") == "--lammps-data");
  CHECK(ja.at("timestep_check").at("timestep").get<double>() == 5e-7);
  const CliRun r = run_cli("packing --lammps-data " + lammps_data_dir + "settled_hertz.data --lammps-run 1 --kn 1e5 --kt 1e5");
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Contains("--lammps-run is not read with --lammps-data: it applies to --lammps-input"));
}

TEST_CASE("LAMMPS scripts: type ranges, hybrid with one granular style, unfix, include", "[lammps][script]") {
  const std::string head = "units si\natom_style sphere\nboundary p p f\nread_data " + lammps_data_dir + "settled_hertz.data\n";
  const std::string tail = "fix integ all nve/sphere\ntimestep 1e-6\n";
  {
    const auto in = packing::read_lammps_input(write_file(
        "in.hybrid", head + "pair_style hybrid gran/hooke/history 1e5 NULL 10 NULL 0.5 1\npair_coeff * * "
                            "gran/hooke/history\n" + tail));
    CHECK(in.laws.base.kn == 1e5);
    CHECK(in.laws.base.damping_coefficient == 10.0);
  }
  {
    const auto in = packing::read_lammps_input(write_file(
        "in.range", head + "pair_style granular\npair_coeff 1* *1 hooke 2e5 0 tangential linear_nohistory 0 0\n" + tail));
    CHECK(in.laws.base.kn == 2e5);
  }
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file(
                        "in.badrange", head + "pair_style granular\npair_coeff 1*3 1 hooke 2e5 0 tangential "
                                              "linear_nohistory 0 0\n" + tail)),
                    Contains("1*3"));
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file(
                        "in.twohybrid", head + "pair_style hybrid gran/hooke 1e5 NULL 0 NULL 0.5 0 lj/cut 2.5\n" + tail)),
                    Contains(":5: pair_style hybrid with the sub-styles 'gran/hooke lj/cut'"));
  {
    // A fix removed before the run is not in effect; one defined after the last run neither.
    const auto in = packing::read_lammps_input(write_file(
        "in.unfix", head + "pair_style gran/hooke 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\nfix v all viscous 0.1\n"
                           "unfix v\n" + tail + "run 10\nfix r all rigid single\n"));
    CHECK(in.runs == 1);
  }
  {
    const std::string inc = write_file("law.include", "pair_style gran/hooke 3e5 NULL 0 NULL 0.5 0\npair_coeff * *\n");
    const auto in = packing::read_lammps_input(write_file("in.include", head + "include " + inc + "\n" + tail));
    CHECK(in.laws.base.kn == 3e5);
    CHECK_THAT(fmt::format("{}", fmt::join(in.taken, "\n")), Contains("law.include:1: pair_style gran/hooke 3e5"));
  }
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file("in.jump", head + "label a\njump SELF a\n")),
                    Contains(":6: jump: dtcrit reads a script top to bottom"));
  {
    // No units line: LAMMPS' default lj, and its default time step 0.005 tau.
    const auto in = packing::read_lammps_input(write_file(
        "in.lj", "atom_style sphere\nboundary p p f\nread_data " + lammps_data_dir +
                     "settled_hertz.data\npair_style gran/hooke 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\nfix i all "
                     "nve/sphere\n"));
    CHECK(in.units.name == "lj");
    CHECK(in.units_default);
    CHECK(in.timestep == 0.005);
    CHECK(in.timestep_default);
  }
}

TEST_CASE("LAMMPS scripts: quotes keep '$' and '#' as text, as LAMMPS reads them", "[lammps][script]") {
  // LAMMPS substitutes no '$' and starts no comment between single, double or triple quotes (input.cpp,
  // parse()); print and fix print substitute their own text when they run. Debian's lmp ran these
  // lines after a run 0 of this packing and printed "STEP 0", "# not a comment", "x 0 y" and the two
  // lines of the triple quote. Before, dtcrit substituted inside quotes and refused the script at
  // $(ke) ("not a value dtcrit can evaluate") or at the format suffix, and refused any quote before a '#'.
  const std::string head = "units si\natom_style sphere\nboundary p p f\nread_data " + lammps_data_dir +
                           "settled_hertz.data\npair_style gran/hooke 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\n"
                           "fix integ all nve/sphere\ntimestep 2e-6\n";
  const std::string output = "print \"STEP $(step:%.3g)\"\n"
                             "variable e equal ke\n"
                             "print \"energy ${e}\"\n"
                             "fix p all print 1 \"ke = $(ke)\" file ke.txt\n"
                             "print \"# not a comment\" # a comment\n"
                             "print \"x $(ke) &\ny\"\n"
                             "print \"\"\"two\nlines $(step) # no comment\"\"\"\n"
                             "timestep 3e-6 # the step that counts\n";
  const auto in = packing::read_lammps_input(write_file("in.quotes", head + output + "run 10\n"));
  CHECK(in.timestep == 3e-6);
  CHECK(in.runs == 1);
  // The string style substitutes its quoted text (LAMMPS' variable command: lmp took 'timestep ${s}'
  // as 2e-06 here); an index style keeps it, and lmp refused the timestep '${a}' as dtcrit does.
  const std::string vars = "variable a equal 2e-6\nvariable s string \"${a}\"\nvariable i index \"${a}\"\n";
  CHECK(packing::read_lammps_input(write_file("in.string", head + vars + "timestep ${s}\nrun 10\n")).timestep == 2e-6);
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file("in.index", head + vars + "timestep ${i}\nrun 10\n")),
                    Contains("timestep '${a}'"));
  // Unquoted, $(ke) is substituted when the line is read, as in LAMMPS: a value of the run dtcrit
  // does not have, refused by name; a quote left open is an error naming its line.
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file("in.unquoted", head + "print $(ke)\nrun 10\n")),
                    Contains("in.unquoted:9: formula 'ke'"));
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file("in.unclosed", head + "print \"open\nrun 10\n")),
                    Contains("in.unclosed:9: unbalanced quotes: a double quote is not closed"));
  CHECK_THROWS_WITH(packing::read_lammps_input(write_file("in.triple", head + "print \"\"\"open\nrun 10\n")),
                    Contains("a triple quote (\"\"\") is not closed before the file ends"));
}

TEST_CASE("the diverging step of a frictional script: its limit with normal springs and dashpots only, and the regimes",
          "[lammps][script][cli]") {
  std::ifstream in(lammps_data_dir + "in.hertz");
  std::stringstream text;
  text << in.rdbuf();
  // The same script with every tangential spring and dashpot written as zero (pair and wall alike).
  auto with = [&](const std::string& from, const std::string& to, const std::string& timestep) {
    std::string s = text.str();
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
    s.replace(s.find("variable        dt equal 1e-6"), 29, "variable        dt equal " + timestep);
    return s;
  };
  auto answer = [&](const std::string& name, const std::string& script) {
    const CliRun r = run_cli("packing --lammps-input " + write_file(name, script) + " --lammps-data " + lammps_data_dir +
                                 "settled_hertz.data --integrator velocity_verlet --json",
                             false);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out).at("timestep_check");
  };
  const auto frictional = answer("in.hertz_friction", with("x", "x", "1e-6"));
  const auto normal_only = answer("in.hertz_normal", with("1e8 NULL 3e4 NULL", "1e8 0 3e4 0", "1e-6"));
  const double h_crit = frictional.at("h_crit"), h_diverge = frictional.at("h_diverge");
  // Tangential springs stiffen the packing: its limit is below the normal-only one, which is the
  // diverging step (the same packing, contacts and walls, tangential terms zero).
  CHECK(h_crit < h_diverge);
  CHECK(h_diverge == Approx(normal_only.at("h_crit").get<double>()).epsilon(1e-12));
  CHECK(normal_only.find("h_diverge") == normal_only.end());  // nothing frictional to slide
  CHECK(frictional.at("regime") == "below h_crit");
  // A timestep between the two: friction numerically wrong, the run may go on; above both: diverges.
  const auto between = answer("in.hertz_between", with("x", "x", fmt::format("{:.17g}", 0.5 * (h_crit + h_diverge))));
  CHECK(between.at("verdict") == "UNSAFE");
  CHECK(between.at("regime") == "friction wrong");
  CHECK_THAT(between.at("message").get<std::string>(), Contains("may go on without blowing up"));
  const auto above = answer("in.hertz_above", with("x", "x", fmt::format("{:.17g}", 1.1 * h_diverge)));
  CHECK(above.at("verdict") == "UNSAFE");
  CHECK(above.at("regime") == "diverges");
  CHECK_THAT(above.at("message").get<std::string>(), Contains("the normal contacts themselves are unstable"));
}

TEST_CASE("fix rigid/small molecule in a script: the bodies from a data file's Molecules section", "[lammps][script][clumps]") {
  // Two dimers, one resting on the other along z, as rigid.gravity's data file has them: atom_style
  // sphere with the molecule IDs of fix property/atom mol in a Molecules section. The first `atoms`
  // of them, with the Molecules lines given.
  const std::vector<std::string> atoms{"1 1 1 1000 0 0 0.5 0 0 0", "2 1 1 1000 0.9 0 0.5 0 0 0",
                                       "3 1 1 1000 0 0 1.49 0 0 0", "4 1 1 1000 0.9 0 1.49 0 0 0"};
  auto dimers = [&](const std::string& name, std::size_t count, const std::string& molecules) {
    std::string text = fmt::format("LAMMPS data file via write_data\n\n{} atoms\n1 atom types\n\n-5 5 xlo xhi\n"
                                   "-5 5 ylo yhi\n0 10 zlo zhi\n\nAtoms # sphere\n\n",
                                   count);
    for (std::size_t k = 0; k < count; ++k) text += atoms[k] + "\n";
    return write_file(name, text + "\nMolecules\n\n" + molecules);
  };
  dimers("rigid_dimers.data", 4, "1 1\n2 1\n3 2\n4 2\n");
  const std::string script = write_file("in.rigid_dimers", R"(units si
atom_style sphere
boundary p p f
fix prop all property/atom mol ghost yes
read_data rigid_dimers.data fix prop NULL Molecules
pair_style gran/hooke/history 1e5 NULL 0 NULL 0.5 0
pair_coeff * *
fix rigid all rigid/small molecule mol template gravity grav
fix wall all wall/gran hooke/history 1e5 NULL 0 NULL 0.5 0 zplane 0.0 NULL
timestep 1e-4
run 100
)");
  const CliRun r = run_cli("packing --lammps-input " + script + " --json", false);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("clumps").at("clumps") == 2);
  CHECK(j.at("timestep_check").at("integrator") == "rigid_small");
  // Each dimer's two spheres overlap (left out); the dimers touch at two points, 0.01 m deep, and
  // the top mode is their relative vertical motion: two springs kn in parallel on the reduced mass
  // of two equal bodies, M/2 = one sphere's m = 1000 x 4/3 pi 0.5^3 (undamped: h = 2/omega).
  CHECK(j.at("clumps").at("inner_contacts_left_out") == 2);
  const double m = 1000.0 * 4.0 / 3.0 * std::numbers::pi * 0.125;
  CHECK(j.at("timestep_check").at("h_crit").get<double>() == Approx(2.0 / std::sqrt(2e5 / m)).epsilon(1e-12));
  // A Molecules section that misses an atom, and a rigid fix dtcrit does not integrate, are refused by name.
  const std::string short_data = dimers("rigid_short.data", 2, "1 1\n");
  const CliRun missing = run_cli("packing --lammps-input " + script + " --lammps-data " + short_data);
  CHECK(missing.status != 0);
  CHECK_THAT(missing.out, Contains("atom 2 has no line in the Molecules section"));
  std::string langevin = R"(units si
atom_style sphere
boundary p p f
read_data rigid_dimers.data
pair_style gran/hooke/history 1e5 NULL 0 NULL 0.5 0
pair_coeff * *
fix rigid all rigid/small molecule langevin 1 1 1 1
run 100
)";
  const CliRun thermostat = run_cli("packing --lammps-input " + write_file("in.rigid_langevin", langevin));
  CHECK(thermostat.status != 0);
  CHECK_THAT(thermostat.out, Contains(":7: fix rigid/small keyword 'langevin' is not read by dtcrit"));
}
