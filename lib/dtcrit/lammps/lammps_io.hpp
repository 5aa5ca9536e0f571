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
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
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

// A data file read in parts (the distributed build's parallel reader): its header and where its Atoms
// section's lines begin, then any run of those lines parsed alone by the parser read_lammps_data uses.
struct DataFileLayout {
  long atoms = 0, atom_types = 0;
  Vec3 box_lo = Vec3::Zero(), box_hi = Vec3::Zero();
  bool hybrid = false;               // atom_style hybrid sphere molecular (the hint, or the first line's columns)
  std::uint64_t size = 0;            // of the file [bytes]
  std::uint64_t atoms_begin = 0;     // byte offset of the line after the Atoms keyword line
  long atoms_first_line = 0;         // its line number
};
// Reads up to the Atoms keyword line only (the header, and the sections before it skipped); the same
// checks of the header and of ReadOptions::periodic against the box as read_lammps_data.
DataFileLayout read_lammps_data_layout(const std::string& path, const ReadOptions& opts = {});
// Whether a line is a keyword line (a section's name: its first character, comments removed, is a letter).
bool is_section_line(std::string_view line);
// The particles of `text`, lines of the Atoms section (blank and comment lines allowed, no keyword
// line) whose first is line `first_line` of the file (for the messages), each parsed as
// read_lammps_data parses it: id, type, radius, mass, inertia, centre (molecules dropped); box from
// the layout, periodic axes not set.
Packing read_lammps_data_atoms(std::string text, const std::string& path, long first_line, const DataFileLayout& layout,
                               const ReadOptions& opts = {});

// Writes a packing as write_data would (atom_style sphere, "Atoms # sphere"), for tests and for
// handing a generated lattice to LAMMPS. Written atomically. `velocities`, when given, holds per
// particle (vx, vy, vz, omegax, omegay, omegaz) [m/s, rad/s] for the Velocities section (else zeros).
void write_lammps_data(const std::string& path, const Packing& p,
                       const std::vector<std::array<double, 6>>* velocities = nullptr);

}  // namespace dtcrit::packing
