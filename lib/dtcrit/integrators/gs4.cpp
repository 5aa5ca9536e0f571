#include "dtcrit/integrators/gs4.hpp"

#include <cmath>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

GS4Coefficients newmark_coefficients(double beta, double gamma) {
  return {fmt::format("newmark(beta={},gamma={})", beta, gamma), 1.0, 0.5, beta, 1.0, gamma, 1.0, 1.0,
          1.0, 0.5, beta, 1.0, gamma};
}

GS4Coefficients central_difference_coefficients() {
  GS4Coefficients c = newmark_coefficients(0.0, 0.5);
  c.name = "central_difference";
  return c;
}

GS4Coefficients hht_coefficients(double alpha) {
  const double gamma = 0.5 * (1.0 - 2.0 * alpha), beta = 0.25 * (1.0 - alpha) * (1.0 - alpha), w = 1.0 + alpha;
  return {fmt::format("hht(alpha={})", alpha), w, 0.5 * w, w * beta, w, w * gamma, 1.0, w,
          1.0, 0.5, beta, 1.0, gamma};
}

GS4Coefficients generalized_alpha_coefficients(double rho) {
  const double am = (2.0 * rho - 1.0) / (rho + 1.0), af = rho / (rho + 1.0);
  const double gamma = 0.5 - am + af, beta = 0.25 * (1.0 - am + af) * (1.0 - am + af), w = 1.0 - af;
  return {fmt::format("generalized_alpha(rho_inf={})", rho), w, 0.5 * w, w * beta, w, w * gamma, 1.0 - am, w,
          1.0, 0.5, beta, 1.0, gamma};
}

GS4Coefficients gs4_u0_coefficients(double r, double rs, double rss) {
  const double D = (1.0 + r) * (1.0 + rs) * (1.0 + rss);
  const double w = 1.0 / (1.0 + rss);
  const double l3 = 1.0 / ((1.0 + r) * (1.0 + rs));
  const double l5 = (3.0 + r + rs - r * rs) / (2.0 * (1.0 + r) * (1.0 + rs));
  return {fmt::format("gs4_u0(rho={},rho_s={},rho_ss={})", r, rs, rss),
          w, 0.5 * w, 1.0 / D, w, (3.0 + r + rs - r * rs) / (2.0 * D), (2.0 + r + rs + rss - r * rs * rss) / D, w,
          1.0, 0.5, l3, 1.0, l5};
}

GS4Coefficients gs4_v0_coefficients(double r, double rs, double rss) {
  const double D = (1.0 + r) * (1.0 + rs) * (1.0 + rss);
  const double w = (3.0 + r + rs - r * rs) / (2.0 * (1.0 + r) * (1.0 + rs));
  return {fmt::format("gs4_v0(rho={},rho_s={},rho_ss={})", r, rs, rss),
          w, 1.0 / ((1.0 + r) * (1.0 + rs)), 1.0 / D, w, 2.0 / D, (2.0 + r + rs + rss - r * rs * rss) / D, w,
          1.0, 0.5, 1.0 / (2.0 * (1.0 + rss)), 1.0, 1.0 / (1.0 + rss)};
}

GS4Integrator::GS4Integrator(GS4Coefficients c) : BlockStateIntegrator(c.name, {&x_, &v_, &a_}), c_(std::move(c)) {
  for (double v : {c_.L1W1, c_.L2W2, c_.L3W3, c_.L4W1, c_.L5W2, c_.L6W1, c_.W1, c_.l1, c_.l2, c_.l3, c_.l4, c_.l5})
    require_finite(c_.name + " coefficient", v);
  if (!(c_.L6W1 > 0.0)) fail(fmt::format("{}: Λ6W1 = {} must be positive", c_.name, c_.L6W1));
}

void GS4Integrator::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  sys.force(t0, x_, v_, f_);
  a_ = accel(f_);
}

void GS4Integrator::step(MechanicalSystem& sys) {
  const double h = step_size(), tw = time() + c_.W1 * h;
  // the part of the weighted state that does not depend on Δa
  const Vector x0 = x_ + c_.L1W1 * h * v_ + c_.L2W2 * h * h * a_;
  const Vector v0 = v_ + c_.L4W1 * h * a_;
  da_.setZero(dofs_);
  if (c_.L3W3 == 0.0 && c_.L5W2 == 0.0) {
    // explicit member: f does not depend on Δa
    sys.force(tw, x0, v0, f_);
    da_ = (accel(f_) - a_) / c_.L6W1;
  } else {
    detail::NewtonControl newton(mass_, 50);
    bool converged = false;
    const bool damping_only = c_.L3W3 == 0.0;
    while (true) {
      xt_ = x0 + c_.L3W3 * h * h * da_;
      vt_ = v0 + c_.L5W2 * h * da_;
      at_ = a_ + c_.L6W1 * da_;
      sys.force(tw, xt_, vt_, f_);
      r_ = mass_.cwiseProduct(at_) - f_;
      terms_ = mass_.cwiseProduct(a_.cwiseAbs() + c_.L6W1 * da_.cwiseAbs()) + f_.cwiseAbs();
      // Λ3W3 = 0 (central difference, Newmark β = 0): J has no K term, damping() alone (K only if
      // the convergence floor needs it)
      converged = damping_only ? detail::converged_with_damping(newton, r_, terms_, sys, tw, 1.0, K_, C_)
                               : newton.converged(r_, terms_);
      if (converged || newton.exhausted()) break;
      if (damping_only) {
        sys.damping(tw, xt_, vt_, C_);
        newton.set_damping_rounding(C_, xt_, vt_, 1.0);
      } else {
        sys.tangent(tw, xt_, vt_, K_, C_);
        newton.set_state_rounding(K_, xt_, C_, vt_, 1.0);
      }
      solver_.factor(mass_, c_.L6W1, C_, c_.L5W2 * h, K_, c_.L3W3 * h * h);
      solver_.solve(r_, d_);
      da_ -= d_;
      newton.record_update(d_.norm(), da_.norm() + a_.norm());
    }
    newton.report(solver_status_, c_.name, converged);
  }
  x_ += c_.l1 * h * v_ + c_.l2 * h * h * a_ + c_.l3 * h * h * da_;
  v_ += c_.l4 * h * a_ + c_.l5 * h * da_;
  a_ += da_;
  tick();
  sys.accept_step();
}

}  // namespace dtcrit
