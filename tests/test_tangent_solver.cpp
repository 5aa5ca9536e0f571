// The implicit schemes' linear solve (detail::TangentSolver: Krylov first, then a direct
// factorisation with a reused symbolic analysis) against dense LU, and the damped central
// difference it serves on a packing against an independent stepping loop with dense solves (the
// path before the Krylov solve and the pattern reuse).
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "dtcrit/integrators/detail/solve.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"

using namespace dtcrit;
using detail::TangentSolver;
using contact::Vec3;

namespace {

// A random sparse n x n matrix with `per_column` off-diagonal entries per column, values in [-1, 1].
SparseMatrix random_sparse(Index n, int per_column, std::mt19937& rng) {
  std::uniform_int_distribution<Index> row(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> t;
  for (Index j = 0; j < n; ++j)
    for (int k = 0; k < per_column; ++k) {
      const double v = value(rng);  // before the row: every compiler draws alike
      t.emplace_back(row(rng), j, v);
    }
  SparseMatrix A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

double relative_error(const Vector& d, const Vector& reference) { return (d - reference).norm() / reference.norm(); }

// J = a M + b C + c K assembled densely, solved by partial-pivoting LU: the reference.
Vector dense_solution(const Vector& mass, double a, const SparseMatrix& C, double b, const SparseMatrix& K, double c,
                      const Vector& r) {
  Matrix J = b * Matrix(C) + c * Matrix(K);
  J.diagonal() += a * mass;
  return J.partialPivLu().solve(r);
}

}  // namespace

TEST_CASE("TangentSolver: Krylov and direct sparse solves equal dense LU", "[solver]") {
  std::mt19937 rng(11);
  const Index n = 150;
  std::uniform_real_distribution<double> u(0.5, 2.0);
  Vector mass(n);
  for (Index i = 0; i < n; ++i) mass[i] = u(rng);
  const Vector r = Vector::Random(n);
  const SparseMatrix B = random_sparse(n, 3, rng);
  const SparseMatrix C_sym = SparseMatrix(B.transpose()) * B;  // symmetric PSD: M + b C is SPD
  const SparseMatrix C_nonsym = C_sym + 0.3 * random_sparse(n, 2, rng);
  const SparseMatrix none(n, n);

  SECTION("M + h/2 C close to M (a damped explicit scheme): Krylov") {
    for (const SparseMatrix* C : {&C_sym, &C_nonsym}) {
      TangentSolver s;
      s.factor(mass, 1.0, *C, 0.05, none, 0.0);
      Vector d;
      s.solve(r, d);
      CHECK(s.kind() == TangentSolver::Kind::sparse_iterative);
      CHECK(relative_error(d, dense_solution(mass, 1.0, *C, 0.05, none, 0.0, r)) < 1e-12);
    }
  }
  SECTION("stiff J (h^2 K dominant): the direct path, LDL^T when SPD, LU otherwise") {
    // M + 1e6 K with K = C_sym: condition ~1e6 x the spread of C's spectrum; a nonsymmetric K: LU.
    for (const auto& [K, expected] : {std::pair{&C_sym, TangentSolver::Kind::sparse_ldlt},
                                      std::pair{&C_nonsym, TangentSolver::Kind::sparse_lu}}) {
      TangentSolver s;
      s.set_direct_only(true);
      s.factor(mass, 1.0, none, 0.0, *K, 1e6);
      Vector d;
      s.solve(r, d);
      CHECK(s.kind() == expected);
      CHECK(relative_error(d, dense_solution(mass, 1.0, none, 0.0, *K, 1e6, r)) < 1e-9);  // condition ~1e7
    }
  }
  SECTION("a Krylov solve that does not converge hands over to the direct path for good") {
    // M + K with K nonsymmetric and 1e8 times M: BiCGSTAB stalls within its cap.
    TangentSolver s;
    const SparseMatrix K = 1e8 * C_nonsym;
    s.factor(mass, 1.0, none, 0.0, K, 1.0);
    Vector d;
    s.solve(r, d);
    CHECK(s.kind() == TangentSolver::Kind::sparse_lu);
    CHECK(relative_error(d, dense_solution(mass, 1.0, none, 0.0, K, 1.0, r)) < 1e-6);
    s.factor(mass, 1.0, none, 0.0, K, 1.0);
    CHECK(s.kind() == TangentSolver::Kind::sparse_lu);  // no second Krylov attempt
  }
  SECTION("the symbolic analysis is reused while the pattern fits, redone when it grows") {
    TangentSolver s;
    s.set_direct_only(true);
    Vector d;
    s.factor(mass, 1.0, none, 0.0, C_nonsym, 10.0);
    s.solve(r, d);
    CHECK(s.analyses() == 1);
    // same pattern, new values; then a pattern with entries dropped (a contact value that is
    // exactly zero, a contact lost): both reuse the analysis and still solve exactly
    SparseMatrix K2 = C_nonsym;
    for (Index k = 0; k < K2.nonZeros(); ++k) K2.valuePtr()[k] *= 1.0 + 1e-3 * static_cast<double>(k % 7);
    SparseMatrix K3 = K2;
    K3.prune([](Index i, Index j, double) { return (i + j) % 5 != 0 || i == j; });
    for (const SparseMatrix* K : {&K2, &K3}) {
      s.factor(mass, 1.0, none, 0.0, *K, 10.0);
      s.solve(r, d);
      CHECK(relative_error(d, dense_solution(mass, 1.0, none, 0.0, *K, 10.0, r)) < 1e-9);
    }
    CHECK(s.analyses() == 1);
    CHECK(s.factorisations() == 3);
    // a new entry outside the analysed pattern: analysed again
    SparseMatrix K4 = K2;
    K4.coeffRef(0, n - 1) += 0.5;
    s.factor(mass, 1.0, none, 0.0, K4, 10.0);
    s.solve(r, d);
    CHECK(relative_error(d, dense_solution(mass, 1.0, none, 0.0, K4, 10.0, r)) < 1e-9);
    CHECK(s.analyses() == 2);
  }
}

TEST_CASE("damped central difference on a packing: same trajectory as dense Newton solves", "[solver][stepper]") {
  // FCC 2x2x2 between six walls (32 spheres, 192 dofs: the sparse path), the confirmation's law
  // (mu so large that contacts stick), started from random velocities.
  packing::LatticeSpec spec;
  spec.kind = packing::LatticeKind::fcc;
  spec.n = 2;
  spec.periodic = false;
  spec.compression = 1e-3;
  packing::Packing p = packing::make_lattice(spec);
  packing::add_box_walls(p, 2.0 * spec.radius * spec.compression);
  packing::ContactLaws laws;
  laws.base = contact::HookeParams{1e4, 2857.0, 100.0, 50.0, 1e6};
  auto run = packing::to_particle_system(p, laws);
  auto reference = packing::to_particle_system(p, laws);
  const Index n = run.system->dofs();
  REQUIRE(n > 64);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1e-3, 1e-3);
  Vector v0(n);
  for (Index i = 0; i < n; ++i) v0[i] = u(rng);
  const double h = 1.5e-5;  // below the packing's limit 2.0e-5 s (dtcrit packing on the same case)
  const int steps = 300;

  auto integrator = make_integrator("central_difference");
  integrator->start(*run.system, 0.0, run.x0, v0, h);
  for (int k = 0; k < steps; ++k) integrator->step(*run.system);

  // The reference: x+ = x + h v + h^2/2 a;  M (v+ - v - h/2 a) = h/2 f(x+, v+) by Newton with a
  // dense LU of M + h/2 C;  a+ = M^-1 f(x+, v+).
  stepper::ParticleSystem& sys = *reference.system;
  const Vector& M = sys.mass();
  Vector x = reference.x0, v = v0, f, r;
  sys.force(0.0, x, v, f);
  Vector a = f.cwiseQuotient(M);
  SparseMatrix K, C;
  for (int k = 0; k < steps; ++k) {
    const double t1 = (k + 1) * h;
    x += h * v + 0.5 * h * h * a;
    const Vector v_half = v + 0.5 * h * a;
    Vector w = v_half;
    for (int it = 0; it < 10; ++it) {
      sys.force(t1, x, w, f);
      r = M.cwiseProduct(w - v_half) - 0.5 * h * f;
      if (r.cwiseQuotient(M.cwiseSqrt()).norm() <= 1e-14 * M.cwiseProduct(w).cwiseQuotient(M.cwiseSqrt()).norm()) break;
      sys.tangent(t1, x, w, K, C);
      Matrix J = 0.5 * h * Matrix(C);
      J.diagonal() += M;
      w -= J.partialPivLu().solve(r);
    }
    sys.accept_step();
    v = w;
    a = f.cwiseQuotient(M);
  }
  // Both solve each step's linear system to rounding; what is left is the Newton stopping rule's
  // rounding floor carried through 300 steps. Documented tolerance: 1e-9 relative to the
  // displacement, 1e-7 relative to the velocity (measured 5e-11 and 1.1e-8, the same with the
  // Krylov solve and with the former sparse LU, set_direct_only).
  INFO("displacement " << (x - reference.x0).norm() << ", difference " << (integrator->position() - x).norm()
       << "; velocity " << v.norm() << ", difference " << (integrator->velocity() - v).norm());
  CHECK((integrator->position() - x).norm() <= 1e-9 * (x - reference.x0).norm());
  CHECK((integrator->velocity() - v).norm() <= 1e-7 * v.norm());
  CHECK((v - v0).norm() > 1e-3 * v0.norm());  // the run moved
}

// ---- the damping-only tangent (MechanicalSystem::damping) and its Newton loops ----------------

namespace {

// A ParticleSystem seen through the MechanicalSystem interface, counting the tangent and damping
// calls; with `own_damping` false damping() is MechanicalSystem's default (C from tangent()).
struct Counting : MechanicalSystem {
  stepper::ParticleSystem& s;
  bool own_damping;
  long tangents = 0, dampings = 0;
  Counting(stepper::ParticleSystem& sys, bool own) : s(sys), own_damping(own) {}
  Index dofs() const override { return s.dofs(); }
  const Vector& mass() const override { return s.mass(); }
  void force(double t, const Vector& x, const Vector& v, Vector& f) override { s.force(t, x, v, f); }
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override {
    ++tangents;
    s.tangent(t, x, v, K, C);
  }
  void damping(double t, const Vector& x, const Vector& v, SparseMatrix& C) override {
    ++dampings;
    if (own_damping) s.damping(t, x, v, C);
    else MechanicalSystem::damping(t, x, v, C);
  }
  void accept_step() override { s.accept_step(); }
  Vector history() const override { return s.history(); }
  void set_history(const Vector& h) override { s.set_history(h); }
};

// Six spheres on a wall, two of them bonded, sliding (small mu) and spinning, one leaving its
// contacts: tangential histories of every kind, contacts that open and close.
struct SlidingHeap {
  std::unique_ptr<stepper::ParticleSystem> sys;
  Vector x, v;
};
SlidingHeap sliding_heap(int dim, stepper::TangentialHistory mode) {
  const contact::HookeParams law{1e4, 2857.0, 100.0, 50.0, 0.05};
  SlidingHeap c{std::make_unique<stepper::ParticleSystem>(dim, law, mode), {}, {}};
  auto& s = *c.sys;
  const double R = 1e-3, m = 2500.0 * 4.0 / 3.0 * std::numbers::pi * R * R * R;
  for (int i = 0; i < 6; ++i) s.add_particle(R, m, 0.4 * m * R * R);
  const Vec3 up = dim == 2 ? Vec3(0, 1, 0) : Vec3(0, 0, 1);
  const Vec3 side = Vec3(1, 0, 0), across = dim == 2 ? Vec3::Zero() : Vec3(0, 1, 0);
  s.add_wall(Vec3::Zero(), up, law);
  s.add_wall(Vec3(-1.2 * R, 0, 0), side, contact::HookeParams{2e4, 5000.0, 80.0, 40.0, 0.3});
  s.add_bond(3, 4, 5e3);
  c.x = Vector::Zero(s.dofs());
  c.v = Vector::Zero(s.dofs());
  const double d = 2.0 * R * (1.0 - 1e-3);
  const Vec3 centres[6] = {(R - 1e-6) * up, (R - 1e-6) * up + d * side, (R - 2e-6) * up + 2.0 * d * side,
                           (R + 0.9 * d) * up + 0.5 * d * side + 0.1 * R * across, (R + 0.9 * d) * up + 1.5 * d * side,
                           (R + 1.8 * d) * up + d * side};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 6; ++i) {
    s.set_centre(c.x, i, centres[i]);
    // each component its own statement, last first: every compiler draws alike
    const double vz = dim == 2 ? 0.0 : u(rng), vy = u(rng), vx = u(rng);
    const double wz = u(rng), wy = dim == 2 ? 0.0 : u(rng), wx = dim == 2 ? 0.0 : u(rng);
    const Vec3 vel(vx, vy, vz), w(wx, wy, wz);
    s.set_centre(c.v, i, 0.05 * vel);
    s.set_spin(c.v, i, 50.0 * w);
  }
  s.set_centre(c.v, 5, 0.3 * up);  // leaves its contacts
  return c;
}

}  // namespace

