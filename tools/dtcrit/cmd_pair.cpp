// dtcrit pair: one contact, every estimate and every integrator's exact limit, and the step to use.
#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"
#include "pair_options.hpp"

#include "dtcrit/analysis/accuracy_step.hpp"
#include "dtcrit/analysis/pair_analysis.hpp"

namespace dtcrit::cli {

void add_pair_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("pair", "critical time-steps of one contact between two planar rigid bodies");
  auto opts = std::make_shared<PairOptions>();
  auto json = std::make_shared<bool>(false);
  auto csv = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  auto margin = std::make_shared<double>(default_step_margin);
  auto accuracy = std::make_shared<std::string>();
  opts->add_to(*cmd);
  cmd->add_flag("--json", *json, "print one JSON object");
  cmd->add_flag("--csv", *csv, "print tidy CSV (one row per input, estimate or integrator)");
  cmd->add_option("-o,--output", *out, "write to this file instead of the terminal");
  cmd->add_option("--margin", *margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--accuracy", *accuracy,
                  "also bound the recommended step by accuracy, e.g. restitution=1% (or peak_overlap, "
                  "contact_duration): the sweep engine's head-on collision with this pair's normal effective mass, "
                  "kn and damping; collinear contacts only");
  cmd->footer(damping_convention);
  cmd->callback([=] {
    if (*json && *csv) throw std::invalid_argument("choose one of --json and --csv");
    OutputFiles files;
    files.declare("--output", *out);
    const PairInput input = opts->input();
    const auto model = build_model(input);
    auto report = analyse_pair("", model, opts->material(), expand_integrator_specs(opts->integrators));
    report.defaults = applied_defaults(input);
    report.recommendation = recommend_step(report, *margin);
    if (!accuracy->empty() && report.recommendation) {
      const auto [quantity, tolerance] = parse_accuracy(*accuracy);
      const auto a = pair_accuracy_step(model, report.recommendation->integrator, quantity, tolerance);
      report.recommendation->h_accuracy = a.h;
      report.recommendation->accuracy =
          fmt::format("{} within {:g}%{}", quantity, 100 * tolerance,
                      a.status == "above_grid" ? ", met already at the coarsest step tried, t_c/8: a lower bound" : "");
    }
    if (*json) emit(files, *out, to_json(report).dump(2) + "\n");
    else if (*csv) emit(files, *out, format_pair_csv({report}));
    else emit(files, *out, format_pair_table({report}));
    files.commit();
  });
}

}  // namespace dtcrit::cli
