#pragma once
// `mpirun -np P dtcrit packing --lammps-data FILE --parallel-read ...`: the packing read in parts, so
// that no rank ever holds the whole of it. Every rank reads the data file's header
// (lammps/lammps_io.hpp read_lammps_data_layout); the Atoms section is cut into P byte ranges at line
// starts and each rank parses its own lines with the serial reader's line parser
// (read_lammps_data_atoms); the particles go to ranks by space (recursive coordinate bisection of a
// sample gathered from every rank, partition.hpp rcb_cuts; one MPI_Alltoallv); each rank receives
// copies (ghosts) of the particles of other ranks within the largest contact distance of its
// particles' bounding box, periodic images included; each rank finds the contacts of its owned
// particles and ghosts with the serial contact search (packing::find_contacts) and keeps those that
// touch an owned particle, and the ghosts they reach: the part rank 0's Splitter would have sent it.
// The analysis then runs as for the rank-0 input (analyse_local).
//
// Reads atom_style sphere data files (and hybrid sphere molecular, molecule IDs ignored) with the
// law of --kn/--kt/--gamma-n/--gamma-t, --lammps-pair or --hertz-mindlin and --periodic. Refused,
// each with an error naming the option: every other source, --wall, --box-walls, --type-law,
// --clumps, --lammps-contacts, --dimension 2, --disc.
#include <functional>
#include <optional>
#include <string_view>

#include "dtcrit/distributed/distributed_analysis.hpp"

namespace dtcrit::distributed {

// Collective; the answer on rank 0 (its `packing` holds the extremes of radius, mass and inertia
// only, which the report's input echo shows), nullopt on the other ranks.
std::optional<DistributedAnswer> answer_packing_parallel_read(const packing::PackingRequest& request, OperatorKind op,
                                                              DistributedEigensolver eigensolver,
                                                              const std::function<void(std::string_view)>& progress);

}  // namespace dtcrit::distributed
