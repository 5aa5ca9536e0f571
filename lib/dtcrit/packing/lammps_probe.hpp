#pragma once
// A LAMMPS probe of a predicted critical step (`dtcrit lammps-check`): the packing dtcrit analysed is
// written as a data file (atom_style sphere, write_data's layout) with a small random velocity on
// every particle, and an input script runs it with fix nve/sphere (velocity Verlet) at a fraction of
// the predicted step, with the same pair style and coefficients and the same fix wall/gran planes,
// while fix ave/time writes the kinetic energy (compute ke + erotate/sphere) of every step to a file.
// Below the limit the energy stays bounded (it decays with damping); above it the top mode grows by
// a factor per step, and the energy by orders of magnitude within a few hundred steps.
//
// LAMMPS commands used (29 Sep 2021 syntax): read_data, pair_style/pair_coeff, fix wall/gran STYLE
// ARGS xplane|yplane|zplane LO HI, fix nve/sphere, compute ke, compute erotate/sphere, fix ave/time
// ... file, fix halt ... error soft (stops a run whose energy has grown by `halt_growth`), timestep,
// run. Boundaries: p on periodic axes, m (shrink-wrapped, never losing an atom) on the others.
#include <array>
#include <string>
#include <vector>

#include "dtcrit/packing/contacts.hpp"
#include "dtcrit/packing/packing.hpp"

namespace dtcrit::packing {

// The law and wall commands of a probe for a packing whose laws did not come from a LAMMPS script:
// classic styles (gran/hooke, gran/hooke/history, gran/hertz/history) from their coefficients
// (`mu_override`, when >= 0, replaces the friction coefficient: sticking contacts, as the analysis
// assumes, when the user gave none); `granular` only from the user's own `pair_text` ("granular
// MODEL ..."), with no per-type or per-wall law. Anything LAMMPS cannot run as given (per-type laws
// of a classic style, a granular wall of its own, a law not in LAMMPS' syntax) throws, naming it.
std::vector<std::string> lammps_law_commands(const Packing& p, const ContactLaws& laws, const std::string& pair_text,
                                             double mu_override = -1.0);

// Per particle (vx, vy, vz, omegax, omegay, omegaz): each velocity component uniform in
// [-amplitude, amplitude] [m/s], each angular one in [-amplitude / r, amplitude / r] [rad/s]; seeded.
std::vector<std::array<double, 6>> probe_velocities(const Packing& p, double amplitude, unsigned seed = 7);
// Kinetic energy sum 1/2 m v^2 + 1/2 I omega^2 [J] of those velocities (LAMMPS' ke + erotate/sphere).
double kinetic_energy(const Packing& p, const std::vector<std::array<double, 6>>& velocities);

struct ProbeRun {
  double factor = 0.0;        // h / h_predicted
  double h = 0.0;             // [s]
  int steps = 0;              // steps asked for
  std::string input;          // file name of the input script in the probe folder
  std::string energy_file;    // file name of fix ave/time's output
  std::string log_file;
};

// The input script of one run (data_file and energy file names relative to the probe folder).
// halt_energy [J]: fix halt stops the run once the kinetic energy exceeds it.
std::string probe_script(const Packing& p, const std::vector<std::string>& law_commands, const std::string& data_file,
                         const ProbeRun& run, double halt_energy);

// The energy series of fix ave/time's file: (step, kinetic energy [J]) per row (translational plus
// rotational). Throws "FILE:LINE: ..." on a malformed row.
std::vector<std::pair<long, double>> read_probe_energy(const std::string& path);

}  // namespace dtcrit::packing
