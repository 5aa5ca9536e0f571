#pragma once
// Dense eigenproblems: every eigenvalue of a dense real square matrix (general_eigenvalues), and
// Eigen's dense eigensolvers for dynamic-size matrices behind plain functions.
//
// Why LAPACK from order 128 on: the non-symmetric packing analysis needs every eigenvalue of
// matrices of order 2 x dofs (the amplification matrix of the whole packing, its first-order system,
// the -1 crossing's pencil). Eigen's EigenSolver reduces to Hessenberg form and runs the Francis
// double-shift QR unblocked, one Householder reflector at a time: on LAMMPS' 100-sphere granular
// packing (600 dofs) its amplification matrices of order 1200 took tens of seconds each. LAPACK's
// dgeev blocks the reduction and deflates aggressively (and runs on the machine's optimised BLAS):
// results/benchmarks/dense_eigenvalues.md measures both on the same matrices. Below order 128 Eigen
// takes milliseconds and keeps the small systems' results (pairs, single contacts, studies) as they
// were recorded.
#include <optional>

#include "dtcrit/core/types.hpp"

namespace dtcrit::linalg {

// The order from which general_eigenvalues calls LAPACK.
inline constexpr Index lapack_from_order = 128;

// Which solver general_eigenvalues uses at order n, in words ("Eigen::EigenSolver" or
// "LAPACK dgeev"), for the methods the reports print.
const char* general_eigenvalues_solver(Index n);

// The eigenvalues of A (square, finite), in the solver's order; nullopt when the QR iteration did
// not converge. dgeev balances (permutes and scales) first, Eigen's solver does not: callers that
// want it for small matrices balance themselves.
std::optional<Eigen::VectorXcd> general_eigenvalues(const Matrix& A);

// Eigen's solvers for dynamic-size matrices, instantiated in dense_eigenvalues.cpp alone: one place,
// tested, for the dense eigenproblems of the library and the tests. Alone in an object each costs
// 10-13 s of compile time (results/benchmarks/eigen_solver_compile.md), but inside the unity
// batches, which instantiate most of their parts anyway, moving them here saved nothing measurable
// (results/benchmarks/build_eigen_wrappers.md). The arithmetic is Eigen's, unchanged.

struct SymmetricEigen {
  Eigen::VectorXd values;  // ascending
  Matrix vectors;          // columns; empty unless asked for
  bool converged = false;
};
// A x = lambda x for symmetric A (Eigen::SelfAdjointEigenSolver: the lower triangle is read).
SymmetricEigen symmetric_eigen(const Matrix& A, bool vectors);
// Its eigenvalues, ascending (not checked for convergence, as a caller of the class reads them).
Eigen::VectorXd symmetric_eigenvalues(const Matrix& A);
// A x = lambda B x for symmetric A and symmetric positive definite B
// (Eigen::GeneralizedSelfAdjointEigenSolver, by the Cholesky factor of B).
SymmetricEigen generalized_symmetric_eigen(const Matrix& A, const Matrix& B, bool vectors);

struct GeneralEigen {
  Eigen::VectorXcd values;   // in the solver's order
  Eigen::MatrixXcd vectors;  // columns; empty unless asked for
  bool converged = false;
};
// Every eigenvalue of A by Eigen::EigenSolver at any order (general_eigenvalues switches to LAPACK
// from lapack_from_order); with the eigenvectors when asked.
GeneralEigen eigen_solver(const Matrix& A, bool vectors);

}  // namespace dtcrit::linalg
