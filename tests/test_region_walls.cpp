// Region walls (fix wall/gran/region): the contacts against LAMMPS' own forces, closed forms of a
// sphere in a cylinder and a sphere, block faces against the plane walls, the linearisation against
// finite differences of the nonlinear wall force, and the parser's errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/packing/lammps_probe.hpp"
#include "dtcrit/lammps/lammps_regions.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"
#include "packing_test_support.hpp"

using namespace dtcrit;
using namespace dtcrit::packing;
using Catch::Matchers::Contains;

namespace {

std::vector<std::string> split(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// The variables of tests/data/regions/in.region_forces.
RegionReadContext region_forces_context() {
  RegionReadContext c;
  c.variables = {{"theta", 0.7}, {"dx", 0.25}, {"dy", -0.4}, {"dz", 0.1}};
  return c;
}

RegionWall region(const std::string& words, const RegionReadContext& c = region_forces_context()) {
  return parse_lammps_region(split("region wr " + words), c);
}

// fix wall/gran/region hertz/history kn 0 0 0 0 0 on a resting particle: kn delta sqrt(delta R_eff)
// along each contact's normal, summed (fix_wall_gran.cpp hertz_history, no damping or friction).
Vec3 hertz_wall_force(const RegionWall& w, const Vec3& x, double r, double kn) {
  Vec3 f = Vec3::Zero();
  for (const RegionContact& c : region_contacts(w, x, r)) {
    const double r_eff = lammps_effective_radius(r, c.wall_radius, w);
    f += kn * c.overlap * std::sqrt(c.overlap * r_eff) * c.normal;
  }
  return f;
}

}  // namespace

TEST_CASE("region contacts give LAMMPS' fix wall/gran/region forces", "[regions]") {
  // tests/data/regions/region_forces.txt: 300 particles around each of 20 regions (every style, side
  // in and out, open faces, rotate and move; the hopper of in.granregion.funnel, a union, and the
  // mixer of in.granregion.mixer, an intersection of a cylinder and two rotated blocks) and the
  // force lmp 29 Sep 2021 put on each.
  std::ifstream in(std::string(DTCRIT_SOURCE_DIR) + "/tests/data/regions/region_forces.txt");
  REQUIRE(in);
  std::string line, words;
  RegionWall w;
  RegionReadContext context = region_forces_context();
  int cases = 0, touching = 0, particles = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case ", 0) == 0) {
      context.regions.clear();
      ++cases;
      continue;
    }
    if (line.rfind("region ", 0) == 0) {  // the case's regions; the wall is wr
      const RegionWall defined = parse_lammps_region(split(line), context);
      context.regions[defined.name] = defined;
      if (defined.name == "wr") w = defined, words = line;
      continue;
    }
    std::istringstream row(line);
    Vec3 x, f;
    row >> x[0] >> x[1] >> x[2] >> f[0] >> f[1] >> f[2];
    REQUIRE(row);
    const Vec3 mine = hertz_wall_force(w, x, 0.3, 1e6);
    INFO(words << " at (" << x.transpose() << "): LAMMPS " << f.transpose() << ", dtcrit " << mine.transpose());
    // Same contacts (a particle LAMMPS leaves alone gets none here) and the same force to rounding.
    CHECK((f.isZero(0.0) == mine.isZero(0.0)));
    CHECK((mine - f).norm() <= 1e-9 * (1.0 + f.norm()));
    touching += !f.isZero(0.0);
    ++particles;
  }
  CHECK(cases == 20);
  CHECK(particles == 20 * 300);
  CHECK(touching > 1000);  // the sample is not mostly empty space
}

