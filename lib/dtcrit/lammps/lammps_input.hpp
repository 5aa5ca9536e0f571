#pragma once
// A user's own LAMMPS input script as the question "is my timestep safe?". The script gives the
// physics (units, dimension, boundary, pair and wall laws per type, timestep, integrator fix); the
// state - the particles at the moment of interest - is a data file: the script's own read_data, or
// the file that write_data wrote during the run, given beside the script (--lammps-data).
//
// The script is read top to bottom as LAMMPS would run it (29 Sep 2021 syntax). Commands that only
// make or drive the run (create_box, regions for insertion, fix pour/deposit, velocity, thermo,
// dump, run, unfix, ...) are skipped and listed; the physics in effect is the one at the script's
// last `run` (a later pair_coeff, timestep or unfix counts), or at the run chosen with
// LammpsInputOptions::run. Every command that would change the answer and that dtcrit cannot honour
// (pair styles or integrators it does not model, rigid bodies, control flow, ...) is an error
// "FILE:LINE: ..." - never a silent default.
//
// Read: units si|cgs|micro|nano|lj (every number in the script's units; results are printed in
// them); dimension; boundary and change_box ... boundary (p = periodic); atom_style sphere;
// read_data FILE (relative to the script's folder); include FILE (likewise); pair_style
// gran/hooke | gran/hooke/history | gran/hertz/history | granular, alone or as the one sub-style of
// hybrid / hybrid/overlay, with pair_coeff I J (type ranges as utils::bounds: *, N*, *N, M*N; pairs
// without a line mixed as LAMMPS' init_one does, contact/lammps_mixing.hpp);
// fix ID all wall/gran STYLE ARGS xplane|yplane|zplane LO HI [contacts]; timestep; run_style
// verlet; fix ID all nve/sphere [disc] (velocity Verlet: the registry's `velocity_verlet`);
// compute IDs of style property/local and pair/local (their keywords name the columns of a contact
// dump); variable NAME equal|index|string|... with equal-style formulas evaluated as LAMMPS does
// (lammps_expression.hpp), substituted as ${NAME}, $N and v_NAME.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/core/units.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::packing {

struct LammpsInputOptions {
  // The state beside the script (write_data at the moment of interest): replaces the script's
  // read_data, and is required when the script makes its particles itself (create_box, fix pour).
  std::string data_file;
  // The physics in effect at the script's N-th `run` command (1-based); nullopt: the last run
  // (or the end of the script when it has no run).
  std::optional<int> run;
};

struct LammpsInput {
  std::string path;            // the script
  std::string data_file;       // the state: LammpsInputOptions::data_file, else read_data's file (resolved)
  std::string state_from;      // "--lammps-data" or "read_data at FILE:LINE"
  Packing packing;             // the data file's particles, periodicity from `boundary`, walls from fix wall/gran
  ContactLaws laws;            // pair_style + pair_coeff per type pair
  UnitSystem units;            // the script's units (LAMMPS' default lj without a units line)
  bool units_default = false;  // no `units` line
  double timestep = 0.0;       // [units.time]
  bool timestep_default = false;  // no `timestep` line: LAMMPS' default for the units
  std::string integrator = "velocity_verlet";  // fix nve/sphere as the registry names it
  // fix rigid/small molecule: each molecule ID of the state one rigid body (integrator rigid_small)
  bool rigid_molecules = false;
  int runs = 0;                // `run` commands in the script
  std::string run_taken;       // whose physics: "run 2 of 2 (FILE:LINE: run 25000)" or "the end of the script"
  // compute ID -> its keywords (property/local: patom1 patom2 ...; pair/local: dist force p1 ...), to
  // name the columns of a contact dump (read_lammps_contacts).
  std::map<std::string, std::vector<std::string>> computes;
  std::map<std::string, std::vector<int>> wall_fixes;  // fix ID -> indices into packing.walls
  std::map<std::string, contact::ContactLaw> wall_laws;  // fix ID -> its walls' law at the run taken
  std::vector<std::string> taken;    // "FILE:LINE: command" of every line whose setting is in effect
  // The pair_style, pair_coeff and fix wall/gran commands in effect (variables substituted), in the
  // script's order: what a LAMMPS probe of the same packing repeats (dtcrit lammps-check). The
  // region commands of region walls are not among them: the probe writes each region as it is at
  // the state (lammps_region_commands), where the script's may move with time.
  std::vector<std::string> law_commands;
  // fix gravity commands: loads, no stiffness (skipped by the analysis), but they hold a settled
  // packing in the state the data file records, so a probe repeats them.
  std::vector<std::string> load_commands;
  std::vector<std::string> skipped;  // names of the commands skipped (once each, in order)
  // What the user should know about how LAMMPS runs the script (e.g. a type pair mixed by init_one).
  std::vector<std::string> notes;
};

// Throws std::invalid_argument "FILE:LINE: ..." for a command it cannot honour.
LammpsInput read_lammps_input(const std::string& path, const LammpsInputOptions& options = {});

}  // namespace dtcrit::packing
