#pragma once
// The integrator contract (cf. Boost.Odeint's stepper concept, without its algebra layers).
//
//   start(sys, t0, x0, v0, h)  commits the system's history at (t0, x0, v0) (a contact closed at
//                              t0 takes its tangential origin at x0), then builds the scheme's full state from the initial conditions
//                              (accelerations, half-step velocities, Nordsieck vectors: whatever
//                              the scheme carries), using exact start-up where it needs derivatives.
//   step(sys)                  advances t_n -> t_{n+1} = t0 + (n+1) h and calls sys.accept_step() once.
//   position(), velocity()     the solution at time(), and velocity at time() + velocity_offset()
//                              (leapfrog keeps velocities at half steps: compare them there).
//   state(), set_state()       the full internal state as one vector, so that the amplification
//                              matrix of one step can be measured column by column.
#include <memory>
#include <string>

#include "dtcrit/dynamics/system.hpp"

namespace dtcrit {

// What the solvers inside the steps of an implicit scheme did (Newton, its LU or CG solves): a
// failure travels with the run that had it, into the report, not only as a warning.
struct SolverStatus {
  long steps = 0;                  // steps that ran a Newton iteration
  long unconverged_steps = 0;      // steps whose Newton iteration stopped at its cap, or whose CG failed
  int max_iterations = 0;          // most Newton iterations of one step
  double worst_residual = 0.0;     // largest final residual / its rounding floor over unconverged steps
  std::string first_failure;       // the message of the first failure ("" if none)
  bool ok() const { return unconverged_steps == 0; }
};

class Integrator {
 public:
  virtual ~Integrator() = default;

  virtual void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) = 0;
  virtual void step(MechanicalSystem& sys) = 0;

  virtual const Vector& position() const = 0;
  virtual Vector velocity() const = 0;
  // Where velocity() lives relative to time(): 0, or -h/2 for leapfrog.
  virtual double velocity_offset() const { return 0.0; }
  double time() const { return t0_ + static_cast<double>(n_) * h_; }
  double step_size() const { return h_; }
  long steps_taken() const { return n_; }

  virtual Vector state() const = 0;
  virtual void set_state(const Vector& z) = 0;

  // The solver status of the steps since start() (explicit schemes: nothing to report).
  const SolverStatus& solver_status() const { return solver_status_; }

 protected:
  SolverStatus solver_status_;
  // Bookkeeping for derived classes: time is t0 + n h, never accumulated.
  void reset_clock(double t0, double h) { t0_ = t0; h_ = h; n_ = 0; solver_status_ = {}; }
  void tick() { ++n_; }

 private:
  double t0_ = 0.0, h_ = 0.0;
  long n_ = 0;
};

}  // namespace dtcrit
