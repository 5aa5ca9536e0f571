// The contact-point model of Burns & Hanley (2016): closed forms against eigenvalues, invariances,
// the paper's trends, and the errors bad input must raise.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "dtcrit/estimates/estimates.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/io/body_spec.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/model/contact_point_model.hpp"

using namespace dtcrit;
using Catch::Matchers::WithinRel;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::Contains;

namespace {
constexpr double pi = std::numbers::pi;

// Fig. 3 of the paper: m = 0.003 kg, L = 6 mm, I = 5.4e-8 kg m^2, eccentricity e.
PlanarBody fig3_body(double e) { return {"custom", 0.003, 5.4e-8, arm_from_eccentricity(0.006, e)}; }

// The non-zero squared frequencies of the full 6-coordinate system, by a dense generalised eigensolver.
Vector full_system_squared_frequencies(const ContactPointModel& m) {
  const Eigen::Matrix<double, 6, 1> mass = m.full_mass();
  const Matrix Minv_sqrt = mass.cwiseInverse().cwiseSqrt().asDiagonal();
  const Matrix S = Minv_sqrt * m.full_stiffness() * Minv_sqrt;
  return linalg::symmetric_eigen(S, true).values.tail(2);  // four rigid-body or zero modes below
}
}  // namespace

TEST_CASE("contact-point mobility equals J M^-1 J^T", "[model]") {
  const PlanarBody b{"custom", 0.002, 3e-8, {4e-4, 7e-4}};
  Eigen::Matrix<double, 2, 3> J;
  J << 1, 0, -b.arm[1], 0, 1, b.arm[0];
  const Eigen::Matrix3d Minv = Eigen::Vector3d(1 / b.mass, 1 / b.mass, 1 / b.inertia).asDiagonal();
  const Matrix2 expected = J * Minv * J.transpose();
  CHECK(contact_point_mobility(b).isApprox(expected, 1e-15));
}

TEST_CASE("pair mobility zhat is G M^-1 G^T of the full system", "[model]") {
  const ContactPointModel m(fig3_body(0.002), fig3_body(0.004), {5e6, 1e7, 30, 10});
  const auto G = m.full_jacobian();
  const Matrix2 expected = G * m.full_mass().cwiseInverse().asDiagonal() * G.transpose();
  CHECK(m.zhat().isApprox(expected, 1e-14));
}

TEST_CASE("undamped frequencies of the 2x2 model equal those of the full 6-coordinate system", "[model]") {
  auto e = GENERATE(0.0, 0.001, 0.003, 0.0055);
  auto kt = GENERATE(1e6, 1e7, 4e7);
  const ContactPointModel m(fig3_body(e), fig3_body(0.5 * e), {5e6, kt, 0, 0});
  const Vector2 w = m.undamped_frequencies();
  const Vector full = full_system_squared_frequencies(m);
  CHECK_THAT(w[0] * w[0], WithinRel(full[0], 1e-10));
  CHECK_THAT(w[1] * w[1], WithinRel(full[1], 1e-10));
}

TEST_CASE("undamped: the eigenvalues of Q are +-omega and burns2016 is pi/(2 omega_max)", "[model]") {
  const ContactPointModel m(fig3_body(0.003), fig3_body(0.003), {5e6, 2e6, 0, 0});
  CHECK_THAT(m.paper_spectral_abscissa(), WithinRel(m.omega_max(), 1e-12));
  CHECK_THAT(burns2016(m), WithinRel(pi / (2 * m.omega_max()), 1e-12));
}

TEST_CASE("eq. (22) equals the eigenvalue computation for collinear damped contacts", "[model][closed-form]") {
  auto cn = GENERATE(0.0, 50.0, 250.0, 1000.0);
  auto ct = GENERATE(0.0, 100.0);
  const ContactPointModel m(make_disc(5e-4, 0.003), make_disc(8e-4, 0.005), {5e7, 4e7, cn, ct});
  REQUIRE(is_collinear(m));
  const auto v = eq22_collinear_damped(m);
  REQUIRE(v);
  CHECK_THAT(*v, WithinRel(burns2016(m), 1e-12));
}

TEST_CASE("collinear: burns2016 is pi/4 of Belytschko's damped central-difference limit", "[model][closed-form]") {
  // One decoupled normal mode (kt = 0): omega^2 = kn Dhat, zeta = cn Dhat / (2 omega).
  auto cn = GENERATE(0.0, 100.0, 400.0, 2000.0);
  const ContactPointModel m(make_disc(5e-4, 0.003), make_disc(5e-4, 0.003), {8e7, 0.0, cn, 0.0});
  const double D = m.zhat()(1, 1);
  const double omega = std::sqrt(8e7 * D), zeta = cn * D / (2 * omega);
  const double belytschko = 2 / omega * (std::sqrt(1 + zeta * zeta) - zeta);
  CHECK_THAT(burns2016(m), WithinRel(pi / 4 * belytschko, 1e-12));
}

