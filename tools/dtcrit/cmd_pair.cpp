// dtcrit pair: one contact, every estimate and every integrator's exact limit, and the step to use.
#include <iostream>

#include "commands.hpp"
#include "pair_options.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/io/json_text.hpp"

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
                  "recommended step = margin [-] x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--accuracy", *accuracy,
                  "also bound the recommended step by accuracy, e.g. restitution=1% (or peak_overlap, "
                  "contact_duration): the sweep engine's head-on collision with this pair's normal effective mass "
                  "under its law (--lammps-pair, --hertz-mindlin: the law's own collision at --impact-velocity; "
                  "--kn: the linear spring and dashpot); collinear contacts only");
  cmd->footer(damping_convention);
  cmd->callback([=] {
    if (*json && *csv) throw std::invalid_argument("choose one of --json and --csv");
    OutputFiles files;
    files.declare("--output", *out);
    PairRequest request = opts->request();
    request.margin = *margin;
    request.accuracy = *accuracy;
    const auto report = answer_pair(request);
    if (*json) emit(files, *out, json_text(to_json(report)) + "\n");
    else if (*csv) emit(files, *out, format_pair_csv({report}));
    else emit(files, *out, format_pair_table({report}));
    files.commit();
  });
}

}  // namespace dtcrit::cli
