// Non-symmetric packings: granular torque arms and contact histories give a non-symmetric K. The
// matrix-free operator against the assembled K and against central differences of the stepper's
// generalised forces; the non-symmetric eigenvalues against a dense solve; a constructed flutter
// (a sphere in a corner with hand-set Hertz tangential histories) reported physically unstable,
// with its growth rate measured by the reference stepper; the numerical limit of velocity Verlet
// confirmed by the stepper at 0.99 / 1.01; the geometric stiffness against its closed form.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <tuple>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/packing_checks.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/system/nonsymmetric.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"
#include "packing_test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using namespace dtcrit;
using namespace dtcrit::packing;

namespace {

// Undamped granular Hertz with a Mindlin tangential spring (walls take the same law).
const char* kGranular = "granular hertz/material 7e10 0 0.3 tangential mindlin NULL 0 10";

ContactLaws laws_of(const std::string& text) {
  ContactLaws l;
  l.base = contact::parse_lammps_pair(text);
  return l;
}

// A compressed simple cubic block of n^3 spheres between six walls, every contact closed; the walls
// pressed in so that a Hertz wall contact (R_eff = r) carries the force of a pair contact
// (R_eff = r/2): delta_wall = delta 2^(-1/3). In equilibrium.
Packing sc_block(Index n, double compression) {
  LatticeSpec s;
  s.kind = LatticeKind::sc;
  s.n = n;
  s.periodic = false;
  s.compression = compression;
  Packing p = make_lattice(s);
  add_box_walls(p, 2.0 * p.radius[0] * compression * std::pow(2.0, -1.0 / 3.0));
  return p;
}

// The damped sc_block(2) under gran/hooke/history with its first wall contact pushed past its
// Coulomb cap (linearised as sliding: K and C not symmetric), the other contacts sticking.
GlobalSystem block_with_a_sliding_wall_contact() {
  const Packing p = sc_block(2, 1e-3);
  ContactSet cs = find_contacts(p, laws_of("gran/hooke/history 1e5 NULL 2e4 NULL 0.1 0"));
  std::size_t wall = 0;
  while (cs.contacts[wall].j >= 0) ++wall;
  cs.history_to_fill(wall).xi_t = cs.contacts[wall].normal.unitOrthogonal() * (2e-3 * p.radius[0]);
  return GlobalSystem(round_assembly(p, cs), true);
}

Matrix dense_mass_inverse_k(const GlobalSystem& g) {
  return g.mass().cwiseInverse().asDiagonal() * Matrix(g.stiffness());
}

std::vector<std::complex<double>> sorted_by_magnitude(const Eigen::VectorXcd& v) {
  std::vector<std::complex<double>> out(v.data(), v.data() + v.size());
  std::stable_sort(out.begin(), out.end(), [](auto a, auto b) { return std::abs(a) > std::abs(b); });
  return out;
}

}  // namespace

TEST_CASE("granular torque arms: matrix-free = assembled non-symmetric K = differences of forces",
          "[packing][nonsymmetric]") {
  const Packing p = sc_block(2, 1e-3);
  const ContactLaws laws = laws_of(kGranular);
  // With the geometric stiffness: the stepper's forces turn with the normals.
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true, true);
  REQUIRE(g.contacts().contacts.size() == 12 + 24);
  CHECK(!g.symmetric());
  CHECK(g.torque_arm_contacts() == 12);  // the pairs; wall contacts have equal arms
  CHECK(g.general_contacts() == 0);  // applied by the contact kernel with their torque arms
  const Matrix K = Matrix(g.stiffness());
  CHECK((K - K.transpose()).norm() > 1e-8 * K.norm());  // arms differ by delta/2 = 1e-3 r: far above rounding
  // Matrix-free, plain and scaled, against the assembled matrix.
  const Vector x = Vector::Random(g.dofs());
  Vector y(g.dofs());
  g.apply(1.0, 0.0, x.data(), y.data());
  CHECK((y - K * x).norm() <= 1e-12 * (K * x).norm());
  const Vector w = g.mass().cwiseSqrt().cwiseInverse();
  g.apply_scaled(1.0, 0.0, x.data(), y.data());
  const Vector ref = w.asDiagonal() * (K * (w.asDiagonal() * x));
  CHECK((y - ref).norm() <= 1e-12 * ref.norm());

  // Central differences of the stepper's generalised forces; the consistent history mode reads the
  // tangential displacement from the positions, so that the history follows u as in K.
  auto sp = to_particle_system(p, laws, stepper::TangentialHistory::consistent);
  auto& sys = *sp.system;
  const Vector v0 = Vector::Zero(sys.dofs());
  Vector f, fp, fm;
  sys.force(0.0, sp.x0, v0, f);
  sys.accept_step();  // anchors at x0
  const double delta = 2.0 * p.radius[0] * 1e-3;
  Matrix Kfd(sys.dofs(), sys.dofs());
  for (Index k = 0; k < sys.dofs(); ++k) {
    const double e = (k % 6 < 3 ? 1e-4 : 1e-4 / p.radius[0]) * delta;
    Vector xp = sp.x0, xm = sp.x0;
    xp[k] += e;
    xm[k] -= e;
    sys.force(0.0, xp, v0, fp);
    sys.force(0.0, xm, v0, fm);
    Kfd.col(k) = -(fp - fm) / (2.0 * e);
  }
  INFO("max |K - K_fd| = " << (K - Kfd).cwiseAbs().maxCoeff() << " of max |K| = " << K.cwiseAbs().maxCoeff());
  CHECK((K - Kfd).cwiseAbs().maxCoeff() < 1e-6 * K.cwiseAbs().maxCoeff());
}

TEST_CASE("non-symmetric eigenvalues: Arnoldi and dense against Eigen", "[packing][nonsymmetric]") {
  const Packing p = sc_block(2, 1e-3);
  const bool damped = GENERATE(false, true);
  CAPTURE(damped);
  const ContactLaws laws = laws_of(damped ? "granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10"
                                          : kGranular);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(!g.symmetric());
  REQUIRE(g.damped() == damped);
  const auto mu = sorted_by_magnitude(linalg::eigen_solver(dense_mass_inverse_k(g), false).values);
  const double scale = std::abs(mu.front());
  const Spectrum dense = nonsymmetric_spectrum(g);
  REQUIRE(dense.complete);
  REQUIRE(dense.mu.size() == mu.size());
  for (std::size_t k = 0; k < mu.size(); ++k) CHECK(std::abs(dense.mu[k] - mu[k]) < 1e-10 * scale);
  SpectrumOptions o;
  o.tolerance = 1e-12;
  // progress: every application of each Arnoldi run, counted from 1 in each run.
  std::vector<Index> ticks;
  o.progress = [&](Index applications) { ticks.push_back(applications); };
  const Spectrum arnoldi = nonsymmetric_spectrum(g, o, true);
  CHECK(static_cast<Index>(ticks.size()) == arnoldi.operations);
  Index runs = 0;
  for (std::size_t k = 0; k < ticks.size(); ++k) {
    if (ticks[k] == 1) ++runs;
    else CHECK(ticks[k] == ticks[k - 1] + 1);
  }
  CHECK(runs == (damped ? 2 : 1));
  CHECK(!arnoldi.complete);
  // Damped, only the largest |mu| is read: it alone is computed.
  REQUIRE(arnoldi.mu.size() == (damped ? 1u : 6u));
  CHECK(std::abs(std::abs(arnoldi.mu.front()) - scale) < 1e-9 * scale);
  for (auto a : arnoldi.mu) {
    double nearest = std::numeric_limits<double>::infinity();
    for (auto m : mu) nearest = std::min(nearest, std::abs(a - m));
    CHECK(nearest < 1e-9 * scale);
  }
  if (damped) {
    // Every s of the dense path solves the quadratic eigenproblem: sigma_min(s^2 I + s C~ + K~)
    // ~ 0 relative to |s|^2; Arnoldi's largest |s| are the dense path's.
    const Vector w = g.mass().cwiseSqrt().cwiseInverse();
    const Eigen::MatrixXcd K = (w.asDiagonal() * Matrix(g.stiffness()) * w.asDiagonal()).cast<std::complex<double>>();
    const Eigen::MatrixXcd C = (w.asDiagonal() * Matrix(g.damping()) * w.asDiagonal()).cast<std::complex<double>>();
    const Eigen::MatrixXcd I = Eigen::MatrixXcd::Identity(g.dofs(), g.dofs());
    REQUIRE(dense.s.size() == static_cast<std::size_t>(2 * g.dofs()));
    const double smax = std::abs(dense.s.front());
    double worst = 0.0;
    for (auto s : dense.s) {
      Eigen::JacobiSVD<Eigen::MatrixXcd> svd(s * s * I + s * C + K);
      worst = std::max(worst, svd.singularValues().minCoeff() / (smax * smax));
    }
    CHECK(worst < 1e-10);
    // A single-vector Krylov method resolves eigenvalues, not their multiplicity (each mu of this
    // lattice is double, so is each s): every Arnoldi value is a dense one, and the largest agree.
    CHECK(std::abs(std::abs(arnoldi.s.front()) - smax) < 1e-9 * smax);
    for (auto a : arnoldi.s) {
      double nearest = std::numeric_limits<double>::infinity();
      for (auto s : dense.s) nearest = std::min(nearest, std::abs(a - s));
      CHECK(nearest < 1e-8 * smax);
    }
  }
  // The torque arms alone do not make this packing flutter: every mu real and positive.
  const PhysicalStability ph = physical_stability(dense, damped);
  CHECK(!ph.unstable);
  CHECK(ph.max_imag_relative < 1e-9);
}

