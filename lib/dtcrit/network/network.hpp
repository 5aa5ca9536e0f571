#pragma once
// The contact network of an assembly of rigid bodies of any shape (issue 14): the bodies (mass,
// inertia tensor, centre of mass, fixed or free) and their contacts (point, normal, law and the
// law's state), as any DEM code can export them. Read from JSON or from a CSV pair (bodies.csv,
// contacts.csv); the format is documented in network/README.md. The analysis is
// packing::GlobalSystem's, built from packing::network_assembly(network).
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/contact/response.hpp"

namespace dtcrit::network {

using Mat3 = Eigen::Matrix3d;
using contact::Vec3;

struct Body {
  std::string id;
  bool fixed = false;   // immovable (a wall): no dofs; mass and inertia not read
  double mass = 0.0;    // kg
  // Principal moments [kg m^2] and axes (columns, world frame): J = axes diag(moments) axes^T.
  // 2D: moments[2] is the moment about z, axes the identity.
  Vec3 moments = Vec3::Zero();
  Mat3 axes = Mat3::Identity();
  Vec3 centre = Vec3::Zero();  // centre of mass [m]; 2D: z = 0
  Mat3 inertia_world() const { return axes * moments.asDiagonal() * axes.transpose(); }
};

struct Contact {
  std::int32_t i = 0, j = 0;  // indices into ContactNetwork::bodies (not ids)
  // The contact point [m] as each body sees it (arms point_i - centre_i, point_j - centre_j): one
  // point for both (`point`), or two (`points`: LAMMPS' spheres and clumps use each sphere's own
  // surface point, x_i + r_i n and x_j - r_j n, which lie the overlap apart along the normal).
  Vec3 point_i = Vec3::Zero(), point_j = Vec3::Zero();
  Vec3 normal = Vec3::UnitX();  // unit, from i to j (normalised after the check)
  std::int32_t law = 0;       // index into ContactNetwork::laws
  double overlap = 0.0;       // m
  double r_eff = 0.0;         // radius of curvature the law reads [m]; 0 when the law reads none
  contact::History history;   // tangential, rolling, twisting histories (zero unless given)
  bool has_history = false;
  // Clumps (clumps.hpp): the radii of the two member spheres in contact (0 for a wall and when not
  // known). Only Yade's clump rule reads them (GlobalSystem::yade_global_stiffness_step).
  double member_radius_i = 0.0, member_radius_j = 0.0;
};

struct ContactNetwork {
  std::string source;  // the file(s) read
  int dimension = 3;
  std::vector<Body> bodies;
  std::vector<Contact> contacts;
  std::vector<contact::ContactLaw> laws;  // the distinct laws, in order of first use
  std::vector<std::string> law_texts;     // as written in the file
  std::int32_t free_bodies() const;
};

// Tolerances of the reader: | |n| - 1 | and | |q| - 1 | (then normalised), and the asymmetry of a
// world inertia tensor relative to its largest entry (then symmetrised).
inline constexpr double unit_tolerance = 1e-6;
inline constexpr double symmetry_tolerance = 1e-9;

// A .json file, or a CSV pair: FILE ends in .csv and names the bodies; its contacts are in the
// file of the same name with the last "bodies" replaced by "contacts". Errors name the file, the
// entry (index and id) and the field.
ContactNetwork read_network(const std::string& path);
ContactNetwork parse_network_json(const nlohmann::json& j, const std::string& file);
ContactNetwork read_network_csv(const std::string& bodies_path, const std::string& contacts_path);
// The contacts file of a bodies CSV file ("" when the name has no "bodies").
std::string contacts_csv_path(const std::string& bodies_path);

// One law string of the format: LAMMPS pair_style words ("gran/hooke/history 1e5 NULL 0 NULL 0.5 0",
// "granular hertz/material ...") or "hertz_mindlin E=.. nu=.. e=.. mu=..".
contact::ContactLaw parse_law(const std::string& text, const std::string& where);

}  // namespace dtcrit::network
