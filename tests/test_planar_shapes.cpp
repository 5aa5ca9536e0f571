// Planar polygons and ellipses (issue 14, network/planar_shapes.hpp): their contact detection against
// cases worked by hand and against polygons that approximate ellipses; packings of them as contact
// networks: an ellipse of aspect ratio 1 is a disc (the disc packing's own answer), and omega_max of
// random packings against a dense solve assembled here from the contacts' points and normals.
#include <cmath>
#include <numbers>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "test_support.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/network/planar_shapes.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

using namespace dtcrit;
using network::Placed;
using network::PlanarShape;

namespace {

PlanarShape square(double half) {
  PlanarShape s;
  s.kind = PlanarShape::Kind::polygon;
  s.vertices = {{-half, -half}, {half, -half}, {half, half}, {-half, half}};
  return s;
}

PlanarShape ellipse(double a, double b) {
  PlanarShape s;
  s.a = a, s.b = b;
  return s;
}

// omega_max^2 of a 2D network from its data alone: K = sum_c B^T (kn n n^T + kt t t^T) B, B the
// relative displacement of the two contact points, u_i + theta_i e_z x a_i - (u_j + theta_j e_z x a_j).
double dense_omega2(const network::ContactNetwork& net, double kn, double kt) {
  const auto nb = static_cast<Index>(net.bodies.size());
  Matrix K = Matrix::Zero(3 * nb, 3 * nb);
  Vector m(3 * nb);
  for (Index b = 0; b < nb; ++b) {
    const auto& body = net.bodies[static_cast<std::size_t>(b)];
    m.segment<3>(3 * b) << body.mass, body.mass, body.moments[2];
  }
  for (const auto& c : net.contacts) {
    const Vector2 n(c.normal.x(), c.normal.y()), t(-n.y(), n.x());
    const Eigen::Matrix2d Kc = kn * n * n.transpose() + kt * t * t.transpose();
    Eigen::Matrix<double, 2, 6> B = Eigen::Matrix<double, 2, 6>::Zero();
    const Vector2 ai(c.point_i.x() - net.bodies[static_cast<std::size_t>(c.i)].centre.x(),
                     c.point_i.y() - net.bodies[static_cast<std::size_t>(c.i)].centre.y());
    const Vector2 aj(c.point_j.x() - net.bodies[static_cast<std::size_t>(c.j)].centre.x(),
                     c.point_j.y() - net.bodies[static_cast<std::size_t>(c.j)].centre.y());
    B.block<2, 2>(0, 0) = Eigen::Matrix2d::Identity();
    B.col(2) = Vector2(-ai.y(), ai.x());
    B.block<2, 2>(0, 3) = -Eigen::Matrix2d::Identity();
    B.col(5) = -Vector2(-aj.y(), aj.x());
    const Matrix Kl = B.transpose() * Kc * B;
    const std::array<Index, 2> at{3 * static_cast<Index>(c.i), 3 * static_cast<Index>(c.j)};
    for (int r = 0; r < 2; ++r)
      for (int s = 0; s < 2; ++s) K.block<3, 3>(at[r], at[s]) += Kl.block<3, 3>(3 * r, 3 * s);
  }
  const Vector w = m.cwiseSqrt().cwiseInverse();
  return linalg::symmetric_eigenvalues(w.asDiagonal() * K * w.asDiagonal()).maxCoeff();
}

}  // namespace

TEST_CASE("planar shapes: polygon contacts worked by hand", "[planar]") {
  const PlanarShape sq = square(1.0);
  // Two parallel faces: depth 0.1 along x, each point on its own face at the middle of the overlap.
  const auto c = network::planar_contact(Placed{&sq, {0.0, 0.0}, 0.0}, Placed{&sq, {1.9, 0.3}, 0.0});
  REQUIRE(c);
  CHECK(std::abs(c->depth - 0.1) < 1e-14);
  CHECK((c->normal - Vector2(1.0, 0.0)).norm() < 1e-14);
  CHECK((c->point_a - Vector2(1.0, 0.15)).norm() < 1e-14);
  CHECK((c->point_b - Vector2(0.9, 0.15)).norm() < 1e-14);
  // A vertex of a square turned by 45 degrees into the other's face: depth 0.05.
  const auto v = network::planar_contact(Placed{&sq, {0.0, 0.0}, 0.0},
                                         Placed{&sq, {1.0 + std::sqrt(2.0) - 0.05, 0.2}, std::numbers::pi / 4});
  REQUIRE(v);
  CHECK(std::abs(v->depth - 0.05) < 1e-13);
  CHECK((v->normal - Vector2(1.0, 0.0)).norm() < 1e-13);
  CHECK((v->point_b - Vector2(0.95, 0.2)).norm() < 1e-13);
  CHECK((v->point_a - Vector2(1.0, 0.2)).norm() < 1e-13);
  // Apart: no contact.
  CHECK(!network::planar_contact(Placed{&sq, {0.0, 0.0}, 0.0}, Placed{&sq, {2.01, 0.0}, 0.0}));
}

