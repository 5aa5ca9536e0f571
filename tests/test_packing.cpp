// Packings: lattices and their contacts, the global M, K, C, omega_max by Lanczos against dense
// eigenvalues and closed forms, the damped velocity Verlet criterion against the integrators' own
// amplification matrices, LAMMPS readers, and the reference stepper run at 0.99 / 1.01 of the
// predicted limit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "packing_test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using namespace dtcrit;
using namespace dtcrit::packing;

namespace {

ContactLaws hooke(double kn, double kt, double gn = 0.0, double gt = 0.0, double mu = 0.0) {
  ContactLaws l;
  l.base = stepper::HookeParams{kn, kt, gn, gt, mu};
  return l;
}

Packing lattice(LatticeKind kind, Index n, bool periodic = true, double compression = 0.0, double spread = 0.0) {
  LatticeSpec s;
  s.kind = kind;
  s.n = n;
  s.periodic = periodic;
  s.compression = compression;
  s.radius_spread = spread;
  return make_lattice(s);
}

// Velocity Verlet's limit on the packing's global system, required exact.
PackingIntegratorLimit verlet_limit(const Packing& p, const ContactLaws& laws) {
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  const PackingReport r = analyse_packing(p, g, o);
  REQUIRE(r.integrators.size() == 1);
  REQUIRE(r.integrators[0].exact);
  return r.integrators[0];
}

// Contacts as a comparable set (pair, rounded normal).
std::multiset<std::tuple<int, int, long, long, long>> as_set(const ContactSet& s) {
  std::multiset<std::tuple<int, int, long, long, long>> out;
  for (const auto& c : s.contacts)
    out.emplace(c.i, c.j, std::lround(c.normal.x() * 1e6), std::lround(c.normal.y() * 1e6), std::lround(c.normal.z() * 1e6));
  return out;
}

std::filesystem::path scratch_file(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / "dtcrit_packing_tests";
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  std::ofstream(p) << content;
  return p;
}

// The matrix-free operator applies the assembled K and C (random vector, relative 1e-12), and the
// assembled K is symmetric to the last bit.
void check_matrix_free_equals_assembled(const GlobalSystem& g) {
  const SparseMatrix K = g.stiffness(), C = g.damping();
  CHECK((Matrix(K) - Matrix(K).transpose()).norm() == 0.0);
  const Vector x = Vector::Random(g.dofs());
  Vector y(g.dofs());
  g.apply(1.0, 0.0, x.data(), y.data());
  CHECK((y - K * x).norm() <= 1e-12 * (K * x).norm());
  g.apply(0.0, 1.0, x.data(), y.data());
  CHECK((y - C * x).norm() <= 1e-12 * (C * x).norm());
}

}  // namespace

TEST_CASE("periodic lattices have their bulk coordination numbers", "[packing]") {
  const auto kind = GENERATE(LatticeKind::square, LatticeKind::hex, LatticeKind::sc, LatticeKind::bcc, LatticeKind::fcc);
  const Index n = GENERATE(1, 2, 4);
  CAPTURE(to_string(kind), n);
  const Packing p = lattice(kind, n);
  const ContactSet cs = find_contacts(p, hooke(1e5, 5e4), {1e-9});
  const auto z = cs.coordination(p.size());
  for (auto k : z) REQUIRE(k == lattice_coordination(kind));
  CHECK(cs.pair_contacts * 2 == p.size() * lattice_coordination(kind));
  // The cell grid agrees with the all-pairs, all-images scan (n = 1, 2: explicit image shifts).
  CHECK(as_set(cs) == as_set(find_contacts_brute_force(p, hooke(1e5, 5e4), {1e-9})));
}

TEST_CASE("open lattices, walls and polydisperse packings: cell grid equals brute force", "[packing]") {
  Packing p = lattice(LatticeKind::fcc, 4, false, 0.002, 0.001);
  add_box_walls(p, 1e-6);
  p.periodic = {true, false, false};
  p.walls.erase(p.walls.begin(), p.walls.begin() + 2);  // no walls normal to the periodic x axis
  const ContactSet a = find_contacts(p, hooke(1e5, 5e4), {});
  const ContactSet b = find_contacts_brute_force(p, hooke(1e5, 5e4), {});
  CHECK(a.wall_contacts > 0);
  CHECK(a.wall_contacts == b.wall_contacts);
  CHECK(as_set(a) == as_set(b));
}

TEST_CASE("the grid search on threads finds the one-thread contacts, laws and surfaces in order", "[packing]") {
  // 23 328 spheres (above the 20 000 from which the search runs on threads, in rounds of 2^17),
  // three types whose laws are first met in the upper half of the particles (the second part), a
  // plane wall and a plane region wall (its surfaces stay parallel to the contacts).
  Packing p = lattice(LatticeKind::fcc, 18, false, 0.002, 0.001);
  add_box_walls(p, 1e-6);
  RegionWall floor;
  floor.name = "floor";
  floor.style = RegionStyle::plane;
  floor.point = Vec3(0.0, 0.0, p.box_lo[2] + 1e-6);
  floor.normal = Vec3::UnitZ();
  p.region_walls.push_back(floor);
  const Index n = p.size();
  for (Index i = 0; i < n; ++i) p.type[static_cast<std::size_t>(i)] = i < n / 2 ? 1 : 2 + static_cast<int>(i % 2);
  ContactLaws laws = hooke(1e5, 5e4);
  laws.by_types[{2, 2}] = hooke(2e5, 5e4).base;
  laws.by_types[{2, 3}] = hooke(3e5, 5e4).base;
  laws.by_types[{3, 3}] = hooke(4e5, 5e4).base;
  ContactOptions one;
  one.threads = 1;
  const ContactSet a = find_contacts(p, laws, one);
  REQUIRE(a.laws.size() == 4);
  CHECK(a.wall_contacts > 0);
  REQUIRE(a.wall_surfaces.size() == a.contacts.size());
  for (const int threads : {2, 3}) {
    CAPTURE(threads);
    ContactOptions o;
    o.threads = threads;
    const ContactSet b = find_contacts(p, laws, o);
    CHECK(b.pair_contacts == a.pair_contacts);
    CHECK(b.wall_contacts == a.wall_contacts);
    CHECK(b.laws == a.laws);
    REQUIRE(b.contacts.size() == a.contacts.size());
    REQUIRE(b.wall_surfaces.size() == a.wall_surfaces.size());
    std::size_t differ = 0;
    for (std::size_t k = 0; k < a.contacts.size(); ++k) {
      const Contact &x = a.contacts[k], &y = b.contacts[k];
      if (x.i != y.i || x.j != y.j || x.law != y.law || x.normal != y.normal || x.overlap != y.overlap ||
          a.wall_surfaces[k].r_eff != b.wall_surfaces[k].r_eff)
        ++differ;
    }
    CHECK(differ == 0);
  }
}

