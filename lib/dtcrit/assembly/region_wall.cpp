#include "dtcrit/assembly/region_wall.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit::packing {

std::string_view to_string(RegionStyle s) { return name_of(s, region_style_names); }

Eigen::Matrix3d RegionContact::normal_derivative() const {
  return turn_rate[0] * tangent[0] * tangent[0].transpose() + turn_rate[1] * tangent[1] * tangent[1].transpose();
}

Vec3 rotate_about(const Vec3& x, double angle, const Vec3& p, const Vec3& u) {
  // region.cpp Region::rotate: split x - p into its part along u and the rest, turn the rest.
  const Vec3 d = x - p;
  const Vec3 c = d.dot(u) * u;
  const Vec3 a = d - c;
  const Vec3 b = u.cross(a);
  return p + c + (a * std::cos(angle) + b * std::sin(angle));
}

namespace {

// A contact in the region's own frame, before the transform to the world.
struct Local {
  Vec3 del = Vec3::Zero();  // x - x_s
  double distance = 0.0;
  double wall_radius = 0.0;
  int face = 0;
  std::array<Vec3, 2> tangent{Vec3::UnitX(), Vec3::UnitY()};
  std::array<double, 2> rate{0.0, 0.0};
  Vec3 wall_radius_gradient = Vec3::Zero();
};

[[noreturn]] void refuse(const RegionWall& w, const std::string& what) {
  fail(fmt::format("region {} ({}): {}", w.name, to_string(w.style), what));
}

// Two unit vectors completing n to an orthonormal basis.
std::array<Vec3, 2> tangents_of(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 t1 = n.cross(helper).normalized();
  return {t1, n.cross(t1)};
}

// The axes other than `axis`, ascending (LAMMPS' c1, c2 directions).
std::array<int, 2> cross_axes(int axis) { return axis == 0 ? std::array{1, 2} : axis == 1 ? std::array{0, 2} : std::array{0, 1}; }

// The turning of the normal on a surface of revolution about `axis` through (c1, c2): the
// circumferential rate n_s / s, and in the meridional plane 1/d at a rim (edge == true) or 0.
void revolution_turning(Local& c, const RegionWall& w, const Vec3& x, bool edge) {
  const auto [a1, a2] = cross_axes(w.axis);
  Vec3 radial = Vec3::Zero();
  radial[a1] = x[a1] - w.c1;
  radial[a2] = x[a2] - w.c2;
  const double s = radial.norm();
  const Vec3 n = c.del / c.distance;
  const Vec3 along = Vec3::Unit(w.axis);
  Vec3 t_phi = s > 0.0 ? Vec3(along.cross(radial / s)) : tangents_of(n)[0];
  if (std::abs(t_phi.dot(n)) > 0.5) t_phi = tangents_of(n)[0];  // only on the axis itself
  c.tangent[0] = t_phi;
  c.rate[0] = s > 0.0 ? n.dot(radial / s) / s : 0.0;
  c.tangent[1] = n.cross(t_phi).normalized();
  c.rate[1] = edge ? 1.0 / c.distance : 0.0;
}

// A contact at a point x_s the normal turns about in every direction (a corner).
void corner_turning(Local& c) {
  c.tangent = tangents_of(c.del / c.distance);
  c.rate = {1.0 / c.distance, 1.0 / c.distance};
}

Local flat(const Vec3& del, double distance, int face, double wall_radius = 0.0) {
  Local c;
  c.del = del;
  c.distance = distance;
  c.face = face;
  c.wall_radius = wall_radius;
  c.tangent = tangents_of(distance > 0.0 ? Vec3(del / distance) : Vec3::UnitZ());
  return c;
}

// The two end caps of a cylinder or cone seen from inside (faces 1 and 2, unless open): each a flat
// contact along the axis; `push_axis` is the axis the offset is put on (LAMMPS puts a y-axis
// cone's along z: cone_interior).
void end_caps(const RegionWall& w, const Vec3& x, double cutoff, int push_axis, std::vector<Local>& out) {
  const double below = x[w.axis] - w.axis_lo;
  if (below < cutoff && !w.open[0]) out.push_back(flat(below * Vec3::Unit(push_axis), below, 0));
  const double above = w.axis_hi - x[w.axis];
  if (above < cutoff && !w.open[1]) out.push_back(flat(-above * Vec3::Unit(push_axis), above, 1));
}

// region.cpp point_on_line_segment: the point of [a, b] nearest c; `end` is -1 at a, +1 at b, else 0.
Vec3 nearest_on_segment(const Vec3& a, const Vec3& b, const Vec3& c, int& end) {
  const Vec3 ba = b - a;
  const double t = (c - a).dot(ba) / ba.dot(ba);
  end = t <= 0.0 ? -1 : t >= 1.0 ? 1 : 0;
  if (t <= 0.0) return a;
  if (t >= 1.0) return b;
  return a + t * ba;
}

bool inside(const RegionWall& w, const Vec3& x) {
  switch (w.style) {
    case RegionStyle::union_of:
      return std::any_of(w.members.begin(), w.members.end(), [&](const RegionWall& m) { return region_matches(m, x); });
    case RegionStyle::intersection:
      return std::all_of(w.members.begin(), w.members.end(), [&](const RegionWall& m) { return region_matches(m, x); });
    case RegionStyle::plane: return (x - w.point).dot(w.normal) >= 0.0;
    case RegionStyle::block:
      return x[0] >= w.lo[0] && x[0] <= w.hi[0] && x[1] >= w.lo[1] && x[1] <= w.hi[1] && x[2] >= w.lo[2] &&
             x[2] <= w.hi[2];
    case RegionStyle::sphere: return (x - w.centre).norm() <= w.radius;
    case RegionStyle::cylinder:
    case RegionStyle::cone: {
      const auto [a1, a2] = cross_axes(w.axis);
      const double r = std::hypot(x[a1] - w.c1, x[a2] - w.c2);
      const double xa = x[w.axis];
      const double radius = w.style == RegionStyle::cylinder
                                ? w.radius
                                : w.radius_lo + (xa - w.axis_lo) * (w.radius_hi - w.radius_lo) / (w.axis_hi - w.axis_lo);
      return r <= radius && xa >= w.axis_lo && xa <= w.axis_hi;
    }
  }
  return false;
}

void plane_interior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const double dot = (x - w.point).dot(w.normal);
  if (dot < cutoff && dot >= 0.0) out.push_back(flat(dot * w.normal, dot, 0));
}