TEST_CASE("a sphere in a cylinder or sphere region: overlap, normal and LAMMPS' R_eff in closed form", "[regions]") {
  const double R = 2.0, r = 0.3, delta = 0.02, phi = 0.4;
  const Vec3 radial(std::cos(phi), std::sin(phi), 0.0);
  SECTION("cylinder, side in: one contact on the curved side") {
    const RegionWall w = region("cylinder z 0 0 2 -5 5 side in units box");
    const auto cs = region_contacts(w, (R - r + delta) * radial, r);
    REQUIRE(cs.size() == 1);
    CHECK(cs[0].overlap == Approx(delta).epsilon(1e-12));
    CHECK((cs[0].normal + radial).norm() < 1e-14);  // towards the axis
    CHECK(cs[0].wall_radius == -2.0 * R);           // LAMMPS' factor 2 (region_cylinder.cpp)
    CHECK(lammps_effective_radius(r, cs[0].wall_radius, w) == Approx(2.0 * r * R / (2.0 * R - r)).epsilon(1e-14));
    // The normal turns towards the axis along the circumference only, at -1/s (concave).
    const Eigen::Matrix3d G = cs[0].normal_derivative();
    const Vec3 t(-std::sin(phi), std::cos(phi), 0.0);
    CHECK(t.dot(G * t) == Approx(-1.0 / (R - r + delta)).epsilon(1e-13));
    CHECK(std::abs(Vec3::UnitZ().dot(G * Vec3::UnitZ())) < 1e-15);
    CHECK((G * radial).norm() < 1e-15);
  }
  SECTION("sphere, side in and out") {
    const Vec3 c(0.1, 0.2, 0.3);
    const Vec3 e = Vec3(1.0, -2.0, 2.0) / 3.0;
    const RegionWall in = region("sphere 0.1 0.2 0.3 2 side in units box");
    const auto ci = region_contacts(in, c + (R - r + delta) * e, r);
    REQUIRE(ci.size() == 1);
    CHECK(ci[0].overlap == Approx(delta).epsilon(1e-12));
    CHECK((ci[0].normal + e).norm() < 1e-14);
    CHECK(ci[0].wall_radius == -R);  // no factor 2 for spheres (region_sphere.cpp)
    CHECK((ci[0].normal_derivative() + (Eigen::Matrix3d::Identity() - e * e.transpose()) / (R - r + delta)).norm() < 1e-13);
    const RegionWall out = region("sphere 0.1 0.2 0.3 2 side out units box");
    const auto co = region_contacts(out, c + (R + r - delta) * e, r);
    REQUIRE(co.size() == 1);
    CHECK(co[0].overlap == Approx(delta).epsilon(1e-12));
    CHECK((co[0].normal - e).norm() < 1e-14);
    CHECK(co[0].wall_radius == R);
    CHECK((co[0].normal_derivative() - (Eigen::Matrix3d::Identity() - e * e.transpose()) / (R + r - delta)).norm() < 1e-13);
    // A centre outside a side-in region touches nothing (fix_wall_gran_region.cpp: match()).
    CHECK(region_contacts(in, c + (R + r - delta) * e, r).empty());
  }
  SECTION("the law sees LAMMPS' R_eff: hertz normal stiffness 3/2 kn sqrt(delta R_eff)") {
    Packing p;
    p.add((R - r + delta) * radial, r, 1000.0, BodyModel::sphere);
    p.region_walls.push_back(region("cylinder z 0 0 2 -5 5 side in units box"));
    ContactLaws laws;
    laws.base = contact::parse_lammps_pair("gran/hertz/history 1e6 0 0 0 0 0");
    const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), false);
    const Matrix K(g.stiffness());
    const double r_eff = 2.0 * r * R / (2.0 * R - r);
    CHECK(radial.dot(K * radial) == Approx(1.5e6 * std::sqrt(delta * r_eff)).epsilon(1e-10));
  }
}

