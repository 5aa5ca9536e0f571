#include "dtcrit/integrators/variational.hpp"

#include "dtcrit/core/check.hpp"
#include "dtcrit/integrators/detail/solve.hpp"

namespace dtcrit {

VariationalIntegrator::VariationalIntegrator(double alpha)
    : BlockStateIntegrator(fmt::format("variational(alpha={})", alpha), {&x_, &p_}), alpha_(alpha) {
  require_in_range("variational alpha", alpha, 0.0, 1.0);
}

void VariationalIntegrator::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  p_ = mass_.cwiseProduct(v0);
}

void VariationalIntegrator::step(MechanicalSystem& sys) {
  // The unknown is the increment dq = q+ - q (not q+): the momentum M dq / h then carries no
  // cancellation error, which at small h would swamp everything else.
  const double h = step_size(), ta = time() + alpha_ * h, a = alpha_;
  vs_ = minv_.cwiseProduct(p_);  // the dashpots' velocity, p/M
  last_iterations_ = 0;
  if (a * (1.0 - a) == 0.0) {
    // explicit: R does not depend on f(q+) (alpha = 0) or f(q+) does not enter R (alpha = 1)
    if (a == 0.0) {
      sys.force(ta, x_, vs_, f_);
      dq_ = h * minv_.cwiseProduct(p_ + h * f_);
    } else {
      dq_ = h * vs_;
      qa_ = x_ + dq_;
      sys.force(ta, qa_, vs_, f_);
    }
  } else {
    dq_ = h * vs_;
    detail::NewtonControl newton(mass_, max_iterations, tolerance);
    bool converged = false, cg_failed = false;
    while (true) {
      qa_ = x_ + a * dq_;
      sys.force(ta, qa_, vs_, f_);
      const Vector inertia = mass_.cwiseProduct(dq_) / h;
      r_ = p_ - inertia + h * (1.0 - a) * f_;
      const Vector terms = p_.cwiseAbs() + inertia.cwiseAbs() + h * (1.0 - a) * f_.cwiseAbs();
      if ((converged = newton.converged(r_, terms)) || newton.exhausted() || cg_failed) break;
      sys.tangent(ta, qa_, vs_, K_, C_);
      newton.set_state_rounding(K_, qa_, C_, vs_, h * (1.0 - a));
      // (M + h² α(1-α) K_sym) d = h R
      J_ = (0.5 * h * h * a * (1.0 - a)) * (K_ + SparseMatrix(K_.transpose()));
      J_ += SparseMatrix(mass_.asDiagonal());
      cg_.setTolerance(1e-15);
      cg_.compute(J_);
      rhs_ = h * r_;
      d_ = cg_.solve(rhs_);
      cg_failed = cg_.info() != Eigen::Success || !d_.allFinite();
      dq_ += d_;
      newton.record_update(d_.norm(), dq_.norm());
    }
    last_iterations_ = newton.iterations();
    newton.report(solver_status_, cg_failed ? scheme_ + " (conjugate gradient failed)" : scheme_, converged);
  }
  p_ = mass_.cwiseProduct(dq_) / h + h * a * f_;  // eq. (31)
  x_ += dq_;
  tick();
  sys.accept_step();
}

}  // namespace dtcrit
