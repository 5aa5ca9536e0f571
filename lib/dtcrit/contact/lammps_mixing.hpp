#pragma once
// The contact law of every pair of atom types of a LAMMPS script, from its `pair_style` and
// `pair_coeff` lines, as LAMMPS 29 Sep 2021 (Debian's `lammps`) sets them up:
//  - `pair_coeff I J ...` with type ranges (`*`, `2*`, `*3`, `1*2`) sets every pair (i, j), i <= j,
//    i in I, j in J (utils::bounds and the j >= i loop of pair_granular.cpp coeff()); a line that
//    sets no pair (`pair_coeff 2 1` with two types) is LAMMPS' "Incorrect args for pair
//    coefficients". A later line overrides an earlier one pair by pair.
//  - `granular`: a pair without a line of its own is mixed from (i, i) and (j, j) by init_one():
//    the two types must have the same normal, damping, tangential, rolling and twisting models
//    (else LAMMPS stops: "functional forms are different"). What runs then is NOT the law of the
//    types: LAMMPS 29 Sep 2021's init_one() mixes the coefficients but never sets the pair's model
//    entries, which keep their zeroed allocation, so the pair runs as `hooke` with `velocity`
//    damping, no rolling, no twisting, no cohesion, no limit_damping; k_n = sqrt(k_n,ii k_n,jj) of
//    the stored coefficients (4/3 E* for hertz/material, dmt, jkr: the source's mix_stiffnessE
//    branch is never reached), the damping coefficients, k_t, x_gamma_t and mu geometric means; the
//    tangential history (a force history with a constant k_t, which is linear_history) when any
//    pair_coeff line has a tangential model with history, else linear_nohistory. Measured with
//    `lmp` (tests/data/lammps_cohesive/README.md); every mixed pair gets a note saying so.
//  - the classic `gran/*` styles: one law for all pairs; `pair_coeff * *` (or any lines) takes no
//    arguments.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dtcrit/contact/law.hpp"

namespace dtcrit::contact {

// One `pair_coeff` line: its two type words, the words after them, and its text for messages
// (e.g. "in.pour.drum:21: pair_coeff 1 * hertz/material ...").
struct PairCoeffLine {
  std::string type_i, type_j;
  std::vector<std::string> coefficients;
  std::string text;
};

struct TypeLaws {
  int types = 0;
  std::map<std::pair<int, int>, ContactLaw> laws;  // every (i, j), 1 <= i <= j <= types
  // What the user should know: every mixed pair and how LAMMPS runs it.
  std::vector<std::string> notes;
  const ContactLaw& between(int i, int j) const;  // either order
};

// LAMMPS' utils::bounds: "N" -> [N, N], "*" -> [1, n], "*N" -> [1, N], "N*" -> [N, n], "M*N" ->
// [M, N]; out of [1, n] or M > N is an error naming the word and `what`.
std::pair<int, int> lammps_type_bounds(const std::string& word, int types, const std::string& what);

// The laws of all pairs of `types` atom types. style_words: the pair_style line after `pair_style`.
TypeLaws lammps_type_laws(const std::vector<std::string>& style_words, const std::vector<PairCoeffLine>& lines,
                          int types);

}  // namespace dtcrit::contact
