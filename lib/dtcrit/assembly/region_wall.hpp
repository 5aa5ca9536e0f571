#pragma once
// Walls that are LAMMPS regions (`fix wall/gran/region`), as LAMMPS 29 Sep 2021 (Debian's `lmp`)
// finds their contacts: the region styles plane, block, cylinder, cone and sphere, side in or out,
// open faces, and a rotation / displacement taken at one instant (the values of the `rotate` and
// `move` variables at the state's time step, evaluated by the caller). Geometry follows
// src/region.cpp (surface(), the forward / inverse transform), src/region_plane.cpp,
// region_block.cpp, region_cylinder.cpp, region_cone.cpp, region_sphere.cpp and
// src/GRANULAR/fix_wall_gran_region.cpp (which particles are asked: region->match()).
//
// For each contact this gives what the law and the linearisation need:
//  - the unit normal (from the wall's surface point to the particle centre) and the overlap
//    r - |x - x_s|;
//  - `wall_radius`, the number LAMMPS stores in contact[].radius and passes to the law as rwall.
//    fix_wall_gran.cpp makes R_eff = r rwall / (r + rwall) of it (r when rwall = 0) for the
//    hertz/history and granular laws (hooke ignores it). LAMMPS' values: 0 for flat faces and for
//    block edges and corners; a cylinder's curved side -2 R (inside) and +2 R (outside); a cone's
//    side -2 R(x_s) on both sides (R(x_s) the cone's radius at the contact point); a sphere -R
//    (inside) and +R (outside). The factor 2 of cylinders and cones is LAMMPS' own (measured with
//    `lmp`: a sphere in a cylinder of radius R gets R_eff = 2 r R / (2 R - r), not r R / (R - r));
//    dtcrit reproduces it, see lammps_effective_radius().
//  - the rate at which the normal turns as the particle centre moves: dn/dx = sum_k g_k t_k t_k^T
//    over two tangent directions t_k, with g_k = 1/rho_k, rho_k the signed distance from the centre
//    to the surface's centre of curvature along t_k (g > 0 convex: the wall bends away from the
//    particle, g < 0 concave). A normal force F_n n then has the geometric stiffness -F_n dn/dx:
//    restoring on a concave wall (inside a cylinder or sphere), destabilising on a convex one. For
//    surfaces of revolution (cylinder, cone, their rims) the circumferential rate is n_s / s (s the
//    centre's distance to the axis, n_s the normal's radial component); a straight generator has
//    none; an edge or corner contact turns about the edge (1/d, d the centre's distance to it).
// The wall's velocity (a rotating or moving region) is not needed: the analysis linearises every
// contact at rest, and a region at a given angle and displacement is an immovable surface for
// the perturbation; only its position at the state matters.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/core/types.hpp"

namespace dtcrit::packing {

using Vec3 = Eigen::Vector3d;

// union_of / intersection: LAMMPS' `union` and `intersect` of other regions (`members`).
enum class RegionStyle { plane, block, cylinder, cone, sphere, union_of, intersection };
inline constexpr EnumName<RegionStyle> region_style_names[] = {
    {RegionStyle::plane, "plane"},   {RegionStyle::block, "block"},    {RegionStyle::cylinder, "cylinder"},
    {RegionStyle::cone, "cone"},     {RegionStyle::sphere, "sphere"},  {RegionStyle::union_of, "union"},
    {RegionStyle::intersection, "intersect"}};
std::string_view to_string(RegionStyle s);

// One region in box units (lattice scaling already applied), in its own (unrotated, unmoved)
// frame, with the transform that places it at the state.
struct RegionWall {
  std::string name;  // the region ID
  RegionStyle style = RegionStyle::block;
  // plane: a point and the unit normal (inside = the normal's side)
  Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ();
  // block: [lo, hi] per axis
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
  // cylinder, cone: the axis (0, 1, 2), the centre in the two other axes in ascending order
  // (LAMMPS' c1, c2), the extent [axis_lo, axis_hi]; radius (cylinder) or radius_lo / radius_hi
  // (cone, at axis_lo / axis_hi). sphere: centre, radius.
  int axis = 2;
  double c1 = 0.0, c2 = 0.0, axis_lo = 0.0, axis_hi = 0.0;
  double radius = 0.0, radius_lo = 0.0, radius_hi = 0.0;
  Vec3 centre = Vec3::Zero();
  bool interior = true;             // side in (LAMMPS' default)
  std::array<bool, 6> open{};       // `open N`: face N-1 (block 1..6, cylinder and cone 1..3)
  // The transform at the state: rotate by `angle` about the line through rotation_point along
  // rotation_axis (unit), then displace (LAMMPS: rotate first, then move).
  bool rotated = false;
  double angle = 0.0;
  Vec3 rotation_point = Vec3::Zero(), rotation_axis = Vec3::UnitZ();
  Vec3 displacement = Vec3::Zero();
  // union_of / intersection: the sub-regions, each as its own command defined it (its side, open
  // faces and transform). region_union.cpp / region_intersect.cpp: a sub-region's contact counts
  // when its surface point lies on the combined surface: for a union, inside no other closed
  // sub-region (match(), open sub-regions never cover); for an intersection, inside every other.
  // Side in only (LAMMPS' exterior of a union overwrites the contact distance with a flag).
  std::vector<RegionWall> members;
  std::optional<contact::ContactLaw> law;  // as PlaneWall::law
  std::string label{};                     // e.g. "region drum (cylinder)"

