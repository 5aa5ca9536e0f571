// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file). The request and
// its answer are the library's (packing/packing_request.hpp), shared with the Python module and
// `dtcrit lammps-check`.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "packing_options.hpp"
#include "progress.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/matrix_export.hpp"
#include "dtcrit/packing/packing_request.hpp"
#include "dtcrit/io/json_text.hpp"
#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/distributed_analysis.hpp"
#include "dtcrit/distributed/runtime.hpp"
#endif

namespace dtcrit::cli {

namespace {

struct PackingOptions {
  packing::PackingRequest request;
  std::string bodies;  // contact-network file of rigid bodies (network/README.md): run_bodies
  bool json = false;
  std::string output;
  int confirm_steps = 0;
  std::string write_matrices;  // folder for M.mtx, K.mtx, C.mtx, dofs.json
  std::string write_mode;      // LAMMPS dump of the top mode
  std::string operator_kind = "shell";  // distributed build: MatShell or assembled MPIAIJ
};

// --confirm: `run(row, factor)` at 0.99 and 1.01 of every conditionally stable row's limit; the runs as
// JSON entries (with `common` added to each) and text lines, and a verdict per integrator.
struct Confirmation {
  nlohmann::json runs = nlohmann::json::array();
  std::string text;
};
Confirmation confirm_rows(const std::vector<packing::PackingIntegratorLimit>& rows,
                          const std::function<packing::ConfirmationRun(const packing::PackingIntegratorLimit&, double)>& run,
                          const nlohmann::json& common, const std::function<void(std::string_view)>& progress,
                          const std::string& what) {
  Confirmation out;
  std::size_t total = 0, done = 0;
  for (const auto& lim : rows) total += lim.stability == Stability::conditional && lim.converged ? 2 : 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& lim : rows) {
    if (lim.stability != Stability::conditional || !lim.converged) continue;
    double growth_below = 0.0;
    long changes_below = -1;
    for (double f : {0.99, 1.01}) {
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress(fmt::format("{}: {} at {} h_crit (run {}/{}{}{})", what, lim.name, f, done + 1, total, done ? ", " : "",
                           time_left(spent, done, total)));
      ++done;
      const packing::ConfirmationRun r = run(lim, f);
      nlohmann::json entry{{"integrator", r.integrator}, {"factor", r.factor}, {"h", r.h}, {"steps", r.steps},
                           {"growth", std::isfinite(r.growth) ? nlohmann::json(r.growth) : nlohmann::json(nullptr)},
                           {"unconverged_steps", r.unconverged_steps}, {"history_mode", r.history_mode}};
      if (r.contact_changes >= 0) entry["contact_changes"] = r.contact_changes;
      entry.update(common);
      out.text += fmt::format("  {:<24} {:.2f} h_crit = {:.6g} s: {} steps, max growth {:.4g}{}{}{}\n", r.integrator,
                              r.factor, r.h, r.steps, r.growth,
                              r.history_mode == "consistent" ? " (tangential history from the positions)" : "",
                              r.contact_changes > 0
                                  ? fmt::format(", contacts opened or closed in {} steps of the unperturbed run",
                                                r.contact_changes)
                                  : "",
                              r.unconverged_steps ? fmt::format(" (SOLVER FAILURE: Newton did not converge in {} steps)",
                                                                r.unconverged_steps)
                                                  : "");
      if (f < 1.0) {
        growth_below = r.growth;
        changes_below = r.contact_changes;
      } else {
        const auto verdict = packing::confirmation_verdict(growth_below, r.growth);
        entry["confirmed"] = verdict.confirmed;
        entry["verdict"] = verdict.text;
        out.text += fmt::format("  {:<24} {}\n", "", verdict.text);
        if (!verdict.confirmed && changes_below > 0)
          out.text += fmt::format(
              "  {:<24} the run at 0.99 left the analysed contact set: the limit is that of the linear system with\n"
              "  {:<24} every contact closed, and switching between contact sets can grow below it (packing README)\n",
              "", "");
      }
      out.runs.push_back(entry);
    }
  }
  if (out.runs.empty()) out.text += "  none of the integrators is conditionally stable: nothing to confirm\n";
  return out;
}

// dtcrit packing --bodies FILE: an assembly of rigid bodies of any shape from a contact network.
void run_bodies(const PackingOptions& opts) {
  const packing::PackingRequest& o = opts.request;
  // The file gives bodies, contacts, laws and their states: every option about those is an error.
  for (const char* opt : {"--lattice", "--lammps-data", "--lammps-dump", "--lammps-input"})
    packing::reject_unread(o, opt, "conflicts with --bodies: give one source");
  for (const char* opt : {"--kn", "--kt", "--gamma-n", "--gamma-t", "--lammps-pair", "--hertz-mindlin", "--type-law"})
    reject_unread(o, opt, "does not apply with --bodies: each contact of the file carries its law");
  for (const char* opt : {"--n", "--radius", "--density", "--compression", "--radius-spread", "--seed", "--dimension",
                          "--disc", "--periodic", "--wall", "--box-walls", "--gap-tolerance"})
    reject_unread(o, opt, "does not apply with --bodies: the file gives the bodies, their contacts and the walls (fixed bodies)");
  reject_unread(o, "--lammps-contacts", "does not apply with --bodies: the file carries the contacts' histories");
  reject_unread(o, "--geometric-stiffness", "is not available with --bodies (the turning of a normal depends on the shapes)");
  for (const char* opt : {"--youngs", "--poisson"})
    reject_unread(o, opt, "does not apply with --bodies: the Rayleigh and P-wave times need spheres");
  if (o.eigensolver != "spectra") reject_unread(o, "--ncv", "is Spectra's basis size: it needs --eigensolver spectra");
  for (const char* opt : {"--write-matrices", "--write-mode"})
    reject_unread(o, opt, "is not available with --bodies yet (it writes sphere packings' dofs)");
  OutputFiles files;
  files.declare("--output", opts.output);
  const auto progress = terminal_progress();
  progress("reading the contact network");
  const network::ContactNetwork net = network::read_network(opts.bodies);
  progress(fmt::format("assembling the global system ({} contacts)", net.contacts.size()));
  const packing::GlobalSystem sys(net, !o.no_rotation);
  packing::PackingAnalysisOptions ao;
  ao.integrators = expand_integrator_specs(o.integrators);
  ao.eigen.tolerance = require_positive("--lanczos-tol", o.lanczos_tol);
  ao.eigen.method = packing::parse_eigen_method(o.eigensolver);
  ao.eigen.ncv = o.ncv;
  ao.amplification_dofs = o.amplification_dofs;
  ao.crossing_check_dofs = o.crossing_check_dofs;
  ao.certify_dofs = o.certify_dofs;
  ao.progress = progress;
  const auto report = packing::analyse_system("contact network " + net.source, sys, ao);
  // --confirm: fixed-arm linear dynamics (the stepper's rigid bodies are clumps of spheres only).
  Confirmation confirmation;
  if (opts.confirm_steps > 0) {
    const LinearSystem ls = sys.linear_system();
    confirmation = confirm_rows(
        report.integrators,
        [&](const packing::PackingIntegratorLimit& lim, double f) {
          return packing::confirm_linear(ls, lim.name, lim.h_crit, f, opts.confirm_steps);
        },
        {{"model", "fixed-arm linear dynamics"}}, progress, "linear dynamics");
    confirmation.text =
        "\nconfirmation with fixed-arm linear dynamics (the integrator on the network's M, K, C, contact points fixed "
        "to the bodies; not a DEM run of the shapes), from a random displacement at rest:\n" + confirmation.text;
  }
  progress("done");

  // The effective inputs: bodies, the laws and how many contacts use each, histories.
  std::vector<std::size_t> uses(net.laws.size(), 0);
  std::size_t with_history = 0;
  for (const auto& c : net.contacts) ++uses[static_cast<std::size_t>(c.law)], with_history += c.has_history;
  double m0 = std::numeric_limits<double>::infinity(), m1 = 0.0, i0 = m0, i1 = 0.0;
  for (const auto& b : net.bodies) {
    if (b.fixed) continue;
    m0 = std::min(m0, b.mass), m1 = std::max(m1, b.mass);
    for (int d = net.dimension == 2 ? 2 : 0; d < 3; ++d) i0 = std::min(i0, b.moments[d]), i1 = std::max(i1, b.moments[d]);
  }
  const auto fixed = static_cast<Index>(net.bodies.size()) - net.free_bodies();
  const std::string history_line =
      with_history ? fmt::format("contact histories: {} of {} contacts carry one (from the file)", with_history, net.contacts.size())
                   : "contact histories: none in the file (zero, sticking)";
  const auto rec = recommend_from(report.integrators, o.margin);
  std::string text;
  if (opts.json) {
    auto j = to_json(report);
    nlohmann::json laws = nlohmann::json::array();
    for (std::size_t k = 0; k < net.laws.size(); ++k)
      laws.push_back({{"text", net.law_texts[k]}, {"description", contact::describe(net.laws[k])}, {"contacts", uses[k]}});
    j["inputs"] = {{"file", net.source},
                   {"dimension", net.dimension},
                   {"free_bodies", net.free_bodies()},
                   {"fixed_bodies", fixed},
                   {"mass_range_kg", {m0, m1}},
                   {"principal_moment_range_kg_m2", {i0, i1}},
                   {"laws", laws},
                   {"rotation", !o.no_rotation}};
    j["contact_histories"] = {{"read", with_history > 0}, {"summary", history_line}};
    if (rec) j["recommended_step"] = to_json(*rec);
    if (opts.confirm_steps > 0) j["confirmation"] = confirmation.runs;
    text = json_text(j) + "\n";
  } else {
    text = history_line + "\ninputs:\n";
    text += fmt::format("  {}D, {} free bodies (m {:g}..{:g} kg, principal moments {:g}..{:g} kg m^2), {} fixed (walls)\n",
                        net.dimension, net.free_bodies(), m0, m1, i0, i1, fixed);
    for (std::size_t k = 0; k < net.laws.size(); ++k)
      text += fmt::format("  law '{}' ({} contacts): {}\n", net.law_texts[k], uses[k], contact::describe(net.laws[k]));
    text += "  arms: from each body's centre of mass to the contact point; torque arm = velocity arm\n\n";
    text += format_packing_table(report) + confirmation.text;
    if (rec) text += "\n" + format_recommendation(*rec);
  }
  if (opts.output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  files.write_text(opts.output, text);
  files.commit();
}

void run(const PackingOptions& o) {
  if (!o.bodies.empty()) {
#ifdef DTCRIT_WITH_MPI
    if (distributed::rank() != 0) return;  // rigid-body networks are analysed serially, on rank 0
#endif
    return run_bodies(o);
  }
  const auto& r = o.request;
  if (r.lattice.empty() && r.data_file.empty() && r.dump_file.empty() && r.lammps_input.empty() && r.lammps_restart.empty())
    fail("give exactly one of --lattice, --lammps-data (or --lammps-restart), --lammps-dump, --lammps-input and --bodies");
  if (!r.clumps.empty()) {
    if (o.confirm_steps > 0)
      reject_unread(r, "--lammps-contacts", "with --clumps and --confirm: the stepper's rigid clumps start from zero "
                                            "histories; drop one of them");
    for (const char* opt : {"--write-matrices", "--write-mode"})
      reject_unread(r, opt, "is not available with --clumps yet (it writes sphere packings' dofs)");
  }
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
#ifdef DTCRIT_WITH_MPI
  // The distributed build answers with SLEPc over the ranks (also on a single one) unless a serial
  // solver is named, which runs on rank 0 alone.
  const bool parallel = r.eigensolver == "auto" || r.eigensolver == "slepc";
  if (!parallel) reject_unread(r, "--operator", "applies to the distributed analysis (--eigensolver auto or slepc) only");
  if (!parallel && distributed::rank() != 0) return;
  std::optional<distributed::DistributedReport> dist;
  std::optional<packing::PackingAnswer> answer;
  if (parallel) {
    distributed::collectively([&] {
      for (const char* opt : {"--confirm", "--write-matrices", "--write-mode"})
        reject_unread(r, opt, "is not available in the distributed analysis (mpirun): run without mpirun");
      reject_unread(r, "--lammps-contacts", "(contact histories) is not read by the distributed analysis (mpirun): run "
                                            "without mpirun");
    }, true);
    packing::PackingRequest request = r;
    request.eigensolver = "auto";  // the distributed analysis solves with SLEPc whatever the serial default
    auto answered = distributed::answer_packing_distributed(request, distributed::parse_operator_kind(o.operator_kind),
                                                            progress);
    if (!answered) return;  // rank 0 writes the report
    answer = std::move(answered->answer);
    dist = std::move(answered->report);
  } else {
    answer = packing::answer_packing(r, progress);
  }
  const packing::PackingAnswer& a = *answer;
#else
  if (r.eigensolver == "slepc")
    fail("--eigensolver slepc needs the distributed build (cmake --preset distributed; mpirun -np P dtcrit packing ...)");
  const packing::PackingAnswer a = packing::answer_packing(r, progress);
#endif
  nlohmann::json confirmation = nlohmann::json::array();
  std::string confirmation_text;
  if (o.confirm_steps > 0) {
    // The stepper with the same laws, every contact held sticking (confirmation.hpp), from a
    // perturbation of 1e-4 of the smallest overlap.
    double dmin = std::numeric_limits<double>::infinity();
    for (const auto& c : a.system->contacts().contacts) dmin = std::min(dmin, c.overlap);
    if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
    // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth
    // measure (separation from an unperturbed run) takes out.
    const double residual = packing::equilibrium_residual(a.packing, a.laws, a.clumps.has_value());
    confirmation_text = fmt::format(
        "\nconfirmation with the reference stepper: growth of the separation between a run perturbed by 1e-4 of\n"
        "the smallest overlap and an unperturbed one (initial force residual {:.2g} kn x smallest overlap{}):\n",
        residual, residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out");
    const Confirmation c = confirm_rows(
        a.report.integrators,
        [&](const packing::PackingIntegratorLimit& lim, double f) {
          return a.clumps ? packing::confirm_clumps_with_stepper(a.packing, a.laws, lim.name, lim.h_crit, f,
                                                                  o.confirm_steps, 1e-4 * dmin)
                          : packing::confirm_with_stepper(a.packing, a.laws, lim.name, lim.h_crit, f, o.confirm_steps,
                                                          1e-4 * dmin, 7, 0.0, &a.system->contacts());
        },
        {{"equilibrium_residual", residual}}, progress, "stepper");
    confirmation = c.runs;
    confirmation_text += c.text;
  }
  // The global system as analysed, and its top mode, for other tools.
  const packing::GlobalSystem* sys = a.system.get();  // none after a distributed analysis (refused above)
  std::string export_text;
  if (!o.write_matrices.empty()) {
    progress("writing M, K and C");
    files.write(matrix_path("M.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, packing::mass_matrix(*sys)); });
    files.write(matrix_path("K.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys->stiffness()); });
    files.write(matrix_path("C.mtx"), [&](std::ostream& out) { packing::write_matrix_market(out, sys->damping()); });
    files.write_text(matrix_path("dofs.json"), json_text(packing::dof_description(a.packing, *sys, a.report.omega_max)) + "\n");
    export_text += fmt::format("matrices: M, K, C ({} dofs, MatrixMarket) and the dof ordering written to {}/ ({})\n",
                               sys->dofs(), o.write_matrices, fmt::join(matrix_files, ", "));
  }
  if (!o.write_mode.empty()) {
    progress("the top mode");
    const auto mode = packing::top_mode(*sys, packing::eigen_options(o.request));
    files.write(o.write_mode, [&](std::ostream& out) { packing::write_mode_dump(out, a.packing, *sys, mode); });
    export_text += fmt::format("top mode (omega = {:.10g} rad/s, {} solve) written to {} as a LAMMPS dump: translation "
                               "as vx vy vz (largest particle translation 1), rotation as omegax.. [rad], amplitude = "
                               "|translation|\n",
                               std::sqrt(mode.omega2), mode.method, o.write_mode);
  }
  if (!a.bound_warning.empty()) std::cerr << "dtcrit: warning: " << a.bound_warning << "\n";
  if (a.histories)
    for (const auto& w : a.histories->warnings) std::cerr << "dtcrit: warning: " << w << "\n";
  std::string text;
  if (o.json) {
    auto j = to_json(a);
    if (o.confirm_steps > 0) j["confirmation"] = confirmation;
    if (!o.write_matrices.empty()) j["matrices_folder"] = o.write_matrices;
    if (!o.write_mode.empty()) j["mode_file"] = o.write_mode;
#ifdef DTCRIT_WITH_MPI
    if (dist) {  // ranks, eigensolver "slepc", the partition and the figures per rank
      const nlohmann::json dj = distributed::to_json(*dist);
      for (const char* key : {"ranks", "eigensolver", "distributed"}) j[key] = dj.at(key);
    }
#endif
    text = json_text(j) + "\n";
  } else {
    std::string after_table = confirmation_text;
#ifdef DTCRIT_WITH_MPI
    if (dist) after_table += distributed::format_distributed(*dist);
#endif
    text = format_packing_answer(a, after_table);
    if (!export_text.empty()) text += "\n" + export_text;
  }
  if (!o.output.empty()) files.write_text(o.output, text);
  files.commit();
  if (o.output.empty()) std::cout << text << std::flush;
}

}  // namespace

void add_packing_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("packing",
                                 "critical time-steps of a whole packing (lattice, LAMMPS file, or a contact network of "
                                 "rigid bodies)");
  auto o = std::make_shared<PackingOptions>();
  packing::PackingRequest& r = o->request;
  add_packing_request_options(cmd, r);
  cmd->add_option("--bodies", o->bodies,
                  "contact network of rigid bodies of any shape: FILE.json, or a CSV pair ...bodies....csv + "
                  "...contacts....csv (bodies with mass, inertia tensor, centre, fixed; contacts with point, normal, "
                  "law, overlap; lib/dtcrit/network/README.md)");
  cmd->add_option("--clumps", r.clumps,
                  "'molecule': each molecule ID of the --lammps-data file (atom_style hybrid sphere molecular) is one "
                  "rigid body with the mass, centre and inertia tensor fix rigid/small molecule gives it; contacts "
                  "between members of different bodies and with walls (lib/dtcrit/network/README.md)");
  cmd->add_option("--margin", r.margin,
                  "recommended step = margin [-] x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--integrator", r.integrators,
                  "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
  cmd->add_option("--youngs", r.youngs, "Young's modulus E [Pa], for the Rayleigh and P-wave times");
  cmd->add_option("--poisson", r.poisson, "Poisson ratio nu [-], for the Rayleigh time");
  cmd->add_option("--confirm", o->confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
#ifdef DTCRIT_WITH_MPI
  cmd->add_option("--operator", o->operator_kind,
                  "distributed analysis: the operator M^-1/2 K M^-1/2 as shell (matrix-free over GlobalSystem, "
                  "default) or assembled (PETSc MPIAIJ)")
      ->capture_default_str();
#endif
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
