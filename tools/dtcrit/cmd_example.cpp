// dtcrit example: the embedded default, Burns & Hanley (2016) Fig. 6(b) at kt/kn = 0.5.
#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"
#include "pair_options.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/io/json_text.hpp"

namespace dtcrit::cli {

namespace {
// Plate 1 mm x 0.75 mm, disc radius 0.5 mm, both 0.003 kg; plate-plate eccentricity e = e' = 0.4 mm.
const char* const plate_eccentric = "shape=rect,a=0.001,b=0.00075,m=0.003,e=0.0004";
const char* const plate_centred = "shape=rect,a=0.001,b=0.00075,m=0.003,e=0";
const char* const disc = "shape=disc,r=0.0005,m=0.003";
}  // namespace

void add_example_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("example",
                                 "the embedded default example: Burns & Hanley (2016) Fig. 6(b), plate-plate "
                                 "(e = e' = 0.4 mm), plate-disc and disc-disc, kn = 8e7 N/m, kt/kn = 0.5, undamped");
  auto opts = std::make_shared<PairOptions>();
  auto json = std::make_shared<bool>(false);
  auto margin = std::make_shared<double>(default_step_margin);
  opts->kn = 8e7;
  opts->kt_ratio = 0.5;
  opts->add_to(*cmd, /*with_bodies=*/false);
  cmd->add_flag("--json", *json, "print a JSON array, one object per configuration");
  cmd->add_option("--margin", *margin, "recommended step = margin x the velocity_verlet limit [-] (see dtcrit pair --help)")
      ->capture_default_str();
  cmd->footer(damping_convention);
  cmd->callback([=] {
    const auto specs = expand_integrator_specs(opts->integrators);
    std::vector<PairReport> reports;
    const std::vector<std::array<const char*, 3>> configs{
        {"plate-plate", plate_eccentric, plate_eccentric},
        {"plate-disc", plate_centred, disc},
        {"disc-disc", disc, disc}};
    for (const auto& [label, b1, b2] : configs) {
      PairOptions o = *opts;
      o.body1 = b1;
      o.body2 = b2;
      const PairInput input = o.input();
      auto report = analyse_pair(label, build_model(input), o.material(), specs);
      report.defaults = applied_defaults(input);
      report.recommendation = recommend_step(report, *margin);
      reports.push_back(std::move(report));
    }
    if (*json) {
      auto arr = nlohmann::json::array();
      for (const auto& r : reports) arr.push_back(to_json(r));
      std::cout << json_text(arr) << "\n";
      return;
    }
    std::cout << "Critical time-steps of one contact, Burns & Hanley (2016) Fig. 6(b):\n"
              << "  plate 1 mm x 0.75 mm, disc radius 0.5 mm, every body m = 0.003 kg; the effective inputs first\n\n"
              << format_pair_table(reports)
              << "\nburns2016 is the paper's estimate pi/(2 max|lambda(Q)|); h_crit rows are each integrator's exact\n"
                 "limit, measured from its own amplification matrix. Options: dtcrit example --help; one contact of\n"
                 "your own: dtcrit pair --help.\n";
  });
}

}  // namespace dtcrit::cli