void plane_exterior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const double dot = -(x - w.point).dot(w.normal);
  if (dot < cutoff && dot >= 0.0) out.push_back(flat(-dot * w.normal, dot, 0));
}

void block_interior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  for (int d = 0; d < 3; ++d)
    if (x[d] < w.lo[d] || x[d] > w.hi[d]) return;
  for (int d = 0; d < 3; ++d) {
    const double below = x[d] - w.lo[d];
    if (below < cutoff && !w.open[static_cast<std::size_t>(2 * d)]) out.push_back(flat(below * Vec3::Unit(d), below, 2 * d));
    const double above = w.hi[d] - x[d];
    if (above < cutoff && !w.open[static_cast<std::size_t>(2 * d + 1)])
      out.push_back(flat(-above * Vec3::Unit(d), above, 2 * d + 1));
  }
}

void block_exterior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out, bool open) {
  for (int d = 0; d < 3; ++d)
    if (x[d] <= w.lo[d] - cutoff || x[d] >= w.hi[d] + cutoff) return;
  if (x[0] > w.lo[0] && x[0] < w.hi[0] && x[1] > w.lo[1] && x[1] < w.hi[1] && x[2] > w.lo[2] && x[2] < w.hi[2]) return;
  // region_block.cpp's nearest point over the closed faces (open faces) is not reproduced here.
  if (open)
    refuse(w, fmt::format("a particle at ({}, {}, {}) on or outside a block with open faces: dtcrit does not compute "
                          "LAMMPS' exterior contacts of open blocks",
                          x.x(), x.y(), x.z()));
  Vec3 xp = x;
  int clamped = 0, free_axis = 0;
  for (int d = 0; d < 3; ++d) {
    if (x[d] < w.lo[d]) xp[d] = w.lo[d], ++clamped;
    else if (x[d] > w.hi[d]) xp[d] = w.hi[d], ++clamped;
    else free_axis = d;
  }
  const Vec3 del = x - xp;
  Local c = flat(del, del.norm(), 0);
  if (!(c.distance < cutoff)) return;
  if (clamped == 2 && c.distance > 0.0) {  // an edge along the one free axis
    const Vec3 n = del / c.distance;
    c.tangent = {Vec3::Unit(free_axis), n.cross(Vec3::Unit(free_axis))};
    c.rate = {0.0, 1.0 / c.distance};
  } else if (clamped == 3 && c.distance > 0.0) {
    corner_turning(c);
  }
  out.push_back(c);
}

