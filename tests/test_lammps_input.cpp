// LAMMPS as the peer (tests/data/lammps/, made by make_fixtures.sh with Debian's LAMMPS 29 Sep 2021):
// the input-script reader, the contact-history reader against LAMMPS' own dumps, and the reference
// stepper against a LAMMPS trajectory. Expected values are LAMMPS' numbers or closed forms written
// out here, never the code under test.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "test_support.hpp"
#include "cli_test_support.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/response.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/sweep_case.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using V3 = Eigen::Vector3d;

namespace {


// The rows of the last snapshot of a LAMMPS text dump, by column name (read here independently of
// the library's readers).
struct Dump {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  double at(std::size_t r, const std::string& c) const {
    for (std::size_t k = 0; k < columns.size(); ++k)
      if (columns[k] == c) return rows[r][k];
    FAIL("no column " << c);
    return 0.0;
  }
};
std::vector<Dump> read_dump_snapshots(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::vector<Dump> out;
  std::string line;
  long rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("ITEM: NUMBER OF", 0) == 0) {
      std::getline(in, line);
      rows = std::stol(line);
    } else if (line.rfind("ITEM: ENTRIES", 0) == 0 || line.rfind("ITEM: ATOMS", 0) == 0) {
      Dump d;
      std::istringstream h(line.substr(line.find(':') + 1));
      std::string w;
      h >> w;  // ENTRIES / ATOMS
      while (h >> w) d.columns.push_back(w);
      for (long k = 0; k < rows; ++k) {
        std::getline(in, line);
        std::istringstream r(line);
        std::vector<double> v(d.columns.size());
        for (auto& x : v) r >> x;
        d.rows.push_back(v);
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}


std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "dtcrit_lammps_tests";
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::string write_script(const std::string& name, const std::string& text) {
  const auto p = scratch(name);
  std::ofstream(p) << text;
  return p.string();
}

// A valid script around the checked-in Hertz packing; `extra` is appended.
std::string hertz_script(const std::string& extra = "") {
  return "units si\natom_style sphere\nboundary p p f\nread_data " + lammps_data_dir +
         "settled_hertz.data\npair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1\npair_coeff * *\n"
         "fix integ all nve/sphere\ntimestep 1e-6\n" +
         extra;
}

contact::ContactInput at_rest(const packing::Packing& p, const packing::Contact& c, const contact::History& h) {
  contact::RoundContact rc;
  rc.normal = c.normal;
  rc.overlap = c.overlap;
  rc.ri = p.radius[static_cast<std::size_t>(c.i)];
  rc.wall = c.j < 0;
  double m = p.mass[static_cast<std::size_t>(c.i)];
  if (!rc.wall) {
    rc.rj = p.radius[static_cast<std::size_t>(c.j)];
    rc.distance = rc.ri + rc.rj - c.overlap;
    const double mj = p.mass[static_cast<std::size_t>(c.j)];
    m = m * mj / (m + mj);
  }
  return contact::contact_input(rc, V3::Zero(), V3::Zero(), V3::Zero(), V3::Zero(), m, h);
}

}  // namespace

TEST_CASE("LAMMPS input script: the settled Hertz packing, its law, walls and timestep", "[lammps]") {
  const auto in = packing::read_lammps_input(lammps_data_dir + "in.hertz");
  CHECK(in.timestep == 1e-6);  // via ${dt}
  CHECK_FALSE(in.timestep_default);
  CHECK(in.integrator == "velocity_verlet");
  CHECK(in.packing.size() == 100);
  CHECK(in.packing.periodic == std::array<bool, 3>{true, true, false});
  REQUIRE(in.packing.walls.size() == 1);
  CHECK(in.packing.walls[0].normal == V3::UnitZ());
  CHECK(in.packing.walls[0].point.z() == 0.0);
  // gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1: kt = 2/7 kn, gamma_t = gamma_n / 2 (LAMMPS' NULLs)
  CHECK(in.laws.base.style == contact::Style::gran_hertz_history);
  CHECK(in.laws.base.kn == 1e8);
  CHECK(in.laws.base.kt == 1e8 * 2.0 / 7.0);
  CHECK(in.laws.base.mu == 0.5);
  CHECK(*in.packing.walls[0].law == in.laws.base);
  CHECK_THAT(in.skipped, Catch::Matchers::VectorContains(std::string("fix gravity")));

  // Positions: the data file's, to the last digit (LAMMPS wrote the wall dump at the same state with
  // %.17g; its contact point x, y is the particle's centre).
  const auto wall = read_dump_snapshots(lammps_data_dir + "wall_hertz.dump").back();
  std::map<std::int64_t, V3> centre;
  for (Index i = 0; i < in.packing.size(); ++i) centre[in.packing.atom_id(i)] = in.packing.centre[static_cast<std::size_t>(i)];
  for (std::size_t r = 0; r < wall.rows.size(); ++r) {
    if (wall.at(r, "f_wall[1]") == 0.0) continue;
    const V3 x = centre.at(static_cast<std::int64_t>(wall.at(r, "id")));
    CHECK(x.x() == wall.at(r, "f_wall[5]"));
    CHECK(x.y() == wall.at(r, "f_wall[6]"));
  }
}

TEST_CASE("LAMMPS contact dumps: every contact found, normal forces and histories through the law", "[lammps]") {
  for (const std::string kind : {"hertz", "granular"}) {
    INFO(kind);
    packing::ReadOptions ro;
    ro.periodic = std::array<bool, 3>{true, true, false};
    packing::Packing p = packing::read_lammps_data(lammps_data_dir + "settled_" + kind + ".data", ro);
    packing::sort_spatially(p);  // the ids must survive it
    const std::string law_text =
        kind == "hertz" ? "gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1"
                        : "granular hertz/material 5e7 0.3 0.3 damping tsuji tangential mindlin NULL 1.0 0.5 rolling "
                          "sds 1e3 1e-3 0.3 twisting marshall";
    packing::ContactLaws laws;
    laws.base = contact::parse_lammps_pair(law_text);
    packing::PlaneWall w;
    w.label = "z=0";
    if (kind == "hertz") {
      w.law = laws.base;
    } else {  // fix wall/gran granular hertz/material: LAMMPS' wall conversions (see lammps_input.cpp)
      contact::ContactLaw wl = laws.base;
      wl.kn = 4.0 / 3.0 * 5e7 / (2.0 * (1.0 - 0.3));
      wl.kt = 5e7 / 4.0 * (2.0 - 0.3) * (1.0 + 0.3);
      w.law = wl;
    }
    p.walls.push_back(w);
    auto cs = packing::find_contacts(p, laws);
    const auto pair_dump = read_dump_snapshots(lammps_data_dir + "contacts_" + kind + ".dump").back();
    const auto wall_dump = read_dump_snapshots(lammps_data_dir + "wall_" + kind + ".dump").back();
    Index lammps_walls = 0;
    for (std::size_t r = 0; r < wall_dump.rows.size(); ++r) lammps_walls += wall_dump.at(r, "f_wall[1]") != 0.0;
    // LAMMPS' contact counts.
    CHECK(cs.pair_contacts == static_cast<Index>(pair_dump.rows.size()));
    CHECK(cs.wall_contacts == lammps_walls);

    const auto s = packing::read_lammps_contacts({lammps_data_dir + "contacts_" + kind + ".dump", lammps_data_dir + "wall_" + kind + ".dump"},
                                                 p, cs);
    CHECK(s.pairs_read == cs.pair_contacts);
    CHECK(s.walls_read == cs.wall_contacts);
    CHECK(s.pairs_unmatched + s.walls_unmatched + s.pairs_missing + s.walls_missing == 0);
    CHECK(s.max_distance_mismatch < 1e-15);  // LAMMPS' dist against the data file's positions
    CHECK(s.rolling == (kind == "granular"));

    // Independently of the reader: LAMMPS' rows by atom-id pair, its force on patom1.
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> row_of;
    for (std::size_t r = 0; r < pair_dump.rows.size(); ++r)
      row_of[{static_cast<std::int64_t>(pair_dump.at(r, "c_pl[1]")), static_cast<std::int64_t>(pair_dump.at(r, "c_pl[2]"))}] = r;
    const double mu = laws.base.mu;
    Index at_limit = 0, checked = 0;
    for (std::size_t k = 0; k < cs.contacts.size(); ++k) {
      const auto& c = cs.contacts[k];
      const contact::History& hist = cs.history(k);
      if (c.j < 0) continue;
      REQUIRE(cs.read_history(k));
      const auto a = p.atom_id(c.i), b = p.atom_id(c.j);
      const bool same = row_of.count({a, b}) > 0;
      const std::size_t r = same ? row_of.at({a, b}) : row_of.at({b, a});
      const double sign = same ? 1.0 : -1.0;
      const V3 ft_dumped(pair_dump.at(r, "c_pf[3]"), pair_dump.at(r, "c_pf[4]"), pair_dump.at(r, "c_pf[5]"));
      // granular keeps its history in the tangent plane only to 1e-10 of the cap (pair_granular.cpp
      // compute(): rescaled when it leaves the plane by more): the dumped force has a small normal
      // part, which the law's tangential force has not.
      const V3 n_l = c.normal * sign;
      CHECK(std::abs(ft_dumped.dot(n_l)) <= 1e-6 * ft_dumped.norm());
      const V3 ft = ft_dumped - ft_dumped.dot(n_l) * n_l;
      const double fn = pair_dump.at(r, "c_pf[2]");
      const auto& law = cs.laws[static_cast<std::size_t>(c.law)];
      const auto resp = contact::evaluate(law, at_rest(p, c, hist));
      // The normal force at the overlap of the data file's positions: Hertz k_n a delta (at rest no
      // dashpot), against LAMMPS' F_ntot. delta ~ 1e-7 of d = 1e-3 keeps ~12 digits.
      CHECK_THAT(resp.normal_force, Catch::Matchers::WithinRel(fn, 1e-9));
      // The tangential displacement against the closed form: xi = -F_t / (k_t a), a = sqrt(R delta),
      // k_t = 2/7 k_n (hertz/history NULL) or 8 G* (mindlin NULL, G* = E / (4 (2 - nu)(1 + nu)) for
      // equal materials).
      const double R = p.radius[static_cast<std::size_t>(c.i)] * p.radius[static_cast<std::size_t>(c.j)] /
                       (p.radius[static_cast<std::size_t>(c.i)] + p.radius[static_cast<std::size_t>(c.j)]);
      const double a_c = std::sqrt(R * c.overlap);
      const double kt = kind == "hertz" ? 2.0 / 7.0 * 1e8 : 8.0 * 5e7 / (4.0 * (2.0 - 0.3) * (1.0 + 0.3));
      const bool limit = ft.norm() >= mu * std::abs(fn) * (1.0 - 1e-6);
      if (limit) {
        ++at_limit;
        CHECK(resp.sliding);
        CHECK_THAT(resp.tangential_force.norm(), Catch::Matchers::WithinRel(mu * std::abs(fn), 1e-8));
      } else {
        CHECK((hist.xi_t - (-sign * ft / (kt * a_c))).norm() <= 1e-10 * hist.xi_t.norm());
        // Through the law again: LAMMPS' tangential force to round-off.
        INFO("dtcrit " << resp.tangential_force.transpose() << " lammps " << (sign * ft).transpose() << " sliding " << resp.sliding << " fn " << resp.normal_force << " " << fn);
        CHECK((resp.tangential_force - sign * ft).norm() <= 1e-10 * ft.norm());
        ++checked;
      }
      if (kind == "granular") {  // rolling sds: F_r = -k_r xi_r, even in the order of the pair
        const V3 fr_dumped(pair_dump.at(r, "c_pf[6]"), pair_dump.at(r, "c_pf[7]"), pair_dump.at(r, "c_pf[8]"));
        const V3 fr = fr_dumped - fr_dumped.dot(c.normal) * c.normal;
        if (fr.norm() < 0.3 * std::abs(fn) * (1.0 - 1e-6)) {
          CHECK((hist.xi_r - (-fr / 1e3)).norm() <= 1e-10 * hist.xi_r.norm() + 1e-300);
          CHECK((resp.rolling_force - fr).norm() <= 1e-10 * fr.norm() + 1e-300);
        }
      }
    }
    CHECK(s.sliding >= at_limit);
    CHECK(checked > 0);
    // Wall contacts: LAMMPS' total force on the particle, normal and tangential, through the wall law.
    std::map<std::int64_t, std::size_t> wall_row;
    for (std::size_t r = 0; r < wall_dump.rows.size(); ++r)
      if (wall_dump.at(r, "f_wall[1]") != 0.0) wall_row[static_cast<std::int64_t>(wall_dump.at(r, "id"))] = r;
    for (std::size_t k = 0; k < cs.contacts.size(); ++k) {
      const auto& c = cs.contacts[k];
      const contact::History& hist = cs.history(k);
      if (c.j >= 0) continue;
      REQUIRE(cs.read_history(k));
      const std::size_t r = wall_row.at(p.atom_id(c.i));
      const V3 f(wall_dump.at(r, "f_wall[2]"), wall_dump.at(r, "f_wall[3]"), wall_dump.at(r, "f_wall[4]"));
      const auto resp = contact::evaluate(*p.walls[0].law, at_rest(p, c, hist));
      CHECK_THAT(resp.normal_force, Catch::Matchers::WithinRel(f.z(), 1e-9));
      const V3 ft(f.x(), f.y(), 0.0);
      if (ft.norm() < mu * std::abs(f.z()) * (1.0 - 1e-6)) CHECK((resp.tangential_force - ft).norm() <= 1e-10 * ft.norm());
    }
  }
}

TEST_CASE("LAMMPS input script: errors name the file and the line", "[lammps]") {
  struct Bad {
    std::string text, expect;
  };
  const std::vector<Bad> bad{
      {"units metal\n", ":1: units metal: not a mechanical unit system"},
      {hertz_script("pair_style lj/cut 2.5\n"), ":9: pair style 'lj/cut' is not supported"},
      {"units si\natom_style sphere\npair_style lj/cut 2.5\n", ":3: pair style 'lj/cut' is not supported"},
      {hertz_script("fix r all rigid single\n"), ":9: fix rigid"},
      {hertz_script("fix w all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 zcylinder 0.01\n"), ":9: fix wall/gran zcylinder"},
      {hertz_script("fix w all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 xplane 0 NULL\n"), ":9: xplane on the periodic axis x"},
      {hertz_script("fix w all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 zplane 0 NULL wiggle z 1e-4 1\n"), ":9: fix wall/gran keyword 'wiggle'"},
      {hertz_script("timestep ${dt}\n"), ":9: variable 'dt' is used but not defined"},
      {hertz_script("variable dt equal 2*v_x\ntimestep ${dt}\n"), ":10: formula '2*v_x': variable 'x' is not defined"},
      {hertz_script("set type 1 diameter 0.002\n"), ":9: set changes the particles"},
      {hertz_script("frobnicate 3\n"), ":9: command 'frobnicate'"},
      {hertz_script("run_style respa 2 2\n"), ":9: run_style 'respa 2 2'"},
      {"units si\natom_style sphere\nboundary p p f\nread_data " + lammps_data_dir +
           "settled_hertz.data\npair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1\npair_coeff * *\n",
       ":6: no fix nve/sphere"},
      {"units si\natom_style sphere\nboundary p p f\nread_data " + lammps_data_dir +
           "settled_hertz.data\npair_style granular\npair_coeff * * hertz/material 5e7 0.3 0.3 tangential "
           "mindlin NULL 1.0 0.5 bogus\nfix i all nve/sphere\n",
       ":6:"},
  };
  for (std::size_t k = 0; k < bad.size(); ++k) {
    const std::string path = write_script("bad" + std::to_string(k) + ".in", bad[k].text);
    INFO(bad[k].text);
    REQUIRE_THROWS_WITH(packing::read_lammps_input(path), Contains(path + bad[k].expect));
  }
  // Without a timestep line: LAMMPS' si default, flagged.
  const auto in = packing::read_lammps_input(write_script("no_dt.in", "units si\natom_style sphere\nboundary p p f\nread_data " +
                                                                      lammps_data_dir + "settled_hertz.data\npair_style gran/hooke/history 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\nfix i all nve/sphere\n"));
  CHECK(in.timestep == 1e-8);
  CHECK(in.timestep_default);
}

TEST_CASE("dtcrit packing --lammps-input: is my timestep safe?", "[lammps][cli]") {
  const std::string args = "packing --lammps-input " + lammps_data_dir + "in.hertz --lammps-contacts " + lammps_data_dir +
                           "contacts_hertz.dump --lammps-contacts " + lammps_data_dir + "wall_hertz.dump --integrator velocity_verlet";
  const CliRun r = run_cli(args + " --json", false);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& check = j.at("timestep_check");
  double h_crit = 0.0;
  h_crit = j.at("integrators").at("velocity_verlet").at("h_crit").get<double>();
  REQUIRE(h_crit > 0.0);
  CHECK(check.at("timestep").get<double>() == 1e-6);
  CHECK(check.at("h_crit").get<double>() == h_crit);
  CHECK(check.at("ratio").get<double>() == 1e-6 / h_crit);
  // The contact dumps make K non-symmetric. 600 dofs are within --crossing-check-dofs: the -1 crossing
  // is checked for complex crossings below it, so h_crit is the limit itself (not an upper bound) and
  // a timestep below it is SAFE.
  CHECK_FALSE(j.at("integrators").at("velocity_verlet").at("upper_bound").get<bool>());
  CHECK_THAT(j.at("integrators").at("velocity_verlet").at("method").get<std::string>(),
             Contains("no complex crossing found below it"));
  CHECK(j.at("h_exact_upper_bound") == false);
  CHECK(check.at("verdict") == (1e-6 < h_crit ? "SAFE" : "UNSAFE"));
  CHECK(j.at("contact_histories").at("pairs_read").get<long>() == 209);
  CHECK(j.at("contact_histories").at("walls_read").get<long>() == 31);

  // The same packing with 1.5 x its limit: UNSAFE, still exit 0 (the verdict is the answer).
  // in.hertz's packing and wall (gravity and output do not matter), 1.5 h_crit as its timestep.
  const std::string wall = "fix wall all wall/gran hertz/history 1e8 NULL 3e4 NULL 0.5 1 zplane 0.0 NULL\n";
  const std::string unsafe = write_script("unsafe.in", hertz_script(wall).replace(hertz_script().find("timestep 1e-6"), 13,
                                                                                   fmt::format("timestep {:.17g}", 1.5 * h_crit)));
  const CliRun u = run_cli("packing --lammps-input " + unsafe + " --integrator velocity_verlet");
  CHECK(u.status == 0);
  CHECK_THAT(u.out, Contains("UNSAFE: timestep is 1.5 times the critical step"));
  CHECK_THAT(u.out, Contains("contact histories: none read (zero, sticking)"));
  const CliRun t = run_cli(args);
  CHECK_THAT(t.out, Contains(1e-6 < h_crit ? "SAFE: timestep is" : "UNSAFE"));

  // What the script gives is an error when given again.
  const CliRun c = run_cli("packing --lammps-input " + lammps_data_dir + "in.hertz --kn 1e5");
  CHECK(c.status != 0);
  CHECK_THAT(c.out, Contains("--kn conflicts with --lammps-input"));
  const CliRun b = run_cli("packing --lammps-input " + write_script("bad.in", "units real\n"));
  CHECK(b.status != 0);
  CHECK_THAT(b.out, Contains("bad.in:1: units real"));
}

TEST_CASE("reference stepper against LAMMPS: two spheres, gran/hooke/history, 100 steps", "[lammps][stepper]") {
  // in.two_spheres: d = 1 mm, rho = 2500, an oblique collision with spins; LAMMPS' fix nve/sphere
  // (velocity Verlet with the force at v_{n+1/2}), dumped every step with %.17g.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "two_spheres.dump");
  REQUIRE(snaps.size() == 101);
  const double r = 5e-4, m = 4.0 * M_PI / 3.0 * r * r * r * 2500.0, h = 1.5e-7;
  stepper::ParticleSystem sys(3, contact::parse_lammps_pair("gran/hooke/history 1e5 NULL 2e5 NULL 0.3 1"));
  for (int k = 0; k < 2; ++k) sys.add_particle(r, m, 0.4 * m * r * r);
  Vector x = Vector::Zero(sys.dofs()), v = Vector::Zero(sys.dofs());
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& s = snaps[0];
    sys.set_centre(x, static_cast<Index>(i), {s.rows[i][1], s.rows[i][2], s.rows[i][3]});
    for (int d = 0; d < 3; ++d) v[static_cast<Index>(6 * i) + d] = s.rows[i][4 + static_cast<std::size_t>(d)];
    sys.set_spin(v, static_cast<Index>(i), {s.rows[i][7], s.rows[i][8], s.rows[i][9]});
  }
  const auto integ = make_integrator("velocity_verlet");
  integ->start(sys, 0.0, x, v, h);
  double worst_x = 0.0, worst_v = 0.0, worst_w = 0.0;
  bool touched = false;
  for (std::size_t n = 1; n <= 100; ++n) {
    integ->step(sys);
    const auto& s = snaps[n];
    for (std::size_t i = 0; i < 2; ++i) {
      const V3 xl(s.rows[i][1], s.rows[i][2], s.rows[i][3]);
      const V3 vl(s.rows[i][4], s.rows[i][5], s.rows[i][6]);
      const V3 wl(s.rows[i][7], s.rows[i][8], s.rows[i][9]);
      const V3 xd = sys.centre(integ->position(), static_cast<Index>(i));
      const V3 vd = integ->velocity().segment<3>(static_cast<Index>(6 * i));
      const V3 wd = sys.spin(integ->velocity(), static_cast<Index>(i));
      worst_x = std::max(worst_x, (xd - xl).norm() / r);      // relative to the radius
      worst_v = std::max(worst_v, (vd - vl).norm() / 1.0);    // relative to the impact speed, 1 m/s
      worst_w = std::max(worst_w, (wd - wl).norm() / 300.0);  // relative to the largest initial spin
    }
    touched = touched || (sys.centre(integ->position(), 0) - sys.centre(integ->position(), 1)).norm() < 2 * r;
  }
  CHECK(touched);  // the collision happens within the 100 steps
  INFO("position " << worst_x << ", velocity " << worst_v << ", spin " << worst_w);
  CHECK(worst_x < 1e-12);
  CHECK(worst_v < 1e-12);
  CHECK(worst_w < 1e-12);
}