TEST_CASE("eq. (27) with the corrected prefactor 1/2 equals the eigenvalue computation", "[model][closed-form]") {
  auto e1 = GENERATE(0.0, 0.002, 0.005);
  auto e2 = GENERATE(0.0, 0.004);
  auto kt = GENERATE(1e6, 2e6, 4e6, 1e7);
  const ContactPointModel m(fig3_body(e1), fig3_body(e2), {5e6, kt, 0, 0});
  const auto v = eq27_undamped(m);
  REQUIRE(v);
  CHECK_THAT(*v, WithinRel(burns2016(m), 1e-12));
  // lambda_1 and lambda_3 of eqs. (23) and (25) are the squared frequencies.
  const Vector2 lam = eq23_25_eigenvalues(m, 0.5);
  const Vector2 w = m.undamped_frequencies();
  CHECK_THAT(lam[0], WithinRel(w[1] * w[1], 1e-12));
  CHECK_THAT(lam[1], WithinRel(w[0] * w[0], 1e-9));
}

TEST_CASE("the 1/sqrt(2) printed in eqs. (23)-(26) contradicts the eigenvalues and eq. (28)", "[model][closed-form][misprint]") {
  // Two equal undamped discs: eq. (28) and the eigenvalues agree; the printed prefactor 1/sqrt(2)
  // makes lambda sqrt(2) times too large, so the step 2^(1/4) times too small.
  const double m = 0.003, k = 8e7;
  const ContactPointModel model(make_disc(5e-4, m), make_disc(5e-4, m), {k, 0.5 * k, 0, 0});
  const Vector2 printed = eq23_25_eigenvalues(model, 1 / std::sqrt(2.0));
  const double dt_printed = pi / (2 * std::sqrt(printed[0]));
  const double dt_eq28 = *eq28_two_discs(model);
  CHECK_THAT(dt_eq28, WithinRel(burns2016(model), 1e-12));
  CHECK_THAT(dt_printed * std::pow(2.0, 0.25), WithinRel(dt_eq28, 1e-12));
  CHECK_FALSE(std::abs(dt_printed - dt_eq28) < 0.1 * dt_eq28);
}

TEST_CASE("eq. (28) equals the eigenvalue computation for two undamped discs", "[model][closed-form]") {
  auto ratio = GENERATE(1.0, 0.5, 0.1, 0.01);
  auto kt_ratio = GENERATE(0.25, 0.5, 1.0, 2.0);
  const double total = 0.0005;
  const double m1 = total * ratio / (1 + ratio), m2 = total - m1;
  const ContactPointModel m(make_disc(3e-4, m1), make_disc(7e-4, m2), {5e7, kt_ratio * 5e7, 0, 0});
  CHECK_THAT(*eq28_two_discs(m), WithinRel(burns2016(m), 1e-12));
}

TEST_CASE("eq. (29): equal discs give pi/(2 sqrt 6) sqrt(m/k) ~ 0.6413 sqrt(m/k)", "[model][closed-form]") {
  const double m = 0.003, k = 5e7;
  const ContactPointModel model(make_disc(5e-4, m), make_disc(5e-4, m), {k, k, 0, 0});
  const double expected = pi / (2 * std::sqrt(6.0)) * std::sqrt(m / k);
  CHECK_THAT(*eq29_equal_discs(model), WithinRel(expected, 1e-14));
  CHECK_THAT(burns2016(model), WithinRel(expected, 1e-12));
  CHECK_THAT(burns2016(model) / std::sqrt(m / k), WithinAbs(0.6413, 5e-5));
}

TEST_CASE("the answer does not change when the bodies are swapped", "[model]") {
  const PlanarBody a = make_rect(0.001, 0.00075, 0.003, 4e-4);
  const PlanarBody b = make_disc(5e-4, 0.002);
  const LinearContactLaw law{8e7, 4e7, 250, 100};
  const ContactPointModel ab(a, b, law), ba(b, a, law);
  CHECK_THAT(burns2016(ab), WithinRel(burns2016(ba), 1e-14));
  CHECK_THAT(ab.omega_max(), WithinRel(ba.omega_max(), 1e-14));
}

