#include "dtcrit/packing/packing_checks.hpp"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "dtcrit/core/time_left.hpp"
#include "dtcrit/system/global_system.hpp"

namespace dtcrit::packing {

DivergingStep diverging_step(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                             const PackingAnalysisOptions& analysis, const ContactOptions& contacts, bool rotation,
                             bool geometric_stiffness) {
  Packing sliding_packing = p;
  ContactLaws sliding_laws = laws;
  transform_laws(sliding_packing, sliding_laws, contact::sliding);
  PackingAnalysisOptions so = analysis;
  so.integrators = {integrator};
  so.material.reset();
  so.progress = [](std::string_view) {};
  const GlobalSystem sliding_system(round_assembly(sliding_packing, find_contacts(sliding_packing, sliding_laws, contacts)), rotation, geometric_stiffness);
  const PackingReport r = analyse_packing(sliding_packing, sliding_system, so);
  DivergingStep d;
  d.integrator = integrator;
  for (const auto& l : r.integrators)
    if (l.name == integrator)
      d = DivergingStep{l.name, l.h_crit, l.stability == Stability::conditional && l.converged, l.upper_bound, l.method};
  return d;
}

std::string_view to_string(TimestepVerdict v) { return name_of(v, timestep_verdict_names); }
std::string_view to_string(TimestepRegime r) { return name_of(r, timestep_regime_names); }


TimestepCheck check_timestep(const LammpsInput& in, const PackingReport& report, double margin,
                             const std::string& histories, const std::optional<DivergingStep>& diverging) {
  TimestepCheck c;
  const double dt = in.timestep;
  const std::string& s = in.units.time;
  const std::string dt_from = in.timestep_default
                                  ? fmt::format("LAMMPS' default for units {}: the script has no timestep line", in.units.name)
                                  : "the script's timestep";
  c.json = {{"timestep", dt}, {"timestep_unit", s}, {"timestep_source", dt_from}, {"integrator", in.integrator},
            {"state", "the packing of the data file as it is, " + histories}};
  const PackingIntegratorLimit* lim = nullptr;
  for (const auto& l : report.integrators)
    if (l.name == in.integrator) lim = &l;
  std::string detail;
  if (lim == nullptr || !lim->computed || (lim->stability == Stability::conditional && !lim->converged)) {
    c.verdict = TimestepVerdict::unknown;
    detail = lim && !lim->computed ? fmt::format("the limit of {} was not computed ({}); no verdict", in.integrator, lim->method)
                                   : fmt::format("the limit of {} did not converge; no verdict", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else if (lim->upper_bound && std::isnan(lim->h_crit)) {
    // Only a proven safe step is known: at or below it the verdict is proven, above it open.
    const bool below_safe = dt <= lim->h_safe;
    c.verdict = below_safe ? TimestepVerdict::safe : TimestepVerdict::unknown;
    detail = fmt::format("timestep is {:.3g} {} the proven safe step {:.6g} {} ({}); the limit itself, above that step, "
                         "was not computed at this size{}",
                         dt / lim->h_safe, below_safe ? "of" : "times", lim->h_safe, s,
                         lim->h_safe_method,
                         below_safe ? "" : fmt::format(" (decide with {}: {})", lim->bound.decide, lim->bound.decide_cost));
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
    c.json["h_safe"] = lim->h_safe;
    c.json["ratio_to_h_safe"] = dt / lim->h_safe;
    c.json["h_crit_upper_bound"] = true;
    c.text = fmt::format("  timestep                    {:.6g} {} ({})\n  h_safe {:<20} {:.6g} {} (the limit: not computed)\n"
                         "  timestep / h_safe           {:.6g}\n",
                         dt, s, dt_from, in.integrator, lim->h_safe, s, dt / lim->h_safe);
  } else if (!lim->exact) {
    // No verdict rests on an estimate, on either side of it, nor on an estimate's "stable at every
    // step" or "unstable at every step".
    c.verdict = TimestepVerdict::unknown;
    const bool conditional = lim->stability == Stability::conditional;
    detail = fmt::format("the limit of {} here is an estimate ({}); no verdict (--amplification-dofs at least the "
                         "packing's dofs gives the limit)",
                         in.integrator,
                         conditional ? fmt::format("{:.6g} {}, timestep {:.3g} of it", lim->h_crit, s, dt / lim->h_crit)
                                     : std::string(stability_label(lim->stability)));
    c.json["h_crit"] = conditional ? nlohmann::json(lim->h_crit) : nlohmann::json(nullptr);
    c.json["h_crit_estimate"] = true;
    c.json["ratio"] = conditional ? nlohmann::json(dt / lim->h_crit) : nlohmann::json(nullptr);
  } else if (lim->stability == Stability::unconditional) {
    c.verdict = TimestepVerdict::safe;
    detail = fmt::format("{} is unconditionally stable on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = 0.0;
  } else if (lim->stability == Stability::unstable) {
    c.verdict = TimestepVerdict::unsafe;
    detail = fmt::format("{} is unstable at every step on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else {
    const double ratio = dt / lim->h_crit;
    c.json["h_crit"] = lim->h_crit;
    c.json["ratio"] = ratio;
    // Below an upper bound of the limit nothing is proven: the verdict stays open.
    // Below an upper bound with a proven safe step beneath it (the eigenvalue region of a Runge-Kutta row), at
    // or below that step the verdict is proven.
    const bool below_safe = lim->upper_bound && std::isfinite(lim->h_safe) && dt <= lim->h_safe;
    c.verdict = ratio >= 1.0                    ? TimestepVerdict::unsafe
                : lim->upper_bound && !below_safe ? TimestepVerdict::unknown
                                                  : TimestepVerdict::safe;
    const bool known = diverging && diverging->converged;  // the second step of a frictional packing
    const bool diverges = !known || dt >= diverging->h;
    c.regime = ratio < 1.0 ? TimestepRegime::below_h_crit : diverges ? TimestepRegime::diverges : TimestepRegime::friction_wrong;
    c.json["regime"] = to_string(*c.regime);
    if (ratio < 1.0)
      detail = fmt::format("timestep is {:.3g} of the critical step", ratio);
    else if (!known)
      detail = fmt::format("timestep is {:.3g} times the critical step: {} blows up", ratio, in.integrator);
    else if (diverges)
      detail = fmt::format("timestep is {:.3g} times the critical step, and above h_diverge too (every contact sliding): "
                           "the normal contacts themselves are unstable, the motion grows until contacts open, and the "
                           "run heats up or blows up",
                           ratio);
    else
      detail = fmt::format("timestep is {:.3g} times the critical step of the contacts as they are (sticking): their "
                           "tangential, rolling and twisting motion grows until contacts slide, so friction and rolling "
                           "resistance are numerically wrong; the run may go on without blowing up, since with every "
                           "contact sliding the limit is {:.6g} {} (h_diverge, {:.3g} times the timestep{})",
                           ratio, diverging->h, s, diverging->h / dt,
                           diverging->upper_bound ? "; an upper bound: complex crossings below it were not checked at "
                                                    "this size, so the run may diverge below it"
                                                  : "");
    if (ratio < 1.0 && ratio > margin)
      detail += fmt::format(" (above the recommended margin {:g}: the limit holds for this state only)", margin);
    // Above the -1 crossing the run is unstable for certain; below it, only where no complex pair
    // leaves the unit circle first, which was not checked at this size.
    if (below_safe)
      detail += fmt::format("; h_crit is the {}, an upper bound of the limit, and the timestep is at most the proven "
                            "safe step {:.6g} {} ({})",
                            lim->bound.what, lim->h_safe, s, lim->h_safe_method);
    else if (ratio < 1.0 && lim->upper_bound)
      detail += fmt::format("; h_crit is the {}, an upper bound of the limit: SAFE unless {}, which was not checked "
                            "at this size (decide with {}, or confirm in LAMMPS with dtcrit lammps-check)",
                            lim->bound.what, lim->bound.unchecked, lim->bound.decide);
    c.json["h_crit_upper_bound"] = lim->upper_bound;
    c.text = fmt::format("  timestep                    {:.6g} {} ({})\n  h_crit {:<20} {:.6g} {}\n"
                         "  timestep / h_crit           {:.6g}\n",
                         dt, s, dt_from, in.integrator, lim->h_crit, s, ratio);
    if (diverging) {
      c.text += fmt::format("  h_diverge (all sliding)     {} ({})\n",
                            diverging->converged ? fmt::format("{:.6g} {}", diverging->h, s) : "not converged",
                            diverging->method);
      c.json["h_diverge"] = diverging->converged ? nlohmann::json(diverging->h) : nlohmann::json(nullptr);
      c.json["h_diverge_method"] = diverging->method;
      c.json["h_diverge_upper_bound"] = diverging->upper_bound;
    }
  }
  if (c.text.empty()) c.text = fmt::format("  timestep                    {:.6g} {} ({})\n", dt, s, dt_from);
  c.json["verdict"] = to_string(c.verdict);
  c.json["message"] = fmt::format("{}: {}", to_string(c.verdict), detail);
  c.text = fmt::format("\nis the timestep of {} safe? ({} = LAMMPS' fix {}; h_crit is for the packing's current "
                       "state: {})\n{}{}: {}\n",
                       in.path, in.integrator, in.rigid_molecules ? "rigid/small" : "nve/sphere", histories, c.text,
                       to_string(c.verdict), detail);
  return c;
}


PackingConfirmation confirm_limits(const std::vector<PackingIntegratorLimit>& limits, ConfirmationModel model,
                                   double equilibrium_residual, const ConfirmationRunner& run,
                                   const std::function<void(std::string_view)>& progress) {
  PackingConfirmation out{model, equilibrium_residual, {}};
  const char* what = model == ConfirmationModel::stepper ? "stepper" : "linear dynamics";
  std::size_t total = 0, done = 0;
  // Rows with a limit to run at (a row with only a proven safe step has none).
  auto runnable = [](const PackingIntegratorLimit& lim) {
    return lim.computed && lim.stability == Stability::conditional && lim.converged && std::isfinite(lim.h_crit);
  };
  for (const auto& lim : limits) total += runnable(lim) ? 2 : 0;
  const auto start = std::chrono::steady_clock::now();
  auto one = [&](const PackingIntegratorLimit& lim, double f) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress)
      progress(fmt::format("{}: {} at {} h_crit (run {}/{}{}{})", what, lim.name, f, done + 1, total, done ? ", " : "",
                           time_left(spent, done, total)));
    ++done;
    return run(lim, f);
  };
  for (const auto& lim : limits) {
    if (!runnable(lim)) continue;
    ConfirmedLimit c;
    c.below = one(lim, 0.99);
    c.above = one(lim, 1.01);
    c.verdict = confirmation_verdict(c.below.growth, c.above.growth);
    out.limits.push_back(std::move(c));
  }
  return out;
}

namespace {

nlohmann::json run_json(const ConfirmationRun& r, const PackingConfirmation& c) {
  nlohmann::json entry{{"integrator", r.integrator}, {"factor", r.factor}, {"h", r.h}, {"steps", r.steps},
                       {"growth", std::isfinite(r.growth) ? nlohmann::json(r.growth) : nlohmann::json(nullptr)},
                       {"unconverged_steps", r.unconverged_steps}, {"history_mode", stepper::to_string(r.history_mode)}};
  if (r.contact_changes >= 0) entry["contact_changes"] = r.contact_changes;
  if (c.model == ConfirmationModel::stepper) entry["equilibrium_residual"] = c.equilibrium_residual;
  else entry["model"] = "fixed-arm linear dynamics";
  return entry;
}

std::string run_line(const ConfirmationRun& r) {
  return fmt::format("  {:<24} {:.2f} h_crit = {:.6g} s: {} steps, max growth {:.4g}{}{}{}\n", r.integrator, r.factor,
                     r.h, r.steps, r.growth,
                     r.history_mode == stepper::TangentialHistory::consistent ? " (tangential history from the positions)" : "",
                     r.contact_changes > 0
                         ? fmt::format(", contacts opened or closed in {} steps of the unperturbed run", r.contact_changes)
                         : "",
                     r.unconverged_steps
                         ? fmt::format(" (SOLVER FAILURE: Newton did not converge in {} steps)", r.unconverged_steps)
                         : "");
}

}  // namespace

nlohmann::json to_json(const PackingConfirmation& c) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& l : c.limits) {
    runs.push_back(run_json(l.below, c));
    auto above = run_json(l.above, c);
    above["confirmed"] = l.verdict.confirmed;
    above["verdict"] = l.verdict.text;
    runs.push_back(above);
  }
  return runs;
}

std::string format_confirmation(const PackingConfirmation& c) {
  std::string text =
      c.model == ConfirmationModel::stepper
          ? fmt::format("\nconfirmation with the reference stepper: growth of the separation between a run perturbed by "
                        "1e-4 of\nthe smallest overlap and an unperturbed one (initial force residual {:.2g} kn x "
                        "smallest overlap{}):\n",
                        c.equilibrium_residual,
                        c.equilibrium_residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out")
          : "\nconfirmation with fixed-arm linear dynamics (the integrator on the network's M, K, C, contact points "
            "fixed to the bodies; not a DEM run of the shapes), from a random displacement at rest:\n";
  for (const auto& l : c.limits) {
    text += run_line(l.below) + run_line(l.above);
    text += fmt::format("  {:<24} {}\n", "", l.verdict.text);
    if (!l.verdict.confirmed && l.below.contact_changes > 0)
      text += fmt::format(
          "  {:<24} the run at 0.99 left the analysed contact set: the limit is that of the linear system with\n"
          "  {:<24} every contact closed, and switching between contact sets can grow below it (packing README)\n",
          "", "");
  }
  if (c.limits.empty()) text += "  none of the integrators is conditionally stable: nothing to confirm\n";
  return text;
}

}  // namespace dtcrit::packing
