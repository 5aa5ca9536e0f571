// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file). The request and
// its answer are the library's (packing/packing_request.hpp), shared with the Python module and
// `dtcrit lammps-check`.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "packing_options.hpp"
#include "progress.hpp"

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/matrix_export.hpp"
#include "dtcrit/packing/packing_request.hpp"

namespace dtcrit::cli {

namespace {

struct PackingOptions {
  packing::PackingRequest request;
  bool json = false;
  std::string output;
  int confirm_steps = 0;
  std::string write_matrices;  // folder for M.mtx, K.mtx, C.mtx, dofs.json
  std::string write_mode;      // LAMMPS dump of the top mode
};

void run(const PackingOptions& o) {
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
  const auto progress = terminal_progress();
  const packing::PackingAnswer a = packing::answer_packing(o.request, progress);
  nlohmann::json confirmation = nlohmann::json::array();
  std::string confirmation_text;
  if (o.confirm_steps > 0) {
    // The stepper with the same law, mu so large that every contact sticks, from a perturbation of
    // 1e-4 of the smallest overlap.
    packing::ContactLaws sticking = a.laws;
    for (contact::ContactLaw* law : {&sticking.base}) {
      law->mu = 1e6;
      if (law->rolling != contact::RollingModel::none) law->mu_roll = 1e6;
      if (law->twisting == contact::TwistingModel::sds) law->mu_twist = 1e6;
    }
    double dmin = std::numeric_limits<double>::infinity();
    for (const auto& c : a.system->contacts().contacts) dmin = std::min(dmin, c.overlap);
    if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
    // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth
    // measure (separation from an unperturbed run) takes out.
    const double residual = packing::equilibrium_residual(a.packing, sticking);
    confirmation_text = fmt::format(
        "\nconfirmation with the reference stepper: growth of the separation between a run perturbed by 1e-4 of\n"
        "the smallest overlap and an unperturbed one (initial force residual {:.2g} kn x smallest overlap{}):\n",
        residual, residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out");
    std::size_t runs = 0, done = 0;
    for (const auto& lim : a.report.integrators) runs += lim.stability == Stability::conditional ? 2 : 0;
    const auto confirm_start = std::chrono::steady_clock::now();
    for (const auto& lim : a.report.integrators) {
      if (lim.stability != Stability::conditional || !lim.converged) continue;
      for (double f : {0.99, 1.01}) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - confirm_start).count();
        progress(fmt::format("stepper: {} at {} h_crit (run {}/{}{}{})", lim.name, f, done + 1, runs,
                             done ? ", " : "", time_left(spent, done, runs)));
        ++done;
        const auto run = packing::confirm_with_stepper(a.packing, sticking, lim.name, lim.h_crit, f, o.confirm_steps, 1e-4 * dmin,
                                                       7, 0.0, &a.system->contacts());
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
  // The global system as analysed, and its top mode, for other tools.
  const packing::GlobalSystem& sys = *a.system;
  std::string export_text;
  if (!o.write_matrices.empty()) {
    progress("writing M, K and C");
    files.write(matrix_path("M.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, packing::mass_matrix(sys)); });
    files.write(matrix_path("K.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys.stiffness()); });
    files.write(matrix_path("C.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys.damping()); });
    files.write_text(matrix_path("dofs.json"), packing::dof_description(a.packing, sys, a.report.omega_max).dump(2) + "\n");
    export_text += fmt::format("matrices: M, K, C ({} dofs, MatrixMarket) and the dof ordering written to {}/ ({})\n",
                               sys.dofs(), o.write_matrices, fmt::join(matrix_files, ", "));
  }
  if (!o.write_mode.empty()) {
    progress("the top mode");
    const auto mode = packing::top_mode(sys, packing::eigen_options(o.request));
    files.write(o.write_mode, [&](std::ostream& out) { packing::write_mode_dump(out, a.packing, sys, mode); });
    export_text += fmt::format("top mode (omega = {:.10g} rad/s, {} solve) written to {} as a LAMMPS dump: translation "
                               "as vx vy vz (largest particle translation 1), rotation as omegax.. [rad], amplitude = "
                               "|translation|\n",
                               std::sqrt(mode.omega2), mode.method, o.write_mode);
  }
  if (!a.bound_warning.empty()) std::cerr << "dtcrit: warning: " << a.bound_warning << "\n";
  std::string text;
  if (o.json) {
    auto j = to_json(a);
    if (o.confirm_steps > 0) j["confirmation"] = confirmation;
    if (!o.write_matrices.empty()) j["matrices_folder"] = o.write_matrices;
    if (!o.write_mode.empty()) j["mode_file"] = o.write_mode;
    text = j.dump(2) + "\n";
  } else {
    text = format_packing_answer(a, confirmation_text);
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
  packing::PackingRequest& r = o->request;
  add_packing_request_options(cmd, r);
  cmd->add_option("--margin", r.margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--integrator", r.integrators,
                  "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
  cmd->add_option("--youngs", r.youngs, "Young's modulus E [Pa], for the Rayleigh and P-wave times");
  cmd->add_option("--poisson", r.poisson, "Poisson ratio nu, for the Rayleigh time");
  cmd->add_option("--amplification-dofs", r.amplification_dofs,
                  "damped packings up to this many dofs: amplification matrix for every integrator")
      ->capture_default_str();
  cmd->add_option("--confirm", o->confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("-o,--output", o->output, "write to this file instead of the terminal");
  cmd->add_option("--write-matrices", o->write_matrices,
                  "write M, K and C of the global system (MatrixMarket: M.mtx, K.mtx, C.mtx) and the dof ordering "
                  "(dofs.json) into this existing folder");
  cmd->add_option("--write-mode", o->write_mode,
                  "write the top mode (the eigenvector of omega_max) as a LAMMPS dump: translation as vx vy vz, "
                  "rotation as omegax omegay omegaz, amplitude (for OVITO)");
  cmd->footer(
      "Damping: --gamma-n sets the normal dashpot per unit effective mass; without --gamma-t, gamma_t = gamma_n / 2 "
      "(LAMMPS' gran/hooke/history with NULL), also in --type-law and --wall. The report starts with "
      "the effective inputs and the defaults applied, and ends with the recommended step. --lammps-pair gives the "
      "whole law in LAMMPS' syntax instead.");
  cmd->callback([o, cmd] {
    record_given(cmd, o->request);
    run(*o);
  });
}

}  // namespace dtcrit::cli