TEST_CASE("matrix-free operator equals the assembled K and C, K matches the stepper's tangent", "[packing]") {
  Packing p = lattice(LatticeKind::hex, 3, false, 1e-3, 5e-4);
  add_box_walls(p, 1e-6, stepper::HookeParams{2e5, 1e5, 30.0, 10.0, 0.0});
  const ContactLaws laws = hooke(1e5, 4e4, 50.0, 20.0, 10.0);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  check_matrix_free_equals_assembled(g);
  const SparseMatrix K = g.stiffness(), C = g.damping();
  // The stepper (consistent history: xi follows the positions) assembles the same tangent K at rest;
  // with the geometric stiffness of the turning normals on both sides, the same again.
  const GlobalSystem gg(round_assembly(p, find_contacts(p, laws)), true, true);
  check_matrix_free_equals_assembled(gg);
  const SparseMatrix Kg = gg.stiffness();
  CHECK((Matrix(Kg) - Matrix(K)).norm() > 1e-6 * Matrix(K).norm());  // compression 1e-3: visible
  auto stepped = to_particle_system(p, laws, stepper::TangentialHistory::consistent);
  SparseMatrix Ks, Cs;
  const Vector v0 = Vector::Zero(stepped.system->dofs());
  Vector f;
  stepped.system->force(0.0, stepped.x0, v0, f);
  stepped.system->tangent(0.0, stepped.x0, v0, Ks, Cs);
  CHECK((Matrix(Ks) - Matrix(K)).norm() <= 1e-12 * Matrix(K).norm());
  CHECK((Matrix(Cs) - Matrix(C)).norm() <= 1e-12 * Matrix(C).norm());
  stepped.system->set_geometric_stiffness(true);
  stepped.system->tangent(0.0, stepped.x0, v0, Ks, Cs);
  CHECK((Matrix(Ks) - Matrix(Kg)).norm() <= 1e-12 * Matrix(Kg).norm());
}

TEST_CASE("Lanczos omega_max agrees with dense eigenvalues", "[packing]") {
  const bool rotation = GENERATE(true, false);
  const auto [method, name] = GENERATE(std::make_pair(EigenMethod::lanczos, "lanczos"),
                                       std::make_pair(EigenMethod::spectra, "spectra"));
  Packing p = lattice(LatticeKind::fcc, 3, true, 2e-3, 1e-3);  // 108 spheres, polydisperse masses
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(1e5, 3e4))), rotation);
  const double dense = largest_eigen_dense(g, 1.0, 0.0);
  EigenOptions lanczos;
  lanczos.method = method;
  lanczos.tolerance = 1e-10;
  const ExtremeEigen e = largest_eigen(g, 1.0, 0.0, lanczos);
  CHECK(e.method == name);
  CHECK_THAT(e.lambda, WithinRel(dense, 1e-12));
  CHECK(e.residual <= 2e-10 * e.lambda);
  CHECK(e.vector.size() == g.dofs());
  // The default tolerance gives lambda to rounding here; a loose one stops at a Ritz value within
  // about the tolerance (from below): on this polydisperse lattice the top is a cluster split by
  // ~1e-6, and tol 1e-6 can stop on its second member.
  for (const double tol : {EigenOptions{}.tolerance, 1e-6}) {
    lanczos.tolerance = tol;
    lanczos.want_vector = false;
    const ExtremeEigen loose = largest_eigen(g, 1.0, 0.0, lanczos);
    CHECK_THAT(loose.lambda, WithinRel(dense, tol == 1e-6 ? 2e-6 : 1e-12));
    CHECK(loose.lambda <= dense * (1.0 + 1e-14));
    CHECK(loose.residual <= 2.0 * tol * loose.lambda);
  }
  // Gershgorin bounds it from above.
  CHECK(g.gershgorin_omega2() >= e.lambda * (1.0 - 1e-12));
  // auto: dense at this size unless told otherwise.
  CHECK(largest_eigen(g, 1.0, 0.0).method == (g.dofs() <= 600 ? "dense" : "lanczos"));
  CHECK_THROWS_WITH(parse_eigen_method("arpack"), Contains("eigensolver 'arpack'"));
}

TEST_CASE("closed forms: periodic chains and simple cubic lattices without rotation", "[packing]") {
  const double kn = 1e5, kt = 4e4;
  // A periodic 1D chain is a square lattice with kt = 0 and no rotation: omega_max = 2 sqrt(k/m)
  // (the zone-boundary mode x_j = (-1)^j, each spring stretched by 2: m w^2 = 4k).
  {
    const Packing p = lattice(LatticeKind::square, 4);
    const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(kn, 0.0), {1e-9})), false);
    CHECK_THAT(std::sqrt(largest_eigen(g, 1, 0).lambda), WithinRel(2.0 * std::sqrt(kn / p.mass[0]), 1e-12));
  }
  // Simple cubic, translations only, normal and tangential springs. The dynamical matrix is
  // diagonal: D_xx(q) = (1/m) [2(1 - cos q_x) kn + 2(1 - cos q_y) kt + 2(1 - cos q_z) kt], largest at
  // q = (pi, pi, pi): omega_max^2 = 4 (kn + 2 kt) / m (n even, so q = pi is on the grid).
  for (Index n : {2, 4}) {
    const Packing p = lattice(LatticeKind::sc, n);
    const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(kn, kt), {1e-9})), false);
    CHECK_THAT(largest_eigen(g, 1, 0).lambda, WithinRel(4.0 * (kn + 2.0 * kt) / p.mass[0], 1e-12));
  }
}

TEST_CASE("simple cubic with rotation: omega_max equals the Bloch analysis", "[packing]") {
  // Bloch oracle, derived independently of the assembly: for the contact between sites R - e_a and
  // R (normal e_a) the relative contact-point motion of the mode (X, Phi) e^{i q.R} is
  //   u = e^{i q.R} [(1 - e^{-i q_a}) X + r (1 + e^{-i q_a}) e_a x Phi],
  // so D(q) = M^-1/2 sum_a B_a^H (kn e_a e_a^T + kt (I - e_a e_a^T)) B_a M^-1/2, and omega_max^2 is
  // the largest eigenvalue of D over q = 2 pi k / n.
  const double kn = 1e5, kt = GENERATE(1e4, 5e4, 1e5);
  const Index n = 4;
  const Packing p = lattice(LatticeKind::sc, n);
  const double m = p.mass[0], I = p.inertia[0], r = p.radius[0];
  double oracle = 0.0;
  using C6 = Eigen::Matrix<std::complex<double>, 6, 6>;
  using C36 = Eigen::Matrix<std::complex<double>, 3, 6>;
  for (Index kx = 0; kx < n; ++kx)
    for (Index ky = 0; ky < n; ++ky)
      for (Index kz = 0; kz < n; ++kz) {
        const double q[3] = {2 * std::numbers::pi * kx / n, 2 * std::numbers::pi * ky / n, 2 * std::numbers::pi * kz / n};
        C6 D = C6::Zero();
        for (int a = 0; a < 3; ++a) {
          Vec3 e = Vec3::Zero();
          e[a] = 1.0;
          const std::complex<double> ph = std::exp(std::complex<double>(0.0, -q[a]));
          Eigen::Matrix3d ex;  // e x .
          ex << 0, -e.z(), e.y(), e.z(), 0, -e.x(), -e.y(), e.x(), 0;
          C36 B;
          B.leftCols<3>() = (1.0 - ph) * Eigen::Matrix3cd::Identity();
          B.rightCols<3>() = r * (1.0 + ph) * ex.cast<std::complex<double>>();
          const Eigen::Matrix3d Kc = kn * e * e.transpose() + kt * (Eigen::Matrix3d::Identity() - e * e.transpose());
          D += B.adjoint() * Kc.cast<std::complex<double>>() * B;
        }
        Eigen::Matrix<double, 6, 1> s;
        s << 1 / std::sqrt(m), 1 / std::sqrt(m), 1 / std::sqrt(m), 1 / std::sqrt(I), 1 / std::sqrt(I), 1 / std::sqrt(I);
        D = s.asDiagonal() * D * s.asDiagonal();
        Eigen::SelfAdjointEigenSolver<C6> es(D, Eigen::EigenvaluesOnly);
        oracle = std::max(oracle, es.eigenvalues().maxCoeff());
      }
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(kn, kt), {1e-9})), true);
  CHECK_THAT(largest_eigen(g, 1, 0).lambda, WithinRel(oracle, 1e-12));
  // Rotation only adds stiffness: at least the translational closed form.
  CHECK(oracle >= 4.0 * (kn + 2.0 * kt) / m * (1.0 - 1e-12));
}

