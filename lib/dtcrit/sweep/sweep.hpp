#pragma once
// The sweep engine (sweep/README.md): for a case and a list of integrators,
//  - runs every step size of the grid h_k = h0 / 2^k (outputs aligned at t0 + i h0, time t0 + n h),
//  - measures the error of each channel (position, velocity at the integrator's own time level,
//    energy) against the case's analytic solution or a fine reference run,
//  - averages over several contact-onset phases (the initial gap shifted by a fraction of h0),
//  - fits the observed order (order_fit.hpp),
//  - finds the empirical stability limit by bracketing (tightly around the prediction where the
//    case is its linearisation, SweepCase::linear_stability) and bisection and sets it beside the
//    predicted one (critical_step of the integrator on the case's linearised system),
//  - sweeps several integrators at once on threads (SweepOptions::threads; same result),
//  - finds the accuracy-limited step for a tolerance on a chosen quantity.
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/integrators/integrator.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "dtcrit/sweep/order_fit.hpp"
#include "dtcrit/sweep/sweep_case.hpp"

namespace dtcrit::sweep {

struct SweepOptions {
  std::vector<std::string> integrators;  // registry specs
  int levels = 0;                        // 0: the case's default
  int phases = 0;                        // 0: the case's default
  double h0 = 0.0;                       // 0: the case's default
  std::string reference;                 // reference integrator ("" : the case's default)
  int reference_refinement = -1;         // h_ref = h_min / 2^r (-1: the case's default; r >= 1)
  int stability = -1;                    // 1 on, 0 off, -1 the case's default
  long stability_steps = 20000;          // minimum steps of a stability run
  // Blow-up: E - floor > growth (E0 - floor). Large, because near an undamped limit the energy of
  // a stable discrete orbit already swings by 1 / (1 - Omega^2/4) (velocity Verlet); not too
  // large, because a DEM system is linear only for small amplitudes (a bonded pair whose
  // amplitude reaches d turns over: its energy saturates near (d / amplitude)^2 ~ 1e5).
  double growth = 1e4;
  double stability_rel_tol = 1e-4;       // bisection stops at (hi - lo) <= tol * lo
  bool accuracy = true;                  // look for the accuracy-limited step
  std::string accuracy_quantity;         // "" : the case's default (channel or outcome name)
  double tolerance = 0.01;               // relative tolerance of that quantity
  double order_agreement = 0.3;          // consecutive slopes "agree" within this spread
  double error_floor = 1e-11;            // errors below this are round-off: left out of the fit
  // Integrators swept at once, each on its own thread with its own systems (0: one per hardware
  // thread). The result does not depend on it: each integrator's runs are the same whatever the
  // thread, and the results are assembled in the order of `integrators`.
  int threads = 1;
  // Called after every run with (runs done, runs planned); the plan grows by the bisections. With
  // threads > 1 it is called from several threads, one call at a time.
  std::function<void(std::size_t, std::size_t)> progress;
};

// One step size of one integrator.
struct SweepPoint {
  int level = 0;
  double h = 0.0;
  // Per channel: the error of each phase and their mean (relative: divided by the channel scale).
  std::map<std::string, std::vector<double>> phase_errors;
  std::map<std::string, double> error;
  // Per outcome (restitution, ...): value of each phase, mean value, mean relative error.
  std::map<std::string, std::vector<double>> phase_outcomes;
  std::map<std::string, double> outcome;
  std::map<std::string, double> outcome_error;
  bool blew_up = false;  // a run produced a non-finite state
  SolverStatus solver;   // the implicit solves of this step size's runs (all phases)
};

// How the empirical limit search ended. found: h is the bisected limit; none_found: stable up to
// `hi` (h = +inf); unstable_everywhere: unstable down to `lo` (h = 0); skipped: not run (h = NaN).
enum class EmpiricalStatus { found, none_found, unstable_everywhere, skipped };
inline constexpr EnumName<EmpiricalStatus> empirical_status_names[] = {
    {EmpiricalStatus::found, "found"},
    {EmpiricalStatus::none_found, "none_found"},
    {EmpiricalStatus::unstable_everywhere, "unstable_everywhere"},
    {EmpiricalStatus::skipped, "skipped"}};
std::string_view to_string(EmpiricalStatus s);  // "found", "none_found", ...
EmpiricalStatus parse_empirical_status(std::string_view text);

// How the accuracy-limited step was found. bisected: h between grid points by bisection
// (outcomes); grid: the largest grid step that passes with every finer one (channels); below_grid:
// even h_min fails (h = NaN); above_grid: h0 passes and nothing coarser was tried (h = h0 is a lower
// bound); none: not asked for.
enum class AccuracyStatus { none, bisected, grid, below_grid, above_grid };
inline constexpr EnumName<AccuracyStatus> accuracy_status_names[] = {{AccuracyStatus::none, ""},
                                                                     {AccuracyStatus::bisected, "bisected"},
                                                                     {AccuracyStatus::grid, "grid"},
                                                                     {AccuracyStatus::below_grid, "below_grid"},
                                                                     {AccuracyStatus::above_grid, "above_grid"}};
std::string_view to_string(AccuracyStatus s);  // "" for none
AccuracyStatus parse_accuracy_status(std::string_view text);

struct StabilityResult {
  EmpiricalStatus status = EmpiricalStatus::skipped;
  double h = std::numeric_limits<double>::quiet_NaN();
  double lo = 0.0, hi = 0.0;  // bracket: last stable, first unstable
  long steps = 0;             // steps of each run at the limit
  // Runs judged stable although some implicit step's Newton iteration did not converge (their
  // verdict rests on garbage steps), and the smallest h of such a run (inf: none).
  long unconverged_runs = 0;
  double smallest_unconverged_h = std::numeric_limits<double>::infinity();
  // The search's cost: runs made (each of max(stability_steps, t_end/h) steps unless it blows up
  // first) and the steps they actually took.
  long runs = 0;
  long steps_taken = 0;
};

struct PredictedLimit {
  std::optional<Stability> stability;  // empty: not available (no linearisation, or not asked for)
  double h = std::numeric_limits<double>::quiet_NaN();
  bool conditional() const { return stability == Stability::conditional; }
};

struct AccuracyResult {
  std::string quantity;
  double tolerance = 0.0;
  AccuracyStatus status = AccuracyStatus::none;
  double h = std::numeric_limits<double>::quiet_NaN();
  double converged = std::numeric_limits<double>::quiet_NaN();  // the exact / reference value (outcomes)
};

struct IntegratorSweep {
  std::string spec;
  int declared_order = 0, declared_order_damped = 0;
  bool is_explicit = false;
  double velocity_offset = 0.0;  // in units of h
  std::vector<SweepPoint> points;
  // Per channel, and per outcome with a known converged value (its relative error).
  std::map<std::string, OrderFit> order;
  PredictedLimit predicted;
  StabilityResult empirical;
  AccuracyResult accuracy;
  // The implicit solves of the convergence runs (every level and phase; not the stability runs,
  // whose diverging states are meant to defeat them): a failure here taints the errors and orders.
  SolverStatus solver;
  double seconds = 0.0;  // wall time of this integrator's runs
  // ... split by part (wall time; not results: they vary from run to run): the convergence runs of
  // every level and phase, the empirical stability search, the accuracy-limited step.
  double seconds_convergence = 0.0, seconds_stability = 0.0, seconds_accuracy = 0.0;
};

struct SweepResult {
  std::string case_name, description;
  std::vector<CaseParameter> parameters;
  std::string tangential;
  bool tangential_matters = false;   // the case has tangential springs (SweepCase::uses_tangential_history)
  bool transient_contacts = false;     // SweepCase::transient_contacts: the empirical limit is not a stability limit
  std::vector<Channel> channels;
  double h0 = 0.0, t_end = 0.0, time_scale = 0.0;
  std::string time_scale_name;
  int levels = 0, phases = 0;
  std::vector<double> phase_delays;  // [s]
  std::string reference;             // "analytic" or "rk4 at h_min/16"
  std::string linearisation;         // what the predicted limit is computed on
  double omega_max = std::numeric_limits<double>::quiet_NaN();
  std::vector<IntegratorSweep> integrators;
  double reference_seconds = 0.0;  // wall time of the fine reference runs (0 when none was needed)
};

SweepResult run_sweep(const SweepCase& c, const std::string& tangential, const SweepOptions& options);

// One run of the empirical stability search: max(options.stability_steps, t_end / h) steps of the
// case's initial state (delay 0) at h; it blows up when x, v or the energy is not finite, or when
// E - floor > options.growth (E0 - floor). A solver exception counts as a blow-up.
struct StabilityRun {
  bool blew_up = false;
  bool unconverged = false;  // stable, but some implicit step's Newton iteration did not converge
  long steps = 0;            // steps planned
  long steps_taken = 0;      // steps made (fewer if it blew up)
};
StabilityRun stability_run(const SweepCase& c, const std::string& spec, double h, const SweepOptions& options);

}  // namespace dtcrit::sweep
