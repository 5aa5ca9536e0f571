#pragma once
// Shared machinery of the implicit schemes: the Newton stopping rule, the linear solve with
// J = a M + b C + c K, and the once-per-process warning when Newton does not converge.
#include <string_view>

#include <Eigen/SparseLU>
#include <Eigen/LU>

#include "dtcrit/core/types.hpp"

namespace dtcrit::detail {

// Solves J d = r with J = a diag(mass) + b C + c K (K, C the tangent operators of the system).
// Diagonal J (lumped mass, no coupling) is a division; small systems (n <= 64) use a dense LU;
// larger ones a sparse LU. Terms with a zero coefficient are skipped.
class TangentSolver {
 public:
  void factor(const Vector& mass, double a, const SparseMatrix& C, double b, const SparseMatrix& K, double c);
  void solve(const Vector& r, Vector& d) const;
  bool is_diagonal() const { return kind_ == Kind::diagonal; }

 private:
  enum class Kind { diagonal, dense, sparse };
  Kind kind_ = Kind::diagonal;
  Vector diagonal_;
  Eigen::PartialPivLU<Matrix> dense_;
  Eigen::SparseLU<SparseMatrix> sparse_;
};

// The stopping rule shared by every Newton loop of dtcrit: converged when the residual falls to
// tol times its first value, or to the round-off of the terms it is made of (16 eps |terms|:
// a tolerance relative to the terms, not to the first residual, would accept real residuals
// when the initial guess is already close, e.g. at the tiny steps of a stability scan), or when the
// update falls to tol times the first update (tol = 1e-13 as in De Klerk et al. 2022), or when
// the update no longer changes the unknown (|update| <= 4 eps |unknown|: round-off, nothing left
// to gain), or when the residual has stopped falling for two iterations with a negligible update
// (the rounding floor of the force routine itself). The residual is always evaluated at the final iterate, so the force routine's last
// call (and the history it leaves for accept_step) belongs to the accepted state.
class NewtonControl {
 public:
  explicit NewtonControl(int max_iterations, double tol = 1e-13) : max_iterations_(max_iterations), tol_(tol) {}
  // After a residual evaluation: |R| and the size of the terms that make up R.
  bool converged(double residual, double scale);
  // After a solve: |update| and |unknown| after the update.
  void record_update(double update, double unknown);
  bool exhausted() const { return iterations_ >= max_iterations_; }
  int iterations() const { return iterations_; }

 private:
  int max_iterations_;
  double tol_;
  int iterations_ = 0;
  double first_residual_ = -1.0, first_update_ = -1.0, last_update_ = -1.0;
  double previous_residual_ = -1.0, last_unknown_ = 0.0;
  int stagnant_ = 0;
  bool stalled_ = false;
};

// Print `message` to stderr the first time `key` warns in this process.
void warn_once(std::string_view key, std::string_view message);

}  // namespace dtcrit::detail