void sphere_surface(const RegionWall& w, const Vec3& x, double cutoff, bool interior, std::vector<Local>& out) {
  const Vec3 d = x - w.centre;
  const double r = d.norm();
  if (interior ? (r > w.radius || r == 0.0) : r < w.radius) return;
  const double delta = interior ? w.radius - r : r - w.radius;
  if (!(delta < cutoff)) return;
  Local c = flat(d * (1.0 - w.radius / r), delta, 0, interior ? -w.radius : w.radius);
  // The normal is -d/r inside, d/r outside; it turns at 1/r per unit of tangential motion.
  c.rate = {(interior ? -1.0 : 1.0) / r, (interior ? -1.0 : 1.0) / r};
  out.push_back(c);
}

void cylinder_interior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const auto [a1, a2] = cross_axes(w.axis);
  const int ax = w.axis;
  const double del1 = x[a1] - w.c1, del2 = x[a2] - w.c2;
  const double r = std::sqrt(del1 * del1 + del2 * del2);
  if (r > w.radius || x[ax] < w.axis_lo || x[ax] > w.axis_hi) return;
  const double side = w.radius - r;
  if (side < cutoff && r > 0.0 && !w.open[2]) {
    Vec3 del = Vec3::Zero();
    del[a1] = del1 * (1.0 - w.radius / r);
    del[a2] = del2 * (1.0 - w.radius / r);
    Local c = flat(del, side, 2, -2.0 * w.radius);
    revolution_turning(c, w, x, false);
    out.push_back(c);
  }
  end_caps(w, x, cutoff, ax, out);
}

void cylinder_exterior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const auto [a1, a2] = cross_axes(w.axis);
  const int ax = w.axis;
  const double del1 = x[a1] - w.c1, del2 = x[a2] - w.c2;
  const double r = std::sqrt(del1 * del1 + del2 * del2);
  const double lo = w.axis_lo, hi = w.axis_hi, R = w.radius;
  if (r >= R + cutoff || x[ax] <= lo - cutoff || x[ax] >= hi + cutoff) return;
  if (r < R && x[ax] > lo && x[ax] < hi) return;
  Vec3 xp = x;
  double crad = 0.0;
  bool on_side = false, axial_clamped = false;
  if (!w.any_open()) {
    if (r > R) {
      xp[a1] = w.c1 + del1 * R / r, xp[a2] = w.c2 + del2 * R / r;
      crad = 2.0 * R;
      on_side = true;
    }
    if (x[ax] < lo) xp[ax] = lo, axial_clamped = true;
    else if (x[ax] > hi) xp[ax] = hi, axial_clamped = true;
  } else {
    // region_cylinder.cpp with open faces: the nearest of the closed faces (side, then the caps,
    // a cap replacing the nearer only when strictly nearer); rwall stays 0 on this branch.
    const double dr = r - R, dr2 = dr * dr;
    double d2prev = 1.0e20;
    auto rim = [&, a1 = a1, a2 = a2](Vec3& p) { p[a1] = w.c1 + del1 * R / r, p[a2] = w.c2 + del2 * R / r; };
    if (!w.open[2]) {
      rim(xp);
      double dx = 0.0;
      if (x[ax] < lo) dx = lo - x[ax], xp[ax] = lo, axial_clamped = true;
      else if (x[ax] > hi) dx = x[ax] - hi, xp[ax] = hi, axial_clamped = true;
      else xp[ax] = x[ax];
      d2prev = dr2 + dx * dx;
      on_side = true;
    }
    for (int cap = 0; cap < 2; ++cap) {
      if (w.open[static_cast<std::size_t>(cap)]) continue;
      const double at = cap == 0 ? lo : hi;
      const double dx = at - x[ax];
      const double d2 = r < R ? dx * dx : dr2 + dx * dx;
      if (d2 < d2prev) {
        xp = x;
        xp[ax] = at;
        on_side = !(r < R);
        if (on_side) rim(xp);
        axial_clamped = true;
        d2prev = d2;
      }
    }
  }
  const Vec3 del = x - xp;
  Local c = flat(del, del.norm(), 0, crad);
  if (!(c.distance < cutoff)) return;
  if (on_side && c.distance > 0.0) revolution_turning(c, w, x, axial_clamped);
  out.push_back(c);
}

