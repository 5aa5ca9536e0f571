// The three-term Lanczos of linalg/lanczos.hpp: its tridiagonal eigen-solver against Eigen's dense
// one, and the largest eigenvalue of operators whose spectrum is known in closed form (including a
// clustered top, the hard case of every lattice), from below, with a valid residual estimate.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include <Eigen/Eigenvalues>

#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/linalg/lanczos.hpp"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using namespace dtcrit;
using namespace dtcrit::linalg;

namespace {

Matrix dense_tridiagonal(const std::vector<double>& a, const std::vector<double>& b) {
  const auto k = static_cast<Index>(a.size());
  Matrix T = Matrix::Zero(k, k);
  for (Index i = 0; i < k; ++i) T(i, i) = a[static_cast<std::size_t>(i)];
  for (Index i = 0; i + 1 < k; ++i) T(i, i + 1) = T(i + 1, i) = b[static_cast<std::size_t>(i)];
  return T;
}

// y = A x for the 1D Dirichlet Laplacian tridiag(-1, 2, -1): eigenvalues 2 - 2 cos(pi j / (n + 1)).
SymmetricOperator laplacian(Index n) {
  return [n](const double* x, double* y) {
    for (Index i = 0; i < n; ++i) y[i] = 2.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < n ? x[i + 1] : 0.0);
  };
}

}  // namespace

TEST_CASE("tridiagonal_largest equals the dense eigen-solver", "[lanczos]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t k : {1u, 2u, 3u, 10u, 200u}) {
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<double> a(k), b(k - 1);
      for (auto& x : a) x = u(rng);
      for (auto& x : b) x = trial == 4 ? 0.0 : u(rng);  // trial 4: diagonal (zero couplings)
      if (trial == 3 && k > 2) a.assign(k, 0.5);         // repeated diagonal
      const TridiagonalTop top = tridiagonal_largest(a, b);
      const Matrix T = dense_tridiagonal(a, b);
      const double exact = linalg::symmetric_eigen(T, true).values.maxCoeff();
      CHECK_THAT(top.theta, WithinAbs(exact, 1e-14 * std::max(1.0, T.norm())));
      CHECK_THAT(top.vector.norm(), WithinRel(1.0, 1e-14));
      CHECK((T * top.vector - top.theta * top.vector).norm() <= 1e-13);
    }
  }
  CHECK_THROWS_WITH(tridiagonal_largest({1.0, 2.0}, {}), Catch::Matchers::Contains("2 diagonal and 0 off-diagonal"));
}

TEST_CASE("Lanczos: the largest eigenvalue of the 1D Laplacian, from below", "[lanczos]") {
  // A hard case: the top of the spectrum is a dense band (relative gap 3.7e-6, density rising
  // towards the top), as in every lattice.
  const Index n = 2000;
  const double exact = 2.0 - 2.0 * std::cos(std::numbers::pi * static_cast<double>(n) / static_cast<double>(n + 1));
  const double second = 2.0 - 2.0 * std::cos(std::numbers::pi * static_cast<double>(n - 1) / static_cast<double>(n + 1));
  REQUIRE((exact - second) / exact < 1e-5);
  const auto op = laplacian(n);
  LanczosOptions o;
  o.tolerance = 1e-6;
  o.want_vector = true;
  const LanczosResult r = lanczos_largest(n, op, o);
  REQUIRE(r.converged);
  CHECK(r.steps < n);
  CHECK(r.operations == 2 * r.steps - 1);  // the second pass rebuilds the vector
  CHECK(r.lambda <= exact * (1.0 + 1e-15));  // a Ritz value: from below
  CHECK_THAT(r.lambda, WithinRel(exact, 1e-6));
  // The rebuilt vector's true residual is the estimate that stopped the iteration.
  Vector y(n);
  op(r.vector.data(), y.data());
  const double residual = (y - r.lambda * r.vector).norm();
  CHECK(residual <= 1.5 * o.tolerance * r.lambda);
  CHECK_THAT(residual, WithinRel(r.residual_estimate, 0.1));
  // Without the vector: the same steps, one application each.
  o.want_vector = false;
  const LanczosResult no_vector = lanczos_largest(n, op, o);
  CHECK(no_vector.steps == r.steps);
  CHECK(no_vector.operations == r.steps);
  CHECK(no_vector.vector.size() == 0);
  CHECK(no_vector.lambda == r.lambda);
  // A tight tolerance runs to the invariant space (n steps here) and gives lambda to rounding.
  o.tolerance = 1e-12;
  const LanczosResult tight = lanczos_largest(n, op, o);
  CHECK(tight.converged);
  CHECK_THAT(tight.lambda, WithinRel(exact, 1e-14));
}