namespace {

// A sphere pressed into the corner of two walls (x = 0 and z = 0) by overlap delta, each contact
// with a hand-set gran/hertz/history tangential displacement: xi along z on the x wall, along x on
// the z wall, of opposite signs. F_t = -k_t sqrt(R delta) xi depends on the overlap while F_n does
// not depend on xi: dF_z/dx = k_t a xi_A / (2 delta) and dF_x/dz = k_t a xi_B / (2 delta) of opposite
// signs make M^-1 K = [[k, -c], [c, k]] on (x, z): mu = k +- i c, flutter.
struct Corner {
  Packing packing;
  ContactLaws laws;
  ContactSet contacts;
  double delta = 0.0;
};

Corner corner(double xi_fraction) {
  Corner c;
  const double r = 1e-3, delta = 1e-6;
  c.delta = delta;
  c.packing.dim = 3;
  c.packing.add(Vec3(r - delta, 0.0, r - delta), r, 2500.0, BodyModel::sphere);
  // A body 100 times harder to spin than a solid sphere (a heavy rim): with 2/5 m r^2 the sphere
  // rolls between the walls and its rotation relieves the tangential springs enough that every mu
  // is real.
  c.packing.inertia[0] *= 100.0;
  c.packing.walls.push_back(PlaneWall{Vec3::Zero(), Vec3::UnitX(), std::nullopt});
  c.packing.walls.push_back(PlaneWall{Vec3::Zero(), Vec3::UnitZ(), std::nullopt});
  c.packing.source = "sphere in a corner";
  c.laws = laws_of("gran/hertz/history 1e9 NULL 0 NULL 10 0");
  c.contacts = find_contacts(c.packing, c.laws);
  REQUIRE(c.contacts.contacts.size() == 2);
  for (std::size_t k = 0; k < c.contacts.contacts.size(); ++k) {
    const bool x_wall = c.contacts.contacts[k].j == -1;
    c.contacts.history_to_fill(k).xi_t =
        x_wall ? Vec3(0.0, 0.0, xi_fraction * delta) : Vec3(-xi_fraction * delta, 0.0, 0.0);
  }
  return c;
}

// The damped packings of the first-order tests: "flutter" (the corner's flutter, damped too little to
// hold it: physically unstable), "granular" (torque arms), "sliding" (one wall contact's history beyond
// its Coulomb cap) and "symmetric" (the sliding case's law with zero histories).
struct DampedCase {
  Packing p;
  ContactSet cs;
};
DampedCase damped_case(const std::string& which) {
  DampedCase d;
  if (which == "flutter") {
    Corner c = corner(4.0);
    d.p = c.packing;
    d.cs = find_contacts(d.p, laws_of("gran/hertz/history 1e9 NULL 20 NULL 10 0"));
    for (std::size_t k = 0; k < d.cs.contacts.size(); ++k) d.cs.history_to_fill(k).xi_t = c.contacts.history(k).xi_t;
    return d;
  }
  d.p = sc_block(2, 1e-3);
  d.cs = find_contacts(d.p, laws_of(which == "granular" ? "granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10"
                                                        : "gran/hooke/history 1e5 NULL 2e4 NULL 0.1 0"));
  if (which == "sliding") {
    std::size_t wall = 0;
    while (d.cs.contacts[wall].j >= 0) ++wall;
    d.cs.history_to_fill(wall).xi_t = d.cs.contacts[wall].normal.unitOrthogonal() * (2e-3 * d.p.radius[0]);
  }
  return d;
}

}  // namespace

TEST_CASE("flutter of a sphere in a corner: reported, and its growth rate in the stepper",
          "[packing][nonsymmetric]") {
  const Corner c = corner(0.5);
  const GlobalSystem g(round_assembly(c.packing, c.contacts), true);
  REQUIRE(!g.symmetric());
  CHECK(g.general_contacts() == 2);
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  const PackingReport r = analyse_packing(c.packing, g, o);
  REQUIRE(r.physical.assessed);
  REQUIRE(r.physical.unstable);
  CHECK(r.physical.kind == "flutter");
  const double sigma = r.physical.growth_rate;
  CHECK(sigma > 0.0);
  CHECK_THAT(format_packing_table(r), Contains("PHYSICALLY UNSTABLE: flutter"));
  CHECK(to_json(r)["physical_stability"]["unstable"] == true);
  // The closed form on (x, z) without rotation: mu = k +- i c (see corner()).
  {
    const GlobalSystem t(round_assembly(c.packing, c.contacts), false);  // translations only: the closed form
    const Spectrum sp = nonsymmetric_spectrum(t);
    const double m = c.packing.mass[0], R = c.packing.radius[0], a = std::sqrt(R * c.delta);
    const double kn = 1e9, kt = 2.0 / 7.0 * kn;  // gran/hertz/history: NULL k_t = 2/7 k_n
    const double k = (1.5 * kn * a + kt * a) / m, cc = kt * a * 0.5 * c.delta / (2.0 * c.delta) / m;
    const auto top = sp.mu.front();
    CHECK_THAT(top.real(), WithinRel(k, 1e-9));
    CHECK_THAT(std::abs(top.imag()), WithinRel(cc, 1e-9));
  }

  // The reference stepper from the same histories, held at x0 by external loads equal to the
  // contact forces there, perturbed by 1e-9 of the overlap: its separation grows like exp(sigma t).
  auto run = to_particle_system(c.packing, c.laws);
  seed_contact_histories(run, c.contacts);
  {
    auto probe = to_particle_system(c.packing, c.laws);
    seed_contact_histories(probe, c.contacts);
    Vector f0;
    probe.system->force(0.0, probe.x0, Vector::Zero(probe.x0.size()), f0);
    REQUIRE(f0.head(3).norm() > 0.0);
    run.system->set_external_force(0, -f0);
  }
  const double h = 0.02 * r.h_exact;
  Vector x = run.x0;
  x[0] += 1e-9 * c.delta;
  x[2] -= 0.7e-9 * c.delta;
  auto integ = make_integrator("velocity_verlet");
  integ->start(*run.system, 0.0, x, Vector::Zero(x.size()), h);
  const Vector wm = run.system->mass().cwiseSqrt();
  // Envelope: the largest separation over a window of one period of the fluttering mode.
  const double period = 2.0 * 3.141592653589793 / r.omega_max;
  const int window = static_cast<int>(std::ceil(2.0 * period / h));
  const int steps = static_cast<int>(std::ceil(12.0 / (sigma * h)));
  std::vector<double> sep(static_cast<std::size_t>(steps));
  for (int n = 0; n < steps; ++n) {
    integ->step(*run.system);
    sep[static_cast<std::size_t>(n)] = (integ->position() - run.x0).cwiseProduct(wm).norm();
  }
  auto envelope = [&](int end) {
    return *std::max_element(sep.begin() + (end - window), sep.begin() + end);
  };
  const int mid = steps / 2;
  const double measured = std::log(envelope(steps) / envelope(mid)) / ((steps - mid) * h);
  INFO("sigma " << sigma << " measured " << measured << " over " << steps << " steps");
  CHECK_THAT(measured, WithinRel(sigma, 0.02));
  CHECK(run.system->last_contacts().size() == 2);
  for (const auto& k : run.system->last_contacts()) CHECK(!k.sliding);
}

TEST_CASE("non-symmetric, stable packing: the stepper at 0.99 and 1.01 of velocity Verlet's limit",
          "[packing][nonsymmetric]") {
  const Packing p = sc_block(2, 1e-4);
  const ContactLaws laws = laws_of(kGranular);
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(!g.symmetric());
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  const PackingReport r = analyse_packing(p, g, o);
  REQUIRE(!r.physical.unstable);
  REQUIRE(r.integrators.size() == 1);
  const auto& lim = r.integrators[0];
  REQUIRE(lim.exact);
  CHECK_THAT(lim.h_crit, WithinRel(2.0 / r.omega_max, 1e-12));  // every mu real: 2 / sqrt(mu_max)
  const double overlap = 2.0 * p.radius[0] * 1e-4;
  const ConfirmationRun below = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 0.99, 3000, 1e-4 * overlap);
  const ConfirmationRun above = confirm_with_stepper(p, laws, lim.name, lim.h_crit, 1.01, 3000, 1e-4 * overlap);
  INFO("growth at 0.99: " << below.growth << ", at 1.01: " << above.growth);
  CHECK(below.steps == 3000);
  CHECK(below.growth < 50.0);
  CHECK(above.growth > 1e3);
}

TEST_CASE("numerical limit of a fluttering mode: velocity Verlet's closed form", "[packing][nonsymmetric]") {
  // Velocity Verlet on x'' = -mu x: z + 1/z = 2 - h^2 mu, growth max |z|; the exact flow grows like
  // |exp(s h)|, s = sqrt(-mu). Bisection on the closed form, independent of the amplification matrix.
  const std::complex<double> mu(1.0, 0.05);
  const double sigma = std::sqrt(-mu).real();
  auto verlet_growth = [&](double h) {
    const std::complex<double> b = 2.0 - h * h * mu;
    const std::complex<double> d = std::sqrt(b * b - 4.0);
    return std::max(std::abs(0.5 * (b + d)), std::abs(0.5 * (b - d)));
  };
  double lo = 0.1, hi = 3.0;
  REQUIRE(verlet_growth(lo) <= std::exp(2.0 * sigma * lo));
  REQUIRE(verlet_growth(hi) > std::exp(2.0 * sigma * hi));
  for (int k = 0; k < 100; ++k) {
    const double m = 0.5 * (lo + hi);
    (verlet_growth(m) > std::exp(2.0 * sigma * m) ? hi : lo) = m;
  }
  const CriticalStep c = mode_limit("velocity_verlet", mu);
  REQUIRE(c.stability == Stability::conditional);
  CHECK_THAT(c.h_crit, WithinRel(lo, 1e-9));
  // Below the classical 2 / sqrt|mu| (Verlet over-amplifies a growing mode at every h); a real mode
  // gives exactly the classical limit, a real negative one (divergence) none.
  CHECK(c.h_crit < 2.0 / std::sqrt(std::abs(mu)));
  const CriticalStep neg = mode_limit("velocity_verlet", {-1.0, 0.0});
  CHECK(neg.stability == Stability::unconditional);
}

TEST_CASE("geometric stiffness of a pressed pair: -F_n / d across the normal", "[packing][nonsymmetric]") {
  // Two spheres pressed together by overlap delta along a skew normal: with the geometric term K
  // changes on the translations by -F_n/d (I - n n^T) in the (i, i) and (j, j) blocks and +F_n/d in
  // (i, j), F_n the Hertz force k_n sqrt(R delta) delta and d = 2r - delta.
  const double r = 1e-3, delta = 2e-6;
  const Vec3 n = Vec3(1.0, 2.0, -0.5).normalized();
  Packing p;
  p.dim = 3;
  p.add(Vec3::Zero(), r, 2500.0, BodyModel::sphere);
  p.add((2.0 * r - delta) * n, r, 2500.0, BodyModel::sphere);
  p.source = "pressed pair";
  const ContactLaws laws = laws_of("gran/hertz/history 1e9 NULL 0 NULL 10 0");
  const ContactSet cs = find_contacts(p, laws);
  REQUIRE(cs.contacts.size() == 1);
  const GlobalSystem plain(round_assembly(p, cs), true), geo(round_assembly(p, cs), true, true);
  const Matrix dK = Matrix(geo.stiffness()) - Matrix(plain.stiffness());
  const double Fn = 1e9 * std::sqrt(0.5 * r * delta) * delta, d = 2.0 * r - delta;
  const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - n * n.transpose();
  Matrix expected = Matrix::Zero(12, 12);
  expected.block(0, 0, 3, 3) = -Fn / d * P;
  expected.block(6, 6, 3, 3) = -Fn / d * P;
  expected.block(0, 6, 3, 3) = Fn / d * P;
  expected.block(6, 0, 3, 3) = Fn / d * P;
  CHECK((dK - expected).cwiseAbs().maxCoeff() < 1e-9 * Fn / d);
  // Relative size: F_n / d against the normal stiffness 3/2 k_n a is 2/3 delta / d.
  CHECK_THAT(Fn / d / (1.5 * 1e9 * std::sqrt(0.5 * r * delta)), WithinRel(2.0 / 3.0 * delta / d, 1e-12));
}

