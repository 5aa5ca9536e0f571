#pragma once
// Shared machinery of the implicit schemes: the Newton stopping rule and its report into the
// integrator's SolverStatus, and the linear solve with J = a M + b C + c K.
#include <string_view>
#include <vector>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "dtcrit/core/types.hpp"
#include "dtcrit/dynamics/system.hpp"
#include "dtcrit/integrators/integrator.hpp"

namespace dtcrit::detail {

// Solves J d = r with J = a diag(mass) + b C + c K (K, C the tangent operators of the system).
// Diagonal J (lumped mass, no coupling) is a division; small systems (n <= 64) use a dense LU;
// larger ones a sparse solve. Terms with a zero coefficient are skipped.
//
// Sparse J. The damped explicit-type schemes (central difference, implicit-damping velocity
// Verlet: J = M + h/2 C, h near the explicit limit) give a J close to its diagonal M: a Krylov
// solve (BiCGSTAB, Jacobi preconditioner) reaches the rounding level of J d in a few products,
// where a sparse LU of a 3D packing fills in heavily. It is accepted when its
// residual estimate is below 1e-15 |r|; the Newton loop around it checks the true residual anyway
// (a solve that is less exact costs an iteration, never accuracy). Otherwise (stiff implicit
// schemes at large h, h^2 K dominant) the solver switches to a direct factorisation for the rest
// of its life: an LDL^T when J is exactly symmetric with positive pivots (SPD), else the sparse
// LU. Both keep their symbolic analysis (fill-reducing ordering) for as long as J's pattern fits
// in the analysed one (a contact set that does not grow): J is embedded in that pattern with
// explicit zeros, and only the numeric factorisation is repeated.
class TangentSolver {
 public:
  enum class Kind { diagonal, dense, sparse_iterative, sparse_ldlt, sparse_lu };
  void factor(const Vector& mass, double a, const SparseMatrix& C, double b, const SparseMatrix& K, double c);
  void solve(const Vector& r, Vector& d);
  bool is_diagonal() const { return kind_ == Kind::diagonal; }
  // How the last system was solved, and counters for tests and benchmarks.
  Kind kind() const { return kind_; }
  long analyses() const { return analyses_; }            // symbolic analyses of a direct factorisation
  long factorisations() const { return factorisations_; }  // numeric direct factorisations
  long iterative_solves() const { return iterative_solves_; }
  long refills() const { return refills_; }  // sparse J rewritten in place (C's pattern unchanged)
  // Never try the Krylov solve (the direct path only; for comparisons).
  void set_direct_only(bool on) { direct_only_ = on; }

