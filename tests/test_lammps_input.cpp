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
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "cli_test_support.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/response.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/stepper/particle_system.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;
using V3 = Eigen::Vector3d;

namespace {

const std::string data_dir = std::string(DTCRIT_SOURCE_DIR) + "/tests/data/lammps/";

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
  return "units si\natom_style sphere\nboundary p p f\nread_data " + data_dir +
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
  const auto in = packing::read_lammps_input(data_dir + "in.hertz");
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
  const auto wall = read_dump_snapshots(data_dir + "wall_hertz.dump").back();
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
    packing::Packing p = packing::read_lammps_data(data_dir + "settled_" + kind + ".data", ro);
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
    const auto pair_dump = read_dump_snapshots(data_dir + "contacts_" + kind + ".dump").back();
    const auto wall_dump = read_dump_snapshots(data_dir + "wall_" + kind + ".dump").back();
    Index lammps_walls = 0;
    for (std::size_t r = 0; r < wall_dump.rows.size(); ++r) lammps_walls += wall_dump.at(r, "f_wall[1]") != 0.0;
    // LAMMPS' contact counts.
    CHECK(cs.pair_contacts == static_cast<Index>(pair_dump.rows.size()));
    CHECK(cs.wall_contacts == lammps_walls);

    const auto s = packing::read_lammps_contacts({data_dir + "contacts_" + kind + ".dump", data_dir + "wall_" + kind + ".dump"},
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
      {"units si\natom_style sphere\nboundary p p f\nread_data " + data_dir +
           "settled_hertz.data\npair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1\npair_coeff * *\n",
       ":6: no fix nve/sphere"},
      {"units si\natom_style sphere\nboundary p p f\nread_data " + data_dir +
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
                                                                      data_dir + "settled_hertz.data\npair_style gran/hooke/history 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\nfix i all nve/sphere\n"));
  CHECK(in.timestep == 1e-8);
  CHECK(in.timestep_default);
}

TEST_CASE("dtcrit packing --lammps-input: is my timestep safe?", "[lammps][cli]") {
  const std::string args = "packing --lammps-input " + data_dir + "in.hertz --lammps-contacts " + data_dir +
                           "contacts_hertz.dump --lammps-contacts " + data_dir + "wall_hertz.dump --integrator velocity_verlet";
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
  // The contact dumps make K non-symmetric: above --crossing-check-dofs h_crit is the -1 crossing, an
  // upper bound, and a timestep below it is UNKNOWN (SAFE needs the limit itself).
  const bool bound = j.at("integrators").at("velocity_verlet").at("upper_bound").get<bool>();
  CHECK(bound);
  const std::string below = bound ? "UNKNOWN" : "SAFE";
  CHECK(check.at("verdict") == (1e-6 < h_crit ? below : "UNSAFE"));
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
  CHECK_THAT(t.out, Contains(1e-6 < h_crit ? below + ": timestep is" : "UNSAFE"));

  // What the script gives is an error when given again.
  const CliRun c = run_cli("packing --lammps-input " + data_dir + "in.hertz --kn 1e5");
  CHECK(c.status != 0);
  CHECK_THAT(c.out, Contains("--kn conflicts with --lammps-input"));
  const CliRun b = run_cli("packing --lammps-input " + write_script("bad.in", "units real\n"));
  CHECK(b.status != 0);
  CHECK_THAT(b.out, Contains("bad.in:1: units real"));
}

TEST_CASE("reference stepper against LAMMPS: two spheres, gran/hooke/history, 100 steps", "[lammps][stepper]") {
  // in.two_spheres: d = 1 mm, rho = 2500, an oblique collision with spins; LAMMPS' fix nve/sphere
  // (velocity Verlet with the force at v_{n+1/2}), dumped every step with %.17g.
  const auto snaps = read_dump_snapshots(data_dir + "two_spheres.dump");
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
  const CliRun r = run_cli("packing --lammps-input " + data_dir + "in.granular --integrator velocity_verlet "
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
}
