#pragma once
// A sweep case: one documented DEM set-up whose parameters can be overridden by key=value, seen by
// the sweep engine (sweep.hpp) through a small interface. The engine owns the method (h grid,
// errors, order fit, stability bisection, accuracy-limited step); a case only says how to build a
// run, what to observe, and what it knows exactly. See sweep/README.md for every case.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/types.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/dynamics/system.hpp"

namespace dtcrit::contact {
struct ContactLaw;
}

namespace dtcrit::sweep {

// One overridable parameter of a case (SI units).
struct CaseParameter {
  std::string name;
  double value;
  std::string meaning;
};

// Where an observed channel lives in time: at the position level t, at the integrator's velocity
// level t + velocity_offset, or the total energy E(x(t), v(t + velocity_offset)).
enum class Level { position, velocity, energy };

// A quantity whose error is measured: its observation is a vector, the error at one output time
// is the Euclidean norm of the difference divided by `scale`, and the run's error is the maximum
// over the aligned output times.
struct Channel {
  std::string name;
  Level level;
  double scale;
};

// What is recorded at one output time: one vector per channel (the energy channel holds
// {energy}), and the kinetic energy, so that a mixed-level energy E(x(t), v(t')) can be formed
// from a reference as E(t) - K(t) + K(t').
struct Observation {
  std::vector<Vector> channels;
  double kinetic = 0.0;
};

// A run as the engine starts it.
struct RunSetup {
  std::unique_ptr<MechanicalSystem> system;
  Vector x0, v0;
  double t0 = 0.0;
};

// Watches every step of a run (not only the aligned outputs) and reports scalar outcomes at the
// end: restitution, peak_overlap, contact_duration, ...
class Monitor {
 public:
  virtual ~Monitor() = default;
  // x at time t, v at time tv = t + velocity_offset.
  virtual void sample(double t, const Vector& x, double tv, const Vector& v) = 0;
  virtual std::map<std::string, double> outcomes() const = 0;
};

// The case's linearised system, for the predicted stability limit (critical_step).
struct Linearisation {
  // LinearSystem; in traditional mode with history springs a LinearHistorySystem (the histories
  // advanced by the velocities, as the runs do).
  std::unique_ptr<MechanicalSystem> system;
  double omega_max = 0.0;
  std::string what;  // "the bond spring of the two-body system", ...
};

class SweepCase {
 public:
  virtual ~SweepCase() = default;

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::vector<CaseParameter>& parameters() const { return parameters_; }
  const std::vector<Channel>& channels() const { return channels_; }

  // --- the run ------------------------------------------------------------------------------
  // A fresh system and its initial state. `delay` [s] postpones the first contact onset by
  // shifting the initial gap (onset-phase averaging); 0 for cases without contact onset.
  virtual RunSetup build(double delay) const = 0;
  // The channels at one output (x at t, v at t + velocity_offset; sys is the run's system, after
  // the integrator's last accept_step()).
  virtual Observation observe(const MechanicalSystem& sys, const Vector& x, const Vector& v) const = 0;
  // Per-step monitor for the scalar outcomes; nullptr if the case has none.
  virtual std::unique_ptr<Monitor> monitor(const MechanicalSystem& /*sys*/) const { return nullptr; }

  // --- what is known exactly ----------------------------------------------------------------
  // Analytic channels: positions at t, velocities at tv, energy E(x(t), v(tv)).
  virtual bool has_exact() const { return false; }
  virtual Observation exact(double /*delay*/, double /*t*/, double /*tv*/) const { return {}; }
  // Analytic outcomes (empty when only a reference run knows them).
  virtual std::map<std::string, double> exact_outcomes(double /*delay*/) const { return {}; }

