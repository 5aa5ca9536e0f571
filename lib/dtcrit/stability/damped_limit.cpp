#include "dtcrit/stability/damped_limit.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

DampedLimit half_step_newton(double omega_max, double top_mode_zeta,
                             const std::function<TopAtStep(double h, bool want_slope)>& top) {
  require_positive("omega_max", omega_max);
  require_non_negative("top_mode_zeta", top_mode_zeta);
  DampedLimit out;
  const double h_max = 2.0 / omega_max;  // the undamped limit bounds the damped one
  double h = 2.0 * (std::sqrt(1.0 + top_mode_zeta * top_mode_zeta) - top_mode_zeta) / omega_max;
  // First derivative: that of the top mode's own Rayleigh quotient v0^T (h^2 K~ + 2h C~) v0, exact
  // when damping does not mix the modes; later ones from the eigenvector at h while steps are large.
  double dg = 2.0 * h * omega_max * omega_max + 4.0 * top_mode_zeta * omega_max;
  bool fresh_derivative = false;
  for (int it = 1; it <= 60; ++it) {
    // Once the steps are below 1e-6 h the last derivative is kept: g' changes by O(step) and its
    // error enters the next step squared.
    const TopAtStep t = top(h, fresh_derivative);
    out.iterations = it;
    out.lambda_at_root = t.lambda;
    const double g = t.lambda - 4.0;
    if (!std::isfinite(g)) break;  // NaN guard: not converged, h_crit NaN below
    if (fresh_derivative) {
      dg = t.slope;
      if (std::isnan(dg)) break;
      if (!(dg > 0.0)) fail("damped limit: lambda_max(h^2 K + 2h C) does not grow with h");
    }
    const double step = g / dg;
    // Convex and increasing: from the right (g >= 0) Newton moves left and never passes the root.
    // g < 0 (a start or a Ritz value just left of it) moves right, past the root, at most to h_max.
    const double h_new = g >= 0.0 ? std::clamp(h - step, 0.5 * h, h) : std::min(h - step, h_max);
    const bool done = std::abs(h_new - h) <= 1e-12 * h;
    fresh_derivative = std::abs(h_new - h) > 1e-6 * h;
    h = h_new;
    if (done) {
      out.converged = std::isfinite(h) && h > 0.0;
      break;
    }
  }
  out.h_crit = out.converged ? h : std::numeric_limits<double>::quiet_NaN();
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
  const Eigen::SelfAdjointEigenSolver<Matrix> undamped(K);
  const Index top = undamped.eigenvalues().size() - 1;
  const double omega_max = std::sqrt(std::max(undamped.eigenvalues()[top], 0.0));
  const Vector v0 = undamped.eigenvectors().col(top);
  const double zeta = std::max(0.0, v0.dot(C * v0)) / (2.0 * omega_max);
  return half_step_newton(omega_max, zeta, [&](double h, bool want_slope) {
    const Eigen::SelfAdjointEigenSolver<Matrix> es(h * h * K + 2.0 * h * C);
    const Index t = es.eigenvalues().size() - 1;
    TopAtStep out;
    out.lambda = es.eigenvalues()[t];
    if (want_slope) {
      const Vector v = es.eigenvectors().col(t);
      out.slope = v.dot((2.0 * h * K + 2.0 * C) * v);
    }
    return out;
  });
}

}  // namespace dtcrit
