#pragma once
// Helpers shared by the particle cases (cases.cpp, chung_ooi.cpp): their base class, closed forms,
// observations, linearisation.
#include <cmath>

#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/sweep_case.hpp"

namespace dtcrit::sweep::detail {

// u'' + gamma u' + omega0^2 u = 0 with u(0) = 0, u'(0) = s (underdamped: gamma < 2 omega0):
//   u = (s / wd) exp(-gamma t / 2) sin(wd t),  wd = sqrt(omega0^2 - gamma^2 / 4).
struct DampedSine {
  double omega0, gamma, s;
  double wd() const { return std::sqrt(omega0 * omega0 - 0.25 * gamma * gamma); }
  double u(double t) const { return s / wd() * std::exp(-0.5 * gamma * t) * std::sin(wd() * t); }
  double du(double t) const {
    const double w = wd();
    return s * std::exp(-0.5 * gamma * t) * (std::cos(w * t) - 0.5 * gamma / w * std::sin(w * t));
  }
  // First return to u = 0: pi / wd.
  double half_period() const { return M_PI / wd(); }
};

// The generalised vector with every rotational entry multiplied by the particle's radius, so that
// all entries are lengths (positions) or speeds (velocities).
Vector scaled_generalised(const stepper::ParticleSystem& sys, const Vector& q);

// Observation of a particle system: position = scaled_generalised(x), velocity =
// scaled_generalised(v), energy = sys.energy(x, v), for the standard channels
// {position, velocity, energy}.
Observation observe_particles(const stepper::ParticleSystem& sys, const Vector& x, const Vector& v);
std::vector<Channel> standard_channels(double length, double speed, double energy);

// The linear system M a + C v + K x = 0 of sys's tangent at (x, v) (after one force() call that
// registers the contacts of x), with omega_max from the dense generalised eigenproblem. A system in
// traditional mode (not yet stepped) gives its history springs as histories advanced by the
// velocities (traditional_linear_system, dynamics/linear_history_system.hpp).
Linearisation linearise_particles(stepper::ParticleSystem& sys, const Vector& x, const Vector& v, std::string what);

// Kinetic energy 1/2 v^T M v.
double kinetic(const Vector& mass, const Vector& v);

// The cases run on a stepper::ParticleSystem and observe it the standard way (observe_particles).
class ParticleCase : public SweepCase {
 public:
  explicit ParticleCase(const CaseOptions& o) : mode_(stepper::parse_tangential_history(o.tangential)) {}
  Observation observe(const MechanicalSystem& sys, const Vector& x, const Vector& v) const override {
    return observe_particles(static_cast<const stepper::ParticleSystem&>(sys), x, v);
  }

 protected:
  // A collision case: times in units of the contact duration t_c, 6 step levels and `phases`
  // contact onsets (quick: 4 and 2).
  void collision_scales(const CaseOptions& o, double tc, int phases = 4) {
    levels_ = o.quick ? 4 : 6;
    phases_ = o.quick ? 2 : phases;
    time_scale_ = tc;
    time_scale_name_ = "t_c";
  }
  // A run of `sys` from rest with every centre at the origin; the case then sets its start.
  static RunSetup at_rest(stepper::ParticleSystem sys) {
    RunSetup s;
    s.x0 = Vector::Zero(sys.dofs());
    s.v0 = Vector::Zero(sys.dofs());
    s.system = std::make_unique<stepper::ParticleSystem>(std::move(sys));
    return s;
  }

  stepper::TangentialHistory mode_;  // --tangential
};

}  // namespace dtcrit::sweep::detail