TEST_CASE("a LAMMPS script on a non-symmetric damped packing: the -1 crossing, checked or an upper bound",
          "[lammps][cli][nonsymmetric]") {
  // in.granular: the 100 spheres in.pour_granular settled (granular hertz/material, Mindlin, rolling
  // sds, twisting marshall, damping tsuji): K is not symmetric (torque arm r - delta/2), 600 dofs.
  // Above --crossing-check-dofs the verdict and the recommended step say that the limit is the -1
  // crossing, an upper bound; never an estimate.
  const CliRun r = run_cli("packing --lammps-input " + lammps_data_dir + "in.granular --integrator velocity_verlet "
                           "--crossing-check-dofs 0 --json", false);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& vv = j["integrators"]["velocity_verlet"];
  CHECK(vv["upper_bound"] == true);
  CHECK(vv["exact"] == true);
  const double h = vv["h_crit"];
  // Damping lowers the limit below the undamped 2 / omega_max.
  CHECK(h < j["estimates"]["two_over_omega_max"]["seconds"].get<double>());
  CHECK(j["timestep_check"]["h_crit"].get<double>() == h);
  CHECK(j["timestep_check"]["h_crit_upper_bound"] == true);
  CHECK_THAT(j["timestep_check"]["message"].get<std::string>(), Contains("an upper bound of the limit"));
  // Below an upper bound nothing is proven: neither SAFE nor a recommended step.
  CHECK(j["timestep_check"]["ratio"].get<double>() < 1.0);
  CHECK(j["timestep_check"]["verdict"] == "UNKNOWN");
  CHECK(j["recommended_step"]["h_crit_upper_bound"] == true);
  CHECK(j["recommended_step"]["h_recommended"].is_null());
  // The bounds table's ratios are to that upper bound, and say so.
  CHECK(j["h_exact_upper_bound"] == true);
  const CliRun text = run_cli("packing --lammps-input " + lammps_data_dir + "in.granular --integrator velocity_verlet "
                              "--crossing-check-dofs 0", false);
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Contains("ratio to h_crit") && Contains("an upper bound of its limit") &&
                           !Contains("ratio to exact") && !Contains("step / exact velocity_verlet"));
}

