#pragma once
// LAMMPS' own argument syntax for a contact law, so that a user can paste their input:
//   "gran/hooke KN KT GAMMA_N GAMMA_T XMU DAMPFLAG [limit_damping]"   (also gran/hooke/history,
//   gran/hertz/history; KT and GAMMA_T may be NULL: 2/7 KN and GAMMA_N/2, as LAMMPS)
//   "granular MODEL ARGS... [damping D] tangential T ARGS... [rolling R ARGS...] [twisting W ARGS...]
//    [limit_damping] [cutoff C]"   (the pair_coeff arguments after the two type columns)
// The normal models are hooke, hertz, hertz/material, dmt and jkr (E, damping, Poisson's ratio,
// cohesion). Everything else (unknown keywords, missing or extra numbers) is an error that names the
// word and its position. Conversions follow pair_granular.cpp coeff(): hertz/material, dmt and jkr
// store 4/3 E*, `damping tsuji` turns the restitution into Tsuji's coefficient, a NULL Mindlin kt is
// 8 G*.
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/contact/law.hpp"

namespace dtcrit::contact {

// The whole law from one string ("STYLE ARGS..."); `where` prefixes error messages ("--lammps-pair").
ContactLaw parse_lammps_pair(std::string_view text, std::string_view where = "LAMMPS pair");

// The same from the words of a `pair_style` line (STYLE and its arguments) and of one `pair_coeff`
// line without the two type columns (granular: the models; gran/*: empty).
ContactLaw parse_lammps_pair(const std::vector<std::string>& style_words, const std::vector<std::string>& coeff_words,
                             std::string_view where);

// The law of `fix wall/gran granular ARGS...` (ARGS: the models, as after pair_coeff's types).
// fix_wall_gran.cpp of 29 Sep 2021 converts the material models (hertz/material, dmt, jkr) its own
// way: k_n = 4/3 E/(2(1 - nu)) and a NULL Mindlin k_t = E/4 (2 - nu)(1 + nu) (measured with lmp:
// tests/data/lammps_cohesive); the contact's R_eff is the particle's radius (kinematics.hpp).
ContactLaw parse_lammps_wall_granular(const std::vector<std::string>& words, std::string_view where);

// Tsuji's polynomial of tsuji_coefficient() (law.hpp) at any x, unchecked: LAMMPS 29 Sep 2021 applies
// it again to a wall's converted coefficient at every initialisation (FixWallGran::init()).
double tsuji_polynomial(double x);

}  // namespace dtcrit::contact
