#pragma once
// A proven safe step of a Runge-Kutta scheme (one step is R(hA) on y' = Ay: explicit Euler, RK4) on
// any damped system with symmetric M, K, C, K and C positive semi-definite, from upper bounds of the
// spectra alone: omega_b^2 >= lambda_max(K~), c_b >= lambda_max(C~).
//
// Every eigenvalue s of the first-order system, with eigenvector v (v*Mv = 1), is a root of
// s^2 + cs + k = 0 with k = v*K~v in [0, omega_b^2] and c = v*C~v in [0, c_b]: a complex pair has
// |s| = sqrt(k) <= omega_b and Re s = -c/2 >= -c_b/2, real roots lie in [-c_b, 0]. With
// a = c_b / omega_b and t = h omega_b, every hs lies in the region
//   D(t) = {|z| <= t, -a t / 2 <= Re z <= 0}  union  [-a t, 0],
// and the step is stable where |R| <= 1 on D(t). Light damping (a small) makes D(t) a thin strip
// along the imaginary axis; a >= 2 the whole left half-disc.
#include <string>
#include <vector>

namespace dtcrit {

struct RegionStep {
  double t = 0.0;      // h omega_b of the proven step: h_safe = t / omega_b; 0 when none
  std::string method;  // how it was proven, or why there is none
};

// The largest t (to 0.1 %, rounded down) with |R(z)| <= 1 on D(t), R by its coefficients, lowest
// power first, R(0) = 1; a = c_b / omega_b >= 0. Proven by the maximum modulus principle on the
// boundary of D(t)'s two-dimensional part (the imaginary axis, where |R(iy)|^2 - 1 = y^m Q(y) with
// Q < 0 shown from samples and a Lipschitz bound of Q; the arc |z| = t; the line Re z = -a t / 2)
// and on the real segment beyond it, each from samples and the bound sum k |r_k| t^(k-1) of |R'|
// (up to rounding in double precision).
RegionStep region_step(const std::vector<double>& coefficients, double a);

}  // namespace dtcrit
