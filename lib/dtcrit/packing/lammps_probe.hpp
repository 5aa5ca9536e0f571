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
// Real packings are not at rest (a flowing or rearranging packing separates the two runs by itself,
// chaotically), so each step's growth is judged against the same pair of runs at a reference step
// well below the limit (probe_reference_factor) over the same physical time: what LAMMPS does at
// 0.99 and 1.01 beyond what it does anyway.
//
// LAMMPS commands used (29 Sep 2021 syntax): read_data, pair_style/pair_coeff, fix wall/gran STYLE
// ARGS xplane|yplane|zplane LO HI, region and fix wall/gran/region (the script's region walls, placed
// as they are at the state), fix nve/sphere [disc], fix enforce2d and change_box (2D), compute ke,
// compute erotate/sphere, dump custom (id mass radius vx vy vz omegax omegay omegaz, sorted by id),
// fix halt ... error soft (stops a run whose kinetic energy passes a bound), timestep, run.
// Boundaries: p on periodic axes, m (shrink-wrapped, never losing an atom) on the others.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::packing {

// The law and wall commands of a probe for a packing whose laws did not come from a LAMMPS script:
// classic styles (gran/hooke, gran/hooke/history, gran/hertz/history) from their coefficients
// (`mu_override`, when >= 0, replaces the friction coefficient: sticking contacts, as the analysis
// assumes, when the user gave none); `granular` only from the user's own `pair_text` ("granular
// MODEL ..."), with no per-type or per-wall law. Anything LAMMPS cannot run as given (per-type laws
// of a classic style, a granular wall of its own, a law not in LAMMPS' syntax) throws, naming it.
std::vector<std::string> lammps_law_commands(const Packing& p, const ContactLaws& laws, const std::string& pair_text,
                                             double mu_override = -1.0);

// The region commands that place each region wall of the packing as it is at the state: its own
// geometry in box units, side, open faces, and the rotation and displacement at the state as
// constant variables. A moving or rotating region stands still in the probe: the linearised packing
// does not see the wall's velocity (region_wall.hpp), only where the wall is. Members of a union or
// intersection get their own regions, named NAME_dtcrit_K. The script's fix wall/gran/region lines
// then name these regions.
std::vector<std::string> lammps_region_commands(const Packing& p);

// Whether the probe runs fix nve/sphere disc: every particle's inertia 1/2 m r^2 (2D only); 2/5 m r^2
// for spheres; anything else, or a mix, throws.
bool probe_discs(const Packing& p);

// The expected kinetic energy [J] of the probe's kick: each velocity component of each particle
// uniform in [-amplitude, amplitude] (dimension components per particle), each spin component in
// [-amplitude / r, amplitude / r] (3 in 3D, 1 in 2D): sum 1/2 (m dim + spins I / r^2) amplitude^2 / 3.
double probe_kick_energy(const Packing& p, double amplitude);

struct ProbeRun {
  double factor = 0.0;        // h / h_predicted
  double h = 0.0;             // [s]
  int steps = 0;              // steps asked for
  int dump_every = 1;         // steps between dumped frames
  // Before the measured run: settle_steps at settle_h, so that LAMMPS rebuilds the contact
  // histories a data file does not carry and the packing comes to rest in its own model; then the
  // step count is reset to 0. Both runs of a step settle alike (LAMMPS is deterministic).
  int settle_steps = 0;
  double settle_h = 0.0;
  // After settling, the perturbed run adds to every particle's velocity a random one, each
  // component uniform in [-kick, kick], and to every spin one in [-kick / r, kick / r] (LAMMPS'
  // random(), seeded). 0: the run from rest.
  double kick = 0.0;
  int seed = 4928;
  // When not empty, LAMMPS writes the settled state to this data file (write_data, after settling),
  // so that dtcrit can analyse the packing LAMMPS actually runs.
  std::string settled_data;
  // > 0: before anything runs, every radius grown by this much [length] for one force evaluation
  // (run 0), then restored (set diameter leaves the mass alone). LAMMPS keeps a jkr contact at
  // negative overlap only once it has touched (its touch flag), which a data file does not carry;
  // grown, the pairs and walls within their pull-off distance touch, as dtcrit analyses them. Pairs
  // the growth closes beyond their pull-off distance are let go at the next force evaluation.
  double touch_growth = 0.0;
};