TEST_CASE("a sliding contact (history beyond the Coulomb cap) takes the full-block path", "[packing][nonsymmetric]") {
  // gran/hooke/history with mu = 0.1 and a history whose spring force k_t |xi| is ten times mu F_n:
  // linearised as sliding, F_t = mu F_n xi/|xi| depends on the overlap (mu k_n along xi) but F_n not
  // on xi: K is not symmetric, by mu k_n in the (t, n) entry of the wall contact.
  const double r = 1e-3, delta = 1e-6, kn = 1e5, mu = 0.1;
  Packing p;
  p.dim = 3;
  p.add(Vec3(0.0, 0.0, r - delta), r, 2500.0, BodyModel::sphere);
  p.walls.push_back(PlaneWall{Vec3::Zero(), Vec3::UnitZ(), std::nullopt});
  p.source = "sphere on a wall";
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair("gran/hooke/history 1e5 NULL 0 NULL 0.1 0");
  ContactSet cs = find_contacts(p, laws);
  REQUIRE(cs.contacts.size() == 1);
  const double kt = 2.0 / 7.0 * kn;  // NULL k_t
  cs.history_to_fill(0).xi_t = Vec3(10.0 * mu * kn * delta / kt, 0.0, 0.0);
  const GlobalSystem g(round_assembly(p, cs), true);
  CHECK(g.general_contacts() == 1);
  CHECK(!g.symmetric());
  const Matrix K = Matrix(g.stiffness());
  // Generalised force on the sphere: F_x = -mu k_n delta (sliding against +xi), delta = r - z:
  // dF_x/dz = mu k_n, so K(x, z) = -mu k_n; F_z = k_n delta has no x dependence, K(z, x) = 0.
  CHECK_THAT(K(0, 2), WithinRel(-mu * kn, 1e-12));
  CHECK(K(2, 0) == 0.0);
  const Vector x = Vector::Random(g.dofs());
  Vector y(g.dofs());
  g.apply(1.0, 0.0, x.data(), y.data());
  CHECK((y - K * x).norm() <= 1e-12 * (K * x).norm());
}

namespace {

// The limit of one integrator measured on its own amplification matrix over the whole
// LinearSystem(M, K, C): the reference that does not use the -1 crossing.
double amplification_limit(const std::string& spec, const GlobalSystem& g) {
  LinearSystem ls = g.linear_system();
  const CriticalStep c = critical_step(spec, ls, std::sqrt(g.gershgorin_omega2()));
  REQUIRE(c.stability == Stability::conditional);
  return c.h_crit;
}

// The smallest singular value of M^-1/2 (4M - f hC - h^2 K) M^-1/2 relative to the largest: zero
// where -1 is reached.
double relative_smallest_singular_value(const GlobalSystem& g, double f, double h) {
  const Vector w = g.mass().cwiseSqrt().cwiseInverse();
  const Matrix S = w.asDiagonal() *
                   (4.0 * Matrix(g.mass().asDiagonal()) - f * h * Matrix(g.damping()) - h * h * Matrix(g.stiffness())) *
                   w.asDiagonal();
  const Vector sv = Eigen::JacobiSVD<Matrix>(S).singularValues();
  return sv.tail(1)(0) / sv(0);
}

}  // namespace

TEST_CASE("the -1 crossing of a symmetric damped packing is the exact half-step limit", "[packing][nonsymmetric]") {
  // Symmetric K and C: 4M - 2hC - h^2 K first singular where it first loses positive definiteness
  // (the criterion of the symmetric path), and 4M - h^2 K at 2 / omega_max.
  const GlobalSystem g = test::polydisperse_sc_box("gran/hooke/history 1e5 3e4 2e4 1e4 0.5 0");
  REQUIRE(g.symmetric());
  REQUIRE(g.damped());
  const double half_step = half_step_damped_limit_dense(g);
  const double two_over_omega = 2.0 / std::sqrt(largest_eigen_dense(g, 1.0, 0.0));
  for (const bool arnoldi : {false, true}) {
    CAPTURE(arnoldi);
    const MinusOneCrossing x = minus_one_crossing(g, 2.0, {}, arnoldi);
    REQUIRE(x.found);
    CHECK_THAT(x.h, WithinRel(half_step, 1e-9));
    const MinusOneCrossing c = minus_one_crossing(g, 0.0, {}, arnoldi);
    REQUIRE(c.found);
    CHECK_THAT(c.h, WithinRel(two_over_omega, 1e-9));
    if (arnoldi) {
      CHECK(x.operations > 0);
      CHECK(x.residual < 1e-6);
    }
  }
}

TEST_CASE("the -1 crossing of non-symmetric damped packings against the integrators' amplification matrices",
          "[packing][nonsymmetric]") {
  // Granular torque arms (r - delta/2), damped; and a sliding wall contact, damped. The limit of
  // velocity Verlet, leapfrog (dashpots at (x_n - x_{n-1})/h) and central difference (at v_{n+1})
  // measured on each integrator's amplification matrix equals the first root of
  // det(4M - f hC - h^2 K), found densely and by Arnoldi; that matrix is singular there.
  const std::string which = GENERATE(std::string("granular"), std::string("sliding"));
  CAPTURE(which);
  std::optional<GlobalSystem> g;
  if (which == "granular") {
    const Packing p = sc_block(2, 1e-3);
    g.emplace(round_assembly(p, find_contacts(p, laws_of("granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10"))),
              true);
  } else {
    g.emplace(block_with_a_sliding_wall_contact());
  }
  REQUIRE(!g->symmetric());
  REQUIRE(g->damped());
  const PhysicalStability ph = physical_stability(nonsymmetric_spectrum(*g), true);
  REQUIRE(!ph.unstable);
  for (const auto& [spec, f] : {std::pair{std::string("velocity_verlet"), 2.0}, std::pair{std::string("leapfrog"), 2.0},
                                std::pair{std::string("central_difference"), 0.0}}) {
    CAPTURE(spec);
    const double reference = amplification_limit(spec, *g);
    for (const bool arnoldi : {false, true}) {
      CAPTURE(arnoldi);
      const MinusOneCrossing x = minus_one_crossing(*g, f, {}, arnoldi);
      REQUIRE(x.found);
      CHECK_THAT(x.h, WithinRel(reference, 1e-8));
      CHECK(relative_smallest_singular_value(*g, f, x.h) < 1e-9);
      CHECK(relative_smallest_singular_value(*g, f, 0.99 * x.h) > 1e-6);
    }
  }
}

TEST_CASE("undamped non-symmetric packings with the largest modes only: an upper bound, not an estimate",
          "[packing][nonsymmetric]") {
  // Arnoldi computes the modes of M^-1 K of largest magnitude: each is unstable above its own limit,
  // so their least limit bounds the packing's from above; a mode not computed (flutter) could set a
  // lower one. Before, that bound was labelled "estimate" and a step was recommended from it.
  const Packing p = sc_block(3, 1e-3);
  const ContactLaws laws = laws_of("granular hertz/material 7e10 0 0.3 tangential mindlin NULL 0 10");
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(!g.symmetric());
  REQUIRE(!g.damped());
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  o.eigen.method = EigenMethod::dense;
  const PackingReport all = analyse_packing(p, g, o);
  REQUIRE(all.integrators.size() == 1);
  CHECK(all.integrators[0].exact);
  CHECK(!all.integrators[0].upper_bound);
  o.eigen.method = EigenMethod::lanczos;
  o.eigen.dense_below = 0;
  const PackingReport some = analyse_packing(p, g, o);
  const auto& vv = some.integrators[0];
  INFO(vv.method);
  CHECK(vv.upper_bound);
  CHECK_THAT(vv.method, Contains("an upper bound of the limit"));
  // Here the bound is the limit: the packing does not flutter (every mode, above).
  CHECK_THAT(vv.h_crit, WithinRel(all.integrators[0].h_crit, 1e-8));
  CHECK_THAT(format_packing_table(some), Contains("upper bound (limit of the modes computed)"));
  // Nor is physical stability established from the largest modes alone (flutter is typically slow).
  CHECK_THAT(format_packing_table(some), Contains("physical stability not established: no eigenvalue mu of M^-1 K"));
  CHECK_THAT(format_packing_table(all), Contains("physically stable: no eigenvalue mu of M^-1 K"));
  const auto rec = recommend_from(some.integrators, 0.8);
  REQUIRE(rec);
  CHECK(std::isnan(rec->recommended()));
  // The check's order: 2 x 48 dofs, velocity Verlet's family recurrence (family_recurrence_matrix).
  CHECK_THAT(format_recommendation(*rec), Contains("recommended step: none") &&
                                              Contains("outside the 6 of largest magnitude computed"));
}

