#pragma once
// LAMMPS' `region` command as a region wall (assembly/region_wall.hpp), in the syntax of LAMMPS
// 29 Sep 2021 (src/region.cpp options(), region_plane/block/cylinder/cone/sphere.cpp constructors):
//   region ID plane  px py pz nx ny nz                 [options]
//   region ID block  xlo xhi ylo yhi zlo zhi           [options]
//   region ID cylinder dim c1 c2 radius lo hi          [options]
//   region ID cone   dim c1 c2 radlo radhi lo hi       [options]
//   region ID sphere x y z radius                      [options]
//   region ID union|intersect N reg-ID1 ... reg-IDN    [side in] (sub-regions from `regions`)
//   options: side in|out, units box|lattice, open N, move v_x v_y v_z (NULL for none),
//            rotate v_theta Px Py Pz Rx Ry Rz
// A bound may be INF / -INF (LAMMPS' 1e20) or EDGE (the box's bound, when the caller gives the
// box). A shape value, move or rotate may name an equal-style variable v_NAME: its value at the
// state's time step comes from `variables` (the reader evaluates it; dtcrit does not). `units
// lattice` is LAMMPS' default: with no `lattice` command the spacing is 1 (measured with `lmp`:
// the same forces with and without `units box`), so values are taken as they stand; after a
// `lattice` command dtcrit refuses it (the spacing is not read).
// Other styles (prism, ellipsoid, ...) are refused by name.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/assembly/region_wall.hpp"

namespace dtcrit::packing {

struct RegionReadContext {
  std::map<std::string, double> variables;   // NAME (without v_) -> value at the state
  bool lattice_command = false;              // the script gave `lattice` before this region
  std::optional<std::array<Vec3, 2>> box;    // [lo, hi], for EDGE
  std::map<std::string, RegionWall> regions; // the regions defined before (sub-regions of union / intersect)
};

// `words`: the command split into words, variables substituted, with or without the leading
// "region". Throws std::invalid_argument naming the region, the keyword and the value.
RegionWall parse_lammps_region(const std::vector<std::string>& words, const RegionReadContext& context = {});

}  // namespace dtcrit::packing
