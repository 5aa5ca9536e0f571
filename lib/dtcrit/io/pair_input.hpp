#pragma once
// What a user gives for one contact: two body specifications and the contact law, with the damping
// and tangential stiffness in whichever form they have them.
//
// Law keys (SI): kn; kt or kt_ratio (kt/kn); cn or gamma_n (LAMMPS, 1/s: c = m_eff gamma) or
// restitution (normal e, 0 < e <= 1); ct or gamma_t or ct_ratio (ct/cn). Without any of the last
// three, ct = cn / 2: LAMMPS' gamma_t = gamma_n / 2 (gran/hooke/history with NULL).
#include <map>
#include <string>

#include "dtcrit/core/key_values.hpp"
#include "dtcrit/model/contact_point_model.hpp"

namespace dtcrit {

struct PairInput {
  std::string body1, body2;            // body specifications (io/body_spec.hpp)
  std::map<std::string, double> law;   // law keys above, or the state keys below
  // The law in LAMMPS' syntax instead of the keys above (contact/lammps_syntax.hpp), linearised at
  // the state given by one of the keys overlap [m], normal_force [N] or impact_velocity [m/s]; its
  // effective radius from the bodies (discs and spheres; flat faces count as infinite) or r_eff [m].
  std::string lammps_pair{};
  // Or Hertz–Mindlin as EDEM and LIGGGHTS define it, "E=7e10,nu=0.3,e=0.5,mu=0.5"
  // (contact/hertz_mindlin.hpp), linearised the same way.
  std::string hertz_mindlin{};

  // Sets one input by name: a law key, or "body1.KEY" / "body2.KEY" for a body's key.
  void set(const std::string& key, double value);
};

const std::vector<std::string>& pair_law_keys();

// ct / cn when no tangential damping is given (LAMMPS' convention, also `packing`'s gamma_t / gamma_n).
inline constexpr double default_ct_ratio = 0.5;

ContactPointModel build_model(const PairInput& input);

}  // namespace dtcrit