TEST_CASE("a damped non-symmetric packing whose first-order Arnoldi does not converge keeps its -1 crossing",
          "[packing][nonsymmetric]") {
  // The six largest eigenvalues of the first-order system (physical stability, the Runge-Kutta rows)
  // cut to one restart, so that they do not converge: the command goes on. Velocity Verlet's limit
  // (the -1 crossing and the check below it) does not read them and is the same as with them;
  // physical stability is said not to be judged; RK4 gets no limit.
  const Packing p = sc_block(3, 1e-3);
  const ContactLaws laws = laws_of("granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10");
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  REQUIRE(!g.symmetric());
  REQUIRE(g.damped());
  PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet", "rk4"};
  o.eigen.method = EigenMethod::lanczos;
  o.eigen.dense_below = 0;
  const PackingReport converged = analyse_packing(p, g, o);
  REQUIRE(converged.physical.not_judged.empty());
  REQUIRE(std::isfinite(converged.integrators[0].h_crit));
  o.first_order_max_restarts = 1;
  const PackingReport cut = analyse_packing(p, g, o);
  CAPTURE(cut.eigen_method);
  REQUIRE(!cut.physical.not_judged.empty());
  CHECK_THAT(cut.physical.not_judged, Contains("did not converge in 1 restarts"));
  CHECK(!cut.physical.unstable);
  CHECK(!cut.physical.complete);
  CHECK(cut.h_exact == converged.h_exact);
  CHECK(cut.integrators[0].h_crit == converged.integrators[0].h_crit);
  CHECK(cut.integrators[0].method == converged.integrators[0].method);
  CHECK_THAT(cut.integrators[1].method, Contains("did not converge"));
  CHECK(std::isnan(cut.integrators[1].h_crit));
  CHECK(std::isfinite(converged.integrators[1].h_crit));
  CHECK_THAT(format_packing_table(cut), Contains("physical stability not judged: the eigenvalues of the first-order "
                                                 "system were not computed"));
  CHECK(to_json(cut)["physical_stability"]["not_judged"] == cut.physical.not_judged);
  CHECK(to_json(converged)["physical_stability"]["not_judged"].is_null());
  // The applications of the run that failed are counted too.
  CHECK(cut.eigen_operations > 0);
}

TEST_CASE("the -1 crossing by Arnoldi when the rightmost root is complex: the six rightmost searched",
          "[packing][nonsymmetric]") {
  // Three spheres of corner() along the edge of its two walls, apart: 18 dofs. The first keeps
  // corner()'s histories and flutters (a complex pair of M^-1 K, real part k); the others have none,
  // and their largest mu is k, real. Undamped (f = 0) the roots of 4 mu^2 M - K are +-sqrt(mu) / 2, so
  // the rightmost root is the flutter's, complex: Arnoldi's single root is not real, and the six of
  // largest real part must be searched for the largest real one, sqrt(k) / 2, as densely.
  Corner c = corner(4.0);  // a strong flutter: its root's real part 3 % right of sqrt(k) / 2
  const double r = c.packing.radius[0];
  for (int k = 1; k <= 2; ++k) {
    c.packing.add(c.packing.centre[0] + Vec3(0.0, 4.0 * r * k, 0.0), r, 2500.0, BodyModel::sphere);
    c.packing.inertia.back() = c.packing.inertia[0];
  }
  ContactSet cs = find_contacts(c.packing, c.laws);
  REQUIRE(cs.contacts.size() == 6);
  for (std::size_t k = 0; k < cs.contacts.size(); ++k)
    if (cs.contacts[k].i == 0)
      cs.history_to_fill(k).xi_t = c.contacts.history(k).xi_t;  // corner()'s, in the same order
  const GlobalSystem g(round_assembly(c.packing, cs), true);
  REQUIRE(g.dofs() == 18);
  const MinusOneCrossing dense = minus_one_crossing(g, 0.0, {}, false);
  const MinusOneCrossing arnoldi = minus_one_crossing(g, 0.0, {}, true);
  REQUIRE(dense.found);
  REQUIRE(arnoldi.found);
  CHECK_THAT(arnoldi.h, WithinRel(dense.h, 1e-8));
  CHECK_THAT(arnoldi.method, Contains("6 roots of largest real part"));
}

TEST_CASE("the -1 crossing without K (4M - 2hC): the eigenvalues of the damping alone",
          "[packing][nonsymmetric]") {
  // variational_2's line has no K: its roots are mu = (2/4) x the eigenvalues of C~ = M^-1/2 C M^-1/2.
  // Before, Arnoldi ran on the companion operator with a zero K block, whose n roots mu = 0 sit in
  // Jordan blocks; on LAMMPS' in.pour with its contact dump (18 000 dofs) Spectra's Schur step failed
  // there and took the whole command down. Reference: C~'s eigenvalues by Eigen's dense EigenSolver
  // here, on a packing with a sliding contact (K and C not symmetric).
  const GlobalSystem g = block_with_a_sliding_wall_contact();
  REQUIRE(!g.symmetric());
  const Vector s = g.mass().cwiseSqrt().cwiseInverse();
  const Matrix C = s.asDiagonal() * Matrix(g.damping()) * s.asDiagonal();
  const Eigen::VectorXcd c = Eigen::EigenSolver<Matrix>(C, false).eigenvalues();
  double c_max = 0.0;
  for (Index k = 0; k < c.size(); ++k)
    if (std::abs(c[k].imag()) <= 1e-9 * std::abs(c[k])) c_max = std::max(c_max, c[k].real());
  REQUIRE(c_max > 0.0);
  const double expected = 4.0 / (2.0 * c_max);  // 4 - 2h c = 0
  for (const bool arnoldi : {false, true}) {
    const MinusOneCrossing x = minus_one_crossing(g, 2.0, {}, arnoldi, 0.0);
    CAPTURE(arnoldi, x.method);
    REQUIRE(x.found);
    CHECK_THAT(x.h, WithinRel(expected, 1e-9));
    if (arnoldi) CHECK(x.residual < 1e-8);
  }
  CHECK_THROWS_WITH(minus_one_crossing(g, -2.0, {}, true, 0.0), Contains("dashpot factor f > 0; got f = -2"));
}

TEST_CASE("non-symmetric damped packings above --amplification-dofs: the -1 crossing, labelled an upper bound",
          "[packing][nonsymmetric]") {
  // No 'estimate' stands in for the limit: the rows with a -1 criterion get the crossing (equal to the
  // amplification matrix's limit here, where no complex crossing comes first), flagged upper_bound;
  // gear4's own -1 line (4M - 22/3 hC - 2h^2 K) gives it one too, and so does Newmark's with dashpots
  // that stabilise (beta = 0.1, gamma = 0.6: 4M + 0.4 hC - 0.8 h^2 K), variational_2's, 4M - 2hC,
  // and gear5's, 4M - 40/3 hC - 49/15 h^2 K (which on symmetric packings decides only where the
  // damping is strong enough: registry.hpp LocusLimitedLine); HHT, whose line is never reached, is
  // scanned on its own amplification matrix up to --scan-dofs and not computed above.
  const Packing p = sc_block(2, 1e-3);
  const ContactLaws laws = laws_of("granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10");
  const GlobalSystem g(round_assembly(p, find_contacts(p, laws)), true);
  PackingAnalysisOptions o;
  const std::string stabilising = "newmark:beta=0.1,gamma=0.6", no_line = "hht";
  o.integrators = {"velocity_verlet", "central_difference", "gear4", "variational_2", stabilising, "gear5"};
  o.amplification_dofs = 0;
  o.crossing_check_dofs = 0;
  const PackingReport r = analyse_packing(p, g, o);
  REQUIRE(r.integrators.size() == 6);
  const auto& vv = r.integrators[0];
  CHECK(vv.exact);
  CHECK(vv.upper_bound);
  CHECK_THAT(vv.h_crit, WithinRel(amplification_limit("velocity_verlet", g), 1e-8));
  CHECK_THAT(r.h_exact, WithinRel(vv.h_crit, 1e-15));
  CHECK_THAT(vv.method, Contains("-1 crossing") && Contains("upper bound"));
  CHECK(r.integrators[1].upper_bound);
  CHECK_THAT(r.integrators[1].h_crit, WithinRel(amplification_limit("central_difference", g), 1e-8));
  const auto& gear4 = r.integrators[2];
  CAPTURE(gear4.method);
  CHECK(gear4.upper_bound);
  CHECK_THAT(gear4.method, Contains("4M - 7.33333hC - 2h^2 K"));
  CHECK(gear4.h_crit >= amplification_limit("gear4", g) * (1.0 - 1e-8));
  const auto& newmark = r.integrators[4];
  CAPTURE(newmark.method);
  CHECK(newmark.upper_bound);
  CHECK_THAT(newmark.method, Contains("4M + 0.4hC - 0.8h^2 K"));
  CHECK(newmark.h_crit >= amplification_limit(stabilising, g) * (1.0 - 1e-8));
  const auto& gear5 = r.integrators[5];
  CAPTURE(gear5.method);
  CHECK(gear5.upper_bound);
  CHECK(gear5.exact);
  CHECK_THAT(gear5.method, Contains("4M - 13.3333hC - 3.26667h^2 K"));
  {  // unstable just above it, as a -1 crossing is (here gear5 grows at every step: its weak dashpots
     // leave the undamped scalar's growth)
    LinearSystem ls = g.linear_system();
    const auto integ = make_integrator("gear5");
    CHECK(spectral_radius(amplification_matrix(*integ, ls, 1.001 * gear5.h_crit)) > 1.0 + 1e-6);
    CHECK(spectral_radius(amplification_matrix(*integ, ls, 0.5 * gear5.h_crit)) > 1.0);
  }
  const std::string table = format_packing_table(r);
  CHECK_THAT(table, Contains("upper bound (-1 crossing)"));
  // No step is recommended from an upper bound: the limit may lie anywhere below it.
  const auto rec = recommend_from(r.integrators, 0.8);
  REQUIRE(rec);
  CHECK(rec->h_crit_upper_bound);
  CHECK(std::isnan(rec->recommended()));
  // The check's order: 2 x 48 dofs, velocity Verlet's family recurrence (family_recurrence_matrix).
  CHECK_THAT(format_recommendation(*rec), Contains("recommended step: none") &&
                                              Contains("known here only as an upper bound") &&
                                              Contains("--crossing-check-dofs") &&
                                              Contains("order 96 per row") && Contains("about 0 s here"));
  CHECK(to_json(*rec)["h_recommended"].is_null());
  CHECK(to_json(*rec)["basis"] == "none");
  // Nor from an estimate: the scalar limit at the top mode's damping ratio (before, 0.8 of it was
  // recommended, "the limit stands in"). HHT's says "stable at every step"; as a conditional one
  // (gear5's was, before its line), with a step set by hand.
  const auto& variational = r.integrators[3];
  CAPTURE(variational.method);
  CHECK(variational.upper_bound);
  CHECK_THAT(variational.method, Contains("first h where 4M - 2hC is singular"));
  CHECK(variational.h_crit > 0.0);  // (its limit, checked below, lies far below this bound)
  // HHT, whose line is never reached, has no number at all here (above --scan-dofs: its
  // amplification matrix is not scanned); before, it had an estimate. A row labelled estimate (no path
  // of the packing analysis makes one now) still gets no step and no verdict.
  const ContactLaws heavy_laws =
      laws_of("granular hooke 1e5 1e5 damping mass_velocity tangential linear_history 3e4 1 0.5");
  const GlobalSystem heavy(round_assembly(p, find_contacts(p, heavy_laws)), true);
  PackingAnalysisOptions one = o;
  one.integrators = {no_line};
  one.scan_dofs = 0;
  PackingReport est = analyse_packing(p, heavy, one);
  CAPTURE(est.integrators[0].method);
  REQUIRE(!est.integrators[0].computed);
  REQUIRE_THAT(est.integrators[0].method, Contains("its -1 line 4M + ") && Contains("is never reached"));
  est.integrators[0].computed = true;
  est.integrators[0].exact = false;
  est.integrators[0].stability = Stability::conditional;
  est.integrators[0].h_crit = 1e-5;
  const auto estimate = recommend_from(std::vector<PackingIntegratorLimit>{est.integrators[0]}, 0.8);
  REQUIRE(estimate);
  CHECK(estimate->h_crit_estimate);
  CHECK(std::isnan(estimate->recommended()));
  CHECK_THAT(format_recommendation(*estimate),
             Contains("recommended step: none - the limit of " + no_line + " here is an estimate"));
  CHECK(to_json(*estimate)["basis"] == "none");
  // And no verdict on a script's timestep, on either side of it.
  LammpsInput script;
  script.units = si_units();
  script.integrator = no_line;
  for (double ratio : {0.5, 2.0}) {
    script.timestep = ratio * est.integrators[0].h_crit;
    const TimestepCheck tc = check_timestep(script, est, 0.8, "zero histories", std::nullopt);
    CHECK(tc.verdict == TimestepVerdict::unknown);
    CHECK_THAT(tc.text, Contains("here is an estimate"));
  }
  // Nor on an estimate that says "stable at every step" or "unstable at every step" (before, SAFE and
  // UNSAFE, as gear5's top-mode estimate, unstable at every step, was).
  for (const Stability said : {Stability::unconditional, Stability::unstable}) {
    PackingReport copy = est;
    copy.integrators[0].stability = said;
    copy.integrators[0].h_crit = std::numeric_limits<double>::quiet_NaN();
    const TimestepCheck tc = check_timestep(script, copy, 0.8, "zero histories", std::nullopt);
    CHECK(tc.verdict == TimestepVerdict::unknown);
    CHECK_THAT(tc.text, Contains("here is an estimate (" + std::string(stability_label(said)) + ")"));
    CHECK(tc.json["h_crit"].is_null());
  }
  // Checked below the crossing on the amplification matrix: no complex crossing, the limit itself.
  o.crossing_check_dofs = 48;
  const PackingReport checked = analyse_packing(p, g, o);
  INFO(checked.integrators[0].method);
  CHECK(!checked.integrators[0].upper_bound);
  CHECK_THAT(checked.integrators[0].method, Contains("no complex crossing found below it"));
  CHECK_THAT(checked.integrators[0].h_crit, WithinRel(vv.h_crit, 1e-15));
  INFO(checked.integrators[4].method);  // and Newmark's line with dashpots that stabilise likewise
  CHECK(!checked.integrators[4].upper_bound);
  CHECK_THAT(checked.integrators[4].h_crit, WithinRel(amplification_limit(stabilising, g), 1e-8));
  // variational_2: checked below its crossing, a complex pair of this circulatory packing leaves the
  // circle at a small fraction of it (its viscoelastic dashpots are weak, so 4M - 2hC turns
  // indefinite only at a very long step); the scheme's own one-step map grows by more than 1e-6 per
  // step just above that step and not just below.
  const auto& v2 = checked.integrators[3];
  INFO(v2.method);
  CHECK(!v2.upper_bound);
  CHECK_THAT(v2.method, Contains("a complex pair leaves the unit circle"));
  CHECK(v2.h_crit < 0.01 * variational.h_crit);
  {
    LinearSystem ls = g.linear_system();
    const auto integ = make_integrator("variational_2");
    // (the threshold's own step: a modulus that creeps above 1 as h^2, 1 + 2.5e-7 at 0.0134 s, reaches
    // 1 + 1e-6 there; no crossing of the circle to locate more finely)
    CHECK(spectral_radius(amplification_matrix(*integ, ls, 0.999 * v2.h_crit)) <= 1.0 + 1e-6);
    CHECK(spectral_radius(amplification_matrix(*integ, ls, 1.001 * v2.h_crit)) > 1.0 + 1e-6);
  }
  o.amplification_dofs = 48;  // the whole amplification matrix scanned: exact, no bound
  const PackingReport full = analyse_packing(p, g, o);
  INFO(full.integrators[0].method);
  CHECK(!full.integrators[0].upper_bound);
  CHECK_THAT(full.integrators[0].h_crit, WithinRel(vv.h_crit, 1e-8));
}

