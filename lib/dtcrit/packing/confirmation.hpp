#pragma once
// Empirical confirmation of a predicted critical step with the reference DEM stepper: run the
// packing (handed to stepper::ParticleSystem, LAMMPS history rules) from a small random
// perturbation of the centres at a fraction of the predicted step, beside an unperturbed reference
// run, and measure the growth of their separation |M^1/2 (x - x_ref)|. That is the growth of the
// linearised dynamics about the reference trajectory: meaningful while every contact stays closed
// and sticking, as the analysis linearises it. Both runs hold every contact sticking
// (contact::sticking on the particle law, each type pair's and each wall's own law); the packing
// must be compressed. In equilibrium x_ref = x0; off equilibrium (e.g. an FCC lattice between walls)
// the packing's own relaxation cancels out.
#include <string>
#include <vector>

#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace dtcrit::packing {

struct ConfirmationRun {
  std::string integrator;
  double factor = 0.0;   // h / h_predicted
  double h = 0.0;
  int steps = 0;         // steps taken (a run stops once the growth exceeds 1e6)
  double growth = 0.0;   // max over the run of |M^1/2 (x - x_ref)| / |M^1/2 (x(0) - x0)|; inf if non-finite
  long unconverged_steps = 0;  // implicit steps of either run whose Newton iteration did not converge
  // Steps after which the unperturbed run's contact set differed from the step before (a contact opened
  // or closed; from the second step on): the runs then leave the analysed linear system, and switching
  // between contact sets can make the separation grow below the linear limit (packing/README.md).
  // -1: not counted (linear systems).
  long contact_changes = -1;
  // The stepper's tangential history: "traditional" (LAMMPS: the spring advanced by h times the velocity
  // handed to the force, which for rows whose dashpots read the backward difference is the step's
  // displacement) or "consistent" (read from the positions: the analysed linearisation; used for the
  // other rows, whose force calls see v_{n+1} or stage velocities, when the law allows it).
  stepper::TangentialHistory history_mode = stepper::TangentialHistory::traditional;
};

// max |f(x0, 0)| / (kn * smallest overlap) of the stepper's forces on the packing as given: 0 in
// equilibrium, of order 1 when a packing relaxes (e.g. FCC between walls).
// clumps: of the rigid bodies of the packing's clumps (forces, and torques over the largest radius).
double equilibrium_residual(const Packing& p, const ContactLaws& laws, bool clumps = false);

// The stepper's history mode for a row: traditional for the rows whose dashpots read the backward
// difference (LAMMPS' own rule, the same linearisation), consistent for the others when the law is a
// tangential displacement spring (the traditional rule there advances the spring by h v_{n+1}, which
// damps it and which the analysis does not model: central_difference stayed bounded at 1.01 of its
// limit on a simple cubic box with it), and traditional when the law needs it (rolling, twisting,
// Mindlin force forms) or histories are seeded.
stepper::TangentialHistory confirmation_history_mode(const std::string& integrator, const contact::ContactLaw& law,
                                                     bool seeded_histories);

// amplitude: perturbation of each centre coordinate, uniform in [-amplitude, amplitude] [m].
// spin: also start every angular velocity component uniform in [-spin, spin] [rad/s] (rotational
// modes that no translation excites: rolling and twisting resistance without a tangential spring).
// histories: when given and some contact carries a history (Contact::history, e.g. from
// --lammps-contacts), both runs start from those histories (seed_contact_histories).
ConfirmationRun confirm_with_stepper(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                                     double h_predicted, double factor, int steps, double amplitude,
                                     unsigned seed = 7, double spin = 0.0, const ContactSet* histories = nullptr);

// The same on the packing's clumps as rigid bodies (p.molecule, `--clumps molecule`; the stepper's
// RigidClumpSystem, stepper/rigid_clumps.hpp): every centre of mass perturbed by up to `amplitude` per
// axis and every body turned by up to amplitude / r_max about each principal axis; the contacts start
// from zero histories.
ConfirmationRun confirm_clumps_with_stepper(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                                            double h_predicted, double factor, int steps, double amplitude,
                                            unsigned seed = 7);

// Fixed-arm linear dynamics (contact networks read with --bodies, planar polygons and ellipses): the
// integrator on LinearSystem(M, K, C) of the global system, its contact points fixed to the bodies as
// at the start (PlanarContactPair's model for one pair), from a random displacement of every dof
// (uniform, seeded) at rest; growth of |M^1/2 x| relative to its start. A check of the integrator on
// the linearised system, not a DEM run of the shapes.
ConfirmationRun confirm_linear(const LinearSystem& sys, const std::string& integrator, double h_predicted,
                               double factor, int steps, unsigned seed = 7);

// The verdict of two runs at 0.99 and 1.01 of a predicted step, from their growth (amplitude: the
// separation above, or that of two LAMMPS runs, read_probe_separation): confirmed when the run below the
// limit stays bounded (growth <= bounded_growth) and the one above grows past growing_growth (the
// thresholds of the stepper confirmation tests). Anything else is not confirmed, with the reason.
inline constexpr double bounded_growth = 10.0;
inline constexpr double growing_growth = 1e3;
struct ConfirmationVerdict {
  bool confirmed = false;
  std::string text;  // "CONFIRMED: ..." or "NOT CONFIRMED: ..."
};
ConfirmationVerdict confirmation_verdict(double growth_below, double growth_above);

}  // namespace dtcrit::packing
