// dtcrit pair: one contact, every estimate and every integrator's exact limit, and the step to use.
#include <iostream>

#include "commands.hpp"
#include "pair_options.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"

namespace dtcrit::cli {

void add_pair_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("pair", "critical time-steps of one contact between two planar rigid bodies");
  auto opts = std::make_shared<PairOptions>();
  auto json = std::make_shared<bool>(false);
  auto csv = std::make_shared<bool>(false);
  auto out = std::make_shared<std::string>();
  auto margin = std::make_shared<double>(default_step_margin);
  opts->add_to(*cmd);
  cmd->add_flag("--json", *json, "print one JSON object");
  cmd->add_flag("--csv", *csv, "print tidy CSV (one row per input, estimate or integrator)");
  cmd->add_option("-o,--output", *out, "write to this file instead of the terminal");
  cmd->add_option("--margin", *margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->footer(damping_convention);
  cmd->callback([=] {
    if (*json && *csv) throw std::invalid_argument("choose one of --json and --csv");
    const PairInput input = opts->input();
    const auto model = build_model(input);
    auto report = analyse_pair("", model, opts->material(), expand_integrator_specs(opts->integrators));
    report.defaults = applied_defaults(input);
    report.recommendation = recommend_step(report, *margin);
    if (*json) emit(*out, to_json(report).dump(2) + "\n");
    else if (*csv) emit(*out, format_pair_csv({report}));
    else emit(*out, format_pair_table({report}));
  });
}

}  // namespace dtcrit::cli
