#pragma once
// One function per subcommand: registers its options and its callback.
#include <CLI/CLI.hpp>

namespace dtcrit::cli {

void add_pair_command(CLI::App& app);
void add_example_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_integrators_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_packing_command(CLI::App& app);

}  // namespace dtcrit::cli
