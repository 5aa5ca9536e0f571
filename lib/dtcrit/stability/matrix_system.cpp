#include "dtcrit/stability/matrix_system.hpp"

#include <cmath>

#include <Eigen/Cholesky>
#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit {

namespace {

void require_finite_entries(const char* name, const Matrix& A) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (!std::isfinite(A(i, j))) fail(fmt::format("{}[{}, {}] = {} must be finite", name, i, j, A(i, j)));
}

void require_size(const char* name, const SparseMatrix& A, Index n) {
  if (A.rows() != n || A.cols() != n)
    fail(fmt::format("{} is {}x{}, expected {}x{} (the size of M)", name, A.rows(), A.cols(), n, n));
}

// Largest |eigenvalue| of a dense matrix (symmetric ones by the self-adjoint solver).
double largest_modulus(const Matrix& A) {
  if (A.size() == 0) return 0.0;
  if (A.isApprox(A.transpose(), 0.0))
    return linalg::symmetric_eigenvalues(A).cwiseAbs().maxCoeff();
  const std::optional<Eigen::VectorXcd> ev = linalg::general_eigenvalues(A);
  if (!ev) fail(fmt::format("the eigenvalues of a {}x{} matrix: the QR iteration did not converge", A.rows(), A.cols()));
  return ev->cwiseAbs().maxCoeff();
}

}  // namespace

LinearSystem matrix_system(const Matrix& M, const SparseMatrix& K, const SparseMatrix& C) {
  const Index n = M.rows();
  if (n == 0 || M.cols() != n) fail(fmt::format("M is {}x{}, expected a non-empty square matrix", M.rows(), M.cols()));
  require_size("K", K, n);
  require_size("C", C, n);
  require_finite_entries("M", M);
  require_finite_entries("K", Matrix(K));
  require_finite_entries("C", Matrix(C));
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < j; ++i)
      if (M(i, j) != M(j, i))
        fail(fmt::format("M[{}, {}] = {} differs from M[{}, {}] = {}: the mass matrix must be symmetric", i, j, M(i, j),
                         j, i, M(j, i)));
  const Matrix off_diagonal = M.triangularView<Eigen::StrictlyUpper>();
  if (off_diagonal.isZero(0.0)) {
    for (Index i = 0; i < n; ++i) require_positive(fmt::format("M[{}, {}]", i, i), M(i, i));
    return LinearSystem(M.diagonal(), K, C);
  }
  const Eigen::LLT<Matrix> llt(M);
  if (llt.info() != Eigen::Success) fail("M is not positive definite (its Cholesky factorisation failed)");
  // L⁻¹ A L⁻ᵀ for A = K, C.
  auto transformed = [&](const SparseMatrix& A) {
    Matrix B = llt.matrixL().solve(Matrix(A));
    return Matrix(llt.matrixL().solve(B.transpose()).transpose());
  };
  return LinearSystem(Vector::Ones(n), transformed(K), transformed(C));
}

MatrixSystemLimit matrix_critical_step(std::string_view integrator_spec, const LinearSystem& system) {
  const Vector s = system.mass().cwiseSqrt().cwiseInverse();
  auto scaled = [&](const SparseMatrix& A) { return Matrix(s.asDiagonal() * Matrix(A) * s.asDiagonal()); };
  MatrixSystemLimit out;
  out.omega_max = std::sqrt(largest_modulus(scaled(system.stiffness())));
  if (!(out.omega_max > 0.0)) {
    out.omega_max = largest_modulus(scaled(system.damping()));
    out.from_damping = true;
  }
  if (!(out.omega_max > 0.0)) fail("K and C are both zero: nothing limits the step (every motion is free drift)");
  LinearSystem copy = system;
  out.step = critical_step(integrator_spec, copy, out.omega_max);
  return out;
}

}  // namespace dtcrit