TEST_CASE("explicit Euler and RK4 on damped packings: exact from the first-order eigenvalues",
          "[packing][nonsymmetric]") {
  // Both step y' = Ay, so each eigenvalue s of A steps as the scalar oscillator with roots s, s*: the
  // least of those oscillators' limits is the packing's. The reference is the integrator's own
  // amplification matrix over the whole LinearSystem(M, K, C), which shares no code with it but the
  // integrator. Before, both rows were the scalar limit at the largest |s|'s damping ratio, labelled
  // estimate: for explicit Euler far above the limit (a less damped mode sets it). The symmetric
  // path does the same up to the dense solve's size.
  const std::string which =
      GENERATE(std::string("granular"), std::string("sliding"), std::string("flutter"), std::string("symmetric"));
  CAPTURE(which);
  // flutter: physically unstable, so each limit is the first h where the scheme grows faster than
  // exp(2 sigma h).
  const auto [p, cs] = damped_case(which);
  const GlobalSystem g(round_assembly(p, cs), true);
  REQUIRE(g.symmetric() == (which == "symmetric"));
  REQUIRE(g.damped());
  PackingAnalysisOptions o;
  o.integrators = {"explicit_euler", "rk4"};
  o.amplification_dofs = g.dofs();  // the reference: the whole amplification matrix
  const PackingReport whole = analyse_packing(p, g, o);
  CHECK(whole.physical.unstable == (which == "flutter"));
  o.amplification_dofs = 0;
  const PackingReport modes = analyse_packing(p, g, o);
  // Stable packings: also the least over A's eigenvalues s of the first h where |R(h s)| > 1, with the
  // stability polynomials R of explicit Euler and RK4 written out here. NaN: some mode is unstable at
  // every h scanned (the granular law's viscoelastic damping leaves modes with zeta ~ 1e-11, where
  // explicit Euler's limit 2 zeta / |s| is below 1e-16 s).
  const Spectrum sp = nonsymmetric_spectrum(g);
  auto polynomial_limit = [&](auto R) {
    double s_max = 0.0, least = std::numeric_limits<double>::infinity();
    for (const auto z : sp.s) s_max = std::max(s_max, std::abs(z));
    for (const auto z : sp.s) {
      if (std::abs(z) <= 1e-8 * s_max) continue;
      auto grows = [&](double h) { return std::abs(R(h * z)) > 1.0; };
      double lo = 1e-6 / std::abs(z), hi = lo;
      if (grows(lo)) return std::numeric_limits<double>::quiet_NaN();
      while (!grows(hi) && hi < 10.0 / std::abs(z)) hi *= 1.01;
      if (!grows(hi)) continue;
      for (int k = 0; k < 80; ++k) (grows(0.5 * (lo + hi)) ? hi : lo) = 0.5 * (lo + hi);
      least = std::min(least, lo);
    }
    return least;
  };
  using C = std::complex<double>;
  const double closed[2] = {polynomial_limit([](C z) { return 1.0 + z; }),
                            polynomial_limit([](C z) { return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0; })};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& row = modes.integrators[i];
    CAPTURE(row.name, row.method, closed[i]);
    CHECK(row.exact);
    CHECK(!row.upper_bound);
    CHECK_THAT(row.method, Contains("every eigenvalue, exact"));
    REQUIRE(row.stability == whole.integrators[i].stability);
    if (which != "flutter") CHECK(std::isnan(closed[i]) == (row.stability == Stability::unstable));
    if (row.stability != Stability::conditional) continue;
    // The whole amplification matrix resolves |lambda| - 1 less finely near the limit: 1e-6.
    CHECK_THAT(row.h_crit, WithinRel(whole.integrators[i].h_crit, which == "flutter" ? 1e-8 : 1e-6));
    if (which != "flutter") CHECK_THAT(row.h_crit, WithinRel(closed[i], 1e-8));
  }
  CHECK((which != "granular" || modes.integrators[0].stability == Stability::unstable));
  if (which == "granular") {  // why: the least damping ratio among A's eigenvalues (free motion aside)
    double s_max = 0.0, zeta = 1.0;
    for (const auto z : sp.s) s_max = std::max(s_max, std::abs(z));
    for (const auto z : sp.s)
      if (std::abs(z) > 1e-8 * s_max) zeta = std::min(zeta, -z.real() / std::abs(z));
    CHECK(zeta < 1e-10);
  }
  // 6 dofs: Arnoldi's 6 would be every eigenvalue; the symmetric path has no Arnoldi on A.
  if (which == "flutter" || which == "symmetric") return;
  // Arnoldi's largest eigenvalues only: each is unstable above its own limit, so the least of theirs is
  // an upper bound, labelled so.
  o.eigen.method = EigenMethod::lanczos;
  o.eigen.dense_below = 0;
  const PackingReport some = analyse_packing(p, g, o);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& row = some.integrators[i];
    CAPTURE(row.name, row.method);
    if (whole.integrators[i].stability == Stability::unstable) {  // explicit Euler, granular: found among the largest
      CHECK(row.stability == Stability::unstable);
      CHECK_THAT(row.method, Contains("one of them is unstable at every step"));
      continue;
    }
    CHECK(row.upper_bound);
    CHECK_THAT(row.method, Contains("an upper bound of the limit"));
    CHECK(row.h_crit >= whole.integrators[i].h_crit * (1.0 - 1e-8));
  }
}