  bool any_open() const { return open[0] || open[1] || open[2] || open[3] || open[4] || open[5]; }
};

// One contact of a particle with a region's surface.
struct RegionContact {
  Vec3 offset = Vec3::Zero();   // x - x_s in the world frame (LAMMPS' contact[].delx, dely, delz)
  Vec3 normal = Vec3::UnitZ();  // unit, from the surface point to the particle centre
  double distance = 0.0;        // |x - x_s| (LAMMPS' contact[].r)
  double overlap = 0.0;         // cutoff radius - distance (the caller's particle radius)
  double wall_radius = 0.0;     // LAMMPS' contact[].radius (rwall), see the header comment
  int face = 0;                 // LAMMPS' contact[].iwall
  std::array<Vec3, 2> tangent{Vec3::UnitX(), Vec3::UnitY()};
  std::array<double, 2> turn_rate{0.0, 0.0};  // g_k: dn/dx = sum g_k t_k t_k^T
  // d rwall / dx: LAMMPS' cone side puts rwall = -2 R(x_s), which moves with the contact point, so
  // a Hertz force (through R_eff) changes as the particle slides along the cone; zero elsewhere.
  Vec3 wall_radius_gradient = Vec3::Zero();
  Eigen::Matrix3d normal_derivative() const;
};

// The contacts LAMMPS' fix wall/gran/region finds for a particle of radius `particle_radius` at x
// (world frame): none unless region->match(x) (centre inside or on the surface for side in,
// strictly outside for side out; any centre with open faces), then region->surface(x, cutoff) with
// cutoff = particle_radius (1 + gap_tolerance): every face within the cutoff inside, the nearest
// surface point outside, open faces left out. Throws (naming the region) where dtcrit does not
// follow LAMMPS: the exterior side of a region with open faces, and a centre exactly on a surface
// (LAMMPS divides by the zero distance).
std::vector<RegionContact> region_contacts(const RegionWall& w, const Vec3& x, double particle_radius,
                                           double gap_tolerance = 0.0);
// LAMMPS' Region::match(x): the centre inside (side in) or outside (side out); always with open faces.
bool region_matches(const RegionWall& w, const Vec3& x);

// LAMMPS' R_eff of a particle of radius r against a wall of rwall = wall_radius
// (fix_wall_gran.cpp: r when rwall = 0, else r rwall / (r + rwall)). Throws when it is not
// positive (a particle wider than the 2 R LAMMPS puts for a concave wall: LAMMPS takes the square
// root of a negative number there).
double lammps_effective_radius(double particle_radius, double wall_radius, const RegionWall& w);

// Checks one region: finite numbers, positive radii, lo < hi, unit normal and axis, open faces the
// style has. Throws std::invalid_argument naming the region, field and value.
void validate(const RegionWall& w);

// LAMMPS' Region::rotate: x rotated by `angle` (right-hand rule) about the line through p along
// the unit vector u.
Vec3 rotate_about(const Vec3& x, double angle, const Vec3& p, const Vec3& u);

}  // namespace dtcrit::packing
