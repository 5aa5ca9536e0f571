#pragma once
// What each rank holds of the packing once the input stage is over, however it was read: rank 0's
// Splitter (the whole packing read on rank 0, then scattered) or the parallel reader
// (parallel_read.hpp: each rank a part of the data file, redistributed by space). The analysis from
// there on (local GlobalSystem, operator, eigensolves, limits) is one code for both.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/distributed/distributed_analysis.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

namespace dtcrit::distributed {

struct WireContact {  // packing::Contact without Eigen's types
  std::int32_t i, j, law;
  double normal[3];
  double overlap;
};

// What a rank receives: its owned particles (first) and ghosts, their global indices in the
// partitioned numbering (rank by rank, owned particles contiguous), the owned particles' indices in
// the packing as read (ascending from the Splitter; in any order from the parallel reader, which sorts
// them in space), and the contacts touching an owned particle in local indices.
struct LocalPart {
  Index owned = 0;
  std::int64_t first_global = 0;  // global index of the first owned particle
  std::vector<std::int64_t> global;
  std::vector<std::int64_t> original;  // owned particles only: the Lanczos start vector's entries
  std::vector<double> centre, radius, mass, inertia;
  std::vector<int> type;
  std::vector<WireContact> contacts;
};

// What every rank needs of the whole packing.
struct Globals {
  int dim = 3;
  double box_lo[3] = {}, box_hi[3] = {};
  bool periodic[3] = {};
  std::int64_t particles = 0;
  std::vector<contact::ContactLaw> laws;
};

// The input stage's result on every rank; report (its facts of the whole packing: source, dim,
// particles, contacts, rattlers, coordination) and estimates complete on rank 0 only.
struct LocalInput {
  Globals globals;
  LocalPart part;
  // The parallel reader's contacts, already a ContactSet in local indices (part.contacts then empty):
  // moved into the GlobalSystem without a copy.
  std::optional<packing::ContactSet> contacts;
  packing::PackingReport report;
  packing::EstimateInputs estimates;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  // of the rank's wall time
  std::string input;  // how the packing was read, for the report's distributed.input
};

// Rank 0's options on every rank (collective).
DistributedOptions shared_options(const DistributedOptions& mine);
// The analysis from each rank's part on (collective): analyse_distributed after its input stage.
DistributedReport analyse_local(LocalInput in, const DistributedOptions& shared);

}  // namespace dtcrit::distributed
