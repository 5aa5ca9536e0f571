#pragma once
// A LAMMPS probe of a predicted critical step (`dtcrit lammps-check`): the packing dtcrit analysed is
// written as two data files (atom_style sphere, write_data's layout), one at rest (the reference) and
// one with a small random velocity on every particle (the perturbed run), and an input script runs
// each with fix nve/sphere (velocity Verlet) at a fraction of the predicted step, with the same pair
// style and coefficients and the same fix wall/gran planes, dumping every particle's velocity and
// spin. The measure is the separation of the two runs, the kinetic energy of their velocity
// difference: a packing that is not at rest in LAMMPS (settled with friction: LAMMPS starts every
// contact history of a data file at zero) relaxes the same way in both runs and cancels out. Below
// the limit the separation stays bounded (it decays with damping); above it the top mode grows by a
// factor per step, and the separation by orders of magnitude within a few hundred steps.
//
// LAMMPS commands used (29 Sep 2021 syntax): read_data, pair_style/pair_coeff, fix wall/gran STYLE
// ARGS xplane|yplane|zplane LO HI, fix nve/sphere [disc], fix enforce2d and change_box (2D), compute ke, compute erotate/sphere, dump custom
// (id mass radius vx vy vz omegax omegay omegaz, sorted by id), fix halt ... error soft (stops a run
// whose kinetic energy passes a bound), timestep, run. Boundaries: p on periodic axes, m
// (shrink-wrapped, never losing an atom) on the others.
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

// Whether the probe runs fix nve/sphere disc: every particle's inertia 1/2 m r^2 (2D only); 2/5 m r^2
// for spheres; anything else, or a mix, throws.
bool probe_discs(const Packing& p);

// Per particle (vx, vy, vz, omegax, omegay, omegaz) (in 2D vz = omegax = omegay = 0): each velocity component uniform in
// [-amplitude, amplitude] [m/s], each angular one in [-amplitude / r, amplitude / r] [rad/s]; seeded.
std::vector<std::array<double, 6>> probe_velocities(const Packing& p, double amplitude, unsigned seed = 7);
// Kinetic energy sum 1/2 m v^2 + 1/2 I omega^2 [J] of those velocities (LAMMPS' ke + erotate/sphere).
double kinetic_energy(const Packing& p, const std::vector<std::array<double, 6>>& velocities);

struct ProbeRun {
  double factor = 0.0;        // h / h_predicted
  double h = 0.0;             // [s]
  int steps = 0;              // steps asked for
  int dump_every = 1;         // steps between dumped frames
};

// The input script of one run (data and dump file names relative to the probe folder).
// halt_energy [J]: fix halt stops the run once the kinetic energy exceeds it.
std::string probe_script(const Packing& p, const std::vector<std::string>& law_commands, const std::string& data_file,
                         const std::string& dump_file, const ProbeRun& run, double halt_energy, const std::string& units = "si");

// One frame of a reference and a perturbed run: the kinetic energy of their difference
// 1/2 sum m |v - v_ref|^2 + 1/2 I |w - w_ref|^2 (I = inertia_factor m r^2: 2/5 spheres, 1/2 discs) and the
// reference's own kinetic energy, both [J].
struct SeparationFrame {
  long step = 0;
  double separation_energy = 0.0;
  double reference_energy = 0.0;
};
// The frames the two dumps (dump custom id mass radius vx vy vz omegax omegay omegaz, sorted by id)
// have in common, up to the first that either lacks (a run halted). A non-finite value (a run that
// blew up) is an infinite energy. Throws "FILE:LINE: ..." on a malformed file or mismatched atoms.
std::vector<SeparationFrame> read_probe_separation(const std::string& reference_dump, const std::string& perturbed_dump,
                                                   double inertia_factor = 0.4);

}  // namespace dtcrit::packing