// The contacts as LAMMPS will see them from the probe's data file, which has positions and no
// contact flags: LAMMPS sees a contact only at positive overlap, and a jkr contact held open within
// its pull-off distance (analysed as touching) only once it has touched, which touch_growth makes
// happen: each radius grown by the largest gap of such a wall contact or half that of such a pair,
// times 1.01, plus 1e-6 of the smallest radius (at overlap 0 LAMMPS sees no contact). Throws, naming
// the reason, when a non-cohesive contact is not closed or no contact is.
struct ProbeContacts {
  double smallest_overlap = 0.0;  // of the closed contacts [length]
  Index open_cohesive = 0;        // jkr contacts at overlap <= 0
  double touch_growth = 0.0;      // for ProbeRun::touch_growth; 0 when open_cohesive is
};
ProbeContacts probe_contacts(const Packing& p, const ContactSet& contacts);

// LAMMPS 29 Sep 2021 converts a fix wall/gran `damping tsuji` restitution in place at every
// initialisation of the system (contact/README.md). The probe's script initialises a number of times
// of its own (probe_initialisations: its run and write_data commands), so it writes each such wall
// with the restitution that this many conversions take to the coefficient of the run analysed
// (tsuji_restitution_for), in that wall's fix line (with_tsuji_restitution).
int probe_initialisations(const std::string& script);
// e in [0, 1] with tsuji_polynomial applied `inits` times to e equal to `coefficient` (the
// polynomial falls strictly on [0, 1]: bisection); throws when no such e exists.
double tsuji_restitution_for(double coefficient, int inits);
// The line `fix ID GROUP wall/gran[/region] granular MODEL C1 DAMP ...` with DAMP replaced by e.
std::string with_tsuji_restitution(const std::string& fix_line, double e);
// The script's law commands with every tsuji wall's restitution rewritten for a probe that initialises
// `inits` times (`wall_laws`: fix ID -> the law analysed, LammpsInput::wall_laws); one note per wall
// rewritten, naming the fix, the restitution written and the coefficient it becomes.
std::vector<std::string> probe_wall_commands(const std::vector<std::string>& law_commands,
                                             const std::map<std::string, contact::ContactLaw>& wall_laws, int inits,
                                             std::vector<std::string>& notes);

// The law commands with every friction coefficient set to `mu` (lammps-check --lift-caps): the
// classic styles' xmu (pair_style gran/*, fix wall/gran hooke...), and in granular models the
// tangential, rolling sds and twisting sds ones (twisting marshall follows the tangential). With
// mu = 1e4, the largest xmu LAMMPS' classic styles accept, no contact reaches a cap, so LAMMPS runs
// every contact sticking, as the linearisation does. One note per command rewritten.
std::vector<std::string> with_friction_caps_lifted(const std::vector<std::string>& law_commands, double mu,
                                                   std::vector<std::string>& notes);

// The input script of one run (data and dump file names relative to the probe folder): read the
// data file, settle, kick (perturbed), then the measured run, dumping velocities and spins.
// halt_energy [J]: fix halt stops the measured run once the kinetic energy exceeds it.
std::string probe_script(const Packing& p, const std::vector<std::string>& law_commands, const std::string& data_file,
                         const std::string& dump_file, const ProbeRun& run, double halt_energy, const std::string& units = "si");