TEST_CASE("block region faces equal plane walls to the bit", "[regions]") {
  // The polydisperse sc box of packing_test_support.hpp with its six walls as planes (fix wall/gran
  // xplane ... zplane) and as one block region at the same positions: the same contacts in the same
  // order, hence the same K, C and exact limit, bit for bit.
  const Packing planes = test::polydisperse_sc_box_packing();
  Packing block = planes;
  block.walls.clear();
  RegionWall box;
  box.name = "box";
  box.style = RegionStyle::block;
  for (int d = 0; d < 3; ++d) {
    box.lo[d] = planes.walls[static_cast<std::size_t>(2 * d)].point[d];
    box.hi[d] = planes.walls[static_cast<std::size_t>(2 * d + 1)].point[d];
  }
  block.region_walls.push_back(box);
  const auto law = GENERATE(as<std::string>{}, "gran/hooke/history 2e5 1e5 30 10 0.5 1",
                            "gran/hertz/history 2e9 1e9 1e3 5e2 0.5 1");
  const bool geometric = GENERATE(false, true);
  CAPTURE(law, geometric);
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair(law);
  const GlobalSystem a(round_assembly(planes, find_contacts(planes, laws)), true, geometric);
  const GlobalSystem b(round_assembly(block, find_contacts(block, laws)), true, geometric);
  REQUIRE(a.contacts().wall_contacts > 20);
  REQUIRE(b.contacts().wall_contacts == a.contacts().wall_contacts);
  CHECK(Matrix(a.stiffness()) == Matrix(b.stiffness()));
  CHECK(Matrix(a.damping()) == Matrix(b.damping()));
  const PackingReport ra = analyse_packing(planes, a, {});
  const PackingReport rb = analyse_packing(block, b, {});
  CHECK(ra.omega_max == rb.omega_max);
  CHECK(ra.h_exact == rb.h_exact);
}

TEST_CASE("curved region walls: the linearisation equals finite differences of the wall force", "[regions]") {
  // One particle against a region; the real force at x: every contact's law force at rest with the
  // sticking history xi_t = P (x - x0) (contact/kinematics.hpp), evaluated at the contact's own
  // normal, overlap and R_eff. K = -dF/dx by central differences against GlobalSystem's K with the
  // geometric stiffness; without it the two differ by -F_n dn/dx.
  const double r = 0.3;
  const RegionReadContext ctx = region_forces_context();
  const Vec3 u111 = Vec3(1.0, 1.0, 1.0).normalized();
  struct Case {
    std::string words;
    Vec3 x0;
    std::size_t contacts;
  };
  const std::vector<Case> cases{
      {"cylinder z 0 0 2 -1 1 side in units box", Vec3(1.72 * std::cos(0.3), 1.72 * std::sin(0.3), -0.75), 2},
      {"sphere 0.1 0.2 0.3 2 side out units box", Vec3(0.1, 0.2, 0.3) + 2.28 * Vec3(1.0, 2.0, 2.0) / 3.0, 1},
      {"cone z 0 0 0.5 2 -1 2 side in units box", Vec3(0.95 * std::cos(1.0), 0.95 * std::sin(1.0), 0.5), 1},
      {"block -1 1 -1.5 1.5 -1 2 side out units box", Vec3(1.2, 1.6, 0.3), 1},
      {"cylinder z 0 0 2 -1 1 side out units box", Vec3(2.2 * std::cos(0.4), 2.2 * std::sin(0.4), 1.15), 1},
      {"cylinder z 1 1 2 0 2 side in rotate v_theta 1 1 0 0 0 1 move v_dx v_dy v_dz units box",
       Vec3(1.25 + 1.75, 0.6, 1.0), 1},
      {"block -1 1 -1.5 1.5 -1 2 side out rotate v_theta 0 0 0 1 1 1 units box",
       rotate_about(Vec3(1.15, 1.65, 2.1), 0.7, Vec3::Zero(), u111), 1},
  };
  const auto law_text = GENERATE(as<std::string>{}, "gran/hertz/history 1e6 4e5 0 0 0.5 1",
                                 "granular hertz 1e6 0 tangential linear_history 3e5 0 0.5");
  const contact::ContactLaw law = contact::parse_lammps_pair(law_text);
  for (const Case& c : cases) {
    CAPTURE(c.words, law_text);
    const RegionWall w = parse_lammps_region(split("region wr " + c.words), ctx);
    Packing p;
    p.add(c.x0, r, 1000.0, BodyModel::sphere);
    p.region_walls.push_back(w);
    ContactLaws laws;
    laws.base = law;
    const ContactSet cs = find_contacts(p, laws);
    REQUIRE(cs.contacts.size() == c.contacts);
    const double m = p.mass[0];
    auto force = [&](const Vec3& x) {
      Vec3 f = Vec3::Zero();
      for (const RegionContact& rc : region_contacts(w, x, r)) {
        contact::RoundContact g{rc.normal, rc.overlap, r, 0.0, 0.0, true};
        if (rc.wall_radius != 0.0) g.curvature_radius = lammps_effective_radius(r, rc.wall_radius, w);
        contact::History h;
        h.xi_t = (Eigen::Matrix3d::Identity() - rc.normal * rc.normal.transpose()) * (x - c.x0);
        const auto in = contact::contact_input(g, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), m, h);
        f += contact::evaluate(law, in).force(rc.normal);
      }
      return f;
    };
    Eigen::Matrix3d K_fd;
    const double eps = 1e-7;
    for (int d = 0; d < 3; ++d)
      K_fd.col(d) = -(force(c.x0 + eps * Vec3::Unit(d)) - force(c.x0 - eps * Vec3::Unit(d))) / (2.0 * eps);
    const Matrix K(GlobalSystem(round_assembly(p, cs), false, true).stiffness());
    const Matrix K0(GlobalSystem(round_assembly(p, cs), false, false).stiffness());
    INFO("finite differences\n" << K_fd << "\nlinearised\n" << K << "\nwithout geometric stiffness\n" << K0);
    CHECK((K - K_fd).norm() <= 1e-6 * K_fd.norm());
    // The geometric term is visible at these overlaps (it is what makes the two agree).
    CHECK((K0 - K_fd).norm() > 1e-3 * K_fd.norm());
  }
}

