#pragma once
// The largest eigenvalue of a large symmetric operator by the plain three-term Lanczos recurrence
// (no reorthogonalisation, no restarts): three vectors of storage and one operator application per
// step, whatever the number of steps.
//
// Why not only Spectra: its restarted Lanczos reorthogonalises every new vector against the whole
// basis. At 10^5-10^6 spheres those two serial matrix-vector products with the N x ncv basis cost
// more than the operator itself: Spectra needs about as many operator applications (0.8-1.3x) but
// 2.5-10x the time (results/benchmarks/packing.md, lib/dtcrit/packing/README.md).
//
// Finite precision loses orthogonality once a Ritz value converges; this only duplicates converged
// Ritz values ("ghosts") and never moves the largest one above lambda_max by more than rounding
// (Paige 1976, 1980), so the extreme Ritz value and its residual estimate beta_k |s_k| stay valid.
// The eigenvector, when asked for, is rebuilt by a second pass of the same recurrence (k more
// applications, no storage).
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "dtcrit/core/types.hpp"

namespace dtcrit::linalg {

// y = A x for a symmetric A of size n (x and y do not alias).
using SymmetricOperator = std::function<void(const double* x, double* y)>;

struct LanczosOptions {
  // Stop when the Ritz pair's residual |A y - theta y| <= tolerance |theta| (estimated as
  // beta_k |s_k|, the criterion Spectra uses), or when the Krylov space is invariant.
  double tolerance = 1e-6;
  Index max_steps = 20000;
  bool want_vector = false;        // rebuild the Ritz vector (a second pass)
  const Vector* start = nullptr;   // starting vector (warm start); default: seeded random
  std::uint64_t seed = 20161;
  // Called at each convergence check (every step up to 100, then every ~2 %) with the steps so far
  // and the relative residual estimate |A y - theta y| / |theta|; may be empty.
  std::function<void(Index steps, double relative_residual)> progress;
  // With parts > 1 and run_parts set: the recurrence's vector work (a dot product, the update with
  // its norm, the scaling; in the second pass the updates) is split into `parts` contiguous ranges,
  // run_parts(parts, f) calling f(0), ..., f(parts - 1), on threads or not. The ranges' sums are
  // added in range order, so the result does not depend on which thread ran which range; it differs
  // from one range's at rounding level (the sums are grouped differently).
  int parts = 1;
  std::function<void(int parts, const std::function<void(int)>& f)> run_parts;
  // A vector dealt over processes (MPI ranks): each holds `n` entries of a vector of global_size,
  // the operator exchanges what it needs, and sum_over_ranks(values, count) replaces each of the
  // `count` local sums by its sum over every process (MPI_Allreduce). Every process then runs the
  // same recurrence on the same alpha, beta and stops at the same step. Empty: one process.
  std::function<void(double* values, int count)> sum_over_ranks;
  Index global_size = 0;  // 0: n
};

struct LanczosResult {
  double lambda = 0.0;             // largest Ritz value (never above lambda_max, up to rounding)
  double residual_estimate = 0.0;  // beta_k |s_k|
  Vector vector;                   // unit Ritz vector when want_vector, else empty
  Index steps = 0;                 // Lanczos steps (size of the tridiagonal matrix)
  Index operations = 0;            // operator applications (steps, twice with want_vector)
  bool converged = false;
};

// The seeded random start vector of lanczos_largest (without opts.start), entry by entry in order:
// f(i, value) for i = 0, ..., n - 1. A distributed caller keeps its own entries, so that the
// recurrence starts from the same vector on any number of ranks.
template <class F>
void lanczos_start_entries(Index n, std::uint64_t seed, F&& f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (Index i = 0; i < n; ++i) f(i, u(rng));
}

// n: the local size (opts.sum_over_ranks set) or the whole. The vector, when asked for, is this
// process' part of the unit Ritz vector.
LanczosResult lanczos_largest(Index n, const SymmetricOperator& op, const LanczosOptions& opts = {});

// The largest eigenvalue of the symmetric tridiagonal matrix with diagonal alpha (size k) and
// off-diagonal beta (size k - 1), by Sturm-sequence bisection to full precision, and its unit
// eigenvector by inverse iteration (LU with partial pivoting). O(k) per call.
struct TridiagonalTop {
  double theta = 0.0;
  Vector vector;
};
TridiagonalTop tridiagonal_largest(const std::vector<double>& alpha, const std::vector<double>& beta);

}  // namespace dtcrit::linalg
