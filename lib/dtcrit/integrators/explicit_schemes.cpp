#include "dtcrit/integrators/explicit_schemes.hpp"

#include <fmt/format.h>

namespace dtcrit {

// ---- explicit Euler ------------------------------------------------------------------------
void ExplicitEuler::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
}

void ExplicitEuler::step(MechanicalSystem& sys) {
  const double h = step_size();
  sys.force(time(), x_, v_, f_);
  x_ += h * v_;
  v_ += h * accel(f_);
  tick();
  sys.accept_step();
}

// ---- kick-drift: symplectic Euler, leapfrog ------------------------------------------------
void KickDrift::step(MechanicalSystem& sys) {
  const double h = step_size();
  sys.force(time(), x_, v_, f_);
  v_ += h * accel(f_);
  x_ += h * v_;
  tick();
  sys.accept_step();
}

void SymplecticEuler::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
}

// ---- velocity Verlet -----------------------------------------------------------------------
VelocityVerlet::VelocityVerlet(DampingVelocity level)
    : BlockStateIntegrator(level == DampingVelocity::half_step ? "velocity_verlet" : "velocity_verlet_implicit_damping",
                           {&x_, &v_, &a_}),
      level_(level) {}

void VelocityVerlet::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  sys.force(t0, x_, v_, f_);
  a_ = accel(f_);
}

void VelocityVerlet::step(MechanicalSystem& sys) {
  const double h = step_size();
  const double t1 = time() + h;  // = t0 + (n+1) h up to one rounding; the clock itself is never accumulated
  const double half_h = 0.5 * h;
  // Element by element, each loop doing what two vector statements did in two passes (the same
  // operations, so the same bits): on a stepper run these passes were 7 % of the time.
  double* x = x_.data();
  double* v = v_.data();
  double* a = a_.data();
  for (Index k = 0; k < dofs_; ++k) {
    v[k] += half_h * a[k];
    x[k] += h * v[k];
  }
  if (level_ == DampingVelocity::half_step) {
    sys.force(t1, x_, v_, f_);
    const double* f = f_.data();
    const double* minv = minv_.data();
    for (Index k = 0; k < dofs_; ++k) {
      a[k] = minv[k] * f[k];
      v[k] += half_h * a[k];
    }
  } else {
    // Solve M (w - v½) = (h/2) f(t1, x+, w) for w = v+; initial guess: the explicit update with the old a.
    vhalf_ = v_;
    w_ = vhalf_ + 0.5 * h * a_;
    detail::NewtonControl newton(mass_, 50);
    bool converged = false;
    while (true) {
      sys.force(t1, x_, w_, f_);
      r_ = mass_.cwiseProduct(w_ - vhalf_) - 0.5 * h * f_;
      terms_ = mass_.cwiseProduct(w_.cwiseAbs() + vhalf_.cwiseAbs()) + 0.5 * h * f_.cwiseAbs();
      // J has no K term: damping() alone (K only if the convergence floor needs it)
      converged = detail::converged_with_damping(newton, r_, terms_, sys, t1, 0.5 * h, K_, C_);
      if (converged || newton.exhausted()) break;
      sys.damping(t1, x_, w_, C_);
      newton.set_damping_rounding(C_, x_, w_, 0.5 * h);
      solver_.factor(mass_, 1.0, C_, 0.5 * h, K_, 0.0);
      solver_.solve(r_, d_);
      w_ -= d_;
      newton.record_update(d_.norm(), w_.norm());
    }
    newton.report(solver_status_, "velocity_verlet_implicit_damping", converged);
    v_ = w_;
    a_ = accel(f_);
  }
  tick();
  sys.accept_step();
}

// ---- leapfrog ------------------------------------------------------------------------------
void Leapfrog::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  sys.force(t0, x_, v_, f_);
  v_ -= 0.5 * h * accel(f_);
}

// ---- position Verlet -----------------------------------------------------------------------
void PositionVerlet::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
}

void PositionVerlet::step(MechanicalSystem& sys) {
  const double h = step_size();
  xh_ = x_ + 0.5 * h * v_;
  sys.force(time() + 0.5 * h, xh_, v_, f_);
  v_ += h * accel(f_);
  x_ = xh_ + 0.5 * h * v_;
  tick();
  sys.accept_step();
}

// ---- rigid/small ---------------------------------------------------------------------------
void RigidSmall::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  p_ = mass_.cwiseProduct(v0);
  sys.force(t0, x_, v_, force_);
}

void RigidSmall::step(MechanicalSystem& sys) {
  const double h = step_size();
  p_ += 0.5 * h * force_;
  v_ = minv_.cwiseProduct(p_);
  x_ += h * v_;
  sys.force(time() + h, x_, v_, force_);
  p_ += 0.5 * h * force_;
  v_ = minv_.cwiseProduct(p_);
  tick();
  sys.accept_step();
}

}  // namespace dtcrit
