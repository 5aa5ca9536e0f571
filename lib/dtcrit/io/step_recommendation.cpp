#include "dtcrit/io/step_recommendation.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/text_table.hpp"

namespace dtcrit {

double StepRecommendation::recommended() const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!computed) return nan;
  if (stability == Stability::unconditional) return h_accuracy.value_or(nan);
  if (stability != Stability::conditional) return nan;
  // An upper bound of the limit is no basis for a step: the limit may lie anywhere below it.
  if ((h_crit_upper_bound || h_crit_estimate) && !h_safe) return nan;
  const double stable = margin * h_safe.value_or(h_crit);
  return h_accuracy ? std::min(stable, *h_accuracy) : stable;
}

double validated_margin(double margin) {
  if (!(margin > 0.0 && margin <= 1.0)) fail(fmt::format("margin = {} must lie in (0, 1]", margin));
  return margin;
}

std::string format_recommendation(const StepRecommendation& r) {
  const auto t = [&](double seconds) { return format_number(seconds) + " " + r.time_unit; };
  if (!r.computed)
    return fmt::format("recommended step: none - the limit of {} was not computed here: {}\n", r.integrator,
                       r.not_computed);
  if (r.stability == Stability::unconditional && r.h_accuracy)
    return fmt::format("recommended step: {}, the accuracy-limited step of {} ({}); no stability limit "
                       "(stable up to Omega = h omega_max = 1e4 on this linear system)\n",
                       t(*r.h_accuracy), r.integrator, r.accuracy);
  if (r.stability == Stability::unconditional)
    return fmt::format("recommended step: no stability limit for {} (stable up to Omega = h omega_max = 1e4 on this linear system); "
                       "choose the step by accuracy (dtcrit sweep)\n",
                       r.integrator);
  if (r.stability != Stability::conditional)
    return fmt::format("recommended step: none, {} is {} here; choose another --integrator\n", r.integrator,
                       stability_label(r.stability));
  if (r.h_crit_upper_bound && !r.h_safe)
    return fmt::format("recommended step: none - the limit of {} is known here only as an upper bound, {} (the {}: "
                       "unstable above it); whether {} was not checked at this size. Decide with {} ({}) or confirm "
                       "a step in LAMMPS with dtcrit lammps-check\n",
                       r.integrator, t(r.h_crit), r.bound.what, r.bound.unchecked, r.bound.decide,
                       r.bound.decide_cost);
  if (r.h_crit_estimate && !r.h_safe)
    return fmt::format("recommended step: none - the limit of {} here is an estimate, {} (the scalar limit at the "
                       "top mode's damping ratio, not the integrator's own amplification matrix); no step rests on "
                       "an estimate. Get the limit with --amplification-dofs at least the packing's dofs (a scan of "
                       "dense amplification matrices: slow above a few hundred dofs), or choose velocity_verlet\n",
                       r.integrator, t(r.h_crit));
  const std::string proof = r.h_safe_certified        ? std::string("with a Cholesky certificate")
                            : r.h_safe_method.empty() ? std::string("from Gershgorin bounds")
                                                      : r.h_safe_method;
  const std::string basis =
      r.h_safe && r.h_crit_upper_bound && std::isnan(r.h_crit)
          ? fmt::format("{}, a proven safe step of {} ({}); its limit lies above that step and was not computed at "
                        "this size (decide with {}: {})",
                        t(*r.h_safe), r.integrator, proof, r.bound.decide, r.bound.decide_cost)
      : r.h_safe && r.h_crit_upper_bound
          ? fmt::format("{}, a proven safe step of {} ({}); its limit lies between that step and the upper bound {} "
                        "(the {})",
                        t(*r.h_safe), r.integrator, proof, t(r.h_crit), r.bound.what)
      : r.h_safe && r.h_safe_certified
          ? fmt::format("{}, the stability limit of {} (its h_low) less 1e-6, proven by a Cholesky certificate",
                        t(*r.h_safe), r.integrator)
      : r.h_safe ? fmt::format("{}, the proven safe step of {} (Gershgorin bound, below its limit {})",
                               t(*r.h_safe), r.integrator, t(r.h_crit))
      : fmt::format("{}, the stability limit of {} (no certified h_safe yet: the limit stands in)",
                        t(r.h_crit), r.integrator);
  if (r.h_accuracy)
    return fmt::format("recommended step: {} = min({:g} (--margin) x {}; {}, the accuracy-limited step for {})\n",
                       t(r.recommended()), r.margin, basis, t(*r.h_accuracy), r.accuracy);
  return fmt::format("recommended step: {} = {:g} (--margin) x {}\n", t(r.recommended()), r.margin, basis);
}

nlohmann::json to_json(const StepRecommendation& r) {
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"integrator", r.integrator},
          {"unit", r.time_unit},
          {"stability", stability_keyword(r.stability)},
          {"checked_omega_min", checked_omega_min},
          {"checked_omega_max", checked_omega_max},
          {"h_crit", num(r.h_crit)},
          {"h_safe", r.h_safe ? num(*r.h_safe) : nlohmann::json(nullptr)},
          {"margin", r.margin},
          {"basis", !r.computed ? "none" : r.h_safe ? "h_safe" : r.h_crit_upper_bound || r.h_crit_estimate ? "none" : "h_crit"},
          {"h_safe_certified", r.h_safe_certified},
          {"h_crit_upper_bound", r.h_crit_upper_bound},
          {"h_crit_estimate", r.h_crit_estimate},
          {"h_accuracy", r.h_accuracy ? num(*r.h_accuracy) : nlohmann::json(nullptr)},
          {"accuracy", r.accuracy},
          {"h_recommended", num(r.recommended())}};
}

}  // namespace dtcrit