TEST_CASE("planar shapes: ellipse contacts, discs and tips worked by hand", "[planar]") {
  // Aspect ratio 1: discs of radius 1 and 0.5, 1.4 apart: depth 0.1 along the line of centres.
  const PlanarShape d1 = ellipse(1.0, 1.0), d2 = ellipse(0.5, 0.5);
  const Vector2 n(std::cos(0.3), std::sin(0.3));
  const auto c = network::planar_contact(Placed{&d1, {0.0, 0.0}, 0.7}, Placed{&d2, 1.4 * n, -0.2});
  REQUIRE(c);
  CHECK(std::abs(c->depth - 0.1) < 1e-13);
  CHECK((c->normal - n).norm() < 1e-13);
  CHECK((c->point_a - 1.0 * n).norm() < 1e-13);
  CHECK((c->point_b - 0.9 * n).norm() < 1e-13);
  // Two ellipses tip to tip along x.
  const PlanarShape e = ellipse(2.0, 1.0);
  const auto tip = network::planar_contact(Placed{&e, {0.0, 0.0}, 0.0}, Placed{&e, {3.9, 0.0}, 0.0});
  REQUIRE(tip);
  CHECK(std::abs(tip->depth - 0.1) < 1e-13);
  CHECK(std::abs(tip->normal.y()) < 1e-13);
  // Side by side along y: the minor axes.
  const auto side = network::planar_contact(Placed{&e, {0.0, 0.0}, 0.0}, Placed{&e, {0.0, 1.95}, 0.0});
  REQUIRE(side);
  CHECK(std::abs(side->depth - 0.05) < 1e-13);
}

TEST_CASE("planar shapes: an ellipse's contacts against those of a polygon inscribed in it", "[planar]") {
  // 4096 vertices on the ellipse: its depth is the ellipse's to the polygon's sagitta (~1e-6 here).
  const PlanarShape e = ellipse(1.5, 0.6);
  PlanarShape poly;
  poly.kind = PlanarShape::Kind::polygon;
  for (int k = 0; k < 4096; ++k) {
    const double t = 2.0 * std::numbers::pi * k / 4096;
    poly.vertices.emplace_back(1.5 * std::cos(t), 0.6 * std::sin(t));
  }
  int compared = 0;
  for (double angle : {0.0, 0.4, 1.1, 2.5}) {
    for (double phi : {0.2, 1.3, 2.9}) {
      CAPTURE(angle, phi);
      const Vector2 at = 1.6 * Vector2(std::cos(phi), std::sin(phi));
      const auto smooth = network::planar_contact(Placed{&e, {0.0, 0.0}, 0.3}, Placed{&e, at, angle});
      const auto facets = network::planar_contact(Placed{&poly, {0.0, 0.0}, 0.3}, Placed{&poly, at, angle});
      REQUIRE(bool(smooth) == bool(facets));
      if (!smooth) continue;
      ++compared;
      CHECK(std::abs(smooth->depth - facets->depth) < 5e-6);
      CHECK((smooth->normal - facets->normal).norm() < 5e-3);
      CHECK(((smooth->point_a - smooth->point_b) - smooth->depth * smooth->normal).norm() < 1e-13);
    }
  }
  CHECK(compared >= 8);
}

TEST_CASE("planar shapes: a packing of ellipses of aspect ratio 1 is the disc packing", "[planar]") {
  const double r = 1e-3, rho = 2.0, c = 1e-3;
  for (const char* law : {"gran/hooke/history 1e5 3e4 0 0 0.5 0", "gran/hooke/history 1e5 3e4 50 25 0.5 0"}) {
    CAPTURE(law);
    network::PlanarPackingSpec spec;
    spec.shape = network::ellipse_of_aspect(1.0, r);
    spec.n = 4;
    spec.r = r;
    spec.areal_density = rho;
    spec.compression = c;
    spec.max_rotation = 0.5;  // turning a disc changes nothing
    spec.law = law;
    const network::ContactNetwork net = network::planar_packing(spec);
    CHECK(net.contacts.size() == 3 * net.bodies.size());
    packing::LatticeSpec ls;
    ls.kind = packing::LatticeKind::hex;
    ls.n = 4;
    ls.radius = r;
    ls.density = rho;
    ls.compression = c;
    ls.body_model = packing::BodyModel::disc;
    const packing::Packing p = packing::make_lattice(ls);
    packing::ContactLaws laws;
    laws.base = contact::parse_lammps_pair(law);
    packing::ContactOptions co;
    co.gap_tolerance = 1e-9;
    const packing::GlobalSystem discs(packing::round_assembly(p, packing::find_contacts(p, laws, co))), ellipses(packing::network_assembly(net));
    packing::PackingAnalysisOptions o;
    o.integrators = {"velocity_verlet", "rk4"};
    o.eigen.method = packing::EigenMethod::dense;
    const auto a = packing::analyse_packing(p, discs, o);
    const auto b = packing::analyse_system("ellipses", ellipses, o);
    CHECK(rel(b.omega_max, a.omega_max) < 1e-12);
    CHECK(rel(b.h_exact, a.h_exact) < 1e-10);
    // The damped rk4 row reads the damping ratio of the top mode, undamped and doubly degenerate on
    // this lattice, from a dense non-symmetric eigensolve of the first-order matrix: rounding moves
    // that pair's real parts by up to sqrt(eps) |s| (3.4e-8 and 1.3e-8 of the limit between the two
    // assemblies in two builds), so 1e-7 there.
    for (std::size_t k = 0; k < a.integrators.size(); ++k)
      CHECK(rel(b.integrators[k].h_crit, a.integrators[k].h_crit) < (o.integrators[k] == "rk4" ? 1e-7 : 1e-9));
  }
}