TEST_CASE("the step scales as sqrt(m/k) when masses and stiffnesses scale", "[model]") {
  auto sm = GENERATE(0.01, 3.0, 100.0);
  auto sk = GENERATE(0.1, 7.0);
  const LinearContactLaw law{8e7, 4e7, 250, 100};
  const PlanarBody a = make_rect(0.001, 0.00075, 0.003, 4e-4), b = fig3_body(0.002);
  const ContactPointModel base(a, b, law);
  auto scaled = [&](PlanarBody p) { p.mass *= sm; p.inertia *= sm; return p; };
  // Keeping the damping ratio: c scales as sqrt(m k).
  const double sc = std::sqrt(sm * sk);
  const ContactPointModel s(scaled(a), scaled(b), {law.kn * sk, law.kt * sk, law.cn * sc, law.ct * sc});
  CHECK_THAT(burns2016(s), WithinRel(burns2016(base) * std::sqrt(sm / sk), 1e-12));
}

TEST_CASE("the paper's trends: the step falls with eccentricity and with damping", "[model][trend]") {
  double previous = INFINITY;
  for (double e = 0.0; e <= 0.0058; e += 0.0002) {  // Fig. 3(a), kt = 4e6
    const double dt = burns2016(ContactPointModel(fig3_body(e), fig3_body(e), {5e6, 4e6, 0, 0}));
    CHECK(dt <= previous * (1 + 1e-12));
    previous = dt;
  }
  previous = INFINITY;
  for (double c = 0.0; c <= 2000.0; c += 100.0) {  // Fig. 8(a)-like
    const double dt = burns2016(ContactPointModel(fig3_body(0.0005), fig3_body(0.0005), {5e7, 4e7, c, 0.5 * c}));
    CHECK(dt < previous);
    previous = dt;
  }
}

TEST_CASE("the step tends to zero as the mass ratio m/m' tends to zero", "[model][trend]") {
  const double total = 0.0005;
  double previous = INFINITY;
  for (double ratio : {1.0, 0.3, 0.1, 0.01, 1e-4, 1e-6}) {
    const double m1 = total * ratio / (1 + ratio);
    const double dt = burns2016(ContactPointModel(make_disc(1e-4, m1), make_disc(1e-3, total - m1), {5e7, 4e7, 0, 0}));
    CHECK(dt < previous);
    previous = dt;
  }
  CHECK(previous < 1e-2 * std::sqrt(total / 5e7));  // ~ sqrt(1e-6 / 3) of it in theory
}

TEST_CASE("shapes: moments of inertia and arms", "[model][bodies]") {
  const PlanarBody rect = make_rect(0.001, 0.00075, 0.003, 4e-4);
  CHECK_THAT(rect.inertia, WithinRel(0.003 * (1e-6 + 0.5625e-6) / 12, 1e-14));
  CHECK(rect.arm.isApprox(Vector2(4e-4, 0.375e-3)));
  // The same rectangle as a polygon, contact point on its top face.
  const PlanarBody poly = make_polygon({{0, 0}, {0.001, 0}, {0.001, 0.00075}, {0, 0.00075}}, 0.003, {0.0009, 0.00075});
  CHECK_THAT(poly.inertia, WithinRel(rect.inertia, 1e-12));
  CHECK(poly.arm.isApprox(rect.arm, 1e-12));
  // Clockwise order gives the same body.
  const PlanarBody cw = make_polygon({{0, 0}, {0, 0.00075}, {0.001, 0.00075}, {0.001, 0}}, 0.003, {0.0009, 0.00075});
  CHECK_THAT(cw.inertia, WithinRel(rect.inertia, 1e-12));
  // A triangle: I about the centroid of a right triangle with legs a, b is m (a^2 + b^2) / 18.
  const PlanarBody tri = make_polygon({{0, 0}, {0.003, 0}, {0, 0.002}}, 1.0, {0, 0});
  CHECK_THAT(tri.inertia, WithinRel((9e-6 + 4e-6) / 18, 1e-12));
  CHECK_THAT(make_disc(0.5, 2.0).inertia, WithinRel(0.25, 1e-15));
  CHECK_THAT(make_ellipse(0.2, 0.1, 4.0, {0, 0.1}).inertia, WithinRel(0.05, 1e-14));
}

