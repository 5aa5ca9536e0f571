#pragma once
// The one time loop over an Integrator: n steps, an observer, one blow-up rule. Modelled on
// Boost.Odeint's integrate_n_steps(stepper, system, state, t0, dt, n, observer); here the
// integrator holds the state and the clock (Integrator::start sets t0, x0, v0 and h first).
//
//   const IntegrateRun run = integrate_n_steps(integ, sys, n, every, observe);
//
// Checked steps: every `every`-th step and the last. At each, position() and velocity() are read
// and checked, then observe(integ, x, v) runs (x at integ.time(), v at integ.time() +
// integ.velocity_offset(), in seconds); it may return false to stop the run.
//
// Blow-up rule: a run has blown up when position() or velocity() holds a non-finite value at a
// checked step; it stops there and observe() does not see that state. A run's own growth criteria
// (energy, separation of two runs) are its observer's: they stop the run (`stopped`).
//
// Unlike Odeint the observer does not see step 0: the callers observe their initial conditions
// themselves (the sweep keeps (x0, v0), not leapfrog's v at -h/2 that velocity() gives there).
// An exception from a step (an implicit solver failing on a diverging state) propagates.
#include <type_traits>

#include "dtcrit/integrators/integrator.hpp"

namespace dtcrit {

enum class RunEnd { completed, blew_up, stopped };

struct IntegrateRun {
  long steps = 0;  // steps made, the one that blew up or was stopped on included
  RunEnd end = RunEnd::completed;
  bool blew_up() const { return end == RunEnd::blew_up; }
};

template <class Observer>
IntegrateRun integrate_n_steps(Integrator& integ, MechanicalSystem& sys, long steps, long every, Observer&& observe) {
  IntegrateRun run;
  if (every < 1) every = 1;
  for (long n = 1; n <= steps; ++n) {
    integ.step(sys);
    run.steps = n;
    if (n % every != 0 && n != steps) continue;
    const Vector& x = integ.position();
    const Vector v = integ.velocity();
    if (!x.allFinite() || !v.allFinite()) {
      run.end = RunEnd::blew_up;
      return run;
    }
    if constexpr (std::is_same_v<decltype(observe(integ, x, v)), bool>) {
      if (!observe(integ, x, v)) {
        run.end = RunEnd::stopped;
        return run;
      }
    } else {
      observe(integ, x, v);
    }
  }
  return run;
}

}  // namespace dtcrit
