#pragma once
// A packing handed to the reference DEM stepper (stepper::ParticleSystem), so that a predicted
// critical step can be confirmed by running the stepper itself. The stepper has no periodic
// boundaries and one particle-particle law: packings with periodic axes or per-type laws are
// rejected.
#include <memory>

#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/stepper/rigid_clumps.hpp"

namespace dtcrit::packing {

struct SteppedPacking {
  std::unique_ptr<stepper::ParticleSystem> system;
  Vector x0;  // generalised positions of the packing (rotations phi = 0)
};

// Walls keep their own law (else the particle law). mu of `laws.base` is used as given: pass a
// large value to keep contacts sticking. Skin: 0.1 x the smallest radius.
SteppedPacking to_particle_system(const Packing& p, const ContactLaws& laws,
                                  stepper::TangentialHistory mode = stepper::TangentialHistory::traditional);

// The packing's clumps (p.molecule; clump_bodies: each molecule one rigid body, molecule ID 0
// a sphere of its own) as rigid bodies of the stepper, their member spheres as to_particle_system
// builds them. x0: the bodies' start (centres of mass, psi = 0).
struct SteppedClumps {
  std::unique_ptr<stepper::RigidClumpSystem> system;
  Vector x0;
  double largest_radius = 0.0;
};
SteppedClumps to_rigid_clumps(const Packing& p, const ContactLaws& laws,
                              stepper::TangentialHistory mode = stepper::TangentialHistory::traditional);

// Starts the stepper's contacts from the packing contacts' histories (Contact::history; the
// traditional history mode): pairs keep their orientation (i < j), wall w of particle i is the
// stepper's contact (i, N + w).
void seed_contact_histories(SteppedPacking& sp, const ContactSet& contacts);

}  // namespace dtcrit::packing