TEST_CASE("HHT and generalised-alpha and GS4 on damped packings: their own amplification matrix scanned",
          "[packing][nonsymmetric]") {
  // No criterion of the spectrum gives these rows' limit on a non-symmetric damped packing (their -1
  // lines are never reached, while a complex pair can leave the circle), nor generalised-alpha's at
  // rho_inf = 1 on any (no line); before, they got the scalar limit at the top mode's damping ratio,
  // labelled estimate. Now their own amplification matrix is
  // scanned at h = 2^k / omega_ref, k = -7 ... 14, up to --scan-dofs. The reference is the
  // same matrix scanned finely over the whole LinearSystem(M, K, C) (--amplification-dofs:
  // critical_step, or growth_limit for the growing corner).
  const std::string which =
      GENERATE(std::string("granular"), std::string("sliding"), std::string("flutter"), std::string("symmetric"));
  CAPTURE(which);
  const auto [p, cs] = damped_case(which);
  const GlobalSystem g(round_assembly(p, cs), true);
  REQUIRE(g.damped());
  PackingAnalysisOptions o;
  o.integrators = {"hht", "generalized_alpha", "gs4_u0", "gs4_v0", "generalized_alpha:rho_inf=1"};
  const auto [whole, scanned, above] = test::scan_reports(p, g, o);
  bool some_limit = false;
  for (std::size_t i = 0; i < o.integrators.size(); ++i) {
    const auto& row = scanned.integrators[i];
    CAPTURE(row.name, row.method, whole.integrators[i].method);
    if (which == "symmetric" && i < 4) {  // their lines decide there: stable at every step
      CHECK(row.stability == Stability::unconditional);
      CHECK_THAT(row.method, Contains("stable at every step (exact)"));
      CHECK(whole.integrators[i].stability == Stability::unconditional);
      continue;
    }
    CHECK(row.exact);
    CHECK(row.computed);
    CHECK(!row.upper_bound);
    CHECK_THAT(row.method, Contains(row.name + "'s amplification matrix") && Contains("k = -7 ... 14"));
    // (generalised-alpha at rho_inf = 1 has n eigenvalues on the circle, at -1, at every step: on the
    // granular block the fine scan's condition-aware verdict calls it unstable at its smallest step
    // while its powers stay bounded, ||A^N|| flat from N = 1 to 4096 at h omega_ref = 1 and 10.)
    if (which != "granular" || i != 4) CHECK(row.stability == whole.integrators[i].stability);
    if (row.stability == Stability::conditional) {
      some_limit = true;
      CHECK_THAT(row.h_crit, WithinRel(whole.integrators[i].h_crit, 1e-8));
    }
    // Above --scan-dofs: no number, and what the scan would cost.
    const auto& none = above.integrators[i];
    CAPTURE(none.method);
    CHECK(!none.computed);
    CHECK(std::isnan(none.h_crit));
    CHECK_THAT(none.method, Contains("--scan-dofs = " + std::to_string(g.dofs() - 1)) &&
                                Contains("22 eigenvalue solves of order"));
    CHECK_THAT(format_packing_table(above), Contains("not computed"));
    const auto rec = recommend_from(std::vector<PackingIntegratorLimit>{none}, 0.8);
    REQUIRE(rec);
    CHECK(std::isnan(rec->recommended()));
  }
  // None of these blocks (nor the random systems of "HHT, generalised-alpha, GS4 and the trapezoidal
  // rule: no growth on physically stable systems") makes these schemes grow: every row here is stable
  // at every step checked (the symmetric path's rows with a -1 line but no semi-definite K scan
  // conditional limits: tests/test_packing.cpp).
  CHECK_FALSE(some_limit);
}

TEST_CASE("Newmark's average acceleration on damped non-symmetric packings: the trapezoidal rule, exact",
          "[packing][nonsymmetric]") {
  // Average acceleration (beta = 1/4, gamma = 1/2) is the trapezoidal rule on y' = Ay: its one-step map
  // is R(hA), R(z) = (1 + z/2) / (1 - z/2), for any C and K, so it grows only where the packing does.
  // Checked here on the scheme's own amplification matrix: every R(h s) is one of its eigenvalues and
  // its spectral radius is the largest |R(h s)|. Before, above --amplification-dofs the row was the
  // scalar limit at the largest |s|'s damping ratio, labelled estimate.
  const std::string which = GENERATE(std::string("granular"), std::string("sliding"), std::string("flutter"));
  CAPTURE(which);
  const auto [p, cs] = damped_case(which);  // flutter: physically unstable, its growth rates set a limit
  const GlobalSystem g(round_assembly(p, cs), true);
  REQUIRE(!g.symmetric());
  REQUIRE(g.damped());
  REQUIRE(integrator_info("newmark_average").trapezoidal_rule);
  REQUIRE(integrator_info("newmark:beta=0.25,gamma=0.5").trapezoidal_rule);
  REQUIRE(!integrator_info("newmark_linear").trapezoidal_rule);
  REQUIRE(!integrator_info("hht").trapezoidal_rule);
  const Spectrum sp = nonsymmetric_spectrum(g);
  REQUIRE(sp.complete);
  double s_max = 0.0;
  for (const auto z : sp.s) s_max = std::max(s_max, std::abs(z));
  {
    LinearSystem ls = g.linear_system();
    const auto scheme = make_integrator("newmark_average");
    for (const double hs : {0.1, 1.0, 10.0}) {
      const double h = hs / s_max;
      const Matrix G = amplification_matrix(*scheme, ls, h);
      // The state is (x, v, a): scaled by (1, h, h^2), a similarity, its blocks are of one order.
      const Index n = g.dofs();
      REQUIRE(G.rows() == 3 * n);
      Vector d(3 * n);
      d << Vector::Ones(n), Vector::Constant(n, h), Vector::Constant(n, h * h);
      const std::optional<Eigen::VectorXcd> found =
          linalg::general_eigenvalues(d.asDiagonal() * G * d.cwiseInverse().asDiagonal());
      REQUIRE(found);
      const Eigen::VectorXcd& lambda = *found;
      double largest = 0.0;
      for (const auto z : sp.s) {
        const std::complex<double> R = (1.0 + 0.5 * h * z) / (1.0 - 0.5 * h * z);
        largest = std::max(largest, std::abs(R));
        if (std::abs(z) <= 1e-8 * s_max) continue;  // free motion: a near-Jordan pair at 1, found to sqrt(eps)
        double nearest = std::numeric_limits<double>::infinity();
        for (Index i = 0; i < lambda.size(); ++i) nearest = std::min(nearest, std::abs(lambda[i] - R));
        CAPTURE(hs, z, R);
        CHECK(nearest <= 1e-8 * std::max(1.0, std::abs(R)));
      }
      CAPTURE(hs);
      CHECK_THAT(spectral_radius(G), WithinRel(largest, 1e-8));
    }
  }
  PackingAnalysisOptions o;
  o.integrators = {"newmark_average"};
  o.amplification_dofs = g.dofs();  // the reference: the whole amplification matrix
  const PackingReport whole = analyse_packing(p, g, o);
  CHECK(whole.physical.unstable == (which == "flutter"));
  o.amplification_dofs = 0;
  const PackingReport modes = analyse_packing(p, g, o);
  o.eigen.method = EigenMethod::lanczos;  // Arnoldi's largest eigenvalues only
  o.eigen.dense_below = 0;
  const PackingReport some = analyse_packing(p, g, o);
  for (const PackingReport* r : {&modes, &some}) {
    const auto& row = r->integrators[0];
    CAPTURE(row.method, whole.integrators[0].method);
    CHECK(row.exact);
    CHECK(!row.upper_bound);
    CHECK(row.stability == whole.integrators[0].stability);
    if (which == "flutter") {  // every eigenvalue: the oscillators of its growing modes
      // Stable at every h by the growth criterion: its growing pair is far from real (Im s / Re s = 6.4),
      // so |R(hs)| stays below exp(2 sigma h).
      CHECK_THAT(row.method, Contains("every eigenvalue, exact"));
      break;  // (6 dofs: Arnoldi's 6 would be every eigenvalue)
    }
    CHECK(row.stability == Stability::unconditional);
    CHECK_THAT(row.method, Contains("trapezoidal rule") && Contains("physically stable (exact"));
  }
}

TEST_CASE("granular and the classic style on one packing: the torque arm r - delta/2 is the whole difference",
          "[packing][nonsymmetric]") {
  // The same contacts under gran/hooke/history and under the granular hooke law LAMMPS documents as its
  // equivalent (eta_n = gamma_n with damping mass_velocity, eta_t = x_gamma_t eta_n). They differ only in
  // the torque arm of a pair, r for the classic style and r - delta/2 for granular: without rotations
  // the two systems are the same to the last bit; with them the classic K~ is symmetric, granular's is
  // not, and the top eigenvalue moves by v^T (K~_g - K~_c) v to first order (v the classic top mode),
  // a change of relative order delta/r.
  for (const double compression : {1e-2, 1e-3}) {
    CAPTURE(compression);
    LatticeSpec s;
    s.n = 2;
    s.compression = compression;
    s.radius_spread = 1e-3;  // a simple top eigenvalue
    const Packing p = make_lattice(s);
    for (const bool damped : {false, true}) {
      CAPTURE(damped);
      const ContactLaws classic = laws_of(damped ? "gran/hooke/history 1e5 3e4 2000 2000 0.5 1" : "gran/hooke/history 1e5 3e4 0 0 0.5 0");
      const ContactLaws granular = laws_of(damped ? "granular hooke 1e5 2000 damping mass_velocity tangential linear_history 3e4 1 0.5"
                                                  : "granular hooke 1e5 0 tangential linear_history 3e4 0 0.5");
      PackingAnalysisOptions o;
      o.integrators = {"velocity_verlet"};
      for (const bool rotation : {false, true}) {
        CAPTURE(rotation);
        const GlobalSystem gc(round_assembly(p, find_contacts(p, classic)), rotation);
        const GlobalSystem gg(round_assembly(p, find_contacts(p, granular)), rotation);
        REQUIRE(gc.contacts().contacts.size() == gg.contacts().contacts.size());
        REQUIRE(gc.symmetric());
        REQUIRE(gg.symmetric() == !rotation);
        const PackingReport rc = analyse_packing(p, gc, o), rg = analyse_packing(p, gg, o);
        REQUIRE(rc.integrators[0].exact);
        REQUIRE(rg.integrators[0].exact);
        REQUIRE(!rg.integrators[0].upper_bound);
        const double hc = rc.integrators[0].h_crit, hg = rg.integrators[0].h_crit;
        if (!rotation) {  // no torque: the same M, K and C
          CHECK(Matrix(gg.stiffness()) == Matrix(gc.stiffness()));
          CHECK(Matrix(gg.damping()) == Matrix(gc.damping()));
          CHECK_THAT(hg, WithinRel(hc, 1e-12));
          continue;
        }
        CHECK(hg > hc);  // shorter torque arms: a softer coupling of the spins
        CHECK(hg / hc - 1.0 < compression);  // of order delta / r = 2 compression (less: not every mode spins)
        if (damped) continue;  // (the damped root's first order needs its own mode; the undamped one suffices)
        // Undamped: h = 2 / sqrt(lambda_max). Perturbation theory from the classic modes: the lattice's top
        // eigenvalues lie closer together than the perturbation (delta/r of lambda), so the first order is
        // the top eigenvalue of D + V^T (K~_g - K~_c) V over the cluster V within 4 compression of the top.
        const Vector w = gc.mass().cwiseSqrt().cwiseInverse();
        const Matrix Kc = w.asDiagonal() * Matrix(gc.stiffness()) * w.asDiagonal();
        const Matrix Kg = w.asDiagonal() * Matrix(gg.stiffness()) * w.asDiagonal();
        const linalg::SymmetricEigen sym = linalg::symmetric_eigen(Kc, true);
        const Index n = Kc.rows();
        const double lambda_c = sym.values[n - 1];
        Index cluster = 1;
        while (cluster < n && sym.values[n - 1 - cluster] > lambda_c * (1.0 - 4.0 * compression)) ++cluster;
        const Matrix V = sym.vectors.rightCols(cluster);
        const Matrix B = Matrix(sym.values.tail(cluster).asDiagonal()) + V.transpose() * (Kg - Kc) * V;
        const Eigen::VectorXcd mu = linalg::eigen_solver(B, false).values;
        double first_order = -std::numeric_limits<double>::infinity();
        for (Index i = 0; i < mu.size(); ++i) first_order = std::max(first_order, mu[i].real());
        const double lambda_g = 4.0 / (hg * hg);
        CAPTURE(lambda_c, lambda_g, first_order, cluster);
        CHECK_THAT(4.0 / (hc * hc), WithinRel(lambda_c, 1e-9));
        CHECK(lambda_g < lambda_c);
        // First order explains the difference to 1 % (measured: 2e-5 and 3e-4 of it; the rest is second order).
        CHECK(std::abs(lambda_g - first_order) <= 0.01 * (lambda_c - lambda_g));
      }
    }
  }
}

