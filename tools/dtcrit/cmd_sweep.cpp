// dtcrit sweep: convergence order, empirical and predicted stability limits and the
// accuracy-limited step of integrators on a named DEM case (lib/dtcrit/sweep).
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "pair_options.hpp"
#include "progress.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/plot.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/report.hpp"
#include "dtcrit/sweep/sweep.hpp"
#include "dtcrit/io/json_text.hpp"
#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/runtime.hpp"
#include "dtcrit/sweep/exchange.hpp"
#endif

namespace dtcrit::cli {

namespace {

struct SweepCli {
  std::string case_name;
  std::vector<std::string> integrators{"all"};
  std::vector<std::string> sets;
  std::string tangential = "traditional";
  bool json = false, csv = false, quick = false, list = false;
  std::string output, plot, plot_quantity, json_file, csv_file;
  int levels = 0, phases = 0, reference_refinement = -1;
  double h0 = 0.0, tolerance = 0.01, growth = 1e4;
  std::string reference, accuracy_quantity;
  bool no_stability = false, stability = false, no_accuracy = false;
  long stability_steps = 20000;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
};

std::string list_cases() {
  std::string out;
  for (const auto& name : sweep::case_names()) {
    out += fmt::format("{}: {}\n", name, sweep::case_summary(name));
    const auto c = sweep::make_case(name, sweep::CaseOptions{});
    TextTable t({"  key", "default", "meaning"});
    for (const auto& p : c->parameters()) t.add_row({"  " + p.name, fmt::format("{:g}", p.value), p.meaning});
    out += t.to_text() + "\n";
  }
  return out;
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("sweep", "convergence orders, empirical vs predicted stability limits and the "
                                          "accuracy-limited step of integrators on a named DEM case");
  auto o = std::make_shared<SweepCli>();
  cmd->add_option("--case", o->case_name, "the case (see --list)");
  cmd->add_flag("--list", o->list, "list the cases and their parameters, then exit");
  cmd->add_option("--integrator", o->integrators, "integrator spec(s) of the registry, or 'all' (repeatable)")
      ->capture_default_str();
  cmd->add_option("--set", o->sets, "case parameters key=value,key=value (unknown keys are rejected)");
  cmd->add_option("--tangential", o->tangential, "tangential history update: traditional | consistent")
      ->capture_default_str();
  auto* json = cmd->add_flag("--json", o->json, "JSON instead of the table");
  auto* csv = cmd->add_flag("--csv", o->csv, "tidy CSV (one row per observation) instead of the table");
  json->excludes(csv);
  cmd->add_option("--output,-o", o->output, "write the table / CSV / JSON to this file (atomically)");
  cmd->add_option("--json-file", o->json_file, "also write the JSON to this file (atomically)");
  cmd->add_option("--csv-file", o->csv_file, "also write the tidy CSV to this file (atomically)");
  cmd->add_option("--plot", o->plot, "log-log plot of error against h (PNG or SVG)");
  cmd->add_option("--plot-quantity", o->plot_quantity, "channel or outcome to plot (default: the first channel)");
  cmd->add_flag("--quick", o->quick, "the case's small version (fewer levels, phases, collisions, particles)");
  cmd->add_option("--levels", o->levels, "number of step sizes h0 / 2^k (default: the case's)");
  cmd->add_option("--phases", o->phases, "contact-onset phases averaged (default: the case's)");
  cmd->add_option("--h0", o->h0, "coarsest step [s] (default: the case's)");
  cmd->add_option("--reference", o->reference, "reference integrator where no analytic solution exists (default: the case's)");
  cmd->add_option("--reference-refinement", o->reference_refinement, "reference step h_min / 2^r (default: the case's)");
  cmd->add_flag("--no-stability", o->no_stability, "skip the stability limits");
  cmd->add_flag("--stability", o->stability, "compute the stability limits even where the case skips them by default");
  cmd->add_option("--stability-steps", o->stability_steps, "minimum steps of each stability run")->capture_default_str();
  cmd->add_option("--growth", o->growth, "blow-up: energy above its floor grows by this factor [-]")->capture_default_str();
  cmd->add_option("--accuracy-quantity", o->accuracy_quantity,
                  "quantity of the accuracy-limited step: a channel (position, velocity, energy, ...) or an outcome "
                  "(restitution, peak_overlap, contact_duration, ...); default: the case's");
  cmd->add_option("--tolerance", o->tolerance, "relative tolerance of the accuracy-limited step [-], e.g. 0.01 = 1 %")->capture_default_str();
  cmd->add_flag("--no-accuracy", o->no_accuracy, "skip the accuracy-limited step");
  cmd->add_option("--threads", o->threads,
                  "integrators swept at once (default: the hardware threads; the results do not depend on it)")
      ->capture_default_str();
  cmd->callback([o] {
    // Every output is checked before the sweep runs, and all are written together at the end.
    OutputFiles files;
    files.declare("--output", o->output);
    if (o->list) {
      emit(files, o->output, list_cases());
      files.commit();
      return;
    }
    files.declare("--json-file", o->json_file);
    files.declare("--csv-file", o->csv_file);
    files.declare("--plot", o->plot, OutputFormat::plot);
    if (o->case_name.empty())
      fail(fmt::format("--case is required; valid cases: {}", fmt::join(sweep::case_names(), ", ")));
    std::string spec;
    for (const auto& s : o->sets) spec += (spec.empty() ? "" : ",") + s;
    sweep::CaseOptions co{KeyValues(spec, "--set"), o->tangential, o->quick};
    stepper::parse_tangential_history(o->tangential);  // validates the word
    const auto c = sweep::make_case(o->case_name, co);

    sweep::SweepOptions so;
    so.integrators = expand_integrator_specs(o->integrators);
    so.levels = o->levels;
    so.phases = o->phases;
    so.h0 = o->h0;
    so.reference = o->reference;
    so.reference_refinement = o->reference_refinement;
    so.stability = o->no_stability ? 0 : o->stability ? 1 : -1;
    so.stability_steps = o->stability_steps;
    so.growth = o->growth;
    so.accuracy = !o->no_accuracy;
    so.accuracy_quantity = o->accuracy_quantity;
    so.tolerance = o->tolerance;
    if (o->threads < 1) fail(fmt::format("--threads = {} must be >= 1", o->threads));
    so.threads = o->threads;
    ProgressBar bar("runs");  // the plan grows with the bisections: the time left is a lower estimate
#ifdef DTCRIT_WITH_MPI
    // Under mpirun the integrators are dealt round-robin (integrator k to rank k mod P: rank 0 always
    // has one, and the slow implicit ones spread), every rank sweeps its own with the same case,
    // references and linearisation, and rank 0 puts the results back in the given order and writes
    // the report once: the same report as one process (its per-integrator wall times aside).
    const std::vector<std::string> specs = so.integrators;
    if (specs.empty()) fail("sweep: no integrator given");
    const auto P = static_cast<std::size_t>(distributed::ranks()), me = static_cast<std::size_t>(distributed::rank());
    so.integrators.clear();
    for (std::size_t k = me; k < specs.size(); k += P) so.integrators.push_back(specs[k]);
    if (me == 0 && bar.enabled()) so.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
    sweep::SweepResult r;
    distributed::collectively([&] {
      if (!so.integrators.empty()) r = sweep::run_sweep(*c, o->tangential, so);
    });
    if (me == 0) bar.finish();
    const std::vector<std::string> parts = distributed::gather_bytes(sweep::to_bytes(r.integrators));
    if (me != 0) return;
    std::vector<std::vector<sweep::IntegratorSweep>> per_rank;
    for (const auto& bytes : parts) per_rank.push_back(sweep::integrator_sweeps_from_bytes(bytes));
    r.integrators.clear();
    for (std::size_t k = 0; k < specs.size(); ++k) r.integrators.push_back(per_rank.at(k % P).at(k / P));
#else
    if (bar.enabled()) so.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
    const sweep::SweepResult r = sweep::run_sweep(*c, o->tangential, so);
    bar.finish();
#endif

    const std::string main_text = o->json  ? json_text(sweep::to_json(r)) + "\n"
                                  : o->csv ? sweep::to_csv(r)
                                           : sweep::to_text(r);
    if (!o->output.empty()) files.write_text(o->output, main_text);
    if (!o->json_file.empty()) files.write_text(o->json_file, json_text(sweep::to_json(r)) + "\n");
    if (!o->csv_file.empty()) files.write_text(o->csv_file, sweep::to_csv(r));
    if (!o->plot.empty())
      files.plot(o->plot, sweep::error_plot(r, o->plot_quantity.empty() ? r.channels.front().name : o->plot_quantity));
    files.commit();
    if (o->output.empty()) std::cout << main_text << std::flush;
  });
}

}  // namespace dtcrit::cli
