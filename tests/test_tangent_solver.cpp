// The implicit schemes' linear solve (detail::TangentSolver: Krylov first, then a direct
// factorisation with a reused symbolic analysis) against dense LU, and the damped central
// difference it serves on a packing against an independent stepping loop with dense solves (the
// path before the Krylov solve and the pattern reuse).
#include <cmath>
#include <random>

#include <catch2/catch.hpp>

#include "dtcrit/integrators/detail/solve.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/packing/packing.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"

using namespace dtcrit;
using detail::TangentSolver;

namespace {

// A random sparse n x n matrix with `per_column` off-diagonal entries per column, values in [-1, 1].
SparseMatrix random_sparse(Index n, int per_column, std::mt19937& rng) {
  std::uniform_int_distribution<Index> row(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> t;
  for (Index j = 0; j < n; ++j)
    for (int k = 0; k < per_column; ++k) t.emplace_back(row(rng), j, value(rng));
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