// ---------------------------------------------------------------------------------------------------
// Chung & Ooi (2011) benchmark Tests 1-4 (Granular Matter 13:643, doi 10.1007/s10035-011-0277-0; the
// numbers as in Yade's Test1.py-Test4.py) run by LAMMPS 29 Sep 2021 (tests/data/lammps/in.chung_ooi_*,
// make_fixtures.sh), every step dumped with %.17g, and followed by dtcrit's reference stepper at the
// same h from the dump's first snapshot.
//
// What LAMMPS 29 Sep 2021 does with `fix wall/gran granular hertz/material E c nu ...`. Read in
// lammps/lammps src/GRANULAR/fix_wall_gran.cpp as stored at commit 02e2e22, a version older than 29 Sep
// 2021 (before the 2023 refactor into granular_model.cpp; the whole repository, 725 MB, was too large
// to fetch for its 2021 history): the constructor FixWallGran::FixWallGran, init() and granular().
// Every point these tests use is confirmed for the installed 29 Sep 2021 binary by its dumps.
// - normal: the constructor stores k_n = 4/3 E/(2(1 - nu)) from the fix's own E and nu. The wall has no
//   material of its own, and this is neither a rigid plane (Chung & Ooi: E* = E/(1 - nu^2)) nor a wall
//   of the particle's material (E* = E/(2(1 - nu^2)), what pair_granular.cpp coeff() stores for two
//   spheres of one type). granular() takes R_eff = r_i for a flat wall (rwall = 0) and m_eff = m_i
//   (rmass, or the rigid body's mass), the contact-point velocity with the arm r_i and the tangential
//   force's torque arm r_i (pairs: r_i - delta/2). Measured in Test 2 from LAMMPS' dump alone:
//   E* = E/(2(1 - nu)) to 3e-9 with R = r and m the atom's mass.
// - damping: the pair style's sub-models with these m_eff and a = sqrt(r_i delta); `tsuji` (prefactor
//   sqrt(m_eff k_n a)) turns the restitution into Tsuji's polynomial in init(), in place, so every run
//   command converts the converted value again (the last test case: a second run damps with the
//   polynomial applied twice). Upstream discussion of the wall's modulus: lammps/lammps issue #4141.
// - tangential mindlin: stiffness k_t a; a NULL k_t is stored as E/4 (2 - nu)(1 + nu) (the expression's
//   precedence: not pair_granular's 8 G* = 2E/((2 - nu)(1 + nu)) nor the rigid plane's
//   4E/((2 - nu)(1 + nu))); the tangential dashpot x_gammat times the normal one; the Coulomb cap
//   mu |F_n| with the dashpot in F_n, the history reset onto the cap as for pairs. Test 4 tells these
//   apart: with 8 G* on the wall the stepper leaves LAMMPS' velocities by 2.5 % of the impact speed.
// contact::parse_lammps_wall_granular() and the stepper's walls model exactly this: the trajectories
// below agree to rounding at every step.
namespace {

struct FollowResult {
  double x = 0.0, v = 0.0, w = 0.0;  // worst |difference| over the compared steps, relative
  long first_contact = -1, last_contact = -1;  // first and last step with a contact in dtcrit
  long lammps_first = -1, lammps_last = -1;    // the same in LAMMPS' dump (an overlap of its positions)
};

// Follows the dump's rows `rows` (atoms sorted by id) with sys (particle k <-> rows[k]) from snapshot
// `first` for every later snapshot, h apart; positions relative to the radius, velocities to `speed`,
// spins to speed / radius.
FollowResult follow_lammps(const std::vector<Dump>& snaps, stepper::ParticleSystem& sys,
                           const std::vector<std::size_t>& rows, double h, double speed, std::size_t first = 0) {
  REQUIRE(static_cast<Index>(rows.size()) == sys.particle_count());
  Vector x = Vector::Zero(sys.dofs()), v = Vector::Zero(sys.dofs());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& s = snaps[first].rows[rows[k]];
    const auto i = static_cast<Index>(k);
    sys.set_centre(x, i, {s[1], s[2], s[3]});
    for (int d = 0; d < 3; ++d) v[6 * i + d] = s[4 + static_cast<std::size_t>(d)];
    sys.set_spin(v, i, {s[7], s[8], s[9]});
  }
  const auto integ = make_integrator("velocity_verlet");
  integ->start(sys, 0.0, x, v, h);
  FollowResult res;
  for (std::size_t n = first + 1; n < snaps.size(); ++n) {
    integ->step(sys);
    bool touching = false, lammps_touching = false;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const auto i = static_cast<Index>(k);
      const auto& s = snaps[n].rows[rows[k]];
      const double r = sys.radius(i);
      const V3 xd = sys.centre(integ->position(), i);
      res.x = std::max(res.x, (xd - V3(s[1], s[2], s[3])).norm() / r);
      res.v = std::max(res.v, (V3(integ->velocity().segment<3>(6 * i)) - V3(s[4], s[5], s[6])).norm() / speed);
      res.w = std::max(res.w, (sys.spin(integ->velocity(), i) - V3(s[7], s[8], s[9])).norm() * r / speed);
      const V3 xl(s[1], s[2], s[3]);
      for (const auto& wall : sys.walls()) {
        touching = touching || r - (xd - wall.point).dot(wall.normal) > 0.0;
        lammps_touching = lammps_touching || r - (xl - wall.point).dot(wall.normal) > 0.0;
      }
      for (Index j = i + 1; j < sys.particle_count(); ++j) {
        const auto& t = snaps[n].rows[rows[static_cast<std::size_t>(j)]];
        touching = touching || (xd - sys.centre(integ->position(), j)).norm() < r + sys.radius(j);
        lammps_touching = lammps_touching || (xl - V3(t[1], t[2], t[3])).norm() < r + sys.radius(j);
      }
    }
    const long step = static_cast<long>(n);
    if (touching) {
      if (res.first_contact < 0) res.first_contact = step;
      res.last_contact = step;
    }
    if (lammps_touching) {
      if (res.lammps_first < 0) res.lammps_first = step;
      res.lammps_last = step;
    }
  }
  return res;
}

