#pragma once
// The damped limit of the schemes whose dashpots read the backward difference (velocity Verlet as
// LAMMPS runs it, Cundall's leapfrog, symplectic Euler, position Verlet, rigid_small: the registry's
// DashpotVelocity::backward_difference rows). On M a + C v + K x = 0 with K, C symmetric and C positive
// semi-definite they reduce to  M (x+ - 2x + x-) + h C (x - x-) + h^2 K x = 0;  its one-step map has
// the eigenvalue -1 exactly when S(h) = 4M - 2hC - h^2 K is singular, and the first h at which S
// loses positive definiteness is the critical step (derivation: packing/README.md). Found as the
// root of g(h) = lambda(h) - 4, lambda(h) = lambda_max(M^{-1/2}(h^2 K + 2h C)M^{-1/2}), convex and
// increasing in h when K is positive semi-definite too.
//
// The iteration needs lambda(h) only, never its eigenvector: with a Krylov solver the vector costs
// a second pass, and each solve may stop at a loose tolerance while far from the root. Every solve
// narrows a bracket [h_low, h_high] of the root by inequalities that need no derivative
// (s = h' / h, C positive semi-definite; the two marked K also need K positive semi-definite):
//   s <= 1:  lambda(sh) >= s^2 lambda(h)        s >= 1:  lambda(sh) <= s^2 lambda(h)
//   s <= 1:  lambda(sh) <= s lambda(h)  (K)     s >= 1:  lambda(sh) >= s lambda(h)  (K)
// A Ritz value theta never exceeds lambda(h), so the upper end it gives is rigorous. The lower end
// reads theta + r, r the solve's residual bound, which holds if theta belongs to the top eigenvalue
// (no Krylov solver certifies that: packing/README.md, "Precision"); it is taken only from solves at
// the final tolerance. Between the bounds the next h is the root of lambda ~ A h^2 + B h fitted to
// the last two solves (exact for one mode, whatever its damping), started from the scalar limit of
// the undamped top mode, Omega(zeta) / omega_max, Omega(zeta) = 2 (sqrt(1 + zeta^2) - zeta) (right
// of the root: lambda(h0) >= v^T (h0^2 K~ + 2 h0 C~) v = 4 for that mode v; zeta = 0 starts from the
// undamped limit 2 / omega_max, also to the right).
// Used by packings (matrix-free eigensolvers, system/global_system.hpp), the distributed analysis
// (Lanczos or SLEPc over ranks) and pairs and tables (the dense reduced system, below).
#include <functional>
#include <limits>

#include "dtcrit/dynamics/linear_system.hpp"

namespace dtcrit {

struct DampedLimit {
  double h_crit = 0.0;  // h_high: a step at which S(h) is proven indefinite (unstable above it)
  // The lower end of the bracket: S(h) is positive definite below it if every solve found the top
  // eigenvalue (exactly so for dense solves). h_high - h_low <= rtol h_high when converged.
  double h_low = 0.0;
  int iterations = 0;           // eigenvalue solves
  Index operations = 0;         // their operator applications (as the solves report them)
  double lambda_at_root = 0.0;  // the last solve's lambda_max (4 to about rtol)
  // false when the iteration cap was reached before the bracket was rtol wide, or an eigenvalue was
  // not finite (then h_crit and h_low are NaN: no number is reported after a failure)
  bool converged = false;
};

// One solve: lambda_max(M^-1/2 (h^2 K + 2h C) M^-1/2) to a relative residual tolerance (a dense
// solver ignores it): the Ritz value theta and its residual bound r (lambda_max <= theta + r if theta
// belongs to the top eigenvalue; 0 or rounding for a dense solve). NaN theta: the solve failed.
struct TopAtStep {
  double lambda = 0.0;
  double residual = 0.0;
  Index operations = 0;  // operator applications of the solve (0 when not counted)
};
using TopSolve = std::function<TopAtStep(double h, double tolerance)>;

// The bracketed root, to a relative width rtol. stiffness_semidefinite: K is positive semi-definite
// (false with geometric stiffness): the two (K) inequalities above may be used. dashpot_factor f:
// top(h) solves h^2 K + 2f hC instead (a scheme's -1 line rescaled to 4M - 2f hC - h^2 K). f < 0
// means dashpots that stabilise: lambda(h) is then still increasing where positive (lambda(h) / h =
// lambda_max(h K~ - 2|f| C~)) and the two (K) inequalities still hold, but the two C ones do not, so
// the root is bracketed by the (K) ones alone.
DampedLimit half_step_root(double omega_max, double top_mode_zeta, double rtol, const TopSolve& top,
                           bool stiffness_semidefinite = true, double dashpot_factor = 1.0);

// The same on a small LinearSystem (the pair's reduced system: a handful of dofs), with dense
// eigen-solves, to rtol 1e-12; K and C must be symmetric (throws otherwise) and C nonzero.
DampedLimit half_step_damped_limit(const LinearSystem& s);

}  // namespace dtcrit
