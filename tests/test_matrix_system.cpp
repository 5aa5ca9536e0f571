// The critical step of a user's own linear system (stability/matrix_system.hpp, the Python module's
// dtcrit.critical_step): a consistent (non-diagonal) mass matrix against the generalised
// eigenproblem K x = omega^2 M x, a damped lumped system against Belytschko's closed form, and the
// errors naming M, K and C.
#include <catch2/catch.hpp>

#include <cmath>

#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/stability/matrix_system.hpp"

using namespace dtcrit;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

// A fixed-fixed chain of n springs k: K = k tridiag(-1, 2, -1).
Matrix chain_stiffness(Index n, double k) {
  Matrix K = Matrix::Zero(n, n);
  for (Index i = 0; i < n; ++i) {
    K(i, i) = 2 * k;
    if (i + 1 < n) K(i, i + 1) = K(i + 1, i) = -k;
  }
  return K;
}

}  // namespace

TEST_CASE("a consistent mass matrix gives velocity Verlet's 2 / omega_max of K x = omega^2 M x", "[matrix_system]") {
  const Index n = 5;
  const double k = 1e3, m = 0.2;
  Matrix M = Matrix::Zero(n, n);  // a bar's consistent mass: m/6 tridiag(1, 4, 1)
  for (Index i = 0; i < n; ++i) {
    M(i, i) = 4 * m / 6;
    if (i + 1 < n) M(i, i + 1) = M(i + 1, i) = m / 6;
  }
  const Matrix K = chain_stiffness(n, k);
  const double w2 = linalg::generalized_symmetric_eigen(K, M, false).values.maxCoeff();
  const auto r = matrix_critical_step("velocity_verlet", matrix_system(M, K.sparseView(), SparseMatrix(n, n)));
  REQUIRE(r.step.stability == Stability::conditional);
  CHECK_THAT(r.omega_max, WithinRel(std::sqrt(w2), 1e-12));
  CHECK_THAT(r.step.h_crit, WithinRel(2 / std::sqrt(w2), 1e-10));
}

TEST_CASE("a damped lumped chain: velocity Verlet's limit is Belytschko's on the top mode of a classical damping",
          "[matrix_system]") {
  // C = a K (classical damping): every mode has zeta_i = a omega_i / 2, and each mode's limit is
  // Omega = 2 (sqrt(1 + zeta^2) - zeta); the smallest h over the modes is the system's.
  const Index n = 6;
  const double k = 4e4, m = 1.5, a = 2e-4;
  const Matrix K = chain_stiffness(n, k), C = a * K;
  double h_expected = INFINITY;
  for (Index j = 1; j <= n; ++j) {
    const double w = 2 * std::sqrt(k / m) * std::sin(j * M_PI / (2.0 * (n + 1))), zeta = a * w / 2;
    h_expected = std::min(h_expected, 2 * (std::sqrt(1 + zeta * zeta) - zeta) / w);
  }
  const Matrix M = m * Matrix::Identity(n, n);
  const auto r = matrix_critical_step("velocity_verlet", matrix_system(M, K.sparseView(), C.sparseView()));
  CHECK_THAT(r.step.h_crit, WithinRel(h_expected, 1e-9));
}

TEST_CASE("matrix_system names the matrix and the entry that is wrong", "[matrix_system]") {
  const SparseMatrix I2 = Matrix::Identity(2, 2).sparseView(), I3 = Matrix::Identity(3, 3).sparseView();
  Matrix M = Matrix::Identity(2, 2);
  CHECK_THROWS_WITH(matrix_system(M, I3, I2), Contains("K is 3x3"));
  CHECK_THROWS_WITH(matrix_system(M, I2, I3), Contains("C is 3x3"));
  M(0, 1) = 0.5;
  CHECK_THROWS_WITH(matrix_system(M, I2, I2), Contains("symmetric"));
  M(1, 0) = 2.0;
  M(0, 1) = 2.0;
  CHECK_THROWS_WITH(matrix_system(M, I2, I2), Contains("not positive definite"));
  CHECK_THROWS_WITH(matrix_critical_step("velocity_verlet", matrix_system(Matrix::Identity(2, 2), SparseMatrix(2, 2),
                                                                          SparseMatrix(2, 2))),
                    Contains("K and C are both zero"));
}