TEST_CASE("Yade's per-body bound and the single-contact estimate on a simple cubic lattice", "[packing]") {
  const double kn = 1e5, kt = 4e4;
  const Packing p = lattice(LatticeKind::sc, 2);
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(kn, kt), {1e-9})), true);
  const double m = p.mass[0], I = p.inertia[0], r = p.radius[0];
  // Per body: K_xx = 2 kn + 4 kt (two contacts along x, four across); K^rot_xx = 4 kt r^2.
  const double yade = 1.41044 * 0.8 * std::sqrt(std::min(m / (2 * kn + 4 * kt), I / (4 * kt * r * r)));
  CHECK_THAT(g.yade_global_stiffness_step(), WithinRel(yade, 1e-14));
  // Single contact between equal spheres: omega^2 = max(2 kn / m, kt (2/m + 2 r^2/I)) = max(2kn, 7kt)/m.
  CHECK_THAT(g.single_contact_omega_max(), WithinRel(std::sqrt(std::max(2 * kn, 7 * kt) / m), 1e-14));
}

TEST_CASE("damped velocity Verlet: the limit is where 4M - 2hC - h^2 K loses definiteness", "[packing]") {
  // A compressed, polydisperse square lattice between four walls of their own law: no rigid-body
  // modes, damping not proportional to stiffness (walls use m_eff = m, pairs m_i m_j/(m_i + m_j)).
  Packing p = lattice(LatticeKind::square, 3, false, 2e-3, 1e-3);
  add_box_walls(p, 4e-6, stepper::HookeParams{2e5, 5e4, 300.0, 100.0, 0.0});
  const double gn = GENERATE(200.0, 3000.0);
  const ContactLaws laws = hooke(1e5, 3e4, gn, 0.4 * gn);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(g.damped());
  CAPTURE(gn, g.dofs());
  const double wmax = std::sqrt(largest_eigen_dense(g, 1, 0));
  const DampedLimit d = half_step_damped_limit(g, wmax);
  CHECK_THAT(d.h_crit, WithinRel(half_step_damped_limit_dense(g), 1e-10));
  CHECK(d.h_crit < 2.0 / wmax);
  for (const EigenMethod m : {EigenMethod::lanczos, EigenMethod::spectra}) {  // iterative Newton, warm-started
    EigenOptions eo;
    eo.method = m;
    CHECK_THAT(half_step_damped_limit(g, wmax, eo).h_crit, WithinRel(d.h_crit, 1e-10));
  }
  {  // S(h) = 4M - 2hC - h^2 K is singular there: lambda_min(M^-1/2 S M^-1/2) = 0.
    const Vector w = g.mass().cwiseSqrt().cwiseInverse();
    const double h = d.h_crit;
    const Matrix S = w.asDiagonal() * Matrix(Matrix(g.mass().asDiagonal()) * 4.0 - 2.0 * h * Matrix(g.damping()) -
                                             h * h * Matrix(g.stiffness())) * w.asDiagonal();
    CHECK(std::abs(linalg::symmetric_eigenvalues(S).minCoeff()) < 1e-9 * 4.0);
  }
  LinearSystem ls = g.linear_system();
  for (const char* spec : {"velocity_verlet", "leapfrog"}) {
    CAPTURE(spec);
    auto integ = make_integrator(spec);
    CHECK_FALSE(exceeds_unit_circle(amplification_matrix(*integ, ls, d.h_crit * (1.0 - 1e-6))));
    CHECK(exceeds_unit_circle(amplification_matrix(*integ, ls, d.h_crit * (1.0 + 1e-6))));
    // And the general scan agrees.
    CHECK_THAT(critical_step(spec, ls, wmax).h_crit, WithinRel(d.h_crit, 1e-8));
  }
  // Dashpots at v_{n+1}: the eigenvalue -1 needs 4M - h^2 K singular, so the limit is 2 / omega_max.
  for (const char* spec : {"central_difference", "velocity_verlet_implicit_damping"}) {
    CAPTURE(spec);
    CHECK_THAT(critical_step(spec, ls, wmax).h_crit, WithinRel(2.0 / wmax, 1e-8));
  }
  // The analysis uses these criteria.
  PackingAnalysisOptions o;
  const auto lim = packing_integrator_limit("velocity_verlet", g, wmax, 0.0, o);
  CHECK(lim.exact);
  CHECK_THAT(lim.h_crit, WithinRel(d.h_crit, 1e-10));
}

TEST_CASE("rows with a -1 line on a packing whose K is not semi-definite: their amplification matrix, scanned",
          "[packing]") {
  // With the geometric stiffness of its compressed contacts K is not positive semi-definite by
  // construction, so a -1 line's premise fails (packing/README.md). Above --amplification-dofs these
  // rows were the scalar limit at the top mode's damping ratio, labelled estimate; now their own
  // amplification matrix is scanned at h = 2^k / omega_max, k = -7 ... 14, the first unstable step
  // bisected and the crossing itself located (here a real eigenvalue through -1: the root of
  // det(A + I)). The reference: the fine scan of the same matrix (critical_step, the path up to
  // --amplification-dofs, certified by the same determinant).
  Packing p = lattice(LatticeKind::square, 4, false, 2e-3, 1e-3);
  add_box_walls(p, 4e-6, stepper::HookeParams{2e5, 5e4, 300.0, 100.0, 0.0});
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(1e5, 3e4, 3000.0, 1200.0))), true, true);
  REQUIRE_FALSE(g.stiffness_semidefinite());
  REQUIRE(g.symmetric());
  PackingAnalysisOptions o;
  o.integrators = {"gear4", "newmark_linear", "gear5", "hht"};
  const auto [whole, scanned, above] = test::scan_reports(p, g, o);
  for (std::size_t i = 0; i < o.integrators.size(); ++i) {
    const auto& row = scanned.integrators[i];
    CAPTURE(row.name, row.method, whole.integrators[i].method);
    CHECK(row.exact);
    CHECK(row.computed);
    CHECK(row.stability == whole.integrators[i].stability);
    if (row.name == "hht") {  // its line gives "stable at every step" only on semi-definite K: scanned too
      CHECK(row.stability == Stability::unconditional);
      CHECK_THAT(row.method, Contains("stable at every step checked"));
    } else {
      REQUIRE(row.stability == Stability::conditional);
      CHECK_THAT(row.method, Contains("positive semi-definite") && Contains("k = -7 ... 14") &&
                                 Contains("bisected between the last step found stable"));
      CHECK_THAT(row.h_crit, WithinRel(whole.integrators[i].h_crit, 1e-12));  // (measured: 2.4e-14 at most)
    }
    const auto& none = above.integrators[i];
    CAPTURE(none.method);
    CHECK_FALSE(none.computed);
    CHECK(std::isnan(none.h_crit));
    CHECK_THAT(none.method, Contains("22 eigenvalue solves of order"));
  }
}