TEST_CASE("body specifications parse every arm form", "[model][io]") {
  const PlanarBody a = parse_body("shape=custom,m=0.003,I=5.4e-8,L=0.006,e=0.002", "b");
  const PlanarBody b = parse_body(fmt::format("shape=custom,m=0.003,I=5.4e-8,L=0.006,theta={:.17g}",
                                              std::acos(0.002 / 0.006)), "b");
  const PlanarBody c = parse_body(fmt::format("shape=custom,m=0.003,I=5.4e-8,rt=0.002,rn={:.17g}",
                                              std::sqrt(0.006 * 0.006 - 0.002 * 0.002)), "b");
  CHECK(a.arm.isApprox(b.arm, 1e-14));
  CHECK(a.arm.isApprox(c.arm, 1e-14));
  const PlanarBody d = parse_body("shape=disc,r=0.5,rho=1500,t=0.1", "b");
  CHECK_THAT(d.mass, WithinRel(1500 * pi * 0.25 * 0.1, 1e-14));
}

TEST_CASE("restitution, damping ratio and LAMMPS gamma conversions", "[model][contact]") {
  for (double e : {1.0, 0.9, 0.7, 0.5, 0.3, 0.01}) {
    CHECK_THAT(restitution_from_damping_ratio(damping_ratio_from_restitution(e)), WithinRel(e, 1e-13));
  }
  CHECK(damping_ratio_from_restitution(1.0) == 0.0);
  // restitution maps to cn through the normal effective mass 1/Dhat.
  PairInput in{"shape=disc,r=5e-4,m=0.003", "shape=disc,r=5e-4,m=0.003", {{"kn", 8e7}, {"kt_ratio", 0.5}, {"restitution", 0.5}}, ""};
  const ContactPointModel m = build_model(in);
  const double zeta = damping_ratio(m.law().cn, 8e7, 0.0015);
  CHECK_THAT(restitution_from_damping_ratio(zeta), WithinRel(0.5, 1e-13));
  in.law.erase("restitution");
  in.law["gamma_n"] = 1000.0;
  CHECK_THAT(build_model(in).law().cn, WithinRel(1.5, 1e-14));
}

TEST_CASE("bad input names the parameter and its value", "[model][errors]") {
  auto message = [](auto&& f) {
    try { f(); } catch (const std::invalid_argument& e) { return std::string(e.what()); }
    return std::string("no error");
  };
  CHECK_THAT(message([] { parse_body("shape=disc,r=0.001,m=-2", "body1"); }), Contains("body1 m = -2"));
  CHECK_THAT(message([] { parse_body("shape=custom,m=1,I=-2e-08,rt=0,rn=1", "body2"); }), Contains("inertia I = -2e-08"));
  CHECK_THAT(message([] { parse_body("shape=custom,m=nan,I=1,rt=0,rn=1", "body1"); }), Contains("body1 m = nan"));
  CHECK_THAT(message([] { parse_body("shape=blob,m=1", "body1"); }), Contains("unknown shape 'blob'"));
  CHECK_THAT(message([] { parse_body("shape=disc,r=0.001,m=1,colour=red", "body1"); }), Contains("key 'colour'"));
  CHECK_THAT(message([] { parse_body("shape=disc,r=0.001,m=abc", "body1"); }), Contains("body1 m = 'abc' is not a number"));
  CHECK_THAT(message([] { build_model(PairInput{"", "shape=disc,r=1,m=1", {{"kn", 1}, {"kt", 1}}, ""}); }), Contains("missing body1"));
  CHECK_THAT(message([] { build_model(PairInput{"shape=disc,r=1,m=1", "shape=disc,r=1,m=1", {{"kn", 0}, {"kt", 1}}, ""}); }),
             Contains("kn = 0"));
  CHECK_THAT(message([] { ContactPointModel({"custom", 1, 1, {0, 1}}, {"custom", 1, 1, {0, 1}}, {1, -1, 0, 0}); }),
             Contains("kt = -1"));
  CHECK_THAT(message([] { PairInput p; p.set("kx", 1); }), Contains("unknown input 'kx'"));
}

TEST_CASE("material heuristics", "[model][material]") {
  // Glass beads: E = 63 GPa, nu = 0.24, rho = 2500 kg/m^3, R = 1 mm.
  const Material glass{63e9, 0.24, 2500, 1e-3, 1.0};
  const double G = 63e9 / (2 * 1.24);
  CHECK_THAT(rayleigh_time(glass), WithinRel(pi * 1e-3 * std::sqrt(2500 / G) / (0.1631 * 0.24 + 0.8766), 1e-14));
  CHECK_THAT(p_wave_time(glass), WithinRel(1e-3 * std::sqrt(2500 / 63e9), 1e-14));
  // Hertz: the contact duration falls as v^(-1/5).
  Material fast = glass;
  fast.impact_velocity = 32.0;
  CHECK_THAT(hertz_collision_time(glass) / hertz_collision_time(fast), WithinRel(2.0, 1e-12));
}