double cone_radius_at(const RegionWall& w, double xa) {
  return w.radius_lo + (xa - w.axis_lo) * (w.radius_hi - w.radius_lo) / (w.axis_hi - w.axis_lo);
}

// rwall = -2 R(x_s) follows the contact point along the generator G (from the lo rim to the hi
// rim): x_s moves by G G^T / |G|^2 of the centre's motion, R by (R_hi - R_lo) / (hi - lo) per unit
// of its axial coordinate, so grad rwall = -2 (R_hi - R_lo) G / |G|^2 (zero at a rim).
Vec3 cone_wall_radius_gradient(const RegionWall& w, const Vec3& G) {
  return -2.0 * (w.radius_hi - w.radius_lo) * G / G.squaredNorm();
}

void cone_interior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const auto [a1, a2] = cross_axes(w.axis);
  const int ax = w.axis;
  const double del1 = x[a1] - w.c1, del2 = x[a2] - w.c2;
  const double r = std::sqrt(del1 * del1 + del2 * del2);
  if (r > cone_radius_at(w, x[ax]) || x[ax] < w.axis_lo || x[ax] > w.axis_hi) return;
  if (r > 0.0 && !w.open[2]) {
    // region_cone.cpp: the nearest point of the generator in the centre's half-plane.
    Vec3 lo_pt = Vec3::Zero(), hi_pt = Vec3::Zero();
    lo_pt[a1] = w.c1 + del1 * w.radius_lo / r, lo_pt[a2] = w.c2 + del2 * w.radius_lo / r, lo_pt[ax] = w.axis_lo;
    hi_pt[a1] = w.c1 + del1 * w.radius_hi / r, hi_pt[a2] = w.c2 + del2 * w.radius_hi / r, hi_pt[ax] = w.axis_hi;
    int end = 0;
    const Vec3 xs = nearest_on_segment(lo_pt, hi_pt, x, end);
    const Vec3 del = x - xs;
    const double dist = del.norm();
    if (dist < cutoff) {
      Local c = flat(del, dist, 2, -2.0 * cone_radius_at(w, xs[ax]));
      if (dist > 0.0) revolution_turning(c, w, x, end != 0);
      if (end == 0) c.wall_radius_gradient = cone_wall_radius_gradient(w, hi_pt - lo_pt);
      out.push_back(c);
    }
  }
  // region_cone.cpp (29 Sep 2021) puts a y-axis cone's cap offsets in z, not y: LAMMPS pushes such
  // a particle along z (measured with lmp, tests/data/regions, case cone_y_in). Reproduced as is.
  end_caps(w, x, cutoff, w.axis == 1 ? 2 : ax, out);
}