TEST_CASE("damped limit to a precision: the bracket holds the root, looser costs fewer applications", "[packing]") {
  // The walled polydisperse square lattice of the test above (damping not proportional to stiffness),
  // by the matrix-free Lanczos solves at three precisions; with the geometric stiffness of its
  // compressed contacts K is not semi-definite, and the root must bracket from both sides.
  Packing p = lattice(LatticeKind::square, 4, false, 2e-3, 1e-3);
  add_box_walls(p, 4e-6, stepper::HookeParams{2e5, 5e4, 300.0, 100.0, 0.0});
  const ContactLaws laws = hooke(1e5, 3e4, 3000.0, 1200.0);
  for (const bool geometric : {false, true}) {
    const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true, geometric);
    CAPTURE(geometric, g.dofs());
    REQUIRE(g.stiffness_semidefinite() == !geometric);
    const double wmax = std::sqrt(largest_eigen_dense(g, 1, 0));
    const double oracle = half_step_damped_limit_dense(g);  // bisection on the definiteness of dense S(h)
    EigenOptions eo;
    eo.method = EigenMethod::lanczos;
    Index loose_operations = 0;
    for (const double rtol : {1e-3, 1e-6, 1e-11}) {
      CAPTURE(rtol);
      const DampedLimit d = half_step_damped_limit(g, wmax, eo, 0.0, rtol);
      REQUIRE(d.converged);
      CHECK(d.h_crit - d.h_low <= rtol * d.h_crit);
      // The oracle is bisected to 1e-14: the bracket holds it to that.
      CHECK(d.h_low <= oracle * (1.0 + 1e-13));
      CHECK(d.h_crit >= oracle * (1.0 - 1e-13));
      CHECK(d.operations > 0);
      if (rtol == 1e-3) loose_operations = d.operations;
      if (rtol == 1e-11) CHECK(d.operations > loose_operations);
    }
  }
}

TEST_CASE("undamped limits to a precision: [h_low, h_crit] holds Omega / omega_max", "[packing]") {
  // 108 spheres (648 dofs) by Lanczos at a loose and a tight precision against the dense omega_max.
  Packing p = lattice(LatticeKind::fcc, 3, true, 2e-3, 1e-3);
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(1e5, 3e4))), true);
  const double exact = 2.0 / std::sqrt(largest_eigen_dense(g, 1, 0));
  for (const double rtol : {1e-4, 1e-10}) {
    CAPTURE(rtol);
    PackingAnalysisOptions o;
    o.integrators = {"velocity_verlet", "rk4"};
    o.eigen.method = EigenMethod::lanczos;
    o.rtol = rtol;
    o.eigen.tolerance = omega_tolerance(rtol);
    const PackingReport r = analyse_packing(p, g, o);
    const PackingIntegratorLimit& vv = r.integrators.at(0);
    CHECK(vv.h_crit - vv.h_low <= rtol * vv.h_crit * (1.0 + 1e-12));
    CHECK(vv.h_low <= exact * (1.0 + 1e-14));
    CHECK(vv.h_crit >= exact * (1.0 - 1e-14));
    // RK4's Omega_crit = 2 sqrt(2): the same bracket, scaled.
    CHECK_THAT(r.integrators.at(1).h_low / vv.h_low, WithinRel(std::sqrt(2.0), 1e-6));
    CHECK(r.rtol == rtol);
  }
}

TEST_CASE("damped limit on a symmetric lattice: every solver finds the top mode of each h", "[packing]") {
  // A perfect periodic bcc lattice, damped: the top mode of h^2 K + 2h C lies in another symmetry
  // sector than the undamped one. Warm-started Krylov solves stayed in the first sector and gave a
  // limit 1.4 % too large (1.9020e-7 instead of 1.8765e-7 s) with converged residuals.
  Packing p = lattice(LatticeKind::bcc, 2, true, 1e-3);
  const double kn = 1e7, m = p.mass[0];
  const double zeta = damping_ratio_from_restitution(0.7);
  const double gn = 2.0 * zeta * std::sqrt(kn / (0.5 * m));
  const GlobalSystem g(round_assembly(p, find_contacts(p, hooke(kn, 0.25 * kn, gn, 0.5 * gn))), true);
  REQUIRE(g.dofs() == 96);
  const double wmax = std::sqrt(largest_eigen_dense(g, 1, 0));
  const double oracle = half_step_damped_limit_dense(g);
  for (const EigenMethod method : {EigenMethod::dense, EigenMethod::lanczos, EigenMethod::spectra}) {
    CAPTURE(static_cast<int>(method));
    EigenOptions o;
    o.method = method;
    CHECK_THAT(half_step_damped_limit(g, wmax, o).h_crit, WithinRel(oracle, 1e-10));
  }
  // Started from the top mode's scalar limit Omega(zeta) / omega_max (right of the root by
  // construction): the same root in fewer solves.
  const ExtremeEigen top = largest_eigen(g, 1.0, 0.0);
  Vector c(g.dofs());
  g.apply_scaled(0.0, 1.0, top.vector.data(), c.data());
  const double zeta_top = top.vector.dot(c) / (2.0 * wmax);
  const DampedLimit from_zeta = half_step_damped_limit(g, wmax, {}, zeta_top);
  CHECK_THAT(from_zeta.h_crit, WithinRel(oracle, 1e-10));
  CHECK(from_zeta.iterations < half_step_damped_limit(g, wmax).iterations);
  CHECK(2.0 * (std::sqrt(1.0 + zeta_top * zeta_top) - zeta_top) / wmax >= oracle * (1.0 - 1e-12));
  // And the amplification matrix of velocity Verlet agrees.
  LinearSystem ls = g.linear_system();
  auto vv = make_integrator("velocity_verlet");
  CHECK_FALSE(exceeds_unit_circle(amplification_matrix(*vv, ls, oracle * (1.0 - 1e-6))));
  CHECK(exceeds_unit_circle(amplification_matrix(*vv, ls, oracle * (1.0 + 1e-6))));
}

