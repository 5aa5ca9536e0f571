#pragma once
// A user's own LAMMPS input script as the question "is my timestep safe?": the commands that set the
// packing, its contact laws, walls, periodicity, time step and integrator are read; the commands
// that cannot change the answer (thermo, dump, compute, run, neighbor, ...) are skipped and listed;
// every command that would change it and that dtcrit cannot honour (other units, pair styles or
// integrators, moving or non-planar walls, rigid bodies, per-atom edits after read_data, control
// flow) is an error "FILE:LINE: ..." — never a silent default.
//
// Read (LAMMPS 29 Sep 2021 syntax): units si; dimension; boundary (p = periodic); atom_style sphere;
// read_data FILE (relative to the script's folder; the packing is the data file's state, before
// the script's own runs); pair_style gran/hooke | gran/hooke/history | gran/hertz/history | granular
// with pair_coeff (* * or I J, contact/lammps_syntax.hpp); fix ID all wall/gran STYLE ARGS
// xplane|yplane|zplane LO HI [contacts] (one wall per non-NULL bound); timestep; run_style verlet;
// fix ID all nve/sphere [disc] (velocity Verlet: the registry's `velocity_verlet`); compute IDs of
// style property/local and pair/local (their keywords name the columns of a contact dump);
// variable NAME equal|index|string VALUE with a plain number or word, substituted as ${NAME} and $N.
#include <map>
#include <string>
#include <vector>

#include "dtcrit/packing/contacts.hpp"
#include "dtcrit/packing/packing.hpp"

namespace dtcrit::packing {

struct LammpsInput {
  std::string path;            // the script
  std::string data_file;       // read_data's file, resolved against the script's folder
  Packing packing;             // the data file's particles, periodicity from `boundary`, walls from fix wall/gran
  ContactLaws laws;            // pair_style + pair_coeff
  double timestep = 0.0;       // [s]
  bool timestep_default = false;  // no `timestep` line: LAMMPS' default for units si, 1e-8 s
  std::string integrator = "velocity_verlet";  // fix nve/sphere as the registry names it
  // compute ID -> its keywords (property/local: patom1 patom2 ...; pair/local: dist force p1 ...), to
  // name the columns of a contact dump (read_lammps_contacts).
  std::map<std::string, std::vector<std::string>> computes;
  std::map<std::string, std::vector<int>> wall_fixes;  // fix ID -> indices into packing.walls
  std::vector<std::string> taken;    // "FILE:LINE: command" of every line that set something
  // The pair_style, pair_coeff and fix wall/gran commands as read (variables substituted), in the
  // script's order: what a LAMMPS probe of the same packing repeats (dtcrit lammps-check).
  std::vector<std::string> law_commands;
  // fix gravity commands: loads, no stiffness (skipped by the analysis), but they hold a settled
  // packing in the state the data file records, so a probe repeats them.
  std::vector<std::string> load_commands;
  std::vector<std::string> skipped;  // names of the commands skipped (once each, in order)
};

// LAMMPS' default time step for units si [s] (update.cpp: dt = 1.0e-8 for "si").
inline constexpr double lammps_si_default_timestep = 1e-8;

// Throws std::invalid_argument "FILE:LINE: ..." for a command it cannot honour.
LammpsInput read_lammps_input(const std::string& path);

}  // namespace dtcrit::packing
