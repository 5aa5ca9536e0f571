#pragma once
// One function per subcommand: registers its options and its callback.
#include <CLI/CLI.hpp>

namespace dtcrit::cli {

// The damping convention, stated in the --help of every command that takes a contact law.
inline constexpr const char* damping_convention =
    "Damping: --restitution, --cn or --gamma-n set the normal dashpot; without --ct, --ct-ratio or --gamma-t the "
    "tangential one follows LAMMPS (gran/hooke/history with gamma_t NULL): gamma_t = gamma_n / 2, i.e. ct = cn / 2. "
    "Every report echoes the effective inputs and the defaults applied.";

void add_pair_command(CLI::App& app);
void add_example_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_integrators_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_packing_command(CLI::App& app);
void add_lammps_check_command(CLI::App& app);

}  // namespace dtcrit::cli