TEST_CASE("sort_spatially: a permutation into cell order that changes no answer", "[packing]") {
  const Packing p = lattice(LatticeKind::fcc, 3, true, 2e-3, 1e-3);
  Packing q = p;  // shuffled, as a LAMMPS file after mixing
  std::vector<std::size_t> perm(p.centre.size());
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::shuffle(perm.begin(), perm.end(), std::mt19937(3));
  for (std::size_t k = 0; k < perm.size(); ++k) {
    q.centre[k] = p.centre[perm[k]], q.radius[k] = p.radius[perm[k]];
    q.mass[k] = p.mass[perm[k]], q.inertia[k] = p.inertia[perm[k]], q.type[k] = p.type[perm[k]];
  }
  sort_spatially(q);
  // Cell order: z, then y, then x of cells of size 2 r_max, non-decreasing.
  const double cell = 2.0 * *std::max_element(p.radius.begin(), p.radius.end());
  Vec3 lo = q.centre[0];
  for (const Vec3& c : q.centre) lo = lo.cwiseMin(c);
  auto key = [&](const Vec3& c) {
    const Vec3 r = (c - lo) / cell;
    return std::make_tuple(std::floor(r.z()), std::floor(r.y()), std::floor(r.x()));
  };
  for (std::size_t k = 1; k < q.centre.size(); ++k) CHECK(key(q.centre[k - 1]) <= key(q.centre[k]));
  // The same particles (each centre carries its own radius and mass) and the same answers.
  std::map<std::tuple<double, double, double>, std::pair<double, double>> a, b;
  for (std::size_t k = 0; k < p.centre.size(); ++k) {
    a[{p.centre[k].x(), p.centre[k].y(), p.centre[k].z()}] = {p.radius[k], p.mass[k]};
    b[{q.centre[k].x(), q.centre[k].y(), q.centre[k].z()}] = {q.radius[k], q.mass[k]};
  }
  CHECK(a == b);
  const GlobalSystem gp(round_assembly(p, find_contacts(p, hooke(1e5, 3e4)))), gq(round_assembly(q, find_contacts(q, hooke(1e5, 3e4))));
  CHECK(gq.contacts().contacts.size() == gp.contacts().contacts.size());
  CHECK_THAT(largest_eigen_dense(gq, 1, 0), WithinRel(largest_eigen_dense(gp, 1, 0), 1e-12));
}

TEST_CASE("LAMMPS data file: write_data layout round trip, sections skipped", "[packing]") {
  Packing p = lattice(LatticeKind::bcc, 2, true, 1e-3, 0.01);
  p.type[3] = 2;
  const auto path = scratch_file("roundtrip.data", "");
  write_lammps_data(path.string(), p);
  ReadOptions ro;
  ro.periodic = std::array<bool, 3>{true, true, true};
  const Packing q = read_lammps_data(path.string(), ro);
  REQUIRE(q.size() == p.size());
  for (Index i = 0; i < p.size(); ++i) {
    CHECK_THAT(q.radius[i], WithinRel(p.radius[i], 1e-14));
    CHECK_THAT(q.mass[i], WithinRel(p.mass[i], 1e-12));
    CHECK((q.centre[i] - p.centre[i]).norm() <= 1e-15);
    CHECK(q.type[i] == p.type[i]);
  }
  CHECK(q.periodic[0]);
  CHECK_THAT(q.box_hi.x(), WithinRel(p.box_hi.x(), 1e-14));
  const auto a = find_contacts(p, hooke(1, 1), {1e-9}), b = find_contacts(q, hooke(1, 1), {1e-9});
  CHECK(a.contacts.size() == b.contacts.size());
}

TEST_CASE("LAMMPS dump: columns by name, periodicity from BOX BOUNDS, last snapshot", "[packing]") {
  const std::string snap0 = "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS pp ff pp\n0 4\n-1 1\n0 4\n"
                            "ITEM: ATOMS id type x y z radius mass\n1 1 9 9 9 0.5 1\n2 1 9 9 9 0.5 1\n";
  const std::string snap1 = "ITEM: TIMESTEP\n100\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS pp ff pp\n0 4\n-1 1\n0 4\n"
                            "ITEM: ATOMS id type xs y z radius mass\n1 1 0.125 0 1 0.5 2\n2 2 0.3745 0 1 0.5 2\n";
  const auto path = scratch_file("two.dump", snap0 + snap1);
  const Packing p = read_lammps_dump(path.string());
  REQUIRE(p.size() == 2);
  CHECK(p.periodic == std::array<bool, 3>{true, false, true});
  CHECK_THAT(p.centre[0].x(), WithinAbs(0.5, 1e-15));
  CHECK_THAT(p.centre[1].x(), WithinAbs(1.498, 1e-12));
  CHECK(p.mass[1] == 2.0);
  CHECK(p.type[1] == 2);
  CHECK_THAT(p.inertia[0], WithinRel(0.4 * 2 * 0.25, 1e-14));
  const auto cs = find_contacts(p, hooke(1, 1));
  REQUIRE(cs.contacts.size() == 1);  // overlap 0.002 across x; far apart through the x image
  CHECK_THAT(cs.contacts[0].overlap, WithinAbs(0.002, 1e-12));
}

TEST_CASE("LAMMPS files in 2D with disc bodies: I = m r^2 / 2, m = rho pi r^2 from --density", "[packing]") {
  // Regression: the readers computed sphere masses for disc bodies (the dimension was set last).
  ReadOptions ro;
  ro.dimension = 2;
  ro.body_model = BodyModel::disc;
  ro.density = 3.0;
  // A data file's density is LAMMPS' mass / (4/3 pi r^3) in 2D too (AtomVecSphere::data_atom_post()):
  // the mass LAMMPS runs, whatever the body model (regression: dtcrit took rho pi r^2 for discs).
  std::istringstream data("title\n\n1 atoms\n\nAtoms # sphere\n\n1 1 0.5 4 0 0 0\n");
  const Packing p = read_lammps_data(data, "disc.data", ro);
  CHECK_THAT(p.mass[0], WithinRel(std::numbers::pi / 12.0, 1e-15));           // 4 (4/3) pi 0.25^3
  CHECK_THAT(p.inertia[0], WithinRel(std::numbers::pi / 384.0, 1e-15));       // pi/12 0.25^2 / 2
  // ... and written back with that density.
  const auto path = scratch_file("disc_roundtrip.data", "");
  write_lammps_data(path.string(), p);
  const Packing back = read_lammps_data(path.string(), ro);
  CHECK_THAT(back.mass[0], WithinRel(p.mass[0], 1e-14));
  CHECK_THAT(back.inertia[0], WithinRel(p.inertia[0], 1e-14));
  std::istringstream dump("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS ff ff ff\n0 1\n0 1\n0 1\n"
                          "ITEM: ATOMS x y z radius\n0.5 0.5 0 0.25\n");
  const Packing q = read_lammps_dump(dump, "disc.dump", ro);
  CHECK_THAT(q.mass[0], WithinRel(3.0 * std::numbers::pi / 16.0, 1e-15));     // 3 pi 0.25^2
  CHECK_THAT(q.inertia[0], WithinRel(3.0 * std::numbers::pi / 512.0, 1e-15)); // 3 pi/16 0.25^2 / 2
}