TEST_CASE("the geometric stiffness of a curved wall restores inside and destabilises outside", "[regions]") {
  // F_n / rho on the tangent directions the wall curves in: + inside a cylinder (along the
  // circumference only), - outside a sphere (both tangents), with F_n = kn delta (hooke).
  const double r = 0.3, R = 2.0, delta = 0.01, kn = 1e5;
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair("gran/hooke/history 1e5 0 0 0 0 1");
  auto geometric_part = [&](const std::string& words, const Vec3& x) {
    Packing p;
    p.add(x, r, 1000.0, BodyModel::sphere);
    p.region_walls.push_back(region(words));
    const ContactSet cs = find_contacts(p, laws);
    return Eigen::Matrix3d(Matrix(GlobalSystem(round_assembly(p, cs), false, true).stiffness()) - Matrix(GlobalSystem(round_assembly(p, cs), false, false).stiffness()));
  };
  const Eigen::Matrix3d Gc = geometric_part("cylinder z 0 0 2 -5 5 side in units box", Vec3(R - r + delta, 0.0, 0.0));
  CHECK(Gc(1, 1) == Approx(kn * delta / (R - r + delta)).epsilon(1e-12));
  CHECK(Gc(2, 2) == 0.0);
  CHECK(std::abs(Gc(0, 0)) < 1e-9);
  const Eigen::Matrix3d Gs = geometric_part("sphere 0 0 0 2 side out units box", Vec3(0.0, 0.0, R + r - delta));
  CHECK(Gs(0, 0) == Approx(-kn * delta / (R + r - delta)).epsilon(1e-12));
  CHECK(Gs(1, 1) == Approx(-kn * delta / (R + r - delta)).epsilon(1e-12));
  CHECK(std::abs(Gs(2, 2)) < 1e-9);
}

