#pragma once
// Every eigenvalue of a dense real square matrix (no eigenvectors).
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

}  // namespace dtcrit::linalg