TEST_CASE("malformed LAMMPS files: the error names the file, the line and what was expected", "[packing]") {
  struct Case {
    std::string name, content, line, expected;
    bool dump;
  };
  const std::string head = "title\n\n2 atoms\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\n";
  const std::vector<Case> cases = {
      {"cols.data", head + "Atoms # sphere\n\n1 1 0.1 1000 0.5 0.5 0.5\n2 1 0.1 1000 0.5 0.5\n", ":12:", "7 or 10 columns", false},
      {"num.data", head + "Atoms # sphere\n\n1 1 0.1 1000 0.5 0.5 0.5\n2 1 0.1 abc 0.5 0.6 0.5\n", ":12:", "expected a density, got 'abc'", false},
      {"style.data", head + "Atoms # atomic\n\n1 1 0.5 0.5 0.5\n", ":9:", "atom_style sphere", false},
      {"count.data", head + "Atoms # sphere\n\n1 1 0.1 1000 0.5 0.5 0.5\n\nVelocities\n\n1 0 0 0 0 0 0\n", ":", "expected 2 atoms", false},
      {"diam.data", head + "Atoms # sphere\n\n1 1 0 1000 0.5 0.5 0.5\n", ":11:", "positive diameter", false},
      {"item.dump", "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp\n", ":5:", "three boundary flags", true},
      {"radius.dump", "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y z mass\n",
       ":9:", "a radius or diameter column", true},
      {"short.dump", "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y z radius mass\n1 0 0 0 0.1 1\n2 0 0 0.1 1\n",
       ":11:", "6 columns", true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const auto path = scratch_file(c.name, c.content);
    try {
      if (c.dump) read_lammps_dump(path.string());
      else read_lammps_data(path.string());
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      CHECK_THAT(what, Contains(path.string()) && Contains(c.line) && Contains(c.expected));
    }
  }
}

TEST_CASE("the stepper on a compressed packing is bounded at 0.99 and grows at 1.01 of the limit", "[packing]") {
  // Simple cubic, every contact closed by a compression of 1e-4, between six walls pressed in by
  // the same overlap: every sphere is in equilibrium. mu large: the contacts stick.
  Packing p = lattice(LatticeKind::sc, 3, false, 1e-4);
  const double overlap = 2.0 * p.radius[0] * 1e-4;
  add_box_walls(p, overlap);
  const bool damped = GENERATE(false, true);
  const ContactLaws laws = damped ? hooke(1e5, 5e4, 400.0, 200.0, 10.0) : hooke(1e5, 5e4, 0.0, 0.0, 10.0);
  CAPTURE(damped);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(g.contacts().contacts.size() == 3 * 2 * 9 + 6 * 9);
  CHECK(equilibrium_residual(p, laws) < 1e-9);
  PackingAnalysisOptions o;
  // central_difference and rk4 see v_{n+1} and stage velocities in their force calls: the stepper reads
  // their tangential histories from the positions (with LAMMPS' rule central difference stayed bounded
  // at 1.01: the spring advanced by h v_{n+1} is damped, which the linearisation does not model).
  o.integrators = {"velocity_verlet", "leapfrog", "central_difference", "rk4"};
  o.amplification_dofs = 200;  // damped rk4: the amplification matrix of all 162 dofs (exact)
  const PackingReport r = analyse_packing(p, g, o);
  for (const auto& lim : r.integrators) {
    CAPTURE(lim.name, lim.h_crit);
    REQUIRE(lim.exact);
    const int steps = 3000;
    const double amplitude = 1e-4 * overlap;
    const ConfirmationRun below = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 0.99, steps, amplitude);
    const ConfirmationRun above = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 1.01, steps, amplitude);
    CHECK(below.steps == steps);
    CHECK(below.growth < 50.0);  // separation from the unperturbed run, relative to the perturbation
    CHECK(above.growth > 1e3);
  }
}

TEST_CASE("the stepper with rolling resistance is bounded at 0.99 and grows at 1.01 of the limit", "[packing][contact]") {
  // The compressed simple cubic packing between pressed walls (in equilibrium), every contact under
  // granular hooke with LAMMPS' rolling sds (no tangential spring: kt = 0 keeps the granular
  // stiffness symmetric with rotations, which GlobalSystem requires). The rolling stiffness is twice
  // k_n, so the rolling modes set omega_max; mu_r large: the rolling springs stick.
  Packing p = lattice(LatticeKind::sc, 3, false, 1e-4);
  const double overlap = 2.0 * p.radius[0] * 1e-4;
  add_box_walls(p, overlap);
  const bool damped = GENERATE(false, true);
  CAPTURE(damped);
  ContactLaws laws, no_rolling;
  laws.base = contact::parse_lammps_pair(damped ? "granular hooke 1e5 400 damping mass_velocity tangential "
                                                  "linear_history 0 0 0 rolling sds 2e5 4e-3 10"
                                                : "granular hooke 1e5 0 damping velocity tangential linear_history 0 0 0 "
                                                  "rolling sds 2e5 0 10");
  no_rolling.base = laws.base;
  no_rolling.base.rolling = contact::RollingModel::none;
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  CHECK(equilibrium_residual(p, laws) < 1e-9);
  // Rolling resistance raises omega_max (dense eigen-solves of both).
  CHECK(largest_eigen_dense(g, 1.0, 0.0) > 1.5 * largest_eigen_dense(GlobalSystem(round_assembly(p, find_contacts(p, no_rolling)), true), 1.0, 0.0));
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet", "leapfrog"};
  const PackingReport r = analyse_packing(p, g, o);
  for (const auto& lim : r.integrators) {
    CAPTURE(lim.name, lim.h_crit);
    REQUIRE(lim.exact);
    const int steps = 3000;
    const double amplitude = 1e-4 * overlap;
    // Spins too: no translation excites the rolling modes here (kt = 0 leaves them uncoupled).
    const double spin = amplitude / (p.radius[0] * lim.h_crit);
    const ConfirmationRun below = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 0.99, steps, amplitude, 7, spin);
    const ConfirmationRun above = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 1.01, steps, amplitude, 7, spin);
    CHECK(below.steps == steps);
    CHECK(below.growth < 50.0);
    CHECK(above.growth > 1e3);
  }
}

TEST_CASE("confirmation holds every contact sticking, walls with a frictional law of their own included",
          "[packing][contact]") {
  // One sphere pressed by six walls, each with its own law of friction mu = 0 (the particle law's mu
  // is irrelevant: there are no pairs). With k_t = 0.8 k_n the top modes are the sphere's rotations,
  // which only the walls' tangential springs hold (omega^2 = 4 k_t r^2 / I = 10 k_t / m, against
  // 2 k_n / m for the stiffest translation without them). The analysis linearises the contacts
  // sticking; a run whose walls slide has no rotational stiffness and stays bounded at 1.01.
  Packing p = lattice(LatticeKind::sc, 1, false);
  REQUIRE(p.size() == 1);
  const double overlap = 2.0 * p.radius[0] * 1e-4;
  const contact::ContactLaw frictionless_wall = contact::hooke_history(1e5, 8e4, 0.0, 0.0, 0.0);
  add_box_walls(p, overlap, frictionless_wall);
  const ContactLaws laws = hooke(1e5, 8e4, 0.0, 0.0, 0.0);
  REQUIRE(find_contacts(p, laws).wall_contacts == 6);
  const PackingIntegratorLimit lim = verlet_limit(p, laws);
  CHECK(equilibrium_residual(p, laws) < 1e-9);
  const double amplitude = 1e-4 * overlap;
  const double spin = amplitude / (p.radius[0] * lim.h_crit);  // translations do not excite rotations here
  const ConfirmationRun below = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 0.99, 3000, amplitude, 7, spin);
  const ConfirmationRun above = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 1.01, 3000, amplitude, 7, spin);
  CAPTURE(below.growth, above.growth);
  CHECK(below.steps == 3000);
  CHECK(below.growth <= bounded_growth);
  CHECK(above.growth > growing_growth);
  // The law the runs use: every friction limit lifted, the rest as given.
  const contact::ContactLaw held = contact::sticking(frictionless_wall);
  CHECK(held.mu >= 1e6);
  CHECK(held.kn == frictionless_wall.kn);
  CHECK(held.kt == frictionless_wall.kt);
}

