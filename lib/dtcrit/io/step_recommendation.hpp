#pragma once
// The step a user acts on: the largest stable step of the chosen integrator, the certified safe
// step where one exists, and a recommended step = margin x the safe step (the limit until a
// certified h_safe is available), or the accuracy-limited step when that is smaller. One line for
// the text reports, one object for JSON.
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "dtcrit/stability/amplification.hpp"

namespace dtcrit {

// Default margin: results/GUIDE.md ("Which margin") measures how far the limit moves when the
// contact network, the Hertz stiffness at higher speed or the radii change.
inline constexpr double default_step_margin = 0.8;

struct StepRecommendation {
  std::string integrator;
  Stability stability = Stability::conditional;  // the limit's verdict
  double h_crit = std::numeric_limits<double>::quiet_NaN();  // largest stable step [s]
  std::optional<double> h_safe;                               // proven safe step [s], when known
  bool h_safe_certified = false;  // h_safe is the limit's h_low less 1e-6, proven (system/certificate.hpp)
  std::string h_safe_method;      // how h_safe was proven, when the row says (else "from Gershgorin bounds")
  // h_crit is an upper bound of the limit (a non-symmetric damped packing above the size whose
  // complex crossings are checked): no step is recommended unless h_safe is known, and the text says
  // how to decide. With h_crit NaN the limit lies above h_safe and was not computed.
  bool h_crit_upper_bound = false;
  UpperBound bound;  // with h_crit_upper_bound: what h_crit is, and what was not checked below it
  // h_crit is an estimate (a scalar limit at the top mode's damping, not the integrator's own
  // amplification matrix): no step rests on it, and the text says how to get the limit.
  bool h_crit_estimate = false;
  // false: the limit was not computed on this path (`not_computed` says why): no step.
  bool computed = true;
  std::string not_computed;
  double margin = default_step_margin;
  // The accuracy-limited step, when asked for (--accuracy): its value and what it keeps, e.g.
  // "restitution within 1%".
  std::optional<double> h_accuracy;
  std::string accuracy;
  std::string time_unit = "s";  // the unit of every step (a LAMMPS script's units: tau for lj)

  // min(margin x (h_safe, else h_crit), h_accuracy); without a stability limit (unconditional)
  // h_accuracy alone; NaN when there is neither, or when h_crit is only an upper bound or an estimate.
  double recommended() const;
};

// Checks 0 < margin <= 1 (a margin above 1 would recommend an unstable step).
double validated_margin(double margin);

// From a report's integrator limits (each with name, stability and h_crit): velocity_verlet
// (LAMMPS' scheme) when it is among them, else the first; nullopt when there is none.
template <class Limits>
std::optional<StepRecommendation> recommend_from(const Limits& limits, double margin) {
  validated_margin(margin);
  if (limits.empty()) return std::nullopt;
  const auto* chosen = &limits.front();
  for (const auto& i : limits)
    if (i.name == "velocity_verlet") chosen = &i;
  StepRecommendation rec;
  rec.integrator = chosen->name;
  rec.stability = chosen->stability;
  rec.h_crit = chosen->h_crit;
  if constexpr (requires { chosen->h_safe; })
    if (std::isfinite(chosen->h_safe)) rec.h_safe = chosen->h_safe;
  if constexpr (requires { chosen->upper_bound; }) rec.h_crit_upper_bound = chosen->upper_bound;
  if constexpr (requires { chosen->bound; }) rec.bound = chosen->bound;
  if constexpr (requires { chosen->exact; }) rec.h_crit_estimate = !chosen->exact && chosen->stability == Stability::conditional;
  if constexpr (requires { chosen->certified; }) rec.h_safe_certified = rec.h_safe && chosen->certified;
  if constexpr (requires { chosen->h_safe_method; })
    if (rec.h_safe) rec.h_safe_method = chosen->h_safe_method;
  if constexpr (requires { chosen->computed; }) {
    rec.computed = chosen->computed;
    if (!rec.computed) rec.not_computed = chosen->method;
  }
  rec.margin = margin;
  return rec;
}

// "recommended step: 3.23604e-06 s = 0.8 (--margin) x 4.04505e-06 s, the stability limit of velocity_verlet
// (no certified h_safe yet: the limit stands in)"
std::string format_recommendation(const StepRecommendation& r);
nlohmann::json to_json(const StepRecommendation& r);

}  // namespace dtcrit