// One frame of a reference and a perturbed run: the kinetic energy of their difference
// 1/2 sum m |v - v_ref|^2 + 1/2 I |w - w_ref|^2 (I = inertia_factor m r^2: 2/5 spheres, 1/2 discs) and the
// kinetic energy of the run from rest, both [J].
struct SeparationFrame {
  long step = 0;
  double separation_energy = 0.0;
  double rest_energy = 0.0;  // the kinetic energy of the run from rest
};
// The frames the two dumps (dump custom id mass radius vx vy vz omegax omegay omegaz, sorted by id)
// have in common, up to the first that either lacks (a run halted). A non-finite value (a run that
// blew up) is an infinite energy. Throws "FILE:LINE: ..." on a malformed file or mismatched atoms.
std::vector<SeparationFrame> read_probe_separation(const std::string& rest_dump, const std::string& perturbed_dump,
                                                   double inertia_factor = 0.4);

// The reference step of the probe, as a fraction of the predicted one: far enough below the limit
// that LAMMPS is stable there, and the same physics (the same contacts open and close).
inline constexpr double probe_reference_factor = 0.5;

// How a step's pair of runs went against the reference step's pair.
enum class ProbeCourse {
  bounded,    // grew no more than bounded_growth times the reference's growth
  saturated,  // grew more, then stopped growing (contacts sliding or opening cap the motion)
  growing,    // grew more, and was still growing at the end of the run
  diverged,   // passed the halt energy, or a value was not finite
};
inline constexpr EnumName<ProbeCourse> probe_course_names[] = {{ProbeCourse::bounded, "bounded"},
                                                               {ProbeCourse::saturated, "grew, then saturated"},
                                                               {ProbeCourse::growing, "still growing"},
                                                               {ProbeCourse::diverged, "diverged"}};
std::string_view to_string(ProbeCourse c);

struct ProbeStep {
  double factor = 0.0;            // h / h_predicted
  long steps_compared = 0;        // the last step both runs dumped
  bool halted = false;            // a run passed the halt energy (fix halt)
  double growth = 0.0;            // sqrt(max S / S(0)) over the run, S the separation energy
  double reference_growth = 1.0;  // the reference step's over the same physical time
  double excess = 0.0;            // growth / reference_growth
  // The largest sqrt(E(t) / S(0)) / sqrt(E_ref(t) / S_ref(0)) over the frames whose physical time t
  // the reference reaches, E the largest S over the twentieth of the run before t (an envelope: S
  // is a kinetic energy and dips at some phases): this run against the reference at the same time.
  // A run that grows while the reference decays (a damped packing) and is then capped by sliding
  // contacts can stay under probe_unstable_excess in `excess` and be far above it here.
  double same_time_excess = 1.0;
  double late_rise = 1.0;         // sqrt(max S over the last fifth of the steps / max S before it)
  ProbeCourse course = ProbeCourse::bounded;
};

// Judges one step's frames (read_probe_separation) at `factor` against the reference step's frames
// at `reference_factor` up to the same physical time (step x factor), or all of them when the
// reference is shorter. `halted`: the run stopped at
// the halt energy. Throws when either has no frame at step 0 or no initial separation.
ProbeStep judge_probe_step(const std::vector<SeparationFrame>& frames, double factor, bool halted,
                           const std::vector<SeparationFrame>& reference, double reference_factor);

// CONFIRMED when the reference step stays short of the halt energy, the step below the limit grows
// no more than bounded_growth (10) times the reference, and the one above grows more than
// probe_unstable_excess times the reference (excess; or, having grown beyond bounded_growth,
// same_time_excess) or diverges; otherwise NOT CONFIRMED, with what was seen and what to do. 100, not the 1e3 of the stepper's confirmations: in a settled frictional packing
// LAMMPS caps the unstable motion as soon as a contact near its Coulomb limit slides (on the settled
// 3D pour at 1.01: growth 6.8e4, 985x the reference, then flat), and an order of magnitude still
// separates it from the bound at 0.99.
inline constexpr double probe_unstable_excess = 100.0;
struct ProbeVerdict {
  bool confirmed = false;
  std::string text;
};
// caps_lifted: the probe ran every contact sticking (--lift-caps), so the caps are not what hid the
// growth, and the advice says so instead of suggesting --lift-caps.
ProbeVerdict probe_verdict(const ProbeStep& reference, const ProbeStep& below, const ProbeStep& above,
                           bool caps_lifted = false);

}  // namespace dtcrit::packing
