#include "dtcrit/linalg/dense_eigenvalues.hpp"

#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

// LAPACK's Fortran interface (Debian: liblapack-dev; OpenBLAS provides it optimised).
extern "C" void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr,
                       double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr, double* work,
                       const int* lwork, int* info);

namespace dtcrit::linalg {

const char* general_eigenvalues_solver(Index n) {
  return n >= lapack_from_order ? "LAPACK dgeev" : "Eigen::EigenSolver";
}

std::optional<Eigen::VectorXcd> general_eigenvalues(const Matrix& A) {
  const Index n = A.rows();
  if (A.cols() != n) fail(fmt::format("general_eigenvalues: the matrix is {}x{}, not square", n, A.cols()));
  if (n < lapack_from_order) {
    GeneralEigen es = eigen_solver(A, false);
    if (!es.converged) return std::nullopt;
    return std::move(es.values);
  }
  Matrix a = A;  // dgeev overwrites its input
  const int order = static_cast<int>(n), one = 1;
  std::vector<double> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
  int info = 0, lwork = -1;
  double optimal = 0.0;
  dgeev_("N", "N", &order, a.data(), &order, wr.data(), wi.data(), nullptr, &one, nullptr, &one, &optimal, &lwork,
         &info);
  if (info != 0) return std::nullopt;
  lwork = static_cast<int>(optimal);
  std::vector<double> work(static_cast<std::size_t>(lwork));
  dgeev_("N", "N", &order, a.data(), &order, wr.data(), wi.data(), nullptr, &one, nullptr, &one, work.data(), &lwork,
         &info);
  if (info != 0) return std::nullopt;  // < 0: a bad argument (a bug); > 0: the QR iteration failed
  Eigen::VectorXcd out(n);
  for (Index i = 0; i < n; ++i) out[i] = {wr[static_cast<std::size_t>(i)], wi[static_cast<std::size_t>(i)]};
  return out;
}

SymmetricEigen symmetric_eigen(const Matrix& A, bool vectors) {
  const Eigen::SelfAdjointEigenSolver<Matrix> es(A, vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  SymmetricEigen out{es.eigenvalues(), {}, es.info() == Eigen::Success};
  if (vectors) out.vectors = es.eigenvectors();
  return out;
}

Eigen::VectorXd symmetric_eigenvalues(const Matrix& A) { return symmetric_eigen(A, false).values; }

SymmetricEigen generalized_symmetric_eigen(const Matrix& A, const Matrix& B, bool vectors) {
  const Eigen::GeneralizedSelfAdjointEigenSolver<Matrix> es(
      A, B, (vectors ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly) | Eigen::Ax_lBx);
  SymmetricEigen out{es.eigenvalues(), {}, es.info() == Eigen::Success};
  if (vectors) out.vectors = es.eigenvectors();
  return out;
}

GeneralEigen eigen_solver(const Matrix& A, bool vectors) {
  const Eigen::EigenSolver<Matrix> es(A, vectors);
  GeneralEigen out{es.eigenvalues(), {}, es.info() == Eigen::Success};
  if (vectors) out.vectors = es.eigenvectors();
  return out;
}

}  // namespace dtcrit::linalg
