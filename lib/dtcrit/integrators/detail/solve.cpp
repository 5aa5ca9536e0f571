#include "dtcrit/integrators/detail/solve.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>

#include "dtcrit/core/check.hpp"

namespace dtcrit::detail {

namespace {
constexpr Index dense_limit = 64;
// BiCGSTAB's own residual estimate |J d - r| / |r| at which a Krylov solve is accepted, and the
// products it may take before the direct path takes over (a 3D packing at the explicit limit: ~15).
constexpr double krylov_tolerance = 1e-15;
constexpr int krylov_max_iterations = 60;

// Exactly symmetric (values compared bit for bit): J and its transpose, both compressed column-major
// with sorted indices, store the same arrays.
bool is_symmetric(const SparseMatrix& J) {
  const SparseMatrix T = J.transpose();
  const auto nnz = static_cast<std::size_t>(J.nonZeros());
  return T.nonZeros() == J.nonZeros() &&
         std::equal(J.outerIndexPtr(), J.outerIndexPtr() + J.outerSize() + 1, T.outerIndexPtr()) &&
         std::equal(J.innerIndexPtr(), J.innerIndexPtr() + nnz, T.innerIndexPtr()) &&
         std::equal(J.valuePtr(), J.valuePtr() + nnz, T.valuePtr());
}

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
  if (!use_K && use_C && !direct_only_ && refill(mass, a, C, b)) {
    krylov_.compute(J_);
    return;
  }
  c_outer_.clear();  // J_ is assembled afresh: the refill map is rebuilt below, or stays invalid
  SparseMatrix sum(n, n);
  if (use_C) sum = b * C;
  if (use_K) sum = SparseMatrix(sum + c * K);
  SparseMatrix D(n, n);
  D.reserve(Eigen::VectorXi::Constant(n, 1));
  for (Index i = 0; i < n; ++i) D.insert(i, i) = a * mass[i];
  J_ = sum + D;
  J_.makeCompressed();
  if (direct_only_) {
    factor_direct();
    return;
  }
  if (!use_K && use_C) map_refill(C);
  kind_ = Kind::sparse_iterative;
  krylov_.setTolerance(krylov_tolerance);
  krylov_.setMaxIterations(krylov_max_iterations);
  krylov_.compute(J_);
}

// J = b C + a M in J_'s kept pattern, when C has the pattern map_refill saw: the values Eigen's
// sum (b C) + D gives, entry by entry (an entry of one operand only is that operand plus zero).
bool TangentSolver::refill(const Vector& mass, double a, const SparseMatrix& C, double b) {
  const auto n = static_cast<std::size_t>(C.outerSize());
  const auto nnz = static_cast<std::size_t>(C.nonZeros());
  if (kind_ != Kind::sparse_iterative || !C.isCompressed() || c_outer_.size() != n + 1 || c_inner_.size() != nnz ||
      J_.rows() != C.rows() || !std::equal(c_outer_.begin(), c_outer_.end(), C.outerIndexPtr()) ||
      !std::equal(c_inner_.begin(), c_inner_.end(), C.innerIndexPtr()))
    return false;
  double* j = J_.valuePtr();
  const double* c = C.valuePtr();
  for (std::size_t k = 0; k < nnz; ++k) j[c_to_j_[k]] = b * c[k] + 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Index d = diagonal_in_j_[i];
    j[d] = (d >= 0 && has_diagonal_[i] ? j[d] : 0.0) + a * mass[static_cast<Index>(i)];
  }
  ++refills_;
  return true;
}

void TangentSolver::map_refill(const SparseMatrix& C) {
  c_outer_.clear();
  c_inner_.clear();
  if (!C.isCompressed() || !J_.isCompressed()) return;
  const Index n = C.outerSize();
  c_outer_.assign(C.outerIndexPtr(), C.outerIndexPtr() + n + 1);
  c_inner_.assign(C.innerIndexPtr(), C.innerIndexPtr() + C.nonZeros());
  c_to_j_.assign(static_cast<std::size_t>(C.nonZeros()), -1);
  diagonal_in_j_.assign(static_cast<std::size_t>(n), -1);
  has_diagonal_.assign(static_cast<std::size_t>(n), false);
  const int* jo = J_.outerIndexPtr();
  const int* ji = J_.innerIndexPtr();
  for (Index col = 0; col < n; ++col) {
    Index p = jo[col];
    for (Index k = c_outer_[col]; k < c_outer_[col + 1]; ++k) {
      while (p < jo[col + 1] && ji[p] < c_inner_[k]) ++p;
      if (p == jo[col + 1] || ji[p] != c_inner_[k]) {  // not J's pattern after all: no refills
        c_outer_.clear();
        return;
      }
      c_to_j_[k] = p;
      if (c_inner_[k] == col) has_diagonal_[col] = true;
    }
    for (Index q = jo[col]; q < jo[col + 1]; ++q)
      if (ji[q] == col) diagonal_in_j_[col] = q;
    if (diagonal_in_j_[col] < 0) {
      c_outer_.clear();
      return;
    }
  }
}