TEST_CASE("region command: LAMMPS' syntax and errors that name the keyword and value", "[regions]") {
  const RegionWall drum = parse_lammps_region(
      split("region drum cylinder z 1 2 3 0 4 side in open 2 rotate v_theta 1 2 0 0 0 2 move v_dx NULL NULL"),
      region_forces_context());
  CHECK(drum.style == RegionStyle::cylinder);
  CHECK(drum.axis == 2);
  CHECK(drum.c1 == 1.0);
  CHECK(drum.c2 == 2.0);
  CHECK(drum.radius == 3.0);
  CHECK(drum.open[1]);
  CHECK(drum.rotated);
  CHECK(drum.angle == 0.7);
  CHECK(drum.rotation_axis == Vec3::UnitZ());
  CHECK(drum.displacement == Vec3(0.25, 0.0, 0.0));
  const RegionWall inf = parse_lammps_region(split("inf block -INF INF 0 1 EDGE 3 units box"),
                                             RegionReadContext{{}, false, std::array<Vec3, 2>{Vec3(0, 0, -7), Vec3(9, 9, 9)}, {}});
  CHECK(inf.lo[0] == -1e20);
  CHECK(inf.lo[2] == -7.0);
  auto error_of = [](const std::string& words, const RegionReadContext& c = region_forces_context()) {
    try {
      parse_lammps_region(split(words), c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("region mixer prism 0 1 0 1 0 1 0 0 0") ==
        "region mixer: style 'prism' is not read by dtcrit (plane, block, cylinder, cone, sphere, union, intersect are)");
  CHECK(error_of("region hop union 2 a b") == "region hop: sub-region 'a' is not defined");
  RegionReadContext with_a = region_forces_context();
  with_a.regions["a"] = region("sphere 0 0 0 1 units box");
  CHECK(error_of("region hop union 1 a side out", with_a) == "region hop: side out of a union or intersection is not read by dtcrit");
  CHECK_THAT(error_of("region hop intersect 1 a move v_dx NULL NULL", with_a), Contains("cannot rotate or move"));
  CHECK(error_of("region c cylinder w 0 0 1 0 1") == "region c: axis 'w' is not x, y or z");
  CHECK(error_of("region c cylinder z 0 0 -1 0 1") == "region c: radius = -1 must be positive");
  CHECK(error_of("region c cylinder z 0 0 1 0 1 side up") == "region c: side 'up' is not in or out");
  CHECK(error_of("region c cylinder z 0 0 1 0 1 open 5") == "region c: open 5: a cylinder has 3 faces to open");
  CHECK(error_of("region c sphere 0 0 0 1 open 1") == "region c: open 1: a sphere has no faces to open");
  CHECK(error_of("region c sphere 0 0 0 1 spin 1") ==
        "region c: keyword 'spin' is not read by dtcrit (side, units, open, move, rotate are)");
  CHECK_THAT(error_of("region c sphere 0 0 0 1 rotate v_phi 0 0 0 0 0 1"),
             Contains("rotate angle = 'v_phi': the variable has no value at the state"));
  CHECK(error_of("region c block 0 1 0 x 0 1") == "region c: yhi = 'x' is not a finite number");
  CHECK(error_of("region c block 0 1 0 1 0 EDGE") == "region c: zhi = EDGE needs the simulation box, which was not given");
  RegionReadContext lattice;
  lattice.lattice_command = true;
  CHECK_THAT(error_of("region c sphere 0 0 0 1", lattice), Contains("units lattice (LAMMPS' default) after a lattice command"));
  CHECK(error_of("region c sphere 0 0 0 1 units box", lattice) == "no error");
}

TEST_CASE("what does not follow LAMMPS' regions is refused by name", "[regions]") {
  Packing p;
  p.add(Vec3(0.0, 0.0, 0.75), 0.3, 1000.0, BodyModel::sphere);
  p.region_walls.push_back(region("cylinder z 0 0 2 -1 1 side in units box"));
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair("gran/hooke/history 1e5 5e4 0 0 0.5 1");
  // The reference stepper (--confirm) and the LAMMPS probe (lammps-check) have plane walls only.
  CHECK_THROWS_WITH(to_particle_system(p, laws, stepper::TangentialHistory::consistent),
                    Contains("region wall 'wr' (fix wall/gran/region) is not stepped"));
  CHECK_THROWS_WITH(lammps_law_commands(p, laws, "", -1.0), Contains("lammps-check refuses packings with region walls"));
  // Open faces on side out, and a particle wider than LAMMPS' concave 2 R (R_eff < 0 there).
  const RegionWall open_out = region("cylinder z 0 0 2 -1 1 side out open 1 units box");
  CHECK_THROWS_WITH(region_contacts(open_out, Vec3(2.1, 0.0, 0.0), 0.3), Contains("side out with open faces"));
  // A particle wider than a concave 2R: LAMMPS' hertz law takes the square root of a negative R_eff
  // (refused), its hooke law never reads R_eff (analysed).
  Packing narrow;
  narrow.add(Vec3(0.05, 0.0, 0.0), 0.3, 1000.0, BodyModel::sphere);
  narrow.region_walls.push_back(region("cylinder z 0 0 0.1 -5 5 units box"));
  ContactLaws hertz;
  hertz.base = contact::parse_lammps_pair("gran/hertz/history 1e6 0 0 0 0 1");
  CHECK_THROWS_WITH(find_contacts(narrow, hertz), Contains("R_eff = "));
  const ContactSet hooke_contacts = find_contacts(narrow, laws);
  CHECK(hooke_contacts.wall_contacts == 1);
  CHECK(hooke_contacts.contacts[0].overlap == Approx(0.25).epsilon(1e-12));
}

TEST_CASE("lammps-check writes each region wall as it is at the state, and reading it back gives the same contacts",
          "[regions][lammps_check]") {
  // Moved and rotated regions, open faces, side out, and a union whose members carry their own
  // transforms: each written by lammps_region_commands, read back by the script's own parser (its
  // variables from the written `variable` lines), then asked for contacts at points around it.
  RegionReadContext c = region_forces_context();
  c.regions["ca"] = parse_lammps_region(split("region ca cylinder z 0 0 2 -1 1 side in units box rotate v_theta 0.1 0 0 0 1 1"), c);
  c.regions["sb"] = parse_lammps_region(split("region sb sphere 0 0 1.2 1.5 units box move v_dx v_dy v_dz"), c);
  const std::vector<std::string> texts = {
      "cylinder z 0 0 2 -1 1 side in open 3 units box rotate v_theta 0.3 -0.2 0 1 0.5 0.2 move v_dx v_dy v_dz",
      "cone x 0.1 0.2 0.5 1.5 -2 2 side in units box rotate v_theta 0 0 0 0 0 1",
      "block -1 1 -2 2 -0.5 0.5 side out units box move v_dx v_dy v_dz",
      "plane 0 0 -1 0.1 0.2 1 side in units box rotate v_theta 0 0 0 1 0 0",
      "sphere 0.2 0.1 0 1.7 side in units box",
      "union 2 ca sb units box",
  };
  for (const auto& text : texts) {
    INFO(text);
    Packing p;
    p.region_walls.push_back(region(text, c));
    std::vector<std::string> commands = lammps_region_commands(p);
    RegionReadContext back;
    RegionWall written;
    for (const auto& command : commands) {
      const auto w = split(command);
      if (w[0] == "variable") {
        REQUIRE(w.size() == 4);
        back.variables[w[1]] = std::stod(w[3]);
      } else {
        written = parse_lammps_region(w, back);
        back.regions[written.name] = written;
      }
    }
    REQUIRE(written.name == "wr");
    int compared = 0;
    for (double x = -2.5; x <= 2.5; x += 0.5)
      for (double y = -2.5; y <= 2.5; y += 0.5)
        for (double z = -1.5; z <= 2.0; z += 0.5) {
          const Vec3 at(x + 0.013, y - 0.021, z + 0.017);  // off the symmetry planes
          const auto a = region_contacts(p.region_walls[0], at, 0.4), b = region_contacts(written, at, 0.4);
          REQUIRE(a.size() == b.size());
          for (std::size_t k = 0; k < a.size(); ++k) {
            CHECK((a[k].normal - b[k].normal).norm() <= 1e-12);
            CHECK(std::abs(a[k].overlap - b[k].overlap) <= 1e-12);
            CHECK(a[k].wall_radius == Approx(b[k].wall_radius).margin(1e-12));
            ++compared;
          }
        }
    CHECK(compared > 0);
  }
}