// The stepper followed LAMMPS to rounding over one collision: the same contact steps, the collision
// after snapshot `apart` and a few steps of free flight after it, every compared step within 1e-12.
void check_followed(const FollowResult& res, std::size_t snapshots, long apart = 1) {
  CHECK(res.first_contact == res.lammps_first);
  CHECK(res.last_contact == res.lammps_last);
  CHECK(res.lammps_first > apart);
  CHECK(res.lammps_last + 5 < static_cast<long>(snapshots) - 1);
  CHECK(res.x < 1e-12);
  CHECK(res.v < 1e-12);
  CHECK(res.w < 1e-12);
}

double lammps_sphere_mass(double r, double rho) { return 4.0 * M_PI / 3.0 * r * r * r * rho; }  // set density

// The granular words of a pair_coeff / fix wall/gran line, after the type columns or "granular".
std::vector<std::string> split(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string t; in >> t;) w.push_back(t);
  return w;
}

// The law LAMMPS' `fix wall/gran granular COEFFS` gives its contacts.
contact::ContactLaw lammps_wall(const std::string& coeffs) {
  return contact::parse_lammps_wall_granular(split(coeffs), "fix wall/gran");
}

// `count` spheres of radius r and density rho under the pair law `granular COEFFS`, and the plane z = 0
// (normal +z) with the law `wall`.
stepper::ParticleSystem spheres_on_plane(const std::string& coeffs, double r, double rho, int count,
                                         const contact::ContactLaw& wall) {
  stepper::ParticleSystem sys(3, contact::parse_lammps_pair("granular " + coeffs));
  const double m = lammps_sphere_mass(r, rho);
  for (int k = 0; k < count; ++k) sys.add_particle(r, m, 0.4 * m * r * r);
  sys.add_wall({0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, wall);
  return sys;
}

}  // namespace

