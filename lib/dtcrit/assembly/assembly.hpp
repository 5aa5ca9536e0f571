#pragma once
// What a global system (system/global_system.hpp) is built from, whatever the source: the free
// bodies -- masses and rotational inertia, in the order of their dofs -- and the contacts between
// them (a ContactSet: partners, law, normal from the partner to i, overlap, histories). Every
// source reaches it through one of two small conversions:
//
//  - round bodies (a Packing's spheres or discs: lattices, LAMMPS data, dumps and scripts, the
//    Python arrays): one moment of inertia and one radius per body. A contact's arms are -r_i n and
//    r_j n, so nothing is stored per contact beyond the ContactSet: the operator's fast path, and
//    what keeps 10^7 spheres in memory;
//  - rigid bodies of any shape (a contact network: `--bodies` files, clumps, polygons, ellipses):
//    principal moments and axes per body, and per contact the arms from each centre of mass to its
//    contact point, the radius of curvature the law reads and the two member spheres' radii.
//
// Fixed bodies are not bodies here: they are walls (a contact's j < 0), as in ContactSet.
#include <vector>

#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/network/network.hpp"

namespace dtcrit::packing {

struct Assembly {
  int dim = 3;
  bool round = true;            // round bodies (arms -r n); false: rigid bodies with their own arms
  std::vector<double> mass;     // per free body [kg]
  // Per free body: round, its moment of inertia I; rigid, its principal moments (3 in 3D, the
  // moment about z in 2D) [kg m^2].
  std::vector<double> inertia;
  std::vector<double> radius;   // round bodies: per body [m]
  std::vector<double> axes;     // rigid bodies in 3D: principal axes per body, 9, column-major
  ContactSet contacts;
  // Rigid bodies, per contact: the arms (a_i, a_j; a_j zero on a wall) [m], the law's R_eff [m]
  // (1 m for a law that reads none: it multiplies zero blocks only), and the member spheres'
  // radii, two per contact (i's, j's; 0 for a wall), for Yade's clump rule -- empty when some free
  // side's radius is not known.
  std::vector<Vec3> arms;
  std::vector<double> r_eff, member_radii;

  Index bodies() const { return static_cast<Index>(mass.size()); }
  // Rotational moments stored per body: 1, or 3 for rigid bodies in 3D.
  Index moments_per_body() const { return !round && dim == 3 ? 3 : 1; }
};

// A packing's particles (checked by validate()) with the contacts found on it.
Assembly round_assembly(const Packing& p, ContactSet contacts);
// A contact network: its free bodies in the network's order, fixed bodies as walls, each contact
// with i free (swapped if needed: the normal then points from j to i, the tangential history
// changes sign with the roles). Errors name the network: a dimension other than 2 or 3, no free
// body, a contact between two fixed bodies.
Assembly network_assembly(const network::ContactNetwork& net);

}  // namespace dtcrit::packing
