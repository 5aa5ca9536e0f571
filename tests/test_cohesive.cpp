// The cohesive normal models dmt and jkr (force against LAMMPS' measured values and closed forms,
// exact derivative against finite differences, the pull-off), LAMMPS' `granular` mixing of atom
// types and its type ranges, and contact detection within the JKR pull-off distance. The LAMMPS
// reference values and the scripts that printed them: tests/data/lammps_cohesive/README.md.
#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "dtcrit/contact/lammps_mixing.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/contact/response.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/stepper/particle_system.hpp"

using namespace dtcrit;
using namespace dtcrit::contact;
using Catch::Matchers::WithinRel;
using Catch::Matchers::WithinAbs;

namespace {

constexpr double pi = std::numbers::pi;

// Two spheres of diameter 1 (R_eff = 0.25), at rest: the state of the LAMMPS scripts.
ContactInput at_rest(double overlap, double r_eff = 0.25) {
  ContactInput c;
  c.overlap = overlap;
  c.r_eff = r_eff;
  c.m_eff = pi / 12.0;  // two spheres of m = pi/6 kg
  return c;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

// E* of two bodies of one material: E / (2 (1 - nu^2)).
double same_material_estar(double E, double nu) { return E / (2.0 * (1.0 - nu * nu)); }

PairCoeffLine coeff(const std::string& i, const std::string& j, const std::string& words) {
  PairCoeffLine l;
  l.type_i = i;
  l.type_j = j;
  std::string w;
  for (char ch : words + " ") {
    if (ch == ' ') {
      if (!w.empty()) l.coefficients.push_back(w);
      w.clear();
    } else {
      w += ch;
    }
  }
  l.text = "pair_coeff " + i + " " + j + " " + words;
  return l;
}

// Two spheres of radius 0.5 (m = 1, I = 0.1) on the x axis `gap` apart and a plane wall below both at
// the same gap.
packing::Packing two_spheres_over_a_wall(double gap) {
  packing::Packing p;
  p.dim = 3;
  p.periodic = {false, false, false};
  p.box_lo = Vec3(-5, -5, -5);
  p.box_hi = Vec3(5, 5, 5);
  for (double x : {0.0, 1.0 + gap}) {
    p.centre.push_back(Vec3(x, 0, 0));
    p.radius.push_back(0.5);
    p.mass.push_back(1.0);
    p.inertia.push_back(0.1);
    p.type.push_back(1);
  }
  packing::PlaneWall w;
  w.point = Vec3(0, 0, -0.5 - gap);
  w.normal = Vec3::UnitZ();
  p.walls.push_back(w);
  return p;
}

}  // namespace

TEST_CASE("jkr and dmt: the force of two spheres equals LAMMPS 29 Sep 2021's", "[cohesive]") {
  // in.jkr and in.dmt: jkr/dmt 1e5 0.1 0.3 50 at overlap 0.05; LAMMPS prints the force on atom 1.
  const ContactLaw jkr = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  const ContactLaw dmt = parse_lammps_pair("granular dmt 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  CHECK(jkr.normal == NormalModel::jkr);
  CHECK(jkr.cohesion == 50.0);
  CHECK_THAT(jkr.kn, WithinRel(4.0 / 3.0 * same_material_estar(1e5, 0.3), 1e-15));
  CHECK_THAT(evaluate(jkr, at_rest(0.05)).normal_force, WithinRel(323.72241806717233, 1e-12));
  CHECK_THAT(evaluate(dmt, at_rest(0.05)).normal_force, WithinRel(252.45662693585689, 1e-12));
  // in.jkr_pulloff: the contact at overlap -0.007 after touching (attractive: LAMMPS' fx[1] > 0),
  // atom 2 moving away at 0.01 m/s (its viscoelastic dashpot adds 2e-5 N).
  ContactInput pulled = at_rest(1.0 - 1.007);
  pulled.velocity = 0.01 * pulled.normal;
  CHECK_THAT(evaluate(jkr, pulled).normal_force, WithinRel(-117.788283320884, 1e-11));
}

TEST_CASE("dmt is Hertz minus 4 pi gamma R, and jkr's pull-off in closed form", "[cohesive]") {
  const double E = 7e7, nu = 0.25, gamma = 0.3, R = 2e-3;
  const ContactLaw dmt = parse_lammps_pair("granular dmt 7e7 0 0.25 0.3 tangential linear_history 1e4 0 0.5");
  const ContactLaw jkr = parse_lammps_pair("granular jkr 7e7 0 0.25 0.3 tangential linear_history 1e4 0 0.5");
  const double Es = same_material_estar(E, nu);
  const double d = 1e-5;
  CHECK_THAT(evaluate(dmt, at_rest(d, R)).normal_force,
             WithinRel(4.0 / 3.0 * Es * std::sqrt(R * d) * d - 4.0 * pi * gamma * R, 1e-13));
  // At the touching point a = 0 the DMT law exerts its whole adhesion.
  CHECK_THAT(evaluate(dmt, at_rest(1e-300, R)).normal_force, WithinRel(-4.0 * pi * gamma * R, 1e-13));

  // JKR (work of adhesion w = 2 gamma): zero load at a_0^3 = 9 pi w R^2 / (2 E*), where
  // delta_0 = a_0^2 / (3R); the most attractive force -3/2 pi w R = -3 pi gamma R at
  // a_c^3 = 9 pi w R^2 / (8 E*) = a_0^3 / 4, delta_c = -a_c^2 / (3R) (LAMMPS' pull-off).
  const double w = 2.0 * gamma;
  const double a0 = std::cbrt(9.0 * pi * w * R * R / (2.0 * Es));
  const ContactResponse zero = evaluate(jkr, at_rest(a0 * a0 / (3.0 * R), R));
  CHECK_THAT(zero.normal_force, WithinAbs(0.0, 1e-12 * 3.0 * pi * gamma * R));
  CHECK_THAT(zero.contact_radius, WithinRel(a0, 1e-12));
  const double ac = a0 / std::cbrt(4.0);
  const double delta_c = -ac * ac / (3.0 * R);
  CHECK_THAT(pulloff_overlap(jkr, R), WithinRel(delta_c, 1e-13));
  const ContactResponse pull = evaluate(jkr, at_rest(delta_c, R), true);
  CHECK_THAT(pull.normal_force, WithinRel(-3.0 * pi * gamma * R, 1e-12));
  CHECK_THAT(pull.derivative(0, in::overlap), WithinAbs(0.0, 1e-6 * 4.0 / 3.0 * Es * ac));  // the extremum
  CHECK(pulloff_overlap(dmt, R) == 0.0);
  // in.jkr_pulloff: LAMMPS' contact survives overlap -0.0072 and is gone at -0.0073.
  const ContactLaw lammps = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  CHECK(pulloff_overlap(lammps, 0.25) < -0.0072);
  CHECK(pulloff_overlap(lammps, 0.25) > -0.0073);
}

TEST_CASE("jkr and dmt: exact derivative against finite differences, in and beyond contact", "[cohesive]") {
  // Soft enough that the adhesion matters at the state's overlaps (pull-off about -2e-6).
  const std::vector<std::string> texts = {
      "granular jkr 1e7 0.5 0.3 0.5 damping tsuji tangential mindlin NULL 1.0 0.5 rolling sds 2e3 0.02 0.3 "
      "twisting marshall",
      "granular jkr 1e7 2e3 0.3 0.5 tangential linear_history 1e4 0.5 0.5",
      "granular dmt 1e7 0.5 0.3 0.5 damping tsuji tangential mindlin NULL 1.0 0.5 twisting marshall",
      "granular dmt 1e7 2e3 0.3 0.5 damping viscoelastic tangential linear_history 1e4 0.5 0.5",
  };
  for (const auto& text : texts) {
    const ContactLaw law = parse_lammps_pair(text);
    const double pulloff = pulloff_overlap(law, 5e-4);
    std::vector<double> overlaps = {2e-6, 1e-5};
    if (law.normal == NormalModel::jkr) overlaps.push_back(0.5 * pulloff);
    for (double overlap : overlaps) {
      for (double mu : {1e3, 0.01}) {
        ContactLaw l = law;
        l.mu = mu;
        ContactInput c;
        c.normal = Vec3(0.3, -0.4, 0.5).normalized();
        const Vec3 t1 = c.normal.unitOrthogonal(), t2 = c.normal.cross(t1);
        c.overlap = overlap;
        c.velocity = 0.05 * (0.7 * t1 - 0.4 * t2 + 0.3 * c.normal);
        c.rolling_velocity = 0.05 * (0.2 * t1 + 0.5 * t2);
        c.twisting_rate = 0.15;
        c.xi_t = (mu > 1.0 ? 1e-7 : 5e-6) * (0.8 * t1 + 0.3 * t2);
        c.xi_r = 1e-7 * (-0.4 * t1 + 0.6 * t2);
        c.xi_tw = 2e-7;
        c.r_eff = 5e-4;
        c.m_eff = 2e-3;
        const ContactResponse r = evaluate(l, c, true);
        INFO(text << " overlap " << overlap << " mu " << mu);
        CHECK(r.sliding == (mu < 1.0));
        // Central differences, steps 1e-4 of each input's scale.
        const double scales[in::count] = {std::abs(overlap), 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.15,
                                          1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 1e-7, 2e-7};
        for (int k = 0; k < in::count; ++k) {
          const double h = 1e-4 * scales[k];
          auto shifted = [&](double s) {
            ContactInput d = c;
            double* slots[in::count] = {&d.overlap,
                                        &d.velocity.x(), &d.velocity.y(), &d.velocity.z(),
                                        &d.rolling_velocity.x(), &d.rolling_velocity.y(), &d.rolling_velocity.z(),
                                        &d.twisting_rate,
                                        &d.xi_t.x(), &d.xi_t.y(), &d.xi_t.z(),
                                        &d.xi_r.x(), &d.xi_r.y(), &d.xi_r.z(),
                                        &d.xi_tw};
            *slots[k] += s;
            const ContactResponse e = evaluate(l, d);
            Eigen::Matrix<double, out::count, 1> y;
            y << e.force(d.normal), e.rolling_force, e.twisting_torque;
            return y;
          };
          const Eigen::Matrix<double, out::count, 1> fd = (shifted(h) - shifted(-h)) / (2.0 * h);
          const Eigen::Matrix<double, out::count, 1> exact = r.derivative.col(k);
          const double size = std::max(exact.cwiseAbs().maxCoeff(), 1e-9 * r.derivative.cwiseAbs().maxCoeff());
          INFO("column " << k << "\nexact " << exact.transpose() << "\nfd    " << fd.transpose());
          CHECK((exact - fd).cwiseAbs().maxCoeff() < 1e-6 * size);
        }
      }
    }
  }
}

TEST_CASE("jkr and dmt: the friction cap is mu |F_ne + 2 F_pulloff|, without the dashpot", "[cohesive]") {
  const double gamma = 0.5, R = 5e-4;
  for (const char* model : {"jkr", "dmt"}) {
    const ContactLaw law = parse_lammps_pair(std::string("granular ") + model +
                                             " 1e7 2e3 0.3 0.5 tangential linear_history 1e4 0.5 0.2");
    ContactInput c = at_rest(1e-6, R);
    c.velocity = Vec3(-0.3, 0.1, 0.0);  // approaching (v.n < 0) and sliding
    c.xi_t = Vec3(0.0, 1e-3, 0.0);
    const ContactResponse r = evaluate(law, c);
    REQUIRE(r.sliding);
    const double pulloff_force = (std::string(model) == "jkr" ? 3.0 : 4.0) * pi * gamma * R;
    const double Fncrit = std::abs(r.elastic_normal_force + 2.0 * pulloff_force);
    INFO(model);
    CHECK_THAT(r.tangential_force.norm(), WithinRel(0.2 * Fncrit, 1e-12));
    CHECK_THAT(r.critical_normal_force, WithinRel(Fncrit, 1e-14));
    CHECK(r.normal_force != r.elastic_normal_force);  // the dashpot acts on F_n, not on the cap
  }
}

TEST_CASE("jkr and dmt: the stored energy's slope is the elastic normal force", "[cohesive]") {
  for (const char* text : {"granular jkr 1e7 0 0.3 0.5 tangential linear_history 1e4 0 0.5",
                           "granular dmt 1e7 0 0.3 0.5 tangential linear_history 1e4 0 0.5"}) {
    const ContactLaw law = parse_lammps_pair(text);
    for (double overlap : {3e-6, 1e-5, -1e-6}) {
      if (law.normal == NormalModel::dmt && overlap < 0.0) continue;
      const double h = 1e-4 * std::abs(overlap);
      auto energy = [&](double d) {
        const ContactInput c = at_rest(d, 5e-4);
        return stored_energy(law, c, evaluate(law, c));
      };
      INFO(text << " overlap " << overlap);
      CHECK_THAT((energy(overlap + h) - energy(overlap - h)) / (2.0 * h),
                 WithinRel(evaluate(law, at_rest(overlap, 5e-4)).elastic_normal_force, 1e-7));
    }
  }
}

TEST_CASE("fix wall/gran granular jkr and dmt: LAMMPS' wall conversion, R_eff the radius", "[cohesive]") {
  // in.wall_jkr, in.wall_dmt, in.wall_jkr_mindlin: a sphere of radius 0.5 at overlap 0.05.
  auto words = [](const std::string& model, const std::string& tangential) {
    return PairCoeffLine(coeff("1", "1", model + " 1e5 0.1 0.3 50 tangential " + tangential)).coefficients;
  };
  const ContactLaw jkr = parse_lammps_wall_granular(words("jkr", "linear_history 100 0 0.5"), "wall");
  const ContactLaw dmt = parse_lammps_wall_granular(words("dmt", "linear_history 100 0 0.5"), "wall");
  CHECK_THAT(jkr.kn, WithinRel(4.0 / 3.0 * 1e5 / (2.0 * 0.7), 1e-15));
  CHECK_THAT(evaluate(jkr, at_rest(0.05, 0.5)).normal_force, WithinRel(580.82150240423834, 1e-12));
  CHECK_THAT(evaluate(dmt, at_rest(0.05, 0.5)).normal_force, WithinRel(438.76398706206288, 1e-12));
  const ContactLaw mindlin = parse_lammps_wall_granular(words("jkr", "mindlin NULL 0 100"), "wall");
  CHECK_THAT(mindlin.kt, WithinRel(1e5 / 4.0 * 1.7 * 1.3, 1e-15));
  ContactInput c = at_rest(0.05, 0.5);
  c.normal = Vec3::UnitZ();
  c.xi_t = Vec3(1e-4, 0, 0);
  CHECK_THAT(evaluate(mindlin, c).tangential_force.x(), WithinRel(-1.1954063691988421, 1e-9));
}

TEST_CASE("LAMMPS syntax of dmt and jkr: E, damping, Poisson's ratio, cohesion, and errors that name the word", "[cohesive]") {
  const ContactLaw j = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 0.5");
  CHECK(j.youngs == 1e5);
  CHECK(j.poisson == 0.3);
  CHECK(j.damping_coefficient == 0.1);
  CHECK_THAT(j.kt, WithinRel(8.0 * effective_shear(1e5, 0.3, 1e5, 0.3), 1e-15));  // NULL: 8 G*
  CHECK_THAT(error_of([] { parse_lammps_pair("granular jkr 1e5 0.1 0.3 tangential mindlin NULL 1 0.5"); }),
             Catch::Contains("cohesion = 'tangential'"));
  CHECK_THAT(error_of([] { parse_lammps_pair("granular dmt 1e5 0.1 0.3 50 tangential mindlin NULL 1 0.5 limit_damping"); }),
             Catch::Contains("limit_damping"));
  CHECK_THAT(error_of([] { parse_lammps_pair("granular jkr 1e5 0.1 0.3 -5 tangential linear_history 1 0 0.5"); }),
             Catch::Contains("cohesion (surface energy) = -5"));
}

TEST_CASE("pair_coeff type ranges follow LAMMPS' utils::bounds", "[cohesive]") {
  using B = std::pair<int, int>;
  CHECK(lammps_type_bounds("*", 4, "t") == B{1, 4});
  CHECK(lammps_type_bounds("2*", 4, "t") == B{2, 4});
  CHECK(lammps_type_bounds("*3", 4, "t") == B{1, 3});
  CHECK(lammps_type_bounds("2*3", 4, "t") == B{2, 3});
  CHECK(lammps_type_bounds("4", 4, "t") == B{4, 4});
  CHECK_THAT(error_of([] { lammps_type_bounds("5", 4, "pair_coeff 5 5 x"); }),
             Catch::Contains("pair_coeff 5 5 x: atom type range '5' is out of bounds (1-4)"));
  CHECK_THAT(error_of([] { lammps_type_bounds("3*2", 4, "t"); }), Catch::Contains("'3*2'"));
  CHECK_THAT(error_of([] { lammps_type_bounds("0", 4, "t"); }), Catch::Contains("'0'"));
  CHECK_THAT(error_of([] { lammps_type_bounds("a", 4, "t"); }), Catch::Contains("'a' is not a type number"));
}

TEST_CASE("granular type laws: LAMMPS' own examples pour.drum and pour.flatwall set every pair", "[cohesive]") {
  // /usr/share/lammps/examples/granular/in.pour.drum, its two pair_coeff lines.
  const TypeLaws drum = lammps_type_laws(
      {"granular"},
      {coeff("1", "*", "hertz/material 1e5 0.2 0.3 tangential mindlin NULL 1.0 0.5 damping tsuji"),
       coeff("2", "2", "jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 1e3 0.1 twisting marshall "
                       "damping tsuji")},
      2);
  CHECK(drum.notes.empty());
  CHECK(drum.between(1, 1).normal == NormalModel::hertz_material);
  CHECK(drum.between(2, 1).normal == NormalModel::hertz_material);  // `1 *` sets (1, 2)
  CHECK(drum.between(2, 2).normal == NormalModel::jkr);
  CHECK(drum.between(2, 2).cohesion == 50.0);
  CHECK(drum.between(2, 2).rolling == RollingModel::sds);
  CHECK_THAT(drum.between(2, 2).damping_coefficient, WithinRel(tsuji_coefficient(0.1), 1e-15));

  // in.pour.flatwall: `1 * jkr ...` then `2 2 hertz ...`.
  const TypeLaws flat = lammps_type_laws(
      {"granular"},
      {coeff("1", "*", "jkr 1000.0 50.0 0.3 10 tangential mindlin 800.0 1.0 0.5 rolling sds 500.0 200.0 0.5 "
                       "twisting marshall"),
       coeff("2", "2", "hertz 200.0 20.0 tangential linear_history 300.0 1.0 0.1 rolling sds 200.0 100.0 0.1 "
                       "twisting marshall")},
      2);
  CHECK(flat.notes.empty());
  CHECK(flat.between(1, 2).normal == NormalModel::jkr);
  CHECK(flat.between(1, 2).kt == 800.0);
  CHECK(flat.between(2, 2).normal == NormalModel::hertz);
  CHECK(flat.between(2, 2).kn == 200.0);
}

TEST_CASE("granular type laws: a pair without pair_coeff runs as LAMMPS 29 Sep 2021 runs it", "[cohesive]") {
  // in.mixed_jkr: two jkr types, no `pair_coeff 1 2`; LAMMPS' force at overlap 0.05.
  const TypeLaws t = lammps_type_laws({"granular"},
                                      {coeff("1", "1", "jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5"),
                                       coeff("2", "2", "jkr 2e5 0.2 0.25 20 tangential linear_history 400 0 0.5")},
                                      2);
  const ContactLaw& m = t.between(1, 2);
  CHECK(m.normal == NormalModel::hooke);
  CHECK(m.damping == DampingModel::velocity);
  CHECK(m.tangential == TangentialModel::linear_history);
  CHECK(m.cohesion == 0.0);
  CHECK_THAT(m.kn, WithinRel(std::sqrt(4.0 / 3.0 * same_material_estar(1e5, 0.3) * 4.0 / 3.0 *
                                       same_material_estar(2e5, 0.25)),
                             1e-15));
  CHECK_THAT(m.kt, WithinRel(200.0, 1e-15));
  CHECK_THAT(m.damping_coefficient, WithinRel(std::sqrt(0.02), 1e-15));
  CHECK_THAT(evaluate(m, at_rest(0.05)).normal_force, WithinRel(5103.7266823396876, 1e-12));
  REQUIRE(t.notes.size() == 1);
  CHECK_THAT(t.notes[0], Catch::Contains("types 1 2") && Catch::Contains("hooke") &&
                             Catch::Contains("normal jkr -> hooke") && Catch::Contains("cohesion dropped"));

  // in.mixed_damping: the dashpot is `velocity` (c, not c m_eff a) and the tangential dashpot
  // x_gamma_t times it.
  const TypeLaws v = lammps_type_laws(
      {"granular"},
      {coeff("*", "*", "hertz/material 1e5 0.5 0.3 tangential linear_history 100 0.4 0.5"),
       coeff("2", "2", "hertz/material 1e5 0.5 0.3 tangential linear_history 100 0.4 0.5")},
      2);
  // `* *` set (1, 2) too: no mixing.
  CHECK(v.notes.empty());
  const TypeLaws vm = lammps_type_laws(
      {"granular"},
      {coeff("1", "1", "hertz/material 1e5 0.5 0.3 tangential linear_history 100 0.4 0.5"),
       coeff("2", "2", "hertz/material 1e5 0.5 0.3 tangential linear_history 100 0.4 0.5")},
      2);
  ContactInput c = at_rest(0.05);
  c.normal = -Vec3::UnitX();        // from atom 2 (at +x) to atom 1
  c.velocity = Vec3(0.1, -0.2, 0);  // v_1 - v_2
  const ContactResponse r = evaluate(vm.between(1, 2), c);
  const Vec3 f = r.force(c.normal);
  CHECK_THAT(f.x(), WithinRel(-3663.0536630036654, 1e-12));
  CHECK_THAT(f.y(), WithinRel(0.040000000000000008, 1e-12));
}

TEST_CASE("granular type laws: the errors LAMMPS gives, naming the line", "[cohesive]") {
  const std::string jkr = "jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5";
  const std::string hz = "hertz/material 1e5 0.1 0.3 tangential linear_history 100 0 0.5";
  // in.mixed_jkr_hertz: LAMMPS stops with "functional forms are different".
  CHECK_THAT(error_of([&] { lammps_type_laws({"granular"}, {coeff("1", "1", jkr), coeff("2", "2", hz)}, 2); }),
             Catch::Contains("types 1 and 2") && Catch::Contains("functional forms are different"));
  CHECK_THAT(error_of([&] { lammps_type_laws({"granular"}, {coeff("1", "1", jkr)}, 2); }),
             Catch::Contains("atom type 2 has no pair_coeff 2 2"));
  CHECK_THAT(error_of([&] { lammps_type_laws({"granular"}, {coeff("*", "*", jkr), coeff("2", "1", hz)}, 2); }),
             Catch::Contains("pair_coeff 2 1 hertz/material") && Catch::Contains("sets no pair"));
  CHECK_THAT(error_of([&] {
               lammps_type_laws({"granular"}, {coeff("*", "*", "jkr 1e5 0.1 0.3 fifty tangential linear_history 1 0 0.5")},
                                2);
             }),
             Catch::Contains("pair_coeff * * jkr") && Catch::Contains("cohesion = 'fifty'"));
  CHECK_THAT(error_of([&] { lammps_type_laws({"granular"}, {coeff("1*3", "*", jkr)}, 2); }),
             Catch::Contains("'1*3' is out of bounds (1-2)"));
  // The classic styles: one law, no coefficients after the types.
  const TypeLaws classic = lammps_type_laws({"gran/hooke/history", "1e5", "NULL", "50", "NULL", "0.5", "1"},
                                            {coeff("*", "*", "")}, 3);
  CHECK(classic.between(1, 3) == classic.between(2, 2));
  CHECK_THAT(error_of([&] { lammps_type_laws({"gran/hooke"}, {coeff("*", "*", "")}, 3); }), Catch::Contains("kn"));
}

TEST_CASE("contacts: a jkr pair counts as touching down to its pull-off overlap", "[cohesive]") {
  const ContactLaw jkr = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  const ContactLaw hertz = parse_lammps_pair("granular hertz/material 1e5 0.1 0.3 tangential linear_history 100 0 0.5");
  const double pulloff = pulloff_overlap(jkr, 0.25);  // about -0.00726
  for (const auto& [law, gap, expected] : std::vector<std::tuple<ContactLaw, double, int>>{
           {jkr, 0.9 * -pulloff, 1}, {jkr, 1.1 * -pulloff, 0}, {hertz, 0.9 * -pulloff, 0}, {hertz, -1e-3, 1}}) {
    const packing::Packing p = two_spheres_over_a_wall(gap);
    packing::ContactLaws laws;
    laws.base = law;
    const auto grid = packing::find_contacts(p, laws);
    const auto brute = packing::find_contacts_brute_force(p, laws);
    INFO(describe(law) << " gap " << gap);
    CHECK(grid.pair_contacts == expected);
    CHECK(brute.pair_contacts == expected);
    // The wall: R_eff = r = 0.5, a larger pull-off than the pair's.
    const bool wall_touch = gap < -pulloff_overlap(law, 0.5);
    CHECK(grid.wall_contacts == (wall_touch ? 2 : 0));
    CHECK(brute.wall_contacts == grid.wall_contacts);
    if (expected == 1) CHECK_THAT(grid.contacts[0].overlap, WithinRel(-gap, 1e-12));
  }
}

TEST_CASE("the report counts the jkr contacts held open, which LAMMPS from a data file sees apart", "[cohesive]") {
  // Two spheres 0.9 of the pair's pull-off distance apart and a wall under both at that gap (the wall's
  // pull-off, R_eff = r, is larger): three contacts analysed as touching, none closed.
  const ContactLaw jkr = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  const packing::Packing p = two_spheres_over_a_wall(-0.9 * pulloff_overlap(jkr, 0.25));
  packing::ContactLaws laws;
  laws.base = jkr;
  const packing::GlobalSystem sys(packing::round_assembly(p, packing::find_contacts(p, laws)), true);
  REQUIRE(sys.contacts().pair_contacts == 1);
  REQUIRE(sys.contacts().wall_contacts == 2);
  packing::PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  const packing::PackingReport r = packing::analyse_packing(p, sys, o);
  CHECK(r.open_cohesive_contacts == 3);
  CHECK(packing::to_json(r)["packing"]["open_cohesive_contacts"] == 3);
  CHECK_THAT(packing::format_packing_table(r),
             Catch::Matchers::Contains("3 jkr contacts held open within their pull-off distance (overlap <= 0) are "
                                       "analysed as touching") &&
                 Catch::Matchers::Contains("LAMMPS started from a data file sees them apart"));
  // Pressed together, nothing is held open and nothing is said.
  packing::Packing closed;
  for (double x : {0.0, 0.99}) closed.add(Vec3(x, 0, 0), 0.5, 1.0, packing::BodyModel::sphere);
  const packing::GlobalSystem pair(packing::round_assembly(closed, packing::find_contacts(closed, laws)), true);
  const packing::PackingReport none = packing::analyse_packing(closed, pair, o);
  CHECK(none.open_cohesive_contacts == 0);
  CHECK_THAT(packing::format_packing_table(none), !Catch::Matchers::Contains("held open"));
}

TEST_CASE("the reference stepper refuses jkr by name and runs dmt", "[cohesive]") {
  const ContactLaw jkr = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  const ContactLaw dmt = parse_lammps_pair("granular dmt 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  CHECK_THAT(error_of([&] { stepper::ParticleSystem s(3, jkr); }),
             Catch::Contains("jkr normal model in the reference stepper"));
  stepper::ParticleSystem s(3, dmt);
  CHECK_THAT(error_of([&] { s.add_wall(Vec3::Zero(), Vec3::UnitZ(), jkr); }), Catch::Contains("jkr"));
}

TEST_CASE("d F_ne / d R_eff: central differences in R_eff for hertz, hertz/material and dmt, jkr refused",
          "[cohesive]") {
  // What a cone region's side adds to the stiffness (R_eff changes along it): the derivative at a
  // fixed overlap against central differences of the force itself.
  for (const char* text : {"granular hertz 1e6 0 tangential linear_history 100 0 0.5",
                           "granular hertz/material 1e7 0 0.3 tangential linear_history 100 0 0.5",
                           "granular dmt 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5",
                           "granular hooke 1e5 0 tangential linear_history 100 0 0.5"}) {
    CAPTURE(text);
    const ContactLaw law = parse_lammps_pair(text);
    const double delta = 0.01, R = 0.25, h = 1e-6 * R;
    const double F = evaluate(law, at_rest(delta, R)).elastic_normal_force;
    const double numeric = (evaluate(law, at_rest(delta, R + h)).elastic_normal_force -
                            evaluate(law, at_rest(delta, R - h)).elastic_normal_force) /
                           (2.0 * h);
    CHECK_THAT(elastic_normal_force_radius_derivative(law, F, R), WithinAbs(numeric, 1e-7 * std::abs(F) / R + 1e-12));
  }
  const ContactLaw jkr = parse_lammps_pair("granular jkr 1e5 0.1 0.3 50 tangential linear_history 100 0 0.5");
  CHECK_THAT(error_of([&] { elastic_normal_force_radius_derivative(jkr, 1.0, 0.25); }),
             Catch::Matchers::Contains("jkr against a wall whose radius of curvature changes"));
}