TEST_CASE("reference stepper against LAMMPS: Chung & Ooi Test 1, two spheres, hertz/material",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_1: r = 10 mm, +-10 m/s head on, glass (atoms 1-2) and limestone (atoms 3-4), no
  // damping, h = 5e-7 s, 118 steps. Pair contacts: E* = E/(2(1 - nu^2)), torque arm r - delta/2.
  // Measured (build/tests/dtcrit_tests "[chung-ooi]" -s): the positions equal LAMMPS' to the last bit,
  // the velocities within 5.8e-17 (glass) and 3.6e-16 (limestone) of 10 m/s; contact at steps 3-83 and
  // 3-110 in both codes.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_1.dump");
  REQUIRE(snaps.size() == 119);
  const double r = 0.01, h = 5e-7;
  struct Case { std::string coeffs; double rho; std::size_t row; };
  for (const Case& c : {Case{"hertz/material 4.8e10 0.0 0.20 tangential mindlin NULL 0.0 0.0", 2800.0, 0},
                        Case{"hertz/material 2.0e10 0.0 0.25 tangential mindlin NULL 0.0 0.0", 2500.0, 2}}) {
    stepper::ParticleSystem sys(3, contact::parse_lammps_pair("granular " + c.coeffs));
    const double m = lammps_sphere_mass(r, c.rho);
    for (int k = 0; k < 2; ++k) sys.add_particle(r, m, 0.4 * m * r * r);
    const FollowResult res = follow_lammps(snaps, sys, {c.row, c.row + 1}, h, 10.0);
    INFO(c.coeffs << ": position " << res.x << ", velocity " << res.v << ", spin " << res.w << "; contact steps "
                  << res.first_contact << "-" << res.last_contact << ", LAMMPS " << res.lammps_first << "-"
                  << res.lammps_last);
    check_followed(res, snaps.size());
  }
}

