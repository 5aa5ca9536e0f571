#pragma once
// Readers for packings written by LAMMPS.
//
//  - Data files as write_data writes them with atom_style sphere: a comment line, header lines
//    ("N atoms", "N atom types", "xlo xhi", "ylo yhi", "zlo zhi"; other counts are ignored,
//    "xy xz yz" (triclinic) is rejected), then sections. "Atoms" (style hint "# sphere" if present)
//    holds "id type diameter density x y z" with optional image flags "ix iy iz"; "Atoms # hybrid"
//    (atom_style hybrid sphere molecular, fix rigid/small's clumps) holds "id type x y z diameter
//    density molecule" and the optional image flags, the molecule IDs kept in Packing::molecule
//    (without a hint, 8 or 11 columns mean hybrid); every other
//    section (Velocities, Bonds, Pair Coeffs, ...) is skipped. mass = density * volume (see
//    packing.hpp for 2D). A data file does not record periodicity: set ReadOptions::periodic.
//  - Text dumps (dump atom/custom): ITEM: TIMESTEP / NUMBER OF ATOMS / BOX BOUNDS xx yy zz /
//    ATOMS <columns>; the columns are found by name: position x|xu|xs (scaled: unscaled with the
//    box), y.., z..; radius or diameter; optional type, mass. Periodicity comes from the BOX BOUNDS
//    flags ("pp" periodic; "ff", "fs", "sm", ... not). The last snapshot of the file is read. Without
//    a mass column, mass = ReadOptions::density * volume.
//
// A malformed file throws std::invalid_argument "FILE:LINE: expected ..., got '...'".
#include <array>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::packing {

struct ReadOptions {
  int dimension = 3;  // 2: z must be the same for every particle; it is dropped
  BodyModel body_model = BodyModel::sphere;  // 2D only
  std::optional<std::array<bool, 3>> periodic;  // data files: periodic axes (default none); dumps: overrides
  std::optional<double> density;  // dumps without a mass column [kg/m^3]
};

Packing read_lammps_data(const std::string& path, const ReadOptions& opts = {});
Packing read_lammps_dump(const std::string& path, const ReadOptions& opts = {});
// The same from a stream; `path` names it in the messages (the fuzz targets read from memory).
Packing read_lammps_data(std::istream& in, const std::string& path, const ReadOptions& opts = {});
Packing read_lammps_dump(std::istream& in, const std::string& path, const ReadOptions& opts = {});

// Writes a packing as write_data would (atom_style sphere, "Atoms # sphere"), for tests and for
// handing a generated lattice to LAMMPS. Written atomically. `velocities`, when given, holds per
// particle (vx, vy, vz, omegax, omegay, omegaz) [m/s, rad/s] for the Velocities section (else zeros).
void write_lammps_data(const std::string& path, const Packing& p,
                       const std::vector<std::array<double, 6>>* velocities = nullptr);

}  // namespace dtcrit::packing
