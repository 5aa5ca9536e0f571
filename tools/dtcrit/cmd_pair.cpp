// dtcrit pair: one contact, every estimate and every integrator's exact limit.
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
  opts->add_to(*cmd);
  cmd->add_flag("--json", *json, "print one JSON object");
  cmd->add_flag("--csv", *csv, "print tidy CSV (one row per estimate or integrator)");
  cmd->add_option("-o,--output", *out, "write to this file instead of the terminal");
  cmd->callback([=] {
    if (*json && *csv) throw std::invalid_argument("choose one of --json and --csv");
    OutputFiles files;
    files.declare("--output", *out);
    const auto model = build_model(opts->input());
    const auto report = analyse_pair("", model, opts->material(), expand_integrator_specs(opts->integrators));
    if (*json) emit(files, *out, to_json(report).dump(2) + "\n");
    else if (*csv) emit(files, *out, format_pair_csv({report}));
    else emit(files, *out, format_pair_table({report}));
    files.commit();
  });
}

}  // namespace dtcrit::cli
