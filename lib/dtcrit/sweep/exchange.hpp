#pragma once
// The per-integrator results of a sweep as bytes and back, exactly (every double to the bit, NaN and
// infinities included: CBOR), so that processes that each swept some of the integrators can hand
// them to one that writes the whole report: `dtcrit sweep` under mpirun (distributed/README.md).
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/sweep/sweep.hpp"

namespace dtcrit::sweep {

std::string to_bytes(const std::vector<IntegratorSweep>& sweeps);
// Throws (naming what is wrong) on bytes that to_bytes() did not write.
std::vector<IntegratorSweep> integrator_sweeps_from_bytes(std::string_view bytes);

}  // namespace dtcrit::sweep