 private:
  void factor_direct();
  bool refill(const Vector& mass, double a, const SparseMatrix& C, double b);
  void map_refill(const SparseMatrix& C);
  Kind kind_ = Kind::diagonal;
  Vector diagonal_;
  Eigen::PartialPivLU<Matrix> dense_;
  SparseMatrix J_;        // the sparse J, embedded in pattern_ once factored directly
  SparseMatrix pattern_;  // the pattern the direct factorisations were analysed on (zero values)
  bool ldlt_analysed_ = false, lu_analysed_ = false, direct_only_ = false;
  Eigen::BiCGSTAB<SparseMatrix> krylov_;
  Eigen::SimplicialLDLT<SparseMatrix> ldlt_;
  Eigen::SparseLU<SparseMatrix> lu_;
  long analyses_ = 0, factorisations_ = 0, iterative_solves_ = 0, refills_ = 0;
  // J = a M + b C with C's pattern unchanged since the last call: J's values are rewritten in
  // place (c_pattern_: C's outer and inner indices; c_to_j_: where each entry of C sits in J_;
  // diagonal_in_j_: where J's diagonal sits).
  std::vector<int> c_outer_, c_inner_;
  std::vector<Index> c_to_j_, diagonal_in_j_;
  std::vector<bool> has_diagonal_;
};

// The stopping rule shared by every Newton loop of dtcrit, in the mass-weighted norm
// |r|_M = |M^{-1/2} r| (translations and rotations on one energy scale; a plain norm lets a
// rotational residual of 1e-17 N m hide under a translational one, or the reverse).
//
// Converged when |r|_M falls to tol times its first value, or to its rounding floor, or when the
// update falls to tol times the first update (tol = 1e-13 as in De Klerk et al. 2022), or when the
// update no longer changes the unknown (|update| <= 4 eps |unknown|). The rounding floor is derived,
// not tuned: every term of r is computed with a few roundings (16 eps |term| bounds them), and the
// force routine is evaluated at a stored state (x, v) whose every component is already rounded
// (eps |x_i|), so f carries at least |K| eps|x| + |C| eps|v| of noise however the routine computes
// it (a bond force k (L0 - |x_i - x_j|) loses eps k |x| to the subtraction). Componentwise:
//   floor = 16 eps (sum_terms |term| + c_f (|K| |x| + |C| |v|)),   c_f the weight of f in r,
// with K, C the tangent of the latest Newton step (before the first one: the terms alone).
// The residual is always evaluated at the final iterate, so the force routine's last call (and the
// history it leaves for accept_step) belongs to the accepted state.
class NewtonControl {
 public:
  NewtonControl(const Vector& mass, int max_iterations, double tol = 1e-13)
      : mass_(mass), max_iterations_(max_iterations), tol_(tol) {}
  // After a residual evaluation: r and the componentwise magnitude of the terms it is made of.
  bool converged(const Vector& r, const Vector& terms);
  // After a tangent evaluation at the state (x, v) the force is evaluated at, with f weighted by
  // force_weight in r: the force's sensitivity to the rounding of that state.
  void set_state_rounding(const SparseMatrix& K, const Vector& x, const SparseMatrix& C, const Vector& v,
                          double force_weight);
  // The same after a damping() evaluation (schemes whose Newton matrix has no K): the C part now,
  // the K part only when a decision depends on it. Without K the floor can only be lower, so a
  // converged() that passes would pass with K too; one that fails sets needs_stiffness(), and the
  // caller evaluates tangent() at (rounding_x(), rounding_v()), calls set_state_rounding with it
  // and asks again: every decision is the one the full floor gives.
  void set_damping_rounding(const SparseMatrix& C, const Vector& x, const Vector& v, double force_weight);
  bool needs_stiffness() const { return needs_stiffness_; }
  const Vector& rounding_x() const { return rounding_x_; }
  const Vector& rounding_v() const { return rounding_v_; }
  // After a solve: |update| and |unknown| after the update.
  void record_update(double update, double unknown);
  bool exhausted() const { return iterations_ >= max_iterations_; }
  int iterations() const { return iterations_; }
  double residual() const { return residual_; }  // |r|_M of the last check
  double floor() const { return floor_; }        // its rounding floor
  double weighted(const Vector& r) const;         // |M^{-1/2} r|
  // Adds this step to `status`; a step that did not converge is recorded with `what` as the message.
  void report(SolverStatus& status, std::string_view what, bool converged) const;

 private:
  const Vector& mass_;
  int max_iterations_;
  double tol_;
  int iterations_ = 0;
  double first_residual_ = -1.0, residual_ = 0.0, floor_ = 0.0, first_update_ = -1.0, last_update_ = -1.0;
  Vector state_rounding_;  // c_f (|K| |x| + |C| |v|); empty before the first tangent
  bool stalled_ = false;
  bool stiffness_pending_ = false, needs_stiffness_ = false;
  Vector rounding_x_, rounding_v_;  // the state of the last set_damping_rounding
};

// newton.converged(r, terms) for a loop that evaluates MechanicalSystem::damping() instead of
// tangent(): when the decision depends on the stiffness part of the floor, K (and C, overwritten)
// from tangent() at the state of the last damping() call complete it first.
bool converged_with_damping(NewtonControl& newton, const Vector& r, const Vector& terms, MechanicalSystem& sys,
                            double t, double force_weight, SparseMatrix& K, SparseMatrix& C);

}  // namespace dtcrit::detail
