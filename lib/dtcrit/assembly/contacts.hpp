#pragma once
// Contacts of a packing: touching pairs (overlap > -tolerance, through periodic images) and
// particle-wall contacts, found with a uniform cell grid in O(N); and the contact laws per pair of
// atom types.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "dtcrit/contact/response.hpp"
#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::packing {

// The gran/hooke/history parameters of every interaction. `base` applies to every pair of types
// without an entry of its own; `by_types` holds per-type-pair laws (key (min, max) of the two
// types). Walls use their own law if they have one, else the law of (type, type).
struct ContactLaws {
  contact::ContactLaw base;
  std::map<std::pair<int, int>, contact::ContactLaw> by_types;

  const contact::ContactLaw& between(int type_i, int type_j) const;
  // Throws if some law is invalid (kn > 0, others >= 0).
  void validate() const;
};

// Every law of a packing passed through f: the base law, each type pair's and each plane and region
// wall's own (e.g. contact::sticking for a confirmation run, contact::sliding for the diverging step).
void transform_laws(Packing& p, ContactLaws& laws, contact::ContactLaw (*f)(contact::ContactLaw));
// Whether any law of the packing is frictional (contact::frictional).
bool any_frictional(const Packing& p, const ContactLaws& laws);

// One contact. j >= 0: a pair (i, j) (i == j only for a particle touching its own periodic image in
// a box shorter than the contact distance); j < 0: a wall contact with wall -(j + 1).
// normal points from the partner to i (x_i - x_j for a pair, the wall normal for a wall);
// overlap = r_i + r_j - |x_i - x_j| (negative inside the gap tolerance).
struct Contact {
  std::int32_t i = 0, j = 0;
  std::int32_t law = 0;  // index into ContactSet::laws
  Vec3 normal = Vec3::UnitX();
  double overlap = 0.0;
};

// What a contact with a curved region wall adds to a plane wall's (assembly/region_wall.hpp): the
// R_eff LAMMPS gives the law (0: the particle radius, as a plane), how the normal turns as the
// particle moves, dn/dx (zero on flat faces), for the geometric stiffness -F_n dn/dx, and how R_eff
// moves with the particle (a Hertz force's stiffness -n (dF_n/dR_eff) (dR_eff/dx)^T).
struct WallSurface {
  double r_eff = 0.0;
  Eigen::Matrix3d normal_derivative = Eigen::Matrix3d::Zero();
  Vec3 r_eff_gradient = Vec3::Zero();  // d R_eff / dx (a cone's side: LAMMPS' R_eff follows the contact point)
  bool curved() const { return r_eff != 0.0 || !normal_derivative.isZero(0.0); }
};

struct ContactSet {
  std::vector<Contact> contacts;          // ascending i, then pairs before walls
  std::vector<contact::ContactLaw> laws; // the distinct laws used
  Index pair_contacts = 0, wall_contacts = 0;
  // The contacts' tangential, rolling and twisting histories in contact/response.hpp's convention
  // (world axes, in the tangent plane), parallel to `contacts`, as read from a LAMMPS contact dump
  // (--lammps-contacts); both empty when none was read: every contact is then linearised sticking
  // at zero history. Kept apart from Contact so that the matrix-free operator streams 48-byte records.
  std::vector<contact::History> histories;
  std::vector<std::uint8_t> history_read;
  // Parallel to `contacts` when the packing has region walls (entries of other contacts stay
  // default), else empty; kept apart from Contact as the histories are.
  std::vector<WallSurface> wall_surfaces;
  // Contact k's wall surface, or nullptr for a pair, a plane wall or a flat region face.
  const WallSurface* wall_surface(std::size_t k) const {
    return !wall_surfaces.empty() && wall_surfaces[k].curved() ? &wall_surfaces[k] : nullptr;
  }
  // Contact k's history (zero when none was read) and whether one was read for it.
  const contact::History& history(std::size_t k) const;
  bool read_history(std::size_t k) const { return !history_read.empty() && history_read[k] != 0; }
  // Whether contact k was read or carries a non-zero history.
  bool has_history(std::size_t k) const;
  // Contact k's history to fill; marks it read (the arrays are allocated on first use).
  contact::History& history_to_fill(std::size_t k);
  // Contacts per particle (pairs count for both partners; wall contacts once).
  std::vector<std::int32_t> coordination(Index particles) const;
  // A contact of a law with a pull-off (jkr) held open within it (overlap <= 0): analysed as touching
  // (pair_reach()), while LAMMPS started from a data file sees it apart (no touch flag there).
  bool held_open(const Contact& c) const {
    return c.overlap <= 0.0 && contact::cohesive(laws[static_cast<std::size_t>(c.law)]);
  }
  Index held_open_count() const {
    Index n = 0;
    for (const Contact& c : contacts) n += held_open(c) ? 1 : 0;
    return n;
  }
};

struct ContactOptions {
  // A pair is in contact when |x_i - x_j| < (r_i + r_j)(1 + gap_tolerance); a particle touches a
  // wall when its distance to the plane is below r_i (1 + gap_tolerance). 0 reproduces LAMMPS
  // (touching iff the overlap is positive); a small positive value closes lattices that touch
  // exactly. A pair or wall contact whose law is jkr also counts as touching down to the pull-off
  // overlap (contact::pulloff_overlap(); LAMMPS keeps such a contact only if it touched before:
  // dtcrit assumes it did, contacts.cpp pair_reach()).
  double gap_tolerance = 0.0;
  // Threads of the grid search (from 20 000 particles on; the result is the same for any count);
  // 0: min(2, the hardware's threads), as GlobalSystem's operator.
  int threads = 0;
};

// Finds every contact. Positions on periodic axes may lie outside the box (they are wrapped).
ContactSet find_contacts(const Packing& p, const ContactLaws& laws, const ContactOptions& opts = {});
// The O(N^2) scan over all pairs and image shifts: the test oracle (same order and content).
ContactSet find_contacts_brute_force(const Packing& p, const ContactLaws& laws, const ContactOptions& opts = {});

}  // namespace dtcrit::packing
