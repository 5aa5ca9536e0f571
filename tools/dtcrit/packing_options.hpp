#pragma once
// The options of every command that analyses a packing (`dtcrit packing`, `dtcrit lammps-check`):
// which packing (lattice, LAMMPS data or dump file, or the user's LAMMPS input script), which contact
// law, walls, periodicity, contact histories and eigensolver, registered once onto the library's
// PackingRequest, which checks them and answers (packing/packing_request.hpp).
#include <CLI/CLI.hpp>

#include "dtcrit/packing/packing_request.hpp"

namespace dtcrit::cli {

// Registers the shared options on `cmd`; the options only `dtcrit packing` reads (--integrator,
// --margin, --youngs, --poisson, --amplification-dofs) are registered by that command.
void add_packing_request_options(CLI::App* cmd, packing::PackingRequest& request);
// Fills request.given from the options CLI11 parsed (call first in the callback).
void record_given(const CLI::App* cmd, packing::PackingRequest& request);

}  // namespace dtcrit::cli