TEST_CASE("ParticleSystem::damping equals tangent()'s C to the last bit", "[solver][stepper]") {
  // Along a run of the implicit-damping scheme (contacts sliding, opening, histories growing):
  // at every step damping()'s C, kept pattern refilled in place, equals tangent()'s C entry by
  // entry, bit for bit (explicit zeros of the kept pattern are absent from tangent()'s C).
  const int dim = GENERATE(2, 3);
  const auto mode = GENERATE(stepper::TangentialHistory::consistent, stepper::TangentialHistory::traditional);
  INFO("dim " << dim << ", " << stepper::to_string(mode));
  SlidingHeap c = sliding_heap(dim, mode);
  auto& s = *c.sys;
  auto integrator = make_integrator("velocity_verlet_implicit_damping");
  integrator->start(s, 0.0, c.x, c.v, 2e-6);
  SparseMatrix K, C, D;
  std::size_t min_contacts = 100, max_contacts = 0;
  int sliding = 0;
  for (int k = 0; k < 300; ++k) {
    integrator->step(s);
    const double t = integrator->time();
    const Vector x = integrator->position(), v = integrator->velocity();
    s.tangent(t, x, v, K, C);
    s.damping(t, x, v, D);
    REQUIRE(D.rows() == C.rows());
    REQUIRE(D.cols() == C.cols());
    const Matrix Cd = Matrix(C), Dd = Matrix(D);
    const bool equal = (Cd.array() == Dd.array()).all();
    if (!equal) INFO("step " << k << ": |C - D| = " << (Cd - Dd).cwiseAbs().maxCoeff());
    REQUIRE(equal);
    Vector f;
    s.force(t, x, v, f);  // the contact reports of this state (force() at the accepted state)
    const auto& contacts = s.last_contacts();
    min_contacts = std::min(min_contacts, contacts.size());
    max_contacts = std::max(max_contacts, contacts.size());
    for (const auto& r : contacts) sliding += r.sliding ? 1 : 0;
  }
  CHECK(min_contacts < max_contacts);  // contacts opened or closed
  CHECK(sliding > 0);
}

