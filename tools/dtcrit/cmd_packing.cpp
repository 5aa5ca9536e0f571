// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file). The request and
// its answer are the library's (packing/packing_request.hpp), shared with the Python module and
// `dtcrit lammps-check`.
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "packing_options.hpp"
#include "progress.hpp"

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/json_text.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/system/matrix_export.hpp"
#include "dtcrit/packing/packing_request.hpp"
#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/distributed_analysis.hpp"
#include "dtcrit/distributed/parallel_read.hpp"
#include "dtcrit/distributed/runtime.hpp"
#endif

namespace dtcrit::cli {

namespace {

struct PackingOptions {
  packing::PackingRequest request;  // every option of the analysis, --bodies and --confirm included
  bool json = false;
  std::string output;
  std::string write_matrices;  // folder for M.mtx, K.mtx, C.mtx, dofs.json
  std::string write_mode;      // LAMMPS dump of the top mode
  std::string operator_kind = "shell";  // distributed build: MatShell or assembled MPIAIJ
  bool parallel_read = false;           // distributed build: every rank reads a part of --lammps-data
};

// The answer of this build: answer_packing, or in the distributed build the same over the MPI ranks
// (SLEPc), with the distributed figures for the report. Empty on the ranks other than 0, which write
// nothing.
struct Answered {
  packing::PackingAnswer answer;
  nlohmann::json distributed_json;  // ranks, eigensolver, partition (distributed analysis only)
  std::string distributed_text;
};

std::optional<Answered> answer_request(const packing::PackingRequest& r, const std::string& operator_kind,
                                       bool parallel_read, const std::function<void(std::string_view)>& progress) {
#ifdef DTCRIT_WITH_MPI
  // Networks are analysed serially on rank 0, and so is any request naming a serial eigensolver; the
  // rest over the ranks (also on a single one): auto by the three-term Lanczos recurrence, slepc by
  // SLEPc's Krylov-Schur.
  const bool parallel = r.bodies.empty() && (r.eigensolver == "auto" || r.eigensolver == "slepc");
  if (r.bodies.empty() && !parallel)
    reject_unread(r, "--operator", "applies to the distributed analysis (--eigensolver auto or slepc) only");
  if (parallel_read && !parallel)
    distributed::collectively([] {
      fail("--parallel-read is the distributed analysis' reader: give --eigensolver auto or slepc (and no --bodies)");
    });
  if (!parallel) {
    if (distributed::rank() != 0) return std::nullopt;
    return Answered{packing::answer_packing(r, progress), {}, ""};
  }
  distributed::collectively([&] {
    for (const char* opt : {"--confirm", "--write-matrices", "--write-mode"})
      reject_unread(r, opt, "is not available in the distributed analysis (mpirun): run without mpirun");
    reject_unread(r, "--lammps-contacts", "(contact histories) is not read by the distributed analysis (mpirun): run "
                                          "without mpirun");
  }, true);
  packing::PackingRequest request = r;
  request.eigensolver = "auto";  // the distributed analysis chooses its own solver (below), whatever the serial default
  const auto solver = r.eigensolver == "slepc" ? distributed::DistributedEigensolver::krylov_schur
                                               : distributed::DistributedEigensolver::lanczos;
  // --parallel-read: no rank holds the whole packing (distributed/parallel_read.hpp); else rank 0
  // reads and builds it, then scatters.
  auto answered = parallel_read ? distributed::answer_packing_parallel_read(
                                      request, distributed::parse_operator_kind(operator_kind), solver, progress)
                                : distributed::answer_packing_distributed(
                                      request, distributed::parse_operator_kind(operator_kind), solver, progress);
  if (!answered) return std::nullopt;  // rank 0 writes the report
  nlohmann::json dj = distributed::to_json(answered->report);
  nlohmann::json extra;
  for (const char* key : {"ranks", "eigensolver", "distributed"}) extra[key] = dj.at(key);
  return Answered{std::move(answered->answer), std::move(extra), distributed::format_distributed(answered->report)};
#else
  (void)operator_kind;
  (void)parallel_read;
  if (r.eigensolver == "slepc")
    fail("--eigensolver slepc needs the distributed build (cmake --preset distributed; mpirun -np P dtcrit packing ...)");
  return Answered{packing::answer_packing(r, progress), {}, ""};
#endif
}

void run(const PackingOptions& o) {
  const auto& r = o.request;
  // Every output is checked before the computation and written only once the report is complete.
  OutputFiles files;
  files.declare("--output", o.output);
  const std::vector<std::string> matrix_files{"M.mtx", "K.mtx", "C.mtx", "dofs.json"};
  auto matrix_path = [&](const std::string& name) { return (std::filesystem::path(o.write_matrices) / name).string(); };
  if (!o.write_matrices.empty() && r.bodies.empty()) {
    if (!std::filesystem::is_directory(o.write_matrices))
      fail(fmt::format("--write-matrices '{}' is not an existing folder (create it first)", o.write_matrices));
    for (const auto& name : matrix_files) files.declare("--write-matrices", matrix_path(name));
  }
  if (r.bodies.empty()) files.declare("--write-mode", o.write_mode);
  const auto progress = terminal_progress();
  const auto answered = answer_request(r, o.operator_kind, o.parallel_read, progress);
  if (!answered) return;
  const packing::PackingAnswer& a = answered->answer;
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
  nlohmann::json mode_json;
  if (!o.write_mode.empty()) {
    // Undamped and symmetric, the top mode is the one that limits the step (2/omega_max); damped, the
    // dashpots move the limit and its mode: the -1 crossing's.
    const bool top = sys->symmetric() && !sys->damped();
    progress(top ? "the top mode" : "the mode of velocity Verlet's -1 crossing");
    const auto eo = packing::eigen_options(o.request);
    const auto mode = top ? packing::top_mode(*sys, eo) : packing::minus_one_mode_of_velocity_verlet(*sys, eo);
    files.write(o.write_mode, [&](std::ostream& out) { packing::write_mode_dump(out, a.packing, *sys, mode); });
    const std::string which =
        top ? fmt::format("top mode (omega = {:.10g} rad/{}, {} solve)", std::sqrt(mode.omega2), a.report.units.time,
                          mode.method)
            : fmt::format("mode of velocity Verlet's -1 crossing (the null vector of 4M - 2hC - h^2 K at h = {:.10g} {}, "
                          "relative residual {:.2g}; {})",
                          mode.h, a.report.units.time, mode.residual, mode.method);
    mode_json = top ? nlohmann::json{{"kind", "top mode"}, {"omega", std::sqrt(mode.omega2)},
                                     {"omega_unit", "rad/" + a.report.units.time}, {"method", mode.method}}
                    : nlohmann::json{{"kind", "-1 crossing of velocity_verlet"}, {"h", mode.h},
                                     {"h_unit", a.report.units.time}, {"relative_residual", mode.residual},
                                     {"method", mode.method}};
    export_text += fmt::format("{} written to {} as a LAMMPS dump: translation as vx vy vz (largest particle "
                               "translation 1), rotation as omegax.. [rad], amplitude = |translation|\n",
                               which, o.write_mode);
  }
  if (!a.bound_warning.empty()) std::cerr << "dtcrit: warning: " << a.bound_warning << "\n";
  if (a.histories)
    for (const auto& w : a.histories->warnings) std::cerr << "dtcrit: warning: " << w << "\n";
  std::string text;
  if (o.json) {
    auto j = to_json(a);
    if (!o.write_matrices.empty()) j["matrices_folder"] = o.write_matrices;
    if (!o.write_mode.empty()) {
      j["mode_file"] = o.write_mode;
      j["mode"] = mode_json;
    }
    if (!answered->distributed_json.is_null()) j.update(answered->distributed_json);
    text = json_text(j) + "\n";
  } else {
    text = format_packing_answer(a, answered->distributed_text);
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
  cmd->add_option("--bodies", r.bodies,
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
  cmd->add_option("--confirm", r.confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
#ifdef DTCRIT_WITH_MPI
  cmd->add_option("--operator", o->operator_kind,
                  "distributed analysis: the operator M^-1/2 K M^-1/2 as shell (matrix-free over GlobalSystem, "
                  "default) or assembled (PETSc MPIAIJ)")
      ->capture_default_str();
  cmd->add_flag("--parallel-read", o->parallel_read,
                "distributed analysis: every rank reads its own byte range of the --lammps-data file's Atoms section "
                "and the particles are redistributed by space, so that no rank holds the whole packing (atom_style "
                "sphere; no walls, --type-law, --clumps or --lammps-contacts)");
#endif
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("-o,--output", o->output, "write to this file instead of the terminal");
  cmd->add_option("--write-matrices", o->write_matrices,
                  "write M, K and C of the global system (MatrixMarket: M.mtx, K.mtx, C.mtx) and the dof ordering "
                  "(dofs.json) into this existing folder");
  cmd->add_option("--write-mode", o->write_mode,
                  "write the mode that limits velocity Verlet's step as a LAMMPS dump (undamped: the eigenvector of "
                  "omega_max; damped: the null vector of 4M - 2hC - h^2 K at its -1 crossing): translation as vx vy "
                  "vz, rotation as omegax omegay omegaz, amplitude (for OVITO)");
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