TEST_CASE("reference stepper against LAMMPS: Chung & Ooi Test 2, a sphere on fix wall/gran granular",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_2: r = 0.1 m at 0.2 m/s onto the plane z = 0, no damping, aluminium alloy (atom 1)
  // and magnesium alloy (atom 2), h = 1e-5 s, 100 steps; the law of the wall is
  // parse_lammps_wall_granular() of the fix's words (the comment above these tests).
  // Measured: E* from the dump within 2.1e-9 (aluminium) and 3.1e-9 (magnesium) of E/(2(1 - nu));
  // the stepper's positions within 1.4e-16 r, velocities within 5.6e-16 (aluminium) and 1.6e-13
  // (magnesium) of 0.2 m/s: the overlap (at most 6e-5 m, chung_ooi_summary.py) is r minus z = 0.1 m,
  // whose last bit (1.4e-17 m) is 2e-13 of it, so rounding of z alone moves the force that much.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_2.dump");
  REQUIRE(snaps.size() == 101);
  const double r = 0.1, h = 1e-5;
  struct Case { std::string coeffs; double E, nu, rho; std::size_t row; };
  for (const Case& c :
       {Case{"hertz/material 7.0e10 0.0 0.30 tangential mindlin NULL 0.0 0.0", 7.0e10, 0.30, 2699.0, 0},
        Case{"hertz/material 4.0e10 0.0 0.35 tangential mindlin NULL 0.0 0.0", 4.0e10, 0.35, 1800.0, 1}}) {
    // LAMMPS' own normal stiffness, measured from its dump alone: fix nve/sphere moves
    // z_{n+1} = z_n + h v_n + h^2/2 a_n, so a_n = 2 (z_{n+1} - z_n - h v_n)/h^2, and an undamped
    // Hertz contact on a plane gives E* = 3 m a_n / (4 sqrt(R) delta_n^{3/2}). With R = r and m the
    // atom's mass it is E/(2(1 - nu)) at every step of the collision's core (delta > delta_max/10),
    // 0.65 and 1.3 times the rigid plane's E/(1 - nu^2) and the own-material wall's E/(2(1 - nu^2)).
    const double m = lammps_sphere_mass(r, c.rho), wall_E = c.E / (2.0 * (1.0 - c.nu));
    double delta_max = 0.0;
    for (const auto& s : snaps) delta_max = std::max(delta_max, r - s.rows[c.row][3]);
    double worst_E = 0.0;
    int measured = 0;
    for (std::size_t n = 0; n + 1 < snaps.size(); ++n) {
      const auto &s = snaps[n].rows[c.row], &s1 = snaps[n + 1].rows[c.row];
      const double delta = r - s[3];
      if (delta < 0.1 * delta_max) continue;
      const double a = 2.0 * (s1[3] - s[3] - h * s[6]) / (h * h);
      worst_E = std::max(worst_E, std::abs(3.0 * m * a / (4.0 * std::sqrt(r) * std::pow(delta, 1.5)) / wall_E - 1.0));
      ++measured;
    }
    INFO(c.coeffs << ": E* from LAMMPS' dump / (E/(2(1 - nu))) - 1 at most " << worst_E << " over " << measured
                  << " steps");
    CHECK(measured > 50);
    CHECK(worst_E < 1e-6);

    stepper::ParticleSystem sys = spheres_on_plane(c.coeffs, r, c.rho, 1, lammps_wall(c.coeffs));
    const FollowResult res = follow_lammps(snaps, sys, {c.row}, h, 0.2);
    INFO("position " << res.x << ", velocity " << res.v << ", spin " << res.w << "; contact steps "
                     << res.first_contact << "-" << res.last_contact << ", LAMMPS " << res.lammps_first << "-"
                     << res.lammps_last);
    check_followed(res, snaps.size());
  }
}

TEST_CASE("reference stepper against LAMMPS: Chung & Ooi Test 3, damping tsuji on a wall",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_3: r = 2.5 mm at 3.9 m/s onto the plane z = 0, `damping tsuji` with e = 0.2 and 0.5
  // (aluminium oxide, atoms 1-2) and 0.5 (cast iron, atom 3), h = 1e-7 s, 175 steps.
  // Measured: positions equal to the last bit, velocities within 1.1e-16, 2.3e-16 and 3.4e-16 of
  // 3.9 m/s. LAMMPS' rebound is 0.3408, 0.6160 and 0.6154 of the impact speed, not the e given
  // (Tsuji's polynomial in LAMMPS' damping; lib/dtcrit/contact/README.md).
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_3.dump");
  REQUIRE(snaps.size() == 176);
  const double r = 2.5e-3, h = 1e-7;
  struct Case { std::string coeffs; double rho; std::size_t row; };
  for (const Case& c :
       {Case{"hertz/material 3.8e11 0.2 0.23 damping tsuji tangential mindlin NULL 0.0 0.0", 4000.0, 0},
        Case{"hertz/material 3.8e11 0.5 0.23 damping tsuji tangential mindlin NULL 0.0 0.0", 4000.0, 1},
        Case{"hertz/material 1.0e11 0.5 0.25 damping tsuji tangential mindlin NULL 0.0 0.0", 7000.0, 2}}) {
    stepper::ParticleSystem sys = spheres_on_plane(c.coeffs, r, c.rho, 1, lammps_wall(c.coeffs));
    const FollowResult res = follow_lammps(snaps, sys, {c.row}, h, 3.9);
    INFO(c.coeffs << ": position " << res.x << ", velocity " << res.v << ", spin " << res.w << "; contact steps "
                  << res.first_contact << "-" << res.last_contact << ", LAMMPS " << res.lammps_first << "-"
                  << res.lammps_last << "; LAMMPS' rebound speed / impact speed "
                  << snaps.back().rows[c.row][6] / -snaps[0].rows[c.row][6]);
    check_followed(res, snaps.size());
  }
}

TEST_CASE("sweep case chung-ooi-3 with lammps=1 is the collision LAMMPS runs in in.chung_ooi_3", "[lammps][chung-ooi]") {
  // The case's reference outcomes (the law's impact, integrated) against what LAMMPS measured at
  // h = 1e-7 s (~t_c / 78) for aluminium oxide, e = 0.5 (atom 2) and cast iron, e = 0.5 (atom 3): the
  // contact lasts as many steps as the integrated duration within one step, and the rebound is the
  // law's restitution within 1e-3 (velocity Verlet's error at that step). A rigid plane (lammps=0's
  // 2E) would last 18 % shorter; EDEM's damping would rebound at 0.5.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_3.dump");
  const double r = 2.5e-3, h = 1e-7;
  struct Case { std::string set; std::size_t row; };
  for (const Case& c : {Case{"lammps=1,restitution=0.5", 1},
                        Case{"lammps=1,restitution=0.5,youngs=1e11,poisson=0.25,density=7000", 2}}) {
    const auto co = sweep::make_case("chung-ooi-3", sweep::CaseOptions{KeyValues(c.set, "--set"), "traditional", true});
    const auto exact = co->exact_outcomes(0.0);
    long steps = 0;  // snapshots in contact: centre closer to the plane z = 0 than r
    for (const auto& s : snaps) steps += s.rows[c.row][3] < r;
    const double rebound = snaps.back().rows[c.row][6] / -snaps[0].rows[c.row][6];
    INFO(c.set << ": LAMMPS " << steps << " steps in contact, rebound " << rebound << "; case duration / h "
               << exact.at("contact_duration") / h << ", restitution " << exact.at("restitution"));
    CHECK(std::abs(exact.at("contact_duration") / h - static_cast<double>(steps)) < 1.0);
    CHECK_THAT(exact.at("restitution"), WithinAbs(rebound, 1e-3));
  }
}