void cone_exterior(const RegionWall& w, const Vec3& x, double cutoff, std::vector<Local>& out) {
  const auto [a1, a2] = cross_axes(w.axis);
  const int ax = w.axis;
  const double del1 = x[a1] - w.c1, del2 = x[a2] - w.c2;
  const double r = std::sqrt(del1 * del1 + del2 * del2);
  const double maxradius = std::max(w.radius_lo, w.radius_hi);
  if (r >= maxradius + cutoff || x[ax] <= w.axis_lo - cutoff || x[ax] >= w.axis_hi + cutoff) return;
  if (r < cone_radius_at(w, x[ax]) && x[ax] > w.axis_lo && x[ax] < w.axis_hi) return;
  if (r == 0.0) refuse(w, "a particle centre on the axis outside the cone (LAMMPS divides by its zero distance to the axis)");
  // The half trapezoid of the cone's section in the centre's half-plane: rim points 1 (lo), 2 (hi),
  // axis points 3 (lo), 4 (hi); the nearest of the closed segments 1-2 (side), 1-3 (lo cap), 2-4
  // (hi cap), a later one replacing only when strictly nearer.
  Vec3 p1 = Vec3::Zero(), p2 = Vec3::Zero(), p3 = Vec3::Zero(), p4 = Vec3::Zero();
  p1[a1] = w.c1 + del1 * w.radius_lo / r, p1[a2] = w.c2 + del2 * w.radius_lo / r, p1[ax] = w.axis_lo;
  p2[a1] = w.c1 + del1 * w.radius_hi / r, p2[a2] = w.c2 + del2 * w.radius_hi / r, p2[ax] = w.axis_hi;
  p3[a1] = w.c1, p3[a2] = w.c2, p3[ax] = w.axis_lo;
  p4[a1] = w.c1, p4[a2] = w.c2, p4[ax] = w.axis_hi;
  double best = 1.0e20, crad = 0.0;
  Vec3 nearest = Vec3::Zero();
  // Where the nearest point lies: on the side (a rim at either end), or on a cap (a rim at its
  // first end, the axis at its second).
  bool turns = false, at_rim = false, along_side = false;
  auto consider = [&](const Vec3& a, const Vec3& b, bool side) {
    int end = 0;
    const Vec3 p = nearest_on_segment(a, b, x, end);
    const double d2 = (x - p).squaredNorm();
    if (d2 >= best) return false;
    best = d2, nearest = p;
    at_rim = side ? end != 0 : end == -1;
    turns = side || at_rim;
    along_side = side && end == 0;
    return true;
  };
  if (!w.open[2]) {
    consider(p1, p2, true);
    crad = -2.0 * cone_radius_at(w, nearest[ax]);  // LAMMPS' sign, negative on this side too
  }
  if (!w.open[0] && consider(p1, p3, false)) crad = 0.0;
  if (!w.open[1] && consider(p2, p4, false)) crad = 0.0;
  if (best == 1.0e20) return;
  const Vec3 del = x - nearest;
  Local c = flat(del, del.norm(), 0, crad);
  if (!(c.distance < cutoff)) return;
  if (c.distance > 0.0 && turns) revolution_turning(c, w, x, at_rim);
  if (along_side) c.wall_radius_gradient = cone_wall_radius_gradient(w, p2 - p1);
  out.push_back(c);
}

}  // namespace

