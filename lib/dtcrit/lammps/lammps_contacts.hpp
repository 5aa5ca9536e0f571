#pragma once
// Contact histories from the files a LAMMPS user can write (`--lammps-contacts`):
//
//  - a local dump of `compute property/local patom1 patom2` and `compute pair/local dist force p1 p2 p3`
//    (granular: also p5 p6 p7, the rolling force): pair contacts. The columns are named c_ID[k] in
//    the ITEM: ENTRIES line; with the script's compute lines (LammpsInput::computes) each column is
//    known by its keyword, without them the dump must have the layout the README documents:
//      compute pl all property/local patom1 patom2
//      compute pf all pair/local dist force p1 p2 p3            (granular: ... p1 p2 p3 p5 p6 p7)
//      dump    dc all local N FILE index c_pl[1] c_pl[2] c_pf[1] c_pf[2] ...
//    In LAMMPS 29 Sep 2021 p1..p3 are the tangential force on patom1 (svector[0..2] of
//    pair_gran_hooke_history.cpp, pair_gran_hertz_history.cpp and pair_granular.cpp single()), p5..p7
//    granular's rolling force (svector[4..6]); `force` is the signed normal force F_ntot.
//    (p9, granular's twisting torque, is not read: single() sets it to zero unless the contact is at
//    its twisting limit, unlike compute(), so the twisting history cannot be recovered from it.)
//  - a per-atom dump of `fix ID all wall/gran ... contacts`: columns id f_ID[1] .. f_ID[8] (contact
//    flag, force on the particle x y z, contact point x y z, radius; fix_wall_gran.cpp post_force()):
//    wall contacts. The wall is the one whose plane holds the contact point.
//
// The histories are recovered through the law, at rest (relative velocities zero: a settled
// packing; the dashpot part of a dumped force is counted as spring): the tangential force
// F_t = s_t xi_t with s_t the law's own d F_t / d xi_t at the contact's overlap (-k_t, -k_t a for
// mindlin and gran/hertz/history, 1 for the */force variants), likewise F_r = -k_r xi_r. A force at
// the Coulomb limit (|F_t| >= mu |F_n| (1 - cap_tolerance), F_n the dumped normal force) is put just
// beyond the cap of dtcrit's own F_n, so that contact::evaluate() linearises it as sliding
// (contact/README.md "Contacts at the Coulomb limit"). The last snapshot of each file is read.
#include <map>
#include <string>
#include <vector>

#include "dtcrit/assembly/contacts.hpp"

namespace dtcrit::packing {

struct ContactHistorySummary {
  bool pair_file = false, wall_file = false;   // which kinds of contacts the files cover
  Index pair_rows = 0, wall_rows = 0;          // contacts listed in the files
  Index pairs_read = 0, walls_read = 0;        // assigned to a contact of the packing
  Index pairs_unmatched = 0, walls_unmatched = 0;  // in a file, not a contact of the packing
  Index pairs_missing = 0, walls_missing = 0;      // contacts of the packing absent from files of their kind
  Index sliding = 0, rolling_at_limit = 0;     // recorded at the Coulomb (rolling) limit
  bool rolling = false;                        // rolling forces read
  double max_distance_mismatch = 0.0;          // max |dist_file - dist| / dist over matched pairs
  Index pairs_apart = 0;                       // rows of pairs not touching (listed within the force cutoff)
  Index repeated_rows = 0;                     // rows of a contact already read, with the same force
  std::vector<std::string> notes;              // what was not recoverable, and why
  std::vector<std::string> warnings;           // unmatched rows, contacts in no file
};

// Fills ContactSet::histories and history_read of `contacts` (found on `p` by find_contacts).
// A file that cannot be of this packing is an error: an atom id the packing does not have (or not
// an integer), rows none of which is a contact of the packing, or more such rows than rows that are.
// Rows of pairs apart (dumped distance >= the radii's sum; without `dist`, zero force) are not
// counted: compute pair/local lists every pair within the force cutoff.
// Fewer unmatched rows, and contacts of the packing in no file, are counted and named in `warnings`:
// a contact at vanishing overlap can be in one list and not the other when positions are rounded. A
// contact listed twice must have the same force both times (else an error). Malformed files throw
// "FILE:LINE: ...".
ContactHistorySummary read_lammps_contacts(const std::vector<std::string>& paths, const Packing& p,
                                           ContactSet& contacts,
                                           const std::map<std::string, std::vector<std::string>>& computes = {},
                                           double cap_tolerance = 1e-6);

}  // namespace dtcrit::packing
