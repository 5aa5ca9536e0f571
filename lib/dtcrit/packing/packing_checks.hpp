#pragma once
// The checks stage of `dtcrit packing` (answer_packing, packing_request.hpp, runs the stages in
// order): what the limits mean for a run. The second step of a frictional packing, the script's
// timestep against the limit of its integrator, and the confirmation of every limit by runs at 0.99
// and 1.01 of it. Results are typed; text and JSON are made from them at the edges.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

namespace dtcrit::packing {

// The second step of a frictional packing: the limit of the script's integrator with every contact
// sliding at its caps (contact::sliding: normal springs and dashpots only). Between h_crit and this
// step, tangential and rolling motion grows until contacts slide; above it the normal contacts alone
// make the run diverge. A linearisation's estimate of where a run blows up, not a bound: contacts
// that open and contacts that do not reach their caps are not followed.
struct DivergingStep {
  std::string integrator;
  double h = 0.0;
  bool converged = false;
  bool upper_bound = false;  // the -1 crossing with complex crossings unchecked (PackingIntegratorLimit)
  std::string method;
};

// The limit of `integrator` on the packing with every law made sliding (the options of the main
// analysis: eigensolver, dofs thresholds; no material heuristics, no progress).
DivergingStep diverging_step(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                             const PackingAnalysisOptions& analysis, const ContactOptions& contacts, bool rotation,
                             bool geometric_stiffness);

// "Is my timestep safe?": the script's timestep against the exact limit of its integrator.
enum class TimestepVerdict { safe, unsafe, unknown };
inline constexpr EnumName<TimestepVerdict> timestep_verdict_names[] = {
    {TimestepVerdict::safe, "SAFE"}, {TimestepVerdict::unsafe, "UNSAFE"}, {TimestepVerdict::unknown, "UNKNOWN"}};
std::string_view to_string(TimestepVerdict v);
// Where an unsafe step lies on a frictional packing (DivergingStep): only for a converged limit.
enum class TimestepRegime { below_h_crit, friction_wrong, diverges };
inline constexpr EnumName<TimestepRegime> timestep_regime_names[] = {{TimestepRegime::below_h_crit, "below h_crit"},
                                                                     {TimestepRegime::friction_wrong, "friction wrong"},
                                                                     {TimestepRegime::diverges, "diverges"}};
std::string_view to_string(TimestepRegime r);

struct TimestepCheck {
  TimestepVerdict verdict = TimestepVerdict::unknown;
  std::optional<TimestepRegime> regime;
  std::string text;     // the report's section
  nlohmann::json json;  // timestep_check
};
// histories: the state analysed, in words; margin: the recommended step's (a step above it is flagged).
TimestepCheck check_timestep(const LammpsInput& in, const PackingReport& report, double margin,
                             const std::string& histories, const std::optional<DivergingStep>& diverging);

// Confirmation: every conditionally stable, converged limit run at 0.99 and 1.01 of it.
enum class ConfirmationModel {
  stepper,           // the reference DEM stepper, contacts held sticking (confirm_with_stepper)
  fixed_arm_linear,  // the integrator on the global system's M, K, C (confirm_linear: contact networks)
};
struct ConfirmedLimit {
  ConfirmationRun below, above;  // at 0.99 and 1.01
  ConfirmationVerdict verdict;
};
struct PackingConfirmation {
  ConfirmationModel model = ConfirmationModel::stepper;
  double equilibrium_residual = 0.0;  // stepper: max |f| / (kn x smallest overlap) of the unperturbed packing
  std::vector<ConfirmedLimit> limits;
};
using ConfirmationRunner = std::function<ConfirmationRun(const PackingIntegratorLimit& limit, double factor)>;
// progress receives "<what>: <integrator> at <factor> h_crit (run i/n, about ... left)".
PackingConfirmation confirm_limits(const std::vector<PackingIntegratorLimit>& limits, ConfirmationModel model,
                                   double equilibrium_residual, const ConfirmationRunner& run,
                                   const std::function<void(std::string_view)>& progress);
// The runs as JSON entries (the 1.01 entry carries the verdict) and as the report's section.
nlohmann::json to_json(const PackingConfirmation& c);
std::string format_confirmation(const PackingConfirmation& c);

}  // namespace dtcrit::packing