namespace {

// region.cpp inverse_transform: undo the displacement, then the rotation.
Vec3 to_region_frame(const RegionWall& w, const Vec3& x_world) {
  Vec3 x = x_world - w.displacement;
  if (w.rotated) x = rotate_about(x, -w.angle, w.rotation_point, w.rotation_axis);
  return x;
}

std::vector<RegionContact> surface_contacts(const RegionWall& w, const Vec3& x_world, double particle_radius, double cutoff);

// region_union.cpp / region_intersect.cpp surface_interior(): each sub-region's surface() contacts
// whose surface point lies on the combined surface.
std::vector<RegionContact> combined_contacts(const RegionWall& w, const Vec3& x, double particle_radius, double cutoff) {
  if (!w.interior) refuse(w, "side out of a union or intersection is not read by dtcrit");
  std::vector<RegionContact> out;
  for (std::size_t i = 0; i < w.members.size(); ++i)
    for (const RegionContact& c : surface_contacts(w.members[i], x, particle_radius, cutoff)) {
      const Vec3 xs = x - c.offset;
      bool keep = true;
      for (std::size_t j = 0; j < w.members.size() && keep; ++j) {
        if (j == i) continue;
        const RegionWall& m = w.members[j];
        keep = w.style == RegionStyle::union_of ? !(region_matches(m, xs) && !m.any_open()) : region_matches(m, xs);
      }
      if (keep) out.push_back(c);
    }
  return out;
}

// region.cpp surface(): the contacts of the region's surface within the cutoff, without match().
std::vector<RegionContact> surface_contacts(const RegionWall& w, const Vec3& x_world, double particle_radius, double cutoff) {
  if (w.style == RegionStyle::union_of || w.style == RegionStyle::intersection)
    return combined_contacts(w, x_world, particle_radius, cutoff);
  const Vec3 x = to_region_frame(w, x_world);
  const bool open = w.any_open();
  std::vector<Local> local;
  auto interior = [&] {
    switch (w.style) {
      case RegionStyle::plane: plane_interior(w, x, cutoff, local); break;
      case RegionStyle::block: block_interior(w, x, cutoff, local); break;
      case RegionStyle::cylinder: cylinder_interior(w, x, cutoff, local); break;
      case RegionStyle::cone: cone_interior(w, x, cutoff, local); break;
      case RegionStyle::sphere: sphere_surface(w, x, cutoff, true, local); break;
      default: break;
    }
  };
  auto exterior = [&] {
    switch (w.style) {
      case RegionStyle::plane: plane_exterior(w, x, cutoff, local); break;
      case RegionStyle::block:
        block_exterior(w, x, cutoff, local, open);
        break;
      case RegionStyle::cylinder: cylinder_exterior(w, x, cutoff, local); break;
      case RegionStyle::cone: cone_exterior(w, x, cutoff, local); break;
      case RegionStyle::sphere: sphere_surface(w, x, cutoff, false, local); break;
      default: break;
    }
  };
  if (!open) {
    if (w.interior) interior();
    else exterior();
  } else {
    // region.cpp surface(): with open faces LAMMPS asks both sides (one of them finds nothing).
    if (!w.interior) refuse(w, "side out with open faces: dtcrit reads open faces on side in regions only");
    exterior();
    interior();
  }
  std::vector<RegionContact> out;
  out.reserve(local.size());
  for (const Local& c : local) {
    if (!(c.distance > 0.0))
      refuse(w, fmt::format("a particle centre at ({}, {}, {}) lies on the surface (LAMMPS divides by the zero distance)",
                            x_world.x(), x_world.y(), x_world.z()));
    RegionContact rc;
    Vec3 del = c.del;
    rc.tangent = c.tangent;
    rc.wall_radius_gradient = c.wall_radius_gradient;
    if (w.rotated) {
      // region.cpp surface(): the surface point is carried to the world and the offset recomputed.
      Vec3 xs = x - c.del;
      xs = rotate_about(xs, w.angle, w.rotation_point, w.rotation_axis) + w.displacement;
      del = x_world - xs;
      for (Vec3& t : rc.tangent) t = rotate_about(t, w.angle, Vec3::Zero(), w.rotation_axis);
      rc.wall_radius_gradient = rotate_about(c.wall_radius_gradient, w.angle, Vec3::Zero(), w.rotation_axis);
    }
    rc.offset = del;
    rc.normal = del.normalized();
    rc.distance = c.distance;  // LAMMPS keeps the region frame's distance (its contact[].r)
    rc.overlap = particle_radius - c.distance;
    rc.wall_radius = c.wall_radius;
    rc.face = c.face;
    rc.turn_rate = c.rate;
    out.push_back(rc);
  }
  return out;
}

}  // namespace

bool region_matches(const RegionWall& w, const Vec3& x_world) {
  if (w.any_open()) return true;
  return inside(w, to_region_frame(w, x_world)) == w.interior;
}