void TangentSolver::factor_direct() {
  // Embed J in the analysed pattern: adding the zeros of pattern_ changes no value, and J fits
  // when the union has no more entries than pattern_. A pattern grown to twice J's size (contacts
  // long gone) is started afresh.
  SparseMatrix embedded = pattern_.rows() == J_.rows() ? SparseMatrix(pattern_ + J_) : J_;
  const bool fits = pattern_.rows() == J_.rows() && embedded.nonZeros() == pattern_.nonZeros() &&
                    pattern_.nonZeros() <= 2 * J_.nonZeros();
  if (!fits) {
    embedded = J_;
    pattern_ = J_;
    pattern_.coeffs().setZero();
    ldlt_analysed_ = lu_analysed_ = false;
  }
  J_ = std::move(embedded);
  J_.makeCompressed();
  ++factorisations_;
  if (is_symmetric(J_)) {
    if (!ldlt_analysed_) {
      ldlt_.analyzePattern(J_);
      ldlt_analysed_ = true;
      ++analyses_;
    }
    ldlt_.factorize(J_);
    // all pivots positive: J is SPD and the unpivoted LDL^T is backward stable
    if (ldlt_.info() == Eigen::Success && (ldlt_.vectorD().array() > 0.0).all()) {
      kind_ = Kind::sparse_ldlt;
      return;
    }
  }
  kind_ = Kind::sparse_lu;
  if (!lu_analysed_) {
    lu_.analyzePattern(J_);
    lu_analysed_ = true;
    ++analyses_;
  }
  lu_.factorize(J_);
  if (lu_.info() != Eigen::Success) fail("sparse LU of the Newton matrix failed (singular tangent?)");
}

void TangentSolver::solve(const Vector& r, Vector& d) {
  switch (kind_) {
    case Kind::diagonal: d = r.cwiseQuotient(diagonal_); return;
    case Kind::dense: d = dense_.solve(r); return;
    case Kind::sparse_iterative:
      d = krylov_.solve(r);
      if (krylov_.info() == Eigen::Success && krylov_.error() <= krylov_tolerance && d.allFinite()) {
        ++iterative_solves_;
        return;
      }
      // not converged: J is not close enough to its diagonal; factor it, now and from now on
      direct_only_ = true;
      factor_direct();
      break;
    default: break;
  }
  d = kind_ == Kind::sparse_ldlt ? Vector(ldlt_.solve(r)) : Vector(lu_.solve(r));
}

double NewtonControl::weighted(const Vector& r) const { return r.cwiseQuotient(mass_.cwiseSqrt()).norm(); }

bool NewtonControl::converged(const Vector& r, const Vector& terms) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  residual_ = weighted(r);
  floor_ = 16.0 * eps * weighted(state_rounding_.size() == terms.size() ? Vector(terms + state_rounding_) : terms);
  if (!std::isfinite(residual_)) return false;  // NaN: let the iteration cap decide (and report it)
  if (first_residual_ < 0.0) first_residual_ = residual_;
  const bool yes = residual_ <= floor_ || residual_ <= tol_ * first_residual_ || stalled_ ||
                   (iterations_ >= 2 && last_update_ <= tol_ * first_update_);
  needs_stiffness_ = !yes && stiffness_pending_;
  return yes;
}

void NewtonControl::set_damping_rounding(const SparseMatrix& C, const Vector& x, const Vector& v, double force_weight) {
  // |C| |v| summed as Eigen's column-major product sums it (column by column, from zero), without
  // the temporaries of C.cwiseAbs() * v.cwiseAbs()
  state_rounding_ = Vector::Zero(x.size());
  const bool compressed = C.isCompressed();
  for (Index j = 0; j < C.outerSize(); ++j) {
    const double vj = std::abs(v[j]);
    if (compressed) {
      const int* inner = C.innerIndexPtr();
      const double* val = C.valuePtr();
      for (Index k = C.outerIndexPtr()[j]; k < C.outerIndexPtr()[j + 1]; ++k) state_rounding_[inner[k]] += std::abs(val[k]) * vj;
    } else {
      for (SparseMatrix::InnerIterator it(C, j); it; ++it) state_rounding_[it.row()] += std::abs(it.value()) * vj;
    }
  }
  state_rounding_ *= std::abs(force_weight);
  rounding_x_ = x;
  rounding_v_ = v;
  stiffness_pending_ = true;
}

void NewtonControl::set_state_rounding(const SparseMatrix& K, const Vector& x, const SparseMatrix& C, const Vector& v,
                                       double force_weight) {
  stiffness_pending_ = needs_stiffness_ = false;
  state_rounding_ = Vector::Zero(x.size());
  if (K.nonZeros() > 0) state_rounding_ += K.cwiseAbs() * x.cwiseAbs();
  if (C.nonZeros() > 0) state_rounding_ += C.cwiseAbs() * v.cwiseAbs();
  state_rounding_ *= std::abs(force_weight);
}

bool converged_with_damping(NewtonControl& newton, const Vector& r, const Vector& terms, MechanicalSystem& sys,
                            double t, double force_weight, SparseMatrix& K, SparseMatrix& C) {
  if (newton.converged(r, terms)) return true;
  if (!newton.needs_stiffness()) return false;
  sys.tangent(t, newton.rounding_x(), newton.rounding_v(), K, C);
  newton.set_state_rounding(K, newton.rounding_x(), C, newton.rounding_v(), force_weight);
  return newton.converged(r, terms);
}

void NewtonControl::record_update(double update, double unknown) {
  ++iterations_;
  if (first_update_ < 0.0) first_update_ = update;
  last_update_ = update;
  stalled_ = update <= 4.0 * std::numeric_limits<double>::epsilon() * unknown;
}

void NewtonControl::report(SolverStatus& status, std::string_view what, bool converged) const {
  ++status.steps;
  status.max_iterations = std::max(status.max_iterations, iterations_);
  if (converged) return;
  ++status.unconverged_steps;
  status.worst_residual = std::max(status.worst_residual, floor_ > 0.0 ? residual_ / floor_ : residual_);
  if (status.first_failure.empty())
    status.first_failure = fmt::format("{}: Newton did not converge in {} iterations (mass-weighted residual {:.3g}, "
                                       "{:.3g} times its rounding floor)",
                                       what, iterations_, residual_, floor_ > 0.0 ? residual_ / floor_ : 0.0);
}

}  // namespace dtcrit::detail
