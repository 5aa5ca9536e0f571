// dtcrit: critical time-steps and integrator stability for DEM simulations.
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dtcrit: critical time-steps and integrator stability for DEM simulations.\n"
               "All quantities in SI units (kg, m, s, N/m, N s/m)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dtcrit 0.1.0");
  dtcrit::cli::add_pair_command(app);
  dtcrit::cli::add_table_command(app);
  dtcrit::cli::add_example_command(app);
  dtcrit::cli::add_integrators_command(app);
  dtcrit::cli::add_sweep_command(app);
  dtcrit::cli::add_packing_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "dtcrit: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
