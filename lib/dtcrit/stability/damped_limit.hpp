#pragma once
// The damped limit of the schemes whose dashpots read the backward difference (velocity Verlet as
// LAMMPS runs it, Cundall's leapfrog, symplectic Euler, position Verlet, rigid_small: the registry's
// DashpotVelocity::backward_difference rows). On M a + C v + K x = 0 with K, C symmetric positive
// semi-definite they reduce to  M (x+ - 2x + x-) + h C (x - x-) + h^2 K x = 0;  its one-step map has
// the eigenvalue -1 exactly when S(h) = 4M - 2hC - h^2 K is singular, and the first h at which S
// loses positive definiteness is the critical step (derivation: packing/README.md). Found as the
// root of lambda_max(M^{-1/2}(h^2 K + 2h C)M^{-1/2}) = 4 by Newton's method (the function is convex
// and increasing in h) from h0 = Omega(zeta) / omega_max, Omega(zeta) = 2 (sqrt(1 + zeta^2) - zeta),
// with zeta = v^T C~ v / (2 omega_max) of the undamped top mode v: the scalar limit of that mode, to
// the right of the root because lambda_max(h0^2 K~ + 2 h0 C~) >= v^T (h0^2 K~ + 2 h0 C~) v =
// Omega^2 + 4 zeta Omega = 4. zeta = 0 starts from 2 / omega_max, also to the right.
// Used by packings (matrix-free eigensolvers, system/global_system.hpp), the distributed analysis
// (SLEPc) and pairs and tables (the dense reduced system, below).
#include <functional>
#include <limits>

#include "dtcrit/dynamics/linear_system.hpp"

namespace dtcrit {

struct DampedLimit {
  double h_crit = 0.0;
  int iterations = 0;
  double lambda_at_root = 0.0;  // lambda_max at h_crit (4 up to the tolerance)
  // false when the iteration cap was reached before two iterates agreed to 1e-12, or an eigenvalue
  // or a derivative was not finite (then h_crit is NaN: no number is reported after a failure)
  bool converged = false;
};

// The Newton iteration on any eigensolver: top(h, want_slope) returns lambda_max(M^-1/2 (h^2 K + 2h C)
// M^-1/2) and, when want_slope, the derivative v^T M^-1/2 (2h K + 2 C) M^-1/2 v at its unit top
// eigenvector v (else NaN). For a damped system.
struct TopAtStep {
  double lambda = 0.0;
  double slope = std::numeric_limits<double>::quiet_NaN();
};
DampedLimit half_step_newton(double omega_max, double top_mode_zeta,
                             const std::function<TopAtStep(double h, bool want_slope)>& top);

// The same on a small LinearSystem (the pair's reduced system: a handful of dofs), with dense
// eigen-solves; K and C must be symmetric (throws otherwise) and C nonzero.
DampedLimit half_step_damped_limit(const LinearSystem& s);

}  // namespace dtcrit