TEST_CASE("Lanczos: a degenerate top, warm starts and invariant subspaces", "[lanczos]") {
  // Diagonal operator: eigenvalue 3 three times, the rest spread in [0, 2].
  const Index n = 500;
  Vector d = Vector::LinSpaced(n, 0.0, 2.0);
  d.tail(3).setConstant(3.0);
  const SymmetricOperator diag = [&](const double* x, double* y) {
    for (Index i = 0; i < n; ++i) y[i] = d[i] * x[i];
  };
  LanczosOptions o;
  o.tolerance = 1e-12;
  o.want_vector = true;
  const LanczosResult r = lanczos_largest(n, diag, o);
  CHECK_THAT(r.lambda, WithinRel(3.0, 1e-14));
  CHECK(r.vector.head(n - 3).norm() <= 1e-11);  // inside the degenerate eigenspace
  // Started on an eigenvector, one step spans an invariant space.
  Vector e = Vector::Zero(n);
  e[n - 2] = 1.0;
  o.start = &e;
  const LanczosResult warm = lanczos_largest(n, diag, o);
  CHECK(warm.steps == 1);
  CHECK(warm.lambda == 3.0);
  // A 4 x 4 operator: the Krylov space is the whole space after at most 4 steps.
  const Eigen::Matrix4d A = (Eigen::Matrix4d() << 4, 1, 0, 2, 1, 3, 1, 0, 0, 1, 2, 1, 2, 0, 1, 1).finished();
  const LanczosResult small = lanczos_largest(4, [&](const double* x, double* y) {
    Eigen::Vector4d::Map(y) = A * Eigen::Vector4d::Map(x);
  });
  CHECK(small.converged);
  CHECK(small.steps <= 4);
  CHECK_THAT(small.lambda, WithinRel(Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d>(A).eigenvalues().maxCoeff(), 1e-13));
}

TEST_CASE("Lanczos: bad input is named", "[lanczos]") {
  CHECK_THROWS_WITH(lanczos_largest(0, laplacian(0)), Catch::Matchers::Contains("n = 0"));
  LanczosOptions o;
  o.tolerance = -1.0;
  CHECK_THROWS_WITH(lanczos_largest(3, laplacian(3), o), Catch::Matchers::Contains("tolerance = -1"));
}

TEST_CASE("Lanczos: the vector work split into ranges gives the same answer to rounding, every time", "[lanczos]") {
  // parts > 1: the dot products and norms are summed per range, then in range order (here the ranges
  // run in reverse order and on one thread: the order of the runs may not matter).
  const Index n = 2000;
  const auto op = laplacian(n);
  LanczosOptions o;
  o.tolerance = 1e-8;
  o.want_vector = true;
  const LanczosResult one = lanczos_largest(n, op, o);
  for (int parts : {2, 3, 7}) {
    CAPTURE(parts);
    LanczosOptions p = o;
    p.parts = parts;
    int calls = 0;
    p.run_parts = [&calls](int k, const std::function<void(int)>& f) {
      ++calls;
      for (int t = k - 1; t >= 0; --t) f(t);
    };
    const LanczosResult split = lanczos_largest(n, op, p);
    CHECK(calls > 0);
    CHECK(split.converged);
    CHECK_THAT(split.lambda, WithinRel(one.lambda, 1e-14));
    CHECK(std::abs(std::abs(split.vector.dot(one.vector)) - 1.0) <= 1e-10);
    // Deterministic: the same ranges give the same bits whichever order they ran in.
    p.run_parts = [](int k, const std::function<void(int)>& f) {
      for (int t = 0; t < k; ++t) f(t);
    };
    const LanczosResult again = lanczos_largest(n, op, p);
    CHECK(again.lambda == split.lambda);
    CHECK(again.steps == split.steps);
    CHECK(again.vector == split.vector);
  }
}
