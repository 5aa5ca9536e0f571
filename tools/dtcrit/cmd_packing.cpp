// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cmath>
#include <limits>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "packing_options.hpp"
#include "progress.hpp"

#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/operating_point.hpp"
#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/key_values.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/lammps_contacts.hpp"
#include "dtcrit/packing/lammps_input.hpp"
#include "dtcrit/packing/lammps_io.hpp"
#include "dtcrit/packing/matrix_export.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

namespace dtcrit::cli {

namespace {

// "is my timestep safe?": the script's timestep against the exact limit of its integrator.
struct TimestepCheck {
  std::string verdict, text;
  nlohmann::json json;
};

TimestepCheck check_timestep(const packing::LammpsInput& in, const packing::PackingReport& report, double margin,
                             const std::string& histories) {
  TimestepCheck c;
  const double dt = in.timestep;
  const std::string dt_from = in.timestep_default ? "LAMMPS' default for units si: the script has no timestep line"
                                                  : "the script's timestep";
  c.json = {{"timestep", dt}, {"timestep_unit", "s"}, {"timestep_source", dt_from}, {"integrator", in.integrator},
            {"state", "the packing of the data file as it is, " + histories}};
  const packing::PackingIntegratorLimit* lim = nullptr;
  for (const auto& l : report.integrators)
    if (l.name == in.integrator) lim = &l;
  std::string detail;
  if (lim == nullptr || (lim->stability == Stability::conditional && !lim->converged)) {
    c.verdict = "UNKNOWN";
    detail = fmt::format("the limit of {} did not converge; no verdict", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else if (lim->stability == Stability::unconditional) {
    c.verdict = "SAFE";
    detail = fmt::format("{} is unconditionally stable on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = 0.0;
  } else if (lim->stability == Stability::unstable) {
    c.verdict = "UNSAFE";
    detail = fmt::format("{} is unstable at every step on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else {
    const double ratio = dt / lim->h_crit;
    c.json["h_crit"] = lim->h_crit;
    c.json["ratio"] = ratio;
    c.verdict = ratio < 1.0 ? "SAFE" : "UNSAFE";
    detail = ratio < 1.0 ? fmt::format("timestep is {:.3g} of the critical step", ratio)
                         : fmt::format("timestep is {:.3g} times the critical step: {} blows up", ratio, in.integrator);
    if (ratio < 1.0 && ratio > margin)
      detail += fmt::format(" (above the recommended margin {:g}: the limit holds for this state only)", margin);
    c.text = fmt::format("  timestep                    {:.6g} s ({})\n  h_crit {:<20} {:.6g} s\n"
                         "  timestep / h_crit           {:.6g}\n",
                         dt, dt_from, in.integrator, lim->h_crit, ratio);
  }
  if (c.text.empty()) c.text = fmt::format("  timestep                    {:.6g} s ({})\n", dt, dt_from);
  c.json["verdict"] = c.verdict;
  c.json["message"] = c.verdict + ": " + detail;
  c.text = fmt::format("\nis the timestep of {} safe? ({} = LAMMPS' fix nve/sphere; h_crit is for the packing's current "
                       "state: {})\n{}{}: {}\n",
                       in.path, in.integrator, histories, c.text, c.verdict, detail);
  return c;
}

void run(const PackingOptions& o) {
  check_packing_options(o);
  // Every output is checked before the computation and written only once the report is complete.
  OutputFiles files;
  files.declare("--output", o.output);
  const std::vector<std::string> matrix_files{"M.mtx", "K.mtx", "C.mtx", "dofs.json"};
  auto matrix_path = [&](const std::string& name) { return (std::filesystem::path(o.write_matrices) / name).string(); };
  if (!o.write_matrices.empty()) {
    if (!std::filesystem::is_directory(o.write_matrices))
      fail(fmt::format("--write-matrices '{}' is not an existing folder (create it first)", o.write_matrices));
    for (const auto& name : matrix_files) files.declare("--write-matrices", matrix_path(name));
  }
  files.declare("--write-mode", o.write_mode);
  const Progress progress = terminal_progress();
  PackingProblem problem = prepare_packing(o, progress);
  const packing::Packing& p = problem.p;
  const packing::ContactLaws& laws = problem.laws;
  const std::optional<packing::LammpsInput>& script = problem.script;
  const std::vector<std::string>& defaults = problem.defaults;
  const bool lattice = problem.lattice;
  const std::string& bound_warning = problem.bound_warning;
  const std::optional<packing::ContactHistorySummary>& histories = problem.histories;
  const std::string& history_line = problem.history_line;
  const packing::GlobalSystem& sys = *problem.sys;

  packing::PackingAnalysisOptions ao = analysis_options(o, progress);
  ao.integrators = expand_integrator_specs(o.integrators);
  if (script && std::find(ao.integrators.begin(), ao.integrators.end(), script->integrator) == ao.integrators.end())
    ao.integrators.push_back(script->integrator);  // the script's own integrator answers its question
  if (o.youngs || o.poisson) {
    if (!o.youngs || !o.poisson) fail("the material heuristics need both --youngs and --poisson");
    ao.material = packing::PackingMaterial{*o.youngs, *o.poisson};
  }
  auto report = packing::analyse_packing(p, sys, ao);
  if (lattice) {  // the lattice inputs that set the answer, defaults marked
    report.inputs.push_back({"radius", o.radius, "m", !o.given.count("--radius")});
    report.inputs.push_back({"density", o.density, "kg/m^3", !o.given.count("--density")});
    report.inputs.push_back({"compression", o.compression, "", !o.given.count("--compression")});
  }
  nlohmann::json confirmation = nlohmann::json::array();
  std::string confirmation_text;
  if (o.confirm_steps > 0) {
    // The stepper with the same law, mu so large that every contact sticks, from a perturbation of
    // 1e-4 of the smallest overlap.
    packing::ContactLaws sticking = laws;
    for (contact::ContactLaw* law : {&sticking.base}) {
      law->mu = 1e6;
      if (law->rolling != contact::RollingModel::none) law->mu_roll = 1e6;
      if (law->twisting == contact::TwistingModel::sds) law->mu_twist = 1e6;
    }
    double dmin = std::numeric_limits<double>::infinity();
    for (const auto& c : sys.contacts().contacts) dmin = std::min(dmin, c.overlap);
    if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
    // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth
    // measure (separation from an unperturbed run) takes out.
    const double residual = packing::equilibrium_residual(p, sticking);
    confirmation_text = fmt::format(
        "\nconfirmation with the reference stepper: growth of the separation between a run perturbed by 1e-4 of\n"
        "the smallest overlap and an unperturbed one (initial force residual {:.2g} kn x smallest overlap{}):\n",
        residual, residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out");
    std::size_t runs = 0, done = 0;
    for (const auto& lim : report.integrators) runs += lim.stability == Stability::conditional ? 2 : 0;
    const auto confirm_start = std::chrono::steady_clock::now();
    for (const auto& lim : report.integrators) {
      if (lim.stability != Stability::conditional || !lim.converged) continue;
      for (double f : {0.99, 1.01}) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - confirm_start).count();
        progress(fmt::format("stepper: {} at {} h_crit (run {}/{}{}{})", lim.name, f, done + 1, runs,
                             done ? ", " : "", time_left(spent, done, runs)));
        ++done;
        const auto run = packing::confirm_with_stepper(p, sticking, lim.name, lim.h_crit, f, o.confirm_steps, 1e-4 * dmin,
                                                       7, 0.0, &sys.contacts());
        confirmation.push_back({{"integrator", run.integrator}, {"factor", run.factor}, {"h", run.h},
                                {"steps", run.steps}, {"growth", std::isfinite(run.growth) ? nlohmann::json(run.growth) : nlohmann::json(nullptr)},
                                {"unconverged_steps", run.unconverged_steps},
                                {"equilibrium_residual", residual}});
        confirmation_text += fmt::format("  {:<24} {:.2f} h_crit = {:.6g} s: {} steps, max growth {:.4g}{}\n", run.integrator,
                                         run.factor, run.h, run.steps, run.growth,
                                         run.unconverged_steps ? fmt::format(" (SOLVER FAILURE: Newton did not converge "
                                                                             "in {} steps)", run.unconverged_steps)
                                                               : "");
      }
    }
    if (confirmation.empty()) confirmation_text += "  none of the integrators is conditionally stable: nothing to confirm\n";
  }
  std::string export_text;
  if (!o.write_matrices.empty()) {
    progress("writing M, K and C");
    files.write(matrix_path("M.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, packing::mass_matrix(sys)); });
    files.write(matrix_path("K.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys.stiffness()); });
    files.write(matrix_path("C.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys.damping()); });
    files.write_text(matrix_path("dofs.json"), packing::dof_description(p, sys, report.omega_max).dump(2) + "\n");
    export_text += fmt::format("matrices: M, K, C ({} dofs, MatrixMarket) and the dof ordering written to {}/ ({})\n",
                               sys.dofs(), o.write_matrices, fmt::join(matrix_files, ", "));
  }
  if (!o.write_mode.empty()) {
    progress("the top mode");
    const auto mode = packing::top_mode(sys, ao.eigen);
    files.write(o.write_mode, [&](std::ostream& out) { packing::write_mode_dump(out, p, sys, mode); });
    export_text += fmt::format("top mode (omega = {:.10g} rad/s, {} solve) written to {} as a LAMMPS dump: translation "
                               "as vx vy vz (largest particle translation 1), rotation as omegax.. [rad], amplitude = "
                               "|translation|\n",
                               std::sqrt(mode.omega2), mode.method, o.write_mode);
  }
  progress("done");
  if (!bound_warning.empty()) std::cerr << "dtcrit: warning: " << bound_warning << "\n";
  const auto rec = recommend_from(report.integrators, o.margin);
  std::optional<TimestepCheck> dt_check;
  if (script) dt_check = check_timestep(*script, report, o.margin, history_line);
  std::string text;
  if (o.json) {
    auto j = to_json(report);
    j["inputs"] = inputs_json(p, laws, defaults);
    nlohmann::json hj{{"read", histories.has_value()}, {"summary", history_line}};
    if (histories) {
      hj["files"] = o.lammps_contacts;
      hj["pairs_read"] = histories->pairs_read;
      hj["walls_read"] = histories->walls_read;
      hj["pairs_unmatched"] = histories->pairs_unmatched;
      hj["walls_unmatched"] = histories->walls_unmatched;
      hj["pairs_missing"] = histories->pairs_missing;
      hj["walls_missing"] = histories->walls_missing;
      hj["sliding"] = histories->sliding;
      hj["rolling_at_limit"] = histories->rolling_at_limit;
      hj["max_distance_mismatch"] = histories->max_distance_mismatch;
      hj["notes"] = histories->notes;
    }
    j["contact_histories"] = hj;
    if (script) {
      j["lammps_input"] = {{"path", script->path}, {"data_file", script->data_file}, {"taken", script->taken},
                           {"skipped", script->skipped}};
      j["timestep_check"] = dt_check->json;
    }
    if (!bound_warning.empty()) j["warnings"] = {bound_warning};
    if (o.confirm_steps > 0) j["confirmation"] = confirmation;
    if (rec) j["recommended_step"] = to_json(*rec);
    if (!o.write_matrices.empty()) j["matrices_folder"] = o.write_matrices;
    if (!o.write_mode.empty()) j["mode_file"] = o.write_mode;
    text = j.dump(2) + "\n";
  } else {
    std::string head;
    if (script) {
      head = fmt::format("LAMMPS input {}: the lines read\n", script->path);
      for (const auto& t : script->taken) head += "  " + t + "\n";
      head += "  skipped (no effect on the step): " + (script->skipped.empty() ? std::string("none") : fmt::format("{}", fmt::join(script->skipped, ", "))) + "\n\n";
    }
    head += history_line + "\n";
    if (histories) {
      for (const auto& note : histories->notes) head += "  note: " + note + "\n";
    }
    text = head + inputs_text(p, laws, defaults) + format_packing_table(report) + confirmation_text;
    if (!bound_warning.empty()) text += "\nwarning: " + bound_warning + "\n";
    if (rec) text += "\n" + format_recommendation(*rec);
    if (dt_check) text += dt_check->text;
    if (!export_text.empty()) text += "\n" + export_text;
  }
  if (!o.output.empty()) files.write_text(o.output, text);
  files.commit();
  if (o.output.empty()) std::cout << text << std::flush;
}

}  // namespace

void add_packing_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("packing", "critical time-steps of a whole packing (lattice or LAMMPS file)");
  auto o = std::make_shared<PackingOptions>();
  add_packing_source_options(cmd, *o);
  cmd->add_option("--margin", o->margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--integrator", o->integrators,
                  "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
  cmd->add_option("--youngs", o->youngs, "Young's modulus E [Pa], for the Rayleigh and P-wave times");
  cmd->add_option("--poisson", o->poisson, "Poisson ratio nu, for the Rayleigh time");
  cmd->add_option("--confirm", o->confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
  cmd->add_option("-o,--output", o->output, "write to this file instead of the terminal");
  cmd->add_option("--write-matrices", o->write_matrices,
                  "write M, K and C of the global system (MatrixMarket: M.mtx, K.mtx, C.mtx) and the dof ordering "
                  "(dofs.json) into this existing folder");
  cmd->add_option("--write-mode", o->write_mode,
                  "write the top mode (the eigenvector of omega_max) as a LAMMPS dump: translation as vx vy vz, "
                  "rotation as omegax omegay omegaz, amplitude (for OVITO)");
  cmd->add_option("--amplification-dofs", o->amplification_dofs,
                  "damped packings up to this many dofs: amplification matrix for every integrator")
      ->capture_default_str();
  cmd->footer(
      "Damping: --gamma-n sets the normal dashpot per unit effective mass; without --gamma-t, gamma_t = gamma_n / 2 "
      "(LAMMPS' gran/hooke/history with NULL), also in --type-law and --wall. The report starts with "
      "the effective inputs and the defaults applied, and ends with the recommended step. --lammps-pair gives the "
      "whole law in LAMMPS' syntax instead.");
  cmd->callback([o, cmd] {
    record_given(cmd, *o);
    run(*o);
  });
}

}  // namespace dtcrit::cli
