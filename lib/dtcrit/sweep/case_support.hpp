#pragma once
// Helpers shared by the particle cases (cases_*.cpp): closed forms, observations, linearisation.
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

}  // namespace dtcrit::sweep::detail