  // --- stability ----------------------------------------------------------------------------
  // The linearised system whose critical_step is the predicted limit; nullopt if none.
  virtual std::optional<Linearisation> linearise() const { return std::nullopt; }
  // The empirical limit: a run blows up when a coordinate or the energy is not finite, or when
  // E - energy_floor exceeds growth x (E0 - energy_floor).
  double energy_floor() const { return energy_floor_; }

  // --- defaults the engine uses unless told otherwise ----------------------------------------
  double t_end() const { return t_end_; }
  double h0() const { return h0_; }             // coarsest step of the grid
  int levels() const { return levels_; }        // number of step sizes h0 / 2^k
  int phases() const { return phases_; }        // onset phases averaged (1: no contact onset)
  const std::string& reference_integrator() const { return reference_integrator_; }
  int reference_refinement() const { return reference_refinement_; }  // h_ref = h_min / 2^r
  const std::string& accuracy_quantity() const { return accuracy_quantity_; }
  // A time scale of the case (contact or bond period) for reporting h / t_scale.
  double time_scale() const { return time_scale_; }
  const std::string& time_scale_name() const { return time_scale_name_; }
  // Whether the tangential-history mode changes anything (cases with tangential springs).
  bool uses_tangential_history() const { return uses_tangential_; }
  // Whether the empirical stability bisection runs unless asked (off where it is too costly).
  bool stability_by_default() const { return stability_default_; }
  // Every contact is a collision that lasts about t_c: a step beyond the predicted limit can grow
  // only during those few steps, so the empirical "limit" (the step at which a collision gains the
  // blow-up factor) is not a stability limit, and the reports label it so.
  bool transient_contacts() const { return transient_contacts_; }
  // The run is its linearisation while it stays small (bonded-pair: one always-acting spring), so
  // the predicted limit is where a run starts to blow up, and runs blow up for every h above it:
  // the stability search starts there. Elsewhere (friction or rolling caps, collisions) blow-up
  // need not be monotone in h near the limit, and the search halves / doubles from it as before.
  bool linear_stability() const { return linear_stability_; }

 protected:
  std::string name_, description_;
  std::vector<CaseParameter> parameters_;
  std::vector<Channel> channels_;
  double t_end_ = 1.0, h0_ = 0.1;
  int levels_ = 6, phases_ = 1;
  std::string reference_integrator_ = "rk4";
  int reference_refinement_ = 4;
  std::string accuracy_quantity_ = "position";
  double time_scale_ = 1.0;
  std::string time_scale_name_ = "t";
  double energy_floor_ = 0.0;
  bool uses_tangential_ = false;
  bool stability_default_ = true;
  bool transient_contacts_ = false;
  bool linear_stability_ = false;

  // Declares a parameter with its default, reads an override from kv, returns the value.
  double param(const KeyValues& kv, const std::string& key, double default_value, const std::string& meaning);
};

// What every case is built from.
struct CaseOptions {
  KeyValues overrides;                  // --set key=value,...
  std::string tangential = "traditional";  // traditional | consistent
  bool quick = false;                   // a small version (tests, smoke runs)
};

// The case names, in documentation order.
std::vector<std::string> case_names();
// One-line descriptions, same order.
std::string case_summary(std::string_view name);
// Builds a case. Throws std::invalid_argument naming the valid cases for an unknown name, and the
// accepted keys for an unknown --set key (KeyValues::reject_unused).
std::unique_ptr<SweepCase> make_case(std::string_view name, const CaseOptions& options);
// The head-on collision of two bodies under `law` with effective mass m_eff [kg] and radius r_eff [m]
// at the approach speed `speed` [m/s], run as two equal spheres (mass 2 m_eff, radius 2 r_eff) at
// -+speed/2 (hertz-head-on is this case for EDEM's law): the collision `dtcrit pair --accuracy` measures.
std::unique_ptr<SweepCase> make_law_head_on_case(const contact::ContactLaw& law, double m_eff, double r_eff,
                                                 double speed, const CaseOptions& options = {});

}  // namespace dtcrit::sweep