TEST_CASE("TangentSolver: J refilled in place solves to the same bits as a fresh factorisation", "[solver]") {
  std::mt19937 rng(17);
  const Index n = 120;
  Vector mass(n);
  std::uniform_real_distribution<double> u(0.5, 2.0);
  for (Index i = 0; i < n; ++i) mass[i] = u(rng);
  const SparseMatrix B = random_sparse(n, 3, rng);
  SparseMatrix C = SparseMatrix(B.transpose()) * B;
  for (Index k = 0; k < C.nonZeros(); k += 5) C.valuePtr()[k] = 0.0;  // explicit zeros stay in the pattern
  const SparseMatrix none(n, n);
  TangentSolver kept;
  Vector d_kept, d_fresh;
  for (int round = 0; round < 4; ++round) {
    for (Index k = 0; k < C.nonZeros(); ++k) C.valuePtr()[k] *= 1.0 + 0.01 * u(rng);
    const Vector r = Vector::Random(n);
    kept.factor(mass, 1.0, C, 0.04, none, 0.0);
    kept.solve(r, d_kept);
    TangentSolver fresh;
    fresh.factor(mass, 1.0, C, 0.04, none, 0.0);
    fresh.solve(r, d_fresh);
    CHECK(kept.kind() == TangentSolver::Kind::sparse_iterative);
    CHECK((d_kept.array() == d_fresh.array()).all());
  }
  CHECK(kept.refills() == 3);
  // a new pattern is assembled afresh
  bool stored = false;
  for (SparseMatrix::InnerIterator it(C, n - 1); it; ++it) stored = stored || it.row() == 0;
  REQUIRE_FALSE(stored);  // else C2 below would keep C's pattern
  SparseMatrix C2 = C;
  C2.coeffRef(0, n - 1) += 0.1;
  C2.makeCompressed();
  kept.factor(mass, 1.0, C2, 0.04, none, 0.0);
  CHECK(kept.refills() == 3);
  // a J with a K term in between (an implicit scheme whose K was empty, then not): the C-only J
  // that follows is not written into the K-including pattern
  const SparseMatrix K = random_sparse(n, 2, rng);
  const Vector r = Vector::Random(n);
  kept.factor(mass, 1.0, C2, 0.04, K, 0.01);
  kept.factor(mass, 1.0, C2, 0.04, none, 0.0);
  kept.solve(r, d_kept);
  TangentSolver fresh;
  fresh.factor(mass, 1.0, C2, 0.04, none, 0.0);
  fresh.solve(r, d_fresh);
  CHECK((d_kept.array() == d_fresh.array()).all());
  CHECK(kept.refills() == 3);
}