TEST_CASE("a physically unstable system's own growth is no crossing for the check below it",
          "[packing][nonsymmetric]") {
  // A damped dof with negative stiffness -a (divergence: continuous growth rate sigma, the positive
  // root of s^2 + c s - a = 0) beside a stiff damped dof whose -1 crossing is h1. The divergent
  // mode's own eigenvalue of the one-step map is about 1 + sigma h at every h: before, the check
  // called it a crossing where that passed 1 + 1e-6, at 1e-6 / sigma (a packing at its Coulomb
  // limit in LAMMPS got h_crit = 6.6e-9 s so, labelled exact). Judged against exp(2 sigma h), as
  // growth_limit does, nothing crosses below h1.
  const double a = 4.0, c = 1.0, k = 1e6, c2 = 100.0;
  Matrix K = Matrix::Zero(2, 2), C = Matrix::Zero(2, 2);
  K.diagonal() << -a, k;
  C.diagonal() << c, c2;
  LinearSystem ls(Vector::Ones(2), K, C);
  const double sigma = 0.5 * (-c + std::sqrt(c * c + 4.0 * a));
  // 4 - 2 h c2 - h^2 k = 0
  const double h1 = (-2.0 * c2 + std::sqrt(4.0 * c2 * c2 + 16.0 * k)) / (2.0 * k);
  const CrossingCheck judged = check_below_crossing("velocity_verlet", ls, h1, sigma, {0.5, 0.9, 0.99, 1.0 - 1e-6});
  CHECK(std::isnan(judged.first_unstable));
  const CrossingCheck blind = check_below_crossing("velocity_verlet", ls, h1, 0.0, {0.5, 0.9, 0.99, 1.0 - 1e-6});
  REQUIRE(std::isfinite(blind.first_unstable));
  CHECK_THAT(blind.first_unstable, WithinRel(1e-6 / sigma, 1e-3));
}

TEST_CASE("a complex crossing before the -1 crossing is found by the check below it", "[packing][nonsymmetric]") {
  // Two equal undamped-frequency modes coupled circulatorily (K = [[k, -b], [b, k]] + a third, stiffer
  // dof that sets the -1 crossing), damped by c: physically stable for b < c sqrt(k) (continuous
  // eigenvalues s with Re s = -c/2 + b / (2 sqrt(k)) < 0), but velocity Verlet amplifies the
  // circulatory growth per step by 1 / sqrt(1 - (h omega / 2)^2), so the pair leaves the unit circle
  // below 2 / omega. The check finds that step; the reference is the general scan of the amplification
  // matrix (critical_step on the same LinearSystem).
  const double k = 1.0, b = 0.08, c = 0.1, k3 = 1.2;
  Matrix K = Matrix::Zero(3, 3), C = Matrix::Zero(3, 3);
  K << k, -b, 0.0, b, k, 0.0, 0.0, 0.0, k3;
  C.diagonal() << c, c, 0.0;
  LinearSystem ls(Vector::Ones(3), K, C);
  const CriticalStep scan = critical_step("velocity_verlet", ls, std::sqrt(k3));
  REQUIRE(scan.stability == Stability::conditional);
  // Below the -1 crossing of the third dof, 2 / sqrt(k3): a complex crossing.
  CHECK(scan.h_crit < 0.99 * 2.0 / std::sqrt(k3));
  // The -1 crossing is the third dof's (the pair's roots mu are complex).
  const double h1 = 2.0 / std::sqrt(k3);
  const CrossingCheck check = check_below_crossing("velocity_verlet", ls, h1, 0.0, {0.5, 0.9, 0.99, 1.0 - 1e-6});
  REQUIRE(std::isfinite(check.first_unstable));
  // The pair's growth per step against its closed form z^2 - (2 - hc - h^2 mu) z + (1 - hc) = 0 with
  // mu = k + ib: |z| = 1 at the step found, to the check's tolerance (1e-6 on |z|).
  auto growth = [&](double h) {
    const std::complex<double> mu(k, b);
    const std::complex<double> p = 2.0 - h * c - h * h * mu, q = 1.0 - h * c;
    const std::complex<double> d = std::sqrt(p * p - 4.0 * q);
    return std::max(std::abs(0.5 * (p + d)), std::abs(0.5 * (p - d)));
  };
  CHECK(growth(check.first_unstable) > 1.0);
  CHECK(growth(check.first_unstable) < 1.0 + 2e-6);
  CHECK_THAT(check.first_unstable, WithinRel(scan.h_crit, 1e-4));
  // A complex pair: the limit is the threshold's last stable step.
  CHECK(check.limit < check.first_unstable);
  CHECK(growth(check.limit) <= 1.0 + 1e-6);
  CHECK_THAT(check.limit, WithinRel(check.first_unstable, 1e-9));
  CHECK(check.first_unstable < 0.7 * h1);
  // Where the pair meets the circle at z = e^{i theta}, velocity Verlet's P(z) / (z h^2) is
  // K - w^2 (M - hC/2) + i w cos(theta/2) C with w = 2 sin(theta/2) / h: a continuous system with its
  // mass lowered by hC/2 and its damping scaled by cos(theta/2) = sqrt(1 - (hw/2)^2), singular at
  // s = iw (packing/README.md, "The -1 crossing"). Singular at the pair's angle, not 0.3 rad away.
  const double hc = check.limit;
  const Eigen::VectorXcd z = Eigen::EigenSolver<Matrix>(amplification_matrix(*make_integrator("velocity_verlet"),
                                                                              ls, hc), false).eigenvalues();
  Index top = 0;
  for (Index i = 1; i < z.size(); ++i)
    if (std::abs(z[i]) > std::abs(z[top])) top = i;
  auto smallest_singular = [&](double theta) {
    const double w = 2.0 * std::sin(theta / 2.0) / hc;
    const Eigen::MatrixXcd Q = (K - w * w * (Matrix::Identity(3, 3) - 0.5 * hc * C)).cast<std::complex<double>>() +
                               std::complex<double>(0.0, w * std::cos(theta / 2.0)) * C.cast<std::complex<double>>();
    const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(Q);
    return svd.singularValues().minCoeff() / svd.singularValues().maxCoeff();
  };
  const double theta = std::abs(std::arg(z[top]));
  CAPTURE(theta, std::abs(z[top]));
  CHECK(smallest_singular(theta) < 1e-5);
  CHECK(smallest_singular(theta + 0.3) > 1e-3);
}

namespace {
// Two damped non-symmetric blocks (granular torque arms; one wall contact sliding) and the
// circulatory three-dof system of "a complex crossing before the -1 crossing", each with the
// frequency a scan of it starts from.
std::vector<std::tuple<std::string, LinearSystem, double>> damped_nonsymmetric_systems() {
  const Packing p = sc_block(2, 1e-3);
  const GlobalSystem torque_arms(
      round_assembly(p, find_contacts(p, laws_of("granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10"))),
      true);
  const GlobalSystem sliding = block_with_a_sliding_wall_contact();
  for (const GlobalSystem* g : {&torque_arms, &sliding}) {
    REQUIRE(!g->symmetric());
    REQUIRE(g->damped());
  }
  Matrix K = Matrix::Zero(3, 3), C = Matrix::Zero(3, 3);
  K << 1.0, -0.08, 0.0, 0.08, 1.0, 0.0, 0.0, 0.0, 1.2;
  C.diagonal() << 0.1, 0.1, 0.0;
  return {{"torque arms", torque_arms.linear_system(), std::sqrt(torque_arms.gershgorin_omega2())},
          {"sliding", sliding.linear_system(), std::sqrt(sliding.gershgorin_omega2())},
          {"circulatory", LinearSystem(Vector::Ones(3), K, C), std::sqrt(1.2)}};
}
}  // namespace