TEST_CASE("planar shapes: omega_max of random polygon and ellipse packings against a dense solve", "[planar]") {
  const double kn = 1e5, kt = 3e4;
  struct Case {
    PlanarShape shape;
    double aspect;
    double rotation;
    std::size_t contacts_per_body;  // 0: not fixed
  };
  const std::vector<Case> cases{{network::regular_polygon(6, 1e-3), 1.0, 1.0, 3},
                                {network::regular_polygon(4, 1e-3), 1.0, 1.0, 3},
                                {network::regular_polygon(5, 1e-3), 1.0, 0.3, 3},
                                {network::ellipse_of_aspect(2.0, 1e-3), 2.0, 0.0, 3},
                                {network::ellipse_of_aspect(3.0, 1e-3), 3.0, 0.05, 0}};
  for (const auto& cs : cases) {
    CAPTURE(cs.shape.vertices.size(), cs.aspect, cs.rotation);
    network::PlanarPackingSpec spec;
    spec.shape = cs.shape;
    spec.aspect = cs.aspect;
    spec.n = 4;
    spec.max_rotation = cs.rotation;
    spec.compression = 2e-3;
    spec.law = fmt::format("gran/hooke/history {} {} 0 0 0.5 0", kn, kt);
    const network::ContactNetwork net = network::planar_packing(spec);
    if (cs.contacts_per_body) CHECK(net.contacts.size() == cs.contacts_per_body * net.bodies.size());
    REQUIRE(net.contacts.size() > net.bodies.size());
    for (const auto& c : net.contacts) REQUIRE(c.overlap > 0.0);
    const packing::GlobalSystem sys(packing::network_assembly(net));
    const double w2 = dense_omega2(net, kn, kt);
    CHECK(rel(packing::largest_eigen_dense(sys, 1.0, 0.0), w2) < 1e-11);
    packing::EigenOptions lz;
    lz.method = packing::EigenMethod::lanczos;
    lz.tolerance = 1e-11;
    CHECK(rel(packing::largest_eigen(sys, 1.0, 0.0, lz).lambda, w2) < 1e-10);
  }
}

TEST_CASE("planar shapes: bad specifications are named errors", "[planar]") {
  CHECK_THROWS_WITH(network::regular_polygon(2, 1e-3), Catch::Contains("at least 3 sides"));
  network::PlanarPackingSpec spec;
  spec.shape = network::ellipse_of_aspect(2.0, 1e-3);
  spec.aspect = 3.0;
  CHECK_THROWS_WITH(network::planar_packing(spec), Catch::Contains("is not the aspect 3"));
  spec.aspect = 2.0;
  spec.law = "gran/hertz/history 5e10 NULL 0 NULL 0.5 0";
  CHECK_THROWS_WITH(network::planar_packing(spec), Catch::Contains("reads a radius of curvature"));
}

TEST_CASE("planar shapes: fixed-arm linear dynamics confirm the predicted limits of a polygon packing",
          "[planar][confirm]") {
  network::PlanarPackingSpec spec;
  spec.shape = network::regular_polygon(5, 1e-3);
  spec.n = 3;
  spec.max_rotation = std::numbers::pi;
  spec.compression = 2e-3;
  for (const char* law : {"gran/hooke/history 1e5 3e4 0 0 0.5 0", "gran/hooke/history 1e5 3e4 2e4 1e4 0.5 0"}) {
    CAPTURE(law);
    spec.law = law;
    const packing::GlobalSystem sys(packing::network_assembly(network::planar_packing(spec)));
    packing::PackingAnalysisOptions o;
    o.integrators = {"velocity_verlet", "central_difference", "rk4"};
    const auto report = packing::analyse_system("pentagons", sys, o);
    const LinearSystem ls = sys.linear_system();
    for (const auto& lim : report.integrators) {
      CAPTURE(lim.name);
      REQUIRE(lim.stability == Stability::conditional);
      const auto below = packing::confirm_linear(ls, lim.name, lim.h_crit, 0.99, 3000);
      const auto above = packing::confirm_linear(ls, lim.name, lim.h_crit, 1.01, 3000);
      CHECK(below.growth <= packing::bounded_growth);
      CHECK(!(above.growth <= packing::growing_growth));
    }
  }
}