std::vector<RegionContact> region_contacts(const RegionWall& w, const Vec3& x_world, double particle_radius,
                                           double gap_tolerance) {
  // fix_wall_gran_region.cpp asks only particles that match the region.
  if (!region_matches(w, x_world)) return {};
  return surface_contacts(w, x_world, particle_radius, particle_radius * (1.0 + gap_tolerance));
}

double lammps_effective_radius(double particle_radius, double wall_radius, const RegionWall& w) {
  if (wall_radius == 0.0) return particle_radius;
  const double r_eff = contact::effective_radius(particle_radius, wall_radius);
  if (!(r_eff > 0.0) || !std::isfinite(r_eff))
    refuse(w, fmt::format("a particle of radius {} against the wall radius {} LAMMPS passes to the law gives "
                          "R_eff = {} (LAMMPS takes the square root of it)",
                          particle_radius, wall_radius, r_eff));
  return r_eff;
}

void validate(const RegionWall& w) {
  auto finite = [&](const char* field, const Vec3& v) {
    if (!v.allFinite()) refuse(w, fmt::format("{} ({}, {}, {}) is not finite", field, v.x(), v.y(), v.z()));
  };
  auto positive = [&](const char* field, double v) {
    if (!(v > 0.0) || !std::isfinite(v)) refuse(w, fmt::format("{} {} must be positive and finite", field, v));
  };
  finite("displacement", w.displacement);
  finite("rotation point", w.rotation_point);
  if (!std::isfinite(w.angle)) refuse(w, fmt::format("rotation angle {} is not finite", w.angle));
  if (w.rotated && std::abs(w.rotation_axis.norm() - 1.0) > 1e-12) refuse(w, "the rotation axis must be a unit vector");
  if (w.axis < 0 || w.axis > 2) refuse(w, fmt::format("axis {} is not 0, 1 or 2", w.axis));
  const int faces = w.style == RegionStyle::block ? 6 : (w.style == RegionStyle::cylinder || w.style == RegionStyle::cone) ? 3 : 0;
  for (int f = faces; f < 6; ++f)
    if (w.open[static_cast<std::size_t>(f)]) refuse(w, fmt::format("open face {} does not exist (the style has {})", f + 1, faces));
  switch (w.style) {
    case RegionStyle::plane:
      finite("point", w.point);
      if (!w.normal.allFinite() || std::abs(w.normal.norm() - 1.0) > 1e-12) refuse(w, "the normal must be a unit vector");
      break;
    case RegionStyle::block:
      for (int d = 0; d < 3; ++d)
        if (!(w.lo[d] <= w.hi[d]) || !std::isfinite(w.hi[d] - w.lo[d]))
          refuse(w, fmt::format("bounds of axis {}: lo {} must not exceed hi {}", "xyz"[d], w.lo[d], w.hi[d]));
      break;
    case RegionStyle::sphere:
      finite("centre", w.centre);
      positive("radius", w.radius);
      break;
    case RegionStyle::cylinder:
    case RegionStyle::cone:
      if (!std::isfinite(w.c1) || !std::isfinite(w.c2)) refuse(w, fmt::format("axis position ({}, {}) is not finite", w.c1, w.c2));
      if (!(w.axis_lo < w.axis_hi)) refuse(w, fmt::format("lo {} must be below hi {}", w.axis_lo, w.axis_hi));
      if (w.style == RegionStyle::cylinder) {
        positive("radius", w.radius);
      } else {
        if (!(w.radius_lo >= 0.0 && w.radius_hi >= 0.0) || (w.radius_lo == 0.0 && w.radius_hi == 0.0))
          refuse(w, fmt::format("radii {} and {} must be non-negative and not both zero", w.radius_lo, w.radius_hi));
      }
      break;
    case RegionStyle::union_of:
    case RegionStyle::intersection:
      if (w.members.empty()) refuse(w, "has no sub-regions");
      // region.cpp options(): LAMMPS refuses a dynamic union or intersection.
      if (w.rotated || !w.displacement.isZero(0.0)) refuse(w, "a union or intersection cannot rotate or move");
      for (const RegionWall& m : w.members) validate(m);
      break;
  }
}

}  // namespace dtcrit::packing