TEST_CASE("the rows of one dashpot family share their recurrence's spectral radius and one check",
          "[packing][nonsymmetric]") {
  // Every scheme whose dashpots see (x_n - x_{n-1}) / h steps M(x+ - 2x + x-) + hC(x - x-) + h^2 K x = 0
  // in x, every one whose dashpots see (x_{n+1} - x_{n-1}) / 2h steps M(x+ - 2x + x-) + (h/2)C(x+ - x-)
  // + h^2 K x = 0 (registry.hpp, DashpotVelocity): their one-step maps have the roots of that quadratic
  // (and zeros for any further stored value), so one spectral radius, which the packing analysis
  // computes once per family, on the recurrence's companion matrix (family_recurrence_matrix).
  // Checked against each scheme's own amplification matrix, on two damped
  // non-symmetric packings (granular torque arms; one wall contact sliding) and on the circulatory
  // system of the test above, below, at and above the steps where each leaves the unit circle.
  const auto systems = damped_nonsymmetric_systems();
  for (const auto family : {DashpotVelocity::backward_difference, DashpotVelocity::central_difference}) {
    std::vector<std::string> members;
    for (const auto& name : default_integrator_specs())
      if (integrator_info(name).dashpot_velocity == family) members.push_back(name);
    // Parametrised members beyond the defaults: the variational integrator at alpha = 1 (drift
    // first), Newmark's explicit central difference.
    const std::string extra = family == DashpotVelocity::backward_difference ? "variational:alpha=1"
                                                                             : "newmark:beta=0,gamma=0.5";
    REQUIRE(integrator_info(extra).dashpot_velocity == family);
    members.push_back(extra);
    CAPTURE(members);
    REQUIRE(members.size() >= 2);
    for (const auto& [what, ls, omega_ref] : systems) {
      CAPTURE(what);
      LinearSystem sys = ls;
      const CriticalStep limit = critical_step(members[0], sys, omega_ref);
      REQUIRE(limit.stability == Stability::conditional);
      const double h1 = limit.h_crit;
      for (const double h : {0.3 * h1, 0.9 * h1, 0.99 * h1, h1, 1.02 * h1}) {
        CAPTURE(h);
        const double first = spectral_radius(amplification_matrix(*make_integrator(members[0]), sys, h));
        // The family's recurrence itself, as the crossing check and the scan evaluate it.
        CHECK_THAT(spectral_radius(family_recurrence_matrix(family, ls, h)), WithinRel(first, 1e-9));
        for (std::size_t k = 1; k < members.size(); ++k) {
          CAPTURE(members[k]);
          CHECK_THAT(spectral_radius(amplification_matrix(*make_integrator(members[k]), sys, h)), WithinRel(first, 1e-9));
        }
      }
    }
  }
}

TEST_CASE("a dashpot family's recurrence is a continuous system with its mass lowered: stable together",
          "[packing][nonsymmetric]") {
  // With lambda = (1 + hs/2) / (1 - hs/2) (the unit circle onto the imaginary axis), the family's
  // quadratic (lambda - 1)^2 M + h (lambda - 1)((2 - d) lambda + 2 + d)/4 C + h^2 lambda K (d = 2: dashpots
  // at (x_n - x_{n-1}) / h; d = 0: at (x_{n+1} - x_{n-1}) / 2h) times (1 - z)^2 / h^2, z = hs/2, is
  // s^2 M_h + s C + K with M_h = M - d hC/4 - h^2 K/4. So the one-step map is stable at h exactly when
  // the continuous system (M_h, C, K) is (packing/README.md, "The -1 crossing"): its -1 crossing is
  // M_h turning singular (4M - d hC - h^2 K), and a complex pair leaving the circle is (M_h, C, K)
  // fluttering. Checked on every eigenvalue, on two damped non-symmetric packings and the
  // circulatory system, at steps below and above each limit.
  const auto systems = damped_nonsymmetric_systems();
  for (const auto& [spec, d] : {std::pair{"velocity_verlet", 2.0}, std::pair{"central_difference", 0.0}}) {
    const DashpotVelocity family = integrator_info(spec).dashpot_velocity;
    for (const auto& [what, ls, omega_ref] : systems) {
      CAPTURE(what, spec);
      // In mass-weighted coordinates, the first-order form on (omega_ref y, y'): unscaled, a
      // packing's (masses 1e-6 kg beside inertias 1e-13 kg m^2) put its eigenvalues far off.
      const Vector root = ls.mass().cwiseSqrt().cwiseInverse();
      const Matrix K = root.asDiagonal() * Matrix(ls.stiffness()) * root.asDiagonal();
      const Matrix C = root.asDiagonal() * Matrix(ls.damping()) * root.asDiagonal();
      const Index n = ls.dofs();
      const Matrix M = Matrix::Identity(n, n);
      LinearSystem sys = ls;
      const double limit = critical_step(spec, sys, omega_ref).h_crit;
      REQUIRE(limit > 0.0);
      for (const double h : {0.3 * limit, 0.95 * limit, 1.05 * limit}) {
        CAPTURE(h);
        const Matrix Mh = M - 0.25 * d * h * C - 0.25 * h * h * K;
        Matrix first_order = Matrix::Zero(2 * n, 2 * n);
        first_order.topRightCorner(n, n) = omega_ref * Matrix::Identity(n, n);
        const Eigen::PartialPivLU<Matrix> lu(Mh);
        first_order.bottomLeftCorner(n, n) = -lu.solve(K) / omega_ref;
        first_order.bottomRightCorner(n, n) = -lu.solve(C);
        const Eigen::VectorXcd s = *linalg::general_eigenvalues(first_order);
        const Eigen::VectorXcd lambda = *linalg::general_eigenvalues(family_recurrence_matrix(family, ls, h));
        // Every eigenvalue of the recurrence is the image of one of (M_h, C, K), and back.
        double worst = 0.0, rho = 0.0, largest_re = -std::numeric_limits<double>::infinity();
        for (Index i = 0; i < s.size(); ++i) {
          const std::complex<double> image = (1.0 + 0.5 * h * s[i]) / (1.0 - 0.5 * h * s[i]);
          worst = std::max(worst, (lambda.array() - image).abs().minCoeff() / std::max(1.0, std::abs(image)));
          rho = std::max(rho, std::abs(image));
          largest_re = std::max(largest_re, s[i].real() * h);
        }
        for (Index i = 0; i < lambda.size(); ++i) {
          const std::complex<double> pre = 2.0 / h * (lambda[i] - 1.0) / (lambda[i] + 1.0);
          worst = std::max(worst, (s.array() - pre).abs().minCoeff() * h / std::max(1.0, std::abs(pre) * h));
        }
        CHECK(worst < 1e-6);  // a double root at lambda = 1 (free modes) splits by ~sqrt(eps)
        CHECK_THAT(rho, WithinRel(lambda.cwiseAbs().maxCoeff(), 1e-9));
        // Stable together: below the limit no s to the right of the axis beyond rounding, above it one.
        if (h < limit) CHECK(largest_re < 1e-6);
        else CHECK(largest_re > 1e-6);
      }
    }
  }
}

TEST_CASE("zero springs LAMMPS accepts are analysed: rolling sds 0 0, twisting sds 0, linear_history 0",
          "[packing][nonsymmetric]") {
  // LAMMPS 29 Sep 2021 runs `rolling sds 0 0 0.3` (pair_granular.cpp coeff() checks no value): a
  // rolling resistance with neither spring nor dashpot adds nothing, so K and C equal the law's
  // without it, and so do the limits.
  const Packing p = sc_block(2, 1e-3);
  const std::string base = "granular hooke 1e5 50 tangential linear_history 2.857e4 1 0.5";
  const GlobalSystem with(round_assembly(p, find_contacts(p, laws_of(base + " rolling sds 0 0 0.3 twisting sds 0 0 0.1"))), true);
  const GlobalSystem without(round_assembly(p, find_contacts(p, laws_of(base))), true);
  CHECK((Matrix(with.stiffness()) - Matrix(without.stiffness())).norm() == 0.0);
  CHECK((Matrix(with.damping()) - Matrix(without.damping())).norm() == 0.0);
  PackingAnalysisOptions o;
  CHECK(analyse_packing(p, with, o).h_exact == analyse_packing(p, without, o).h_exact);
  // A tangential spring of zero (damping only) is a law too.
  CHECK_NOTHROW(GlobalSystem(round_assembly(p, find_contacts(p, laws_of("granular hooke 1e5 50 tangential linear_history 0 1 0.5 "
                                                         "twisting marshall"))), true));
  // Negative springs, which LAMMPS also accepts, are refused by name.
  CHECK_THROWS_WITH(laws_of(base + " rolling sds -1 0 0.3"), Contains("rolling stiffness k_roll"));
}


TEST_CASE("HHT and generalised-alpha and GS4 and the trapezoidal rule: no growth on physically stable systems",
          "[packing][nonsymmetric]") {
  // A measured property, not a proven one: on random systems of 2-4 dofs (M = I, K = S + W with S
  // symmetric positive definite and W antisymmetric, the circulatory part; C symmetric positive
  // semi-definite, often weak), every one whose continuous system decays (max Re s < 0) stays bounded
  // under these schemes at every step of a fine scan (Omega = h max |s| from 1e-2 to 1e3, a factor
  // 1.1). This is why the scan of these rows on the non-symmetric blocks above finds them stable.
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  int systems = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Index n = 2 + trial % 3;
    Matrix A(n, n), B(n, n), W(n, n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) A(i, j) = normal(rng), B(i, j) = normal(rng), W(i, j) = normal(rng);
    const Matrix K = A * A.transpose() + 0.01 * Matrix::Identity(n, n) + std::abs(normal(rng)) * (W - W.transpose());
    const Matrix C = (trial % 2 ? 5e-4 : 0.05) * std::abs(normal(rng)) * B * B.transpose();
    Matrix F = Matrix::Zero(2 * n, 2 * n);
    F.topRightCorner(n, n) = Matrix::Identity(n, n);
    F.bottomLeftCorner(n, n) = -K;
    F.bottomRightCorner(n, n) = -C;
    const Eigen::VectorXcd s = Eigen::EigenSolver<Matrix>(F, false).eigenvalues();
    double rightmost = -std::numeric_limits<double>::infinity(), largest = 0.0;
    for (Index i = 0; i < s.size(); ++i) rightmost = std::max(rightmost, s[i].real()), largest = std::max(largest, std::abs(s[i]));
    if (!(rightmost < -1e-9 * largest)) continue;  // physically growing (or marginal): not this property
    ++systems;
    LinearSystem ls(Vector::Ones(n), K, C);
    for (const char* spec : {"hht:alpha=-0.3333333333333333", "hht", "generalized_alpha", "generalized_alpha:rho_inf=0",
                             "gs4_u0", "gs4_v0", "newmark_average"}) {
      const auto integ = make_integrator(spec);
      double worst = 0.0;
      for (double Omega = 1e-2; Omega < 1e3; Omega *= 1.1)
        worst = std::max(worst, spectral_radius(amplification_matrix(*integ, ls, Omega / largest)) - 1.0);
      CAPTURE(trial, spec, rightmost, largest);
      CHECK(worst <= 1e-9);
    }
  }
  CAPTURE(systems);
  CHECK(systems >= 100);  // (136 of the 300 are physically stable)
}