TEST_CASE("damping-only Newton loops: the same trajectory, bit for bit, as with tangent()", "[solver][stepper]") {
  // central_difference and velocity_verlet_implicit_damping evaluate damping() instead of tangent()
  // (J has no K term) and complete the convergence floor with tangent()'s K only when a decision
  // needs it. Against the same run with damping() taken from tangent() (MechanicalSystem's
  // default): positions, velocities and Newton iteration counts identical, every step.
  const std::string scheme = GENERATE(std::string("central_difference"), std::string("velocity_verlet_implicit_damping"));
  const int dim = GENERATE(2, 3);
  const auto mode = GENERATE(stepper::TangentialHistory::consistent, stepper::TangentialHistory::traditional);
  INFO(scheme << ", dim " << dim << ", " << stepper::to_string(mode));
  SlidingHeap a = sliding_heap(dim, mode), b = sliding_heap(dim, mode);
  Counting fast(*a.sys, true), reference(*b.sys, false);
  auto ia = make_integrator(scheme), ib = make_integrator(scheme);
  ia->start(fast, 0.0, a.x, a.v, 2e-6);
  ib->start(reference, 0.0, b.x, b.v, 2e-6);
  for (int k = 0; k < 300; ++k) {
    ia->step(fast);
    ib->step(reference);
    const bool same = (ia->position().array() == ib->position().array()).all() &&
                      (ia->velocity().array() == ib->velocity().array()).all();
    if (!same) INFO("step " << k);
    REQUIRE(same);
  }
  CHECK(ia->solver_status().max_iterations == ib->solver_status().max_iterations);
  CHECK(ia->solver_status().unconverged_steps == ib->solver_status().unconverged_steps);
  CHECK(fast.dampings == reference.dampings);
  CHECK(fast.dampings >= 300);
  INFO("tangent() calls to complete the floor: " << fast.tangents << " of " << fast.dampings << " damping() calls");
  CHECK(fast.tangents < fast.dampings);
}
