#pragma once
// A certificate for a symmetric packing's limit: the limit comes from the Lanczos omega_max, a lower
// bound of the true one, so it could only be too large. Sylvester's law of inertia turns that into a
// proof: if a M + b C + c K admits a Cholesky factorisation, it is positive definite, and no mode
// crosses the criterion up to the step it encodes. One sparse factorisation per criterion.
#include <string>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/system/global_system.hpp"

namespace dtcrit::packing {

struct Certificate {
  bool attempted = false;  // false: above the size limit (or not a symmetric system)
  bool holds = false;      // every matrix factorised: the step below is proven
  double step = 0.0;       // the proven step [s] (criterion-dependent: see the functions)
  double seconds = 0.0;    // time of the factorisations
  std::string method;      // what was factorised, for the report
};

// Relative margin of the certificates: the criterion is checked this far beyond the computed limit,
// far above the Lanczos tolerance (1e-8 on omega^2) and the rounding of a Cholesky factorisation
// (of order dofs x 1e-16 relative to the matrix: 1e-10 at 10^6 dofs).
inline constexpr double certificate_margin = 1e-6;

// Whether a M + b C + c K (M diagonal, K and C assembled; symmetric systems only) has a Cholesky
// factorisation, i.e. is positive definite.
bool positive_definite(const GlobalSystem& sys, double a, double b, double c);

// omega_max^2 (1 + margin) M - K positive definite: every eigenvalue of M^-1 K lies below
// omega_cert^2 = omega_max^2 (1 + margin); step = 1 / omega_cert (multiply by an integrator's
// Omega_crit for its certified undamped step; 2 / omega_cert for damped dashpots at v_{n+1}).
Certificate certify_omega_max(const GlobalSystem& sys, double omega_max);

// A -1 line 4M - d hC - s h^2 K (registry.hpp MinusOneLine; K and C symmetric, positive
// semi-definite): with h = h_crit (1 - margin), 4M - d hC - s h^2 K and 4M - d hC positive definite.
// Then x^T (4M - d tC - s t^2 K) x > 0 for every t <= h and x: for d >= 0 it decreases in t where
// x^T K x >= 0 (s >= 0) and is at least x^T (4M - d tC) x where that is negative; for d < 0 (dashpots that
// stabilise) x^T (4M/t - d C - s t K) x decreases in t where x^T K x >= 0 and every term is positive
// where it is negative. So no -1 crossing up to step = h.
Certificate certify_minus_one_line(const GlobalSystem& sys, double h_crit, const MinusOneLine& line);
// Dashpots at (x_n - x_{n-1}) / h: the line (2, 1), 4M - 2hC - h^2 K.
Certificate certify_half_step(const GlobalSystem& sys, double h_crit);

}  // namespace dtcrit::packing