TEST_CASE("confirmation off equilibrium: the packing's own relaxation does not count as growth", "[packing]") {
  // FCC between walls pressed in by the lattice's overlap is not in equilibrium (a wall pushes
  // with kn x overlap, a sphere's four neighbours at 45 degrees with about 2.8 times that): the
  // packing relaxes from x0. Growth is measured against an unperturbed run, so it still separates
  // 0.99 from 1.01 of the limit.
  Packing p = lattice(LatticeKind::fcc, 3, false, 1e-4);
  const double overlap = 2.0 * p.radius[0] * 1e-4;
  add_box_walls(p, overlap);
  const ContactLaws laws = hooke(1e5, 5e4, 0.0, 0.0, 10.0);
  const PackingIntegratorLimit lim = verlet_limit(p, laws);
  CHECK(equilibrium_residual(p, laws) > 0.5);  // off equilibrium by a good margin
  const ConfirmationRun below = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 0.99, 3000, 1e-4 * overlap);
  const ConfirmationRun above = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 1.01, 3000, 1e-4 * overlap);
  CHECK(below.steps == 3000);
  CHECK(below.growth < 50.0);
  CHECK(above.growth > 1e3);
}

TEST_CASE("confirmation: contacts that open and close are counted, and switching between contact sets grows below "
          "the linear limit", "[packing]") {
  // The same FCC box with k_t = 2/7 k_n, compressed by 1e-3: relaxing, its wall contacts open and close
  // in most steps of the unperturbed run. The limit is exact for the linear system with every contact
  // closed, but the switched system's separation grows from about 0.7 of it (a step-size effect: the
  // same runs at 0.5 stay bounded). With k_t = 0.5 k_n a few contacts change and the runs confirm.
  Packing p = lattice(LatticeKind::fcc, 3, false, 1e-3);
  const double overlap = 2.0 * p.radius[0] * 1e-3;
  add_box_walls(p, overlap);
  const ContactLaws switching = hooke(1e4, 2857.0, 0.0, 0.0, 1e6);
  const double h = verlet_limit(p, switching).h_crit;
  const ConfirmationRun half = confirm_with_stepper(p, switching, "velocity_verlet", h, 0.5, 2000, 1e-4 * overlap);
  const ConfirmationRun near = confirm_with_stepper(p, switching, "velocity_verlet", h, 0.9, 2000, 1e-4 * overlap);
  CHECK(half.contact_changes > 100);
  CHECK(half.growth < 10.0);
  CHECK(near.contact_changes > 100);
  CHECK(near.growth > 100.0);
  const ContactLaws steady = hooke(1e4, 5000.0, 0.0, 0.0, 1e6);
  const double h2 = verlet_limit(p, steady).h_crit;
  const ConfirmationRun below = confirm_with_stepper(p, steady, "velocity_verlet", h2, 0.99, 2000, 1e-4 * overlap);
  CHECK(below.contact_changes >= 0);
  CHECK(below.growth < 10.0);
  // A linear system has no contacts to count.
  CHECK(confirm_linear(scalar_oscillator(1.0, 0.0), "velocity_verlet", 2.0, 0.5, 10).contact_changes == -1);
}

TEST_CASE("walls: parse, facing the packing, and rejected on periodic axes", "[packing]") {
  Packing p = lattice(LatticeKind::sc, 2, false);
  const auto w = parse_wall("z=-0.5e-3,kn=7", p, stepper::HookeParams{1, 1, 0, 0, 0});
  CHECK(w.normal.z() == 1.0);
  REQUIRE(w.law);
  CHECK(w.law->kn == 7.0);
  CHECK(parse_wall("x=1", p, stepper::HookeParams{1, 1, 0, 0, 0}).normal.x() == -1.0);
  CHECK_THROWS_WITH(parse_wall("z=0,kx=1", p, stepper::HookeParams{1, 1, 0, 0, 0}), Contains("kx"));
  p.periodic = {false, false, true};
  p.box_hi = Vec3::Constant(1.0);
  p.walls.push_back(w);
  CHECK_THROWS_WITH(validate(p), Contains("periodic"));
}

TEST_CASE("dtcrit packing --kt-ratio is k_t / k_n as in dtcrit pair, and refused by name beside --kt", "[packing][cli]") {
  const std::string base = "packing --lattice sc --n 3 --kn 1e5 --integrator velocity_verlet --json";
  const CliRun ratio = run_cli(base + " --kt-ratio 0.4");
  const CliRun value = run_cli(base + " --kt 4e4");
  REQUIRE(ratio.status == 0);
  REQUIRE(value.status == 0);
  const auto a = nlohmann::json::parse(ratio.out), b = nlohmann::json::parse(value.out);
  CHECK(a["integrators"]["velocity_verlet"]["h_crit"] == b["integrators"]["velocity_verlet"]["h_crit"]);
  CHECK(a["inputs"]["law"] == b["inputs"]["law"]);
  const CliRun both = run_cli(base + " --kt 4e4 --kt-ratio 0.4");
  CHECK(both.status != 0);
  CHECK_THAT(both.out, Contains("give one of --kt = 40000 and --kt-ratio = 0.4"));
  const CliRun negative = run_cli(base + " --kt-ratio -0.4");
  CHECK(negative.status != 0);
  CHECK_THAT(negative.out, Contains("--kt-ratio = -0.4 (k_t / k_n) must be non-negative and finite"));
}

