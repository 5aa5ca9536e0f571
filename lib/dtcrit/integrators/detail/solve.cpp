#include "dtcrit/integrators/detail/solve.hpp"

#include <iostream>
#include <limits>
#include <mutex>
#include <set>
#include <string>

#include "dtcrit/core/check.hpp"

namespace dtcrit::detail {

namespace {
constexpr Index dense_limit = 64;

bool only_diagonal(const SparseMatrix& A) {
  for (Index j = 0; j < A.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(A, j); it; ++it)
      if (it.row() != it.col() && it.value() != 0.0) return false;
  return true;
}
}  // namespace

void TangentSolver::factor(const Vector& mass, double a, const SparseMatrix& C, double b, const SparseMatrix& K,
                           double c) {
  const Index n = mass.size();
  const bool use_C = b != 0.0 && C.nonZeros() > 0, use_K = c != 0.0 && K.nonZeros() > 0;
  if ((use_C && (C.rows() != n || C.cols() != n)) || (use_K && (K.rows() != n || K.cols() != n)))
    fail(fmt::format("tangent operators have the wrong size for {} degrees of freedom", n));
  if ((!use_C || only_diagonal(C)) && (!use_K || only_diagonal(K))) {
    kind_ = Kind::diagonal;
    diagonal_ = a * mass;
    if (use_C) diagonal_ += b * Vector(C.diagonal());
    if (use_K) diagonal_ += c * Vector(K.diagonal());
    return;
  }
  if (n <= dense_limit) {
    kind_ = Kind::dense;
    Matrix J = Matrix::Zero(n, n);
    if (use_C) J += b * Matrix(C);
    if (use_K) J += c * Matrix(K);
    J.diagonal() += a * mass;
    dense_.compute(J);
    return;
  }
  kind_ = Kind::sparse;
  SparseMatrix J(n, n);
  if (use_C) J = b * C;
  if (use_K) J = SparseMatrix(J + c * K);
  SparseMatrix D(n, n);
  D.reserve(Eigen::VectorXi::Constant(n, 1));
  for (Index i = 0; i < n; ++i) D.insert(i, i) = a * mass[i];
  J = SparseMatrix(J + D);
  J.makeCompressed();
  sparse_.compute(J);
  if (sparse_.info() != Eigen::Success) fail("sparse LU of the Newton matrix failed (singular tangent?)");
}

void TangentSolver::solve(const Vector& r, Vector& d) const {
  switch (kind_) {
    case Kind::diagonal: d = r.cwiseQuotient(diagonal_); break;
    case Kind::dense: d = dense_.solve(r); break;
    case Kind::sparse: d = sparse_.solve(r); break;
  }
}

bool NewtonControl::converged(double residual, double scale) {
  if (!(residual == residual)) return false;  // NaN: let the iteration cap decide
  if (residual == 0.0) return true;
  // round-off floor: a residual this close to the rounding of its own terms cannot improve
  const double floor = 16.0 * std::numeric_limits<double>::epsilon() * scale;
  if (first_residual_ < 0.0) {
    first_residual_ = previous_residual_ = residual;
    return residual <= floor;
  }
  // The force routine has its own rounding floor, which `scale` cannot see (a bond force
  // k (L0 - |x_i - x_j|) carries eps k |x| of noise however small the stretch). Newton converges
  // quadratically, so a residual that stops falling for two iterations in a row while the update
  // is already negligible has reached that floor.
  stagnant_ = residual >= 0.5 * previous_residual_ ? stagnant_ + 1 : 0;
  previous_residual_ = residual;
  const bool at_force_floor = stagnant_ >= 2 && last_update_ <= 1e-8 * last_unknown_;
  return stalled_ || at_force_floor || residual <= tol_ * first_residual_ || residual <= floor ||
         (iterations_ >= 2 && last_update_ <= tol_ * first_update_);
}

void NewtonControl::record_update(double update, double unknown) {
  ++iterations_;
  if (first_update_ < 0.0) first_update_ = update;
  last_update_ = update;
  last_unknown_ = unknown;
  stalled_ = update <= 4.0 * std::numeric_limits<double>::epsilon() * unknown;
}

void warn_once(std::string_view key, std::string_view message) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> warned;
  std::lock_guard lock(mutex);
  if (warned.find(key) != warned.end()) return;
  warned.emplace(key);
  std::cerr << "dtcrit warning: " << message << " (reported once)\n";
}

}  // namespace dtcrit::detail