TEST_CASE("reference stepper against LAMMPS: Chung & Ooi Test 4, oblique impacts with Mindlin friction",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_4: r = 2.5 mm, aluminium oxide, 3.9 m/s at 10 degrees (atom 1) and 45 degrees (atom 2)
  // from the normal onto the plane z = 0, mu = 0.092, e = 0.98 (tsuji), tangential mindlin NULL with
  // x_gammat = 1, h = 1e-7 s, 88 steps; both spheres in one system with one wall.
  // Measured: positions equal to the last bit, velocities within 3.4e-16 of 3.9 m/s, spins within
  // 1.5e-16 of 3.9 m/s / r; LAMMPS' impulse ratio 0.0448 at 10 degrees and 0.092 (to 1e-9) at 45.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_4.dump");
  REQUIRE(snaps.size() == 89);
  const double r = 2.5e-3, h = 1e-7, mu = 0.092;
  const std::string coeffs = "hertz/material 3.8e11 0.98 0.23 damping tsuji tangential mindlin NULL 1.0 0.092";
  // The regimes, from LAMMPS' dump alone: the tangential and normal impulses (velocity changes over
  // the run). At 45 degrees every contact step is on the Coulomb cap, so their ratio is mu; at 10
  // degrees the contact sticks in part and the ratio stays below mu.
  const auto impulse_ratio = [&](std::size_t row) {
    const auto &a = snaps.front().rows[row], &b = snaps.back().rows[row];
    return std::abs(b[4] - a[4]) / std::abs(b[6] - a[6]);
  };
  INFO("tangential / normal impulse in LAMMPS: 10 degrees " << impulse_ratio(0) << ", 45 degrees " << impulse_ratio(1));
  CHECK(impulse_ratio(0) < 0.6 * mu);
  CHECK(std::abs(impulse_ratio(1) / mu - 1.0) < 1e-9);

  stepper::ParticleSystem sys = spheres_on_plane(coeffs, r, 4000.0, 2, lammps_wall(coeffs));
  const FollowResult res = follow_lammps(snaps, sys, {0, 1}, h, 3.9);
  INFO("position " << res.x << ", velocity " << res.v << ", spin " << res.w << " (relative to 3.9 m/s / r); contact "
                   << "steps " << res.first_contact << "-" << res.last_contact << ", LAMMPS " << res.lammps_first
                   << "-" << res.lammps_last << "; final spins " << snaps.back().rows[0][8] << ", "
                   << snaps.back().rows[1][8] << " rad/s");
  check_followed(res, snaps.size());
  CHECK(snaps.back().rows[0][8] > 100.0);  // both leave spinning about y
  CHECK(snaps.back().rows[1][8] > 100.0);

  // The comparison tells the wall laws apart: the same run with the wall's k_t replaced by pair_granular's
  // 8 G* (all else LAMMPS' wall law), or with the pair law itself on the wall (k_n = 4/3 E/(2(1 - nu^2))
  // too), leaves LAMMPS' trajectory by far more than rounding.
  for (const bool whole_pair_law : {false, true}) {
    const contact::ContactLaw pair_law = contact::parse_lammps_pair("granular " + coeffs);
    contact::ContactLaw wall_law = lammps_wall(coeffs);
    if (whole_pair_law) wall_law = pair_law;
    else wall_law.kt = pair_law.kt;
    stepper::ParticleSystem other = spheres_on_plane(coeffs, r, 4000.0, 2, wall_law);
    const FollowResult off = follow_lammps(snaps, other, {0, 1}, h, 3.9);
    INFO((whole_pair_law ? "the pair law on the wall" : "k_t = 8 G* on the wall")
         << ": position " << off.x << ", velocity " << off.v << ", spin " << off.w);
    CHECK(off.v > 1e-3);
    CHECK(off.w > 1e-3);
  }
}

TEST_CASE("reference stepper against LAMMPS: Chung & Ooi Tests 6 and 8, spinning spheres with friction",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_6: r = 0.1 m, aluminium alloy, 0.2 m/s onto the plane z = 0, spinning so that the
  // contact point slips at 0.2 tan(angle), 80 degrees (atom 1) and 30 degrees (atom 2); mu = 0.4, tsuji
  // e = 0.5, tangential mindlin NULL, h = 1e-5 s, 110 steps. in.chung_ooi_8: the same sphere against a
  // sphere r = 0.5 m at rest (E = 7e13 Pa, rho = 2.7e6), the pair's law written with the one modulus
  // 2 E1 E2 / (E1 + E2) (chung-ooi-8's law), 80 degrees (atoms 1-2) and 30 degrees (atoms 3-4), 100 steps.
  // Measured: the stepper follows both to rounding. LAMMPS' tangential impulse at 80 degrees, where the
  // contact point slips throughout: 0.8716 mu times the normal impulse on the wall, 1.0057 on the sphere
  // (tests/data/lammps/chung_ooi_summary.py). The wall's friction leaves the Coulomb cap: while the
  // dashpot alone exceeds the cap, LAMMPS resets the history onto it so that the spring holds the
  // dashpot's excess, and as the Mindlin stiffness k_t a grows that stored force pulls the friction
  // below the cap for much of the compression. The closed form of sliding throughout (mu times the
  // normal impulse) holds only where damping is weak (Test 4, e = 0.98: 0.092 to 1e-9).
  const std::string coeffs = "hertz/material 7.0e10 0.5 0.33 damping tsuji tangential mindlin NULL 1.0 0.4";
  {
    const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_6.dump");
    REQUIRE(snaps.size() == 111);
    const auto impulse_ratio = [&](std::size_t row) {
      const auto &a = snaps.front().rows[row], &b = snaps.back().rows[row];
      return std::abs(b[4] - a[4]) / std::abs(b[6] - a[6]) / 0.4;
    };
    INFO("Test 6: tangential / (mu normal) impulse in LAMMPS: 80 degrees " << impulse_ratio(0) << ", 30 degrees "
                                                                          << impulse_ratio(1));
    CHECK(impulse_ratio(0) < 0.9);  // off the cap although the contact point slips throughout
    CHECK(impulse_ratio(1) < 0.3);
    stepper::ParticleSystem sys = spheres_on_plane(coeffs, 0.1, 2700.0, 2, lammps_wall(coeffs));
    const FollowResult res = follow_lammps(snaps, sys, {0, 1}, 1e-5, 0.2);
    INFO("Test 6: position " << res.x << ", velocity " << res.v << ", spin " << res.w << " (relative to 0.2 m/s / r); "
                             << "contact steps " << res.first_contact << "-" << res.last_contact << ", LAMMPS "
                             << res.lammps_first << "-" << res.lammps_last);
    check_followed(res, snaps.size());
  }
  {
    const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_8.dump");
    REQUIRE(snaps.size() == 101);
    stepper::ParticleSystem sys(
        3, contact::parse_lammps_pair("granular hertz/material 1.3986013986013986e11 0.5 0.33 damping tsuji "
                                      "tangential mindlin NULL 1.0 0.4"));
    const double m1 = lammps_sphere_mass(0.1, 2700.0), m2 = lammps_sphere_mass(0.5, 2.7e6);
    for (int pair = 0; pair < 2; ++pair) {
      sys.add_particle(0.1, m1, 0.4 * m1 * 0.01);
      sys.add_particle(0.5, m2, 0.4 * m2 * 0.25);
    }
    const FollowResult res = follow_lammps(snaps, sys, {0, 1, 2, 3}, 1e-5, 0.2);
    INFO("Test 8: position " << res.x << ", velocity " << res.v << ", spin " << res.w << " (relative to 0.2 m/s / r); "
                             << "contact steps " << res.first_contact << "-" << res.last_contact << ", LAMMPS "
                             << res.lammps_first << "-" << res.lammps_last);
    check_followed(res, snaps.size());
  }
}

