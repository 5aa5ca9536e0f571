#include "dtcrit/stability/damped_limit.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit {

DampedLimit half_step_root(double omega_max, double top_mode_zeta, double rtol, const TopSolve& top,
                           bool stiffness_semidefinite, double dashpot_factor) {
  require_positive("omega_max", omega_max);
  require_non_negative("top_mode_zeta", top_mode_zeta);
  if (!(rtol > 0.0 && rtol < 0.1)) fail(fmt::format("damped limit: rtol = {} must lie in (0, 0.1)", rtol));
  if (!std::isfinite(dashpot_factor))
    fail(fmt::format("damped limit: dashpot_factor = {} must be finite", dashpot_factor));
  // Dashpots that stabilise (a -1 line 4M + 2|f| hC - h^2 K): only the two (K) inequalities hold,
  // and they need K positive semi-definite.
  const bool stabilising = dashpot_factor < 0.0;
  if (stabilising && !stiffness_semidefinite)
    fail("damped limit: dashpots that stabilise need K positive semi-definite");
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  DampedLimit out;
  // lambda(2 / omega_max) >= 4 lambda_max(K~) / omega_max^2 >= 4, omega_max a Ritz value (C~ >= 0);
  // with dashpots that stabilise the first solve sets the upper end.
  double lo = 0.0, hi = stabilising ? kInf : 2.0 / omega_max;
  // The start: the scalar limit of the undamped top mode v, where v^T (h^2 K~ + 2f hC~) v = 4 <= lambda(h).
  const double fz = dashpot_factor * top_mode_zeta;
  double h = 2.0 * (std::sqrt(1.0 + fz * fz) - fz) / omega_max;
  double h_prev = kNaN, theta_prev = kNaN;
  // A solve at final_tol moves the bracket's width by about final_tol (theta + r against theta). The
  // first solve is at it too: the start is usually within 1e-6 of the root, and a loose Ritz value
  // (below lambda(h) by about its tolerance) would send the next step the wrong way.
  const double final_tol = 0.25 * rtol;
  double tol = final_tol;
  for (int it = 1; it <= 60; ++it) {
    const TopAtStep t = top(h, tol);
    out.iterations = it;
    out.operations += t.operations;
    out.lambda_at_root = t.lambda;
    const double theta = t.lambda, upper = t.lambda + std::max(t.residual, 0.0);
    // (lambda(h) <= 0 is possible only where the dashpots stabilise, far left of the root)
    if (!std::isfinite(theta) || !std::isfinite(upper) || !(theta > 0.0 || stabilising)) break;
    // Upper ends of the root from theta <= lambda(h): rigorous whatever the tolerance.
    if (stabilising) {
      if (theta >= 4.0) hi = std::min(hi, h);
      else if (theta > 0.0) hi = std::min(hi, h * 4.0 / theta);
    } else {
      hi = std::min(hi, theta >= 4.0 ? h * 2.0 / std::sqrt(theta)
                                     : (stiffness_semidefinite ? h * 4.0 / theta : hi));
    }
    // Lower ends from lambda(h) <= theta + r, only from a solve as tight as the final one.
    if (t.residual <= final_tol * std::abs(theta)) {
      if (upper <= 4.0) lo = std::max(lo, stabilising ? h : h * 2.0 / std::sqrt(upper));
      else if (stiffness_semidefinite) lo = std::max(lo, h * 4.0 / upper);
    }
    // Both ends from one value to rounding can cross by an ulp; more means a solve missed the top.
    if (lo > hi * (1.0 + 1e-12))
      fail(fmt::format("damped limit: the bracket [{}, {}] s is empty (a solve missed the top eigenvalue)", lo, hi));
    lo = std::min(lo, hi);
    if (hi - lo <= rtol * hi) {
      out.converged = true;
      break;
    }
    // The model lambda = A h^2 + B h through the last two solves (one solve: A = omega_max^2, the
    // undamped top mode's), and its root 8 / (B + sqrt(B^2 + 16 A)).
    double A = omega_max * omega_max, B = (theta - A * h * h) / h;
    if (std::isfinite(h_prev) && h_prev != h) {
      A = (theta / h - theta_prev / h_prev) / (h - h_prev);
      B = theta / h - A * h;
    }
    const double d = B * B + 16.0 * A;
    double next = d >= 0.0 && B + std::sqrt(d) > 0.0 ? 8.0 / (B + std::sqrt(d)) : kNaN;
    // Without (K) bounds a solve right of the root gives no lower end: aim just left of it.
    if (!stiffness_semidefinite && lo == 0.0) next *= 1.0 - 0.25 * rtol;
    if (!(next > lo && next < hi)) next = !std::isfinite(hi) ? 2.0 * h : lo > 0.0 ? 0.5 * (lo + hi) : hi;
    if (next == h) next = 0.5 * (lo + hi);
    // The next solve's tolerance: about the square of how far this one was from the root.
    const double miss = std::abs(theta / 4.0 - 1.0);
    tol = std::max(final_tol, std::min(1e-3, miss * miss));
    h_prev = h, theta_prev = theta;
    h = next;
  }
  out.h_crit = out.converged ? hi : kNaN;
  out.h_low = out.converged ? lo : kNaN;
  return out;
}

DampedLimit half_step_damped_limit(const LinearSystem& s) {
  const Vector w = s.mass().cwiseSqrt().cwiseInverse();
  const Matrix K = w.asDiagonal() * Matrix(s.stiffness()) * w.asDiagonal();
  const Matrix C = w.asDiagonal() * Matrix(s.damping()) * w.asDiagonal();
  const double scale = std::max(K.cwiseAbs().maxCoeff(), 1e-300);
  if ((K - K.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale ||
      (C - C.transpose()).cwiseAbs().maxCoeff() > 1e-12 * std::max(C.cwiseAbs().maxCoeff(), 1e-300))
    fail("half_step_damped_limit: K and C must be symmetric");
  const linalg::SymmetricEigen undamped = linalg::symmetric_eigen(K, true);
  const Index top = undamped.values.size() - 1;
  const double omega_max = std::sqrt(std::max(undamped.values[top], 0.0));
  const Vector v0 = undamped.vectors.col(top);
  const double zeta = std::max(0.0, v0.dot(C * v0)) / (2.0 * omega_max);
  // Dense solves are exact to rounding: a residual of 1e-13 lambda covers it at a handful of dofs.
  return half_step_root(omega_max, zeta, 1e-12, [&](double h, double) {
    const double top = linalg::symmetric_eigenvalues(h * h * K + 2.0 * h * C).maxCoeff();
    return TopAtStep{top, 1e-13 * std::abs(top)};
  });
}

}  // namespace dtcrit
