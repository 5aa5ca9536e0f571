#pragma once
// Clumps of spheres as rigid bodies (`dtcrit packing --clumps molecule`): a sphere packing turned
// into a contact network of rigid bodies (so it lives above network/, beside Packing). Every molecule
// ID of a sphere packing is one rigid body, as LAMMPS' `fix rigid/small ... molecule` makes it
// (src/RIGID/fix_rigid_small.cpp, setup_bodies_static): the mass is the sum of the member masses,
// the centre their mass-weighted mean, the inertia tensor the member point masses' plus 2/5 m r^2
// of each member sphere about its own centre — overlaps between members are not removed, as in
// LAMMPS. Contacts are those of member spheres of different bodies (and with walls), each moved at
// its sphere's own surface point (network/README.md, "One point or two"); the laws' effective mass is
// the body masses', as LAMMPS' granular styles use under a rigid fix. Contacts between members of one
// body carry no stiffness (the members do not move relative to each other) and are left out.
#include <cstdint>

#include "dtcrit/network/network.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::packing {

struct ClumpSummary {
  Index bodies = 0;           // rigid bodies (molecules, and single spheres of molecule ID 0)
  Index clumps = 0;           // bodies of two spheres or more
  Index single_spheres = 0;   // molecule ID 0: each sphere its own body (free spheres, fix nve/sphere)
  Index largest = 0;          // members of the largest body
  Index inner_contacts = 0;   // contacts between members of one body, left out
  double max_extent = 0.0;    // largest distance from a body's centre of mass to a member's centre [m]
};

// The rigid bodies of the clumps of `p` (p.molecule must be given, 3D): every body's mass, centre of
// mass, principal moments and axes, in order of first appearance (molecule ID 0: each sphere its own
// body), and each sphere's body and offset from its body's centre (members on a periodic axis at the
// image nearest the body's first member; see clump_network). Shared by the analysis (clump_network) and
// the reference stepper (stepper/rigid_clumps.hpp).
struct ClumpBodies {
  std::vector<network::Body> bodies;  // free bodies, ids "molecule 12" or "atom 57"
  std::vector<std::int32_t> body_of;  // per sphere
  std::vector<Vec3> offset;           // per sphere: centre - its body's centre of mass [m]
  ClumpSummary summary;               // inner_contacts not counted here (no contacts)
};
ClumpBodies clump_bodies(const Packing& p);

// The contact network of the clumps of `p` (p.molecule must be given, 3D) with the contacts `cs`
// found on it (histories included). Members of a body on a periodic axis are taken at the image
// nearest the body's first member (LAMMPS unwraps them with their image flags: the same unless a
// body spans half the box, which is an error here). Throws naming the problem.
network::ContactNetwork clump_network(const Packing& p, const ContactSet& cs, ClumpSummary* summary = nullptr);

}  // namespace dtcrit::packing