TEST_CASE("LAMMPS input: a wall's tsuji damping converted once per initialisation, as LAMMPS runs it",
          "[lammps][walls]") {
  // in.granular's wall (tsuji, e = 0.3) with its run split in two: from the second initialisation on,
  // LAMMPS 29 Sep 2021 damps the wall with Tsuji's polynomial applied again (the test below measures
  // it on in.chung_ooi_3_two_runs). Each run initialises, `pre no` does not unless a fix changed, and
  // write_data does.
  std::string base;
  {
    std::ifstream in(lammps_data_dir + "in.granular");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("run", 0) != 0) base += (line.rfind("read_data", 0) == 0 ? "read_data " + lammps_data_dir + "settled_granular.data" : line) + "\n";
  }
  const double once = contact::tsuji_coefficient(0.3);
  const double twice = contact::tsuji_polynomial(once), thrice = contact::tsuji_polynomial(twice);
  struct Case {
    std::string runs;
    std::optional<int> run;
    double coefficient;
  };
  for (const Case& c : {Case{"run 10\nrun 10\n", 1, once}, Case{"run 10\nrun 10\n", std::nullopt, twice},
                        Case{"run 10\nrun 10 pre no\n", std::nullopt, once},
                        Case{"run 10\nwrite_data x.data\nrun 10 pre no\n", std::nullopt, twice},
                        Case{"run 10\nfix late all viscous 0\nunfix late\nrun 10 pre no\n", std::nullopt, twice},
                        Case{"run 10\nrun 10\nrun 10\n", std::nullopt, thrice}}) {
    INFO(c.runs);
    packing::LammpsInputOptions o;
    o.run = c.run;
    const auto in = packing::read_lammps_input(write_script("tsuji_runs.in", base + c.runs), o);
    REQUIRE(in.packing.walls.size() == 1);
    REQUIRE(in.packing.walls[0].law);
    CHECK(in.packing.walls[0].law->damping_coefficient == c.coefficient);
    bool noted = false;
    for (const auto& n : in.notes) noted = noted || n.find("converts a wall's damping tsuji restitution again") != std::string::npos;
    CHECK(noted == (c.coefficient != once));
    CHECK(in.laws.base.damping_coefficient == once);  // pair contacts convert once, at pair_coeff
  }
}

TEST_CASE("LAMMPS' fix wall/gran converts a tsuji restitution again at every run command",
          "[lammps][stepper][chung-ooi]") {
  // in.chung_ooi_3_two_runs: in.chung_ooi_3 as `run 2` + `run 183` (instead of `run 175`); the
  // collisions (from step 3) all fall in the second run. LAMMPS 29 Sep 2021 damps them with Tsuji's
  // polynomial applied twice to e (fix_wall_gran.cpp converts the stored coefficient in init(), once per
  // run command): the stepper with that coefficient follows the dump to rounding, with the coefficient
  // of one conversion (what in.chung_ooi_3's single run used, and what pair contacts use) it does not.
  // Measured (build/tests/dtcrit_tests "[chung-ooi]" -s): LAMMPS' rebounds become 0.7927, 0.4760 and
  // 0.4761 of the impact speed instead of 0.3408, 0.6160 and 0.6154.
  const auto snaps = read_dump_snapshots(lammps_data_dir + "chung_ooi_3_two_runs.dump");
  REQUIRE(snaps.size() == 186);
  const double r = 2.5e-3, h = 1e-7;
  struct Case { std::string coeffs; double rho; std::size_t row; };
  for (const Case& c :
       {Case{"hertz/material 3.8e11 0.2 0.23 damping tsuji tangential mindlin NULL 0.0 0.0", 4000.0, 0},
        Case{"hertz/material 3.8e11 0.5 0.23 damping tsuji tangential mindlin NULL 0.0 0.0", 4000.0, 1},
        Case{"hertz/material 1.0e11 0.5 0.25 damping tsuji tangential mindlin NULL 0.0 0.0", 7000.0, 2}}) {
    const contact::ContactLaw once = lammps_wall(c.coeffs);
    contact::ContactLaw twice = once;
    twice.damping_coefficient = contact::tsuji_coefficient(once.damping_coefficient);
    stepper::ParticleSystem sys = spheres_on_plane(c.coeffs, r, c.rho, 1, twice);
    const FollowResult res = follow_lammps(snaps, sys, {c.row}, h, 3.9, 2);
    stepper::ParticleSystem sys_once = spheres_on_plane(c.coeffs, r, c.rho, 1, once);
    const FollowResult off = follow_lammps(snaps, sys_once, {c.row}, h, 3.9, 2);
    INFO(c.coeffs << ": converted twice: position " << res.x << ", velocity " << res.v << "; contact steps "
                  << res.first_contact << "-" << res.last_contact << ", LAMMPS " << res.lammps_first << "-"
                  << res.lammps_last << "; converted once: velocity " << off.v
                  << "; LAMMPS' rebound speed / impact speed "
                  << snaps.back().rows[c.row][6] / -snaps[0].rows[c.row][6]);
    check_followed(res, snaps.size(), 2);  // the collision is in the second run
    CHECK(off.v > 0.1);
  }
}