TEST_CASE("dtcrit packing --json: omega_max and the integrators object", "[packing][cli]") {
  const CliRun r = run_cli("packing --lattice sc --n 4 --kn 1e5 --kt 4e4 --no-rotation --integrator velocity_verlet"
                           " --integrator rk4 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const double m = 2500.0 * 4.0 / 3.0 * std::numbers::pi * 1e-9;
  const double w = std::sqrt(4.0 * (1e5 + 2.0 * 4e4) / m);
  CHECK_THAT(j["omega_max"].get<double>(), WithinRel(w, 1e-12));
  CHECK_THAT(j["integrators"]["velocity_verlet"]["h_crit"].get<double>(), WithinRel(2.0 / w, 1e-10));
  CHECK(j["integrators"]["velocity_verlet"]["stability"] == "conditional");
  CHECK_THAT(j["integrators"]["rk4"]["h_crit"].get<double>(), WithinRel(2.0 * std::sqrt(2.0) / w, 1e-6));
  CHECK(j["estimates"]["gershgorin"]["ratio_to_exact"].get<double>() <= 1.0 + 1e-12);
  // kt > 0 keeps a tangential spring in each contact's history: velocity Verlet advances a
  // traditional history by its own displacement, RK4 does not (its limit is the consistent update's).
  CHECK(j["integrators"]["velocity_verlet"]["tangential_update"] == "both");
  CHECK(j["integrators"]["rk4"]["tangential_update"] == "consistent");
}

TEST_CASE("dtcrit packing: the note on the tangential update names the schemes it concerns, only with history springs",
          "[packing][cli]") {
  auto run = [](const std::string& args) {
    const CliRun r = run_cli("packing --lattice sc --n 2 --kn 1e5 " + args);
    REQUIRE(r.status == 0);
    return r.out;
  };
  using Catch::Matchers::Contains;
  const std::string both = run("--kt 4e4 --integrator velocity_verlet --integrator rk4 --integrator central_difference");
  CHECK_THAT(both, Contains("note: rk4, central_difference: limits of the consistent tangential update"));
  CHECK_THAT(run("--kt 4e4 --integrator velocity_verlet --integrator leapfrog"), !Contains("tangential update"));
  CHECK_THAT(run("--kt 0 --integrator rk4"), !Contains("tangential update"));
}

TEST_CASE("dtcrit packing --eigensolver: every solver gives the closed form, a bad name is an error", "[packing][cli]") {
  auto run = [](const std::string& args, std::string& out) {
    CliRun r = run_cli("packing " + args);
    out = std::move(r.out);
    return r.status;
  };
  // Simple cubic, 6^3 spheres, translations only: 648 dofs, above the dense threshold of auto.
  const std::string base = "--lattice sc --n 6 --kn 1e5 --kt 4e4 --no-rotation --integrator velocity_verlet --json";
  const double m = 2500.0 * 4.0 / 3.0 * std::numbers::pi * 1e-9;
  const double w = std::sqrt(4.0 * (1e5 + 2.0 * 4e4) / m);
  for (const auto& [solver, method] : {std::pair{"auto", "lanczos"}, std::pair{"lanczos", "lanczos"},
                                       std::pair{"spectra", "spectra"}, std::pair{"dense", "dense"}}) {
    CAPTURE(solver);
    std::string out;
    REQUIRE(run(base + " --eigensolver " + solver + " --rtol 1e-12", out) == 0);
    const auto j = nlohmann::json::parse(out);
    CHECK(j["eigen"]["method"] == method);
    CHECK_THAT(j["omega_max"].get<double>(), WithinRel(w, 1e-12));
    // At the default precision (rtol 1e-6): a Ritz value, from below, within its residual bound.
    REQUIRE(run(base + " --eigensolver " + solver, out) == 0);
    const auto d = nlohmann::json::parse(out);
    const double omega = d["omega_max"].get<double>(), tol = d["eigen"]["tolerance"].get<double>();
    CHECK(tol == omega_tolerance(1e-6));
    CHECK(omega <= w * (1.0 + 1e-12));  // the dense solver: to rounding
    CHECK(w * w <= omega * omega * (1.0 + tol));
  }
  std::string out;
  CHECK(run(base + " --eigensolver arpack", out) != 0);
  CHECK_THAT(out, Contains("eigensolver 'arpack'"));
  CHECK(run(base + " --lanczos-tol 0", out) != 0);
  CHECK_THAT(out, Contains("--lanczos-tol = 0"));
  CHECK(run(base + " --rtol 0.5", out) != 0);
  CHECK_THAT(out, Contains("--rtol = 0.5"));
  // --rtol sets omega_max's residual tolerance, (1 + rtol)^2 - 1; --lanczos-tol sets it instead.
  REQUIRE(run(base + " --rtol 1e-4", out) == 0);
  CHECK_THAT(nlohmann::json::parse(out)["eigen"]["tolerance"].get<double>(), WithinRel(2.0001e-4, 1e-12));
  REQUIRE(run(base + " --rtol 1e-4 --lanczos-tol 3e-9", out) == 0);
  CHECK(nlohmann::json::parse(out)["eigen"]["tolerance"].get<double>() == 3e-9);
}

TEST_CASE("Hertz and rolling laws in a packing: matrix-free equals assembled, Lanczos equals dense", "[packing][contact]") {
  Packing p = lattice(LatticeKind::sc, 4, false, 1e-3, 2e-4);
  add_box_walls(p, 1e-6);
  // Classic Hertz (per-contact coefficients); granular without a tangential spring (symmetric with
  // rotations) carrying rolling and twisting resistance; the geometric stiffness on top.
  const std::string law_text = GENERATE(std::string("gran/hertz/history 4e9 NULL 3e4 NULL 0.5 1"),
                                        std::string("granular hertz 4e9 2e4 tangential linear_history 0 0 0 "
                                                    "rolling sds 2e3 1e-2 0.3 twisting sds 1e-3 1e-6 0.2"));
  const bool geometric = GENERATE(false, true);
  INFO(law_text << (geometric ? " with geometric stiffness" : ""));
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair(law_text);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true, geometric);
  CHECK(g.per_contact());
  check_matrix_free_equals_assembled(g);
  // The overlap-dependent stiffness: a contact's kn is 3/2 k_n sqrt(R_eff delta).
  const Contact& c0 = g.contacts().contacts.front();
  const double ri = p.radius[static_cast<std::size_t>(c0.i)];
  const double reff = c0.j >= 0 ? ri * p.radius[static_cast<std::size_t>(c0.j)] / (ri + p.radius[static_cast<std::size_t>(c0.j)]) : ri;
  CHECK_THAT(g.coefficients(0).kn, WithinRel(1.5 * 4e9 * std::sqrt(reff * c0.overlap), 1e-12));
  EigenOptions lanczos;
  lanczos.method = EigenMethod::lanczos;
  lanczos.tolerance = 1e-10;
  CHECK_THAT(largest_eigen(g, 1.0, 0.0, lanczos).lambda, WithinRel(largest_eigen_dense(g, 1.0, 0.0), 1e-9));
}

TEST_CASE("a linear law given in LAMMPS syntax gives the packing exactly the same answer", "[packing][contact]") {
  Packing p = lattice(LatticeKind::fcc, 3, true, 1e-3, 1e-3);
  ContactLaws a = hooke(1e5, 3e4, 40.0, 20.0), b;
  b.base = contact::parse_lammps_pair("gran/hooke/history 1e5 3e4 40 20 0.5 1");
  const GlobalSystem ga(round_assembly(p, find_contacts(p, a)), true), gb(round_assembly(p, find_contacts(p, b)), true);
  CHECK(largest_eigen_dense(ga, 1.0, 0.0) == largest_eigen_dense(gb, 1.0, 0.0));
  CHECK(half_step_damped_limit_dense(ga) == half_step_damped_limit_dense(gb));
}

TEST_CASE("granular with rotations gives a non-symmetric system, without rotations a symmetric one", "[packing][contact]") {
  Packing p = lattice(LatticeKind::sc, 2, true, 1e-3);
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair("granular hertz 4e9 2e4 tangential mindlin 1e9 0.5 0.4");
  const GlobalSystem rotating(round_assembly(p, find_contacts(p, laws)), true), still(round_assembly(p, find_contacts(p, laws)), false);
  CHECK(!rotating.symmetric());
  CHECK(rotating.torque_arm_contacts() == rotating.contacts().contacts.size());
  CHECK(rotating.nonsymmetric_contacts() == rotating.contacts().contacts.size());
  CHECK_THROWS_WITH(largest_eigen(rotating, 1.0, 0.0), Contains("not symmetric"));
  CHECK(still.symmetric());
  CHECK(still.nonsymmetric_contacts() == 0);
}
