#pragma once
// Variational integrator of De Klerk et al. (2022) (Kane, Marsden, Ortiz & West 2000), with the
// discrete Lagrangian L_d = (1/2h)(q+ - q)ᵀ M (q+ - q) - h V((1-α) q + α q+).
//
// Residual for q+ (paper eq. 29) and momentum update (eq. 31), written with the total force f:
//   R(q+) = p - M (q+ - q)/h + h (1-α) f(t + α h, q_α, p/M) = 0,   q_α = (1-α) q + α q+
//   p+    = M (q+ - q)/h + h α f(t + α h, q_α, p/M)
// Dashpots (the velocity-dependent part of f) see the start-of-step velocity p/M. Our brief says
// the authors' companion code does this; we could not find that code to confirm it. The paper's
// eq. (29) itself splits the dashpot half at the discrete velocity (q+ - q)/h and half at p/M,
// outside the (1 - α) weight, and its eq. (31) has no dashpot term: that variant is not
// implemented here.
//
// Newton as the paper's Algorithm 1: initial guess q+ = q + h M^{-1} p; each iteration solves
// (M + h² α(1-α) K) Δq = h R with Eigen's ConjugateGradient on the symmetric part of the tangent;
// stop when |R| or |Δq| falls to 1e-13 of its first value (or R reaches round-off of its terms);
// at most 200 iterations, then a warning on stderr (once per process) and the last iterate is kept.
// α(1-α) = 0 makes the step explicit (α = 0: q+ = q + h M^{-1}(p + h f(q, p/M)), one force call).
//
// State (q, p) with p the momentum; velocity() = p/M at time() (for α = 0, p_n/M is the backward
// difference (q_n - q_{n-1})/h, so velocities are first order there). start(): p0 = M v0.
#include "dtcrit/integrators/block_state.hpp"

#include <Eigen/IterativeLinearSolvers>

namespace dtcrit {

class VariationalIntegrator final : public BlockStateIntegrator {
 public:
  explicit VariationalIntegrator(double alpha);  // alpha in [0, 1]
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;
  Vector velocity() const override { return minv_.cwiseProduct(p_); }
  double alpha() const { return alpha_; }
  // Newton iterations of the last step (0 for the explicit cases).
  int last_iterations() const { return last_iterations_; }

  static constexpr int max_iterations = 200;
  static constexpr double tolerance = 1e-13;

 private:
  double alpha_;
  Vector p_, dq_, qa_, vs_, r_, d_, rhs_;
  SparseMatrix K_, C_, J_;
  Eigen::ConjugateGradient<SparseMatrix, Eigen::Lower | Eigen::Upper> cg_;
  int last_iterations_ = 0;
};

}  // namespace dtcrit
