#pragma once
// Convex polygons and ellipses in the plane (issue 14): their contact detection and packings of them
// as contact networks, for tests and studies (network/README.md, "Planar shapes").
//
// Contact: the penetration depth of two overlapping convex bodies is the smallest translation that
// separates them, min over unit n of  h_A(n) + h_B(-n) - n . (x_B - x_A)  (h the support function
// about the body's centre; the separating-axis test generalised). Its minimiser is the normal (from
// A to B). Each body's contact point is its own deepest point along that normal (the point of
// support: for polygons the penetrating vertex, or the middle of the overlapping stretch of two
// parallel edges, each on its own body), so the two points lie the depth apart along n — the
// network's two-point convention, which for discs is LAMMPS' (each disc's own surface point).
// Polygons: the minimum is at an edge normal of either polygon (exact). Ellipses: a smooth function
// of the normal's angle, minimised by sampling then golden-section search to 1e-13 rad.
#include <optional>
#include <vector>

#include "dtcrit/core/types.hpp"
#include "dtcrit/network/network.hpp"

namespace dtcrit::network {

struct PlanarShape {
  enum class Kind { polygon, ellipse };
  Kind kind = Kind::ellipse;
  std::vector<Vector2> vertices;  // polygon: convex, counter-clockwise, about its centroid (body frame)
  double a = 0.0, b = 0.0;        // ellipse: semi-axes along the body frame's x and y [m]
  double area() const;
  double polar_moment() const;    // about the centroid, per unit areal density [m^4]
};
// A regular polygon of `sides` with the area of a disc of radius r (a vertex on the body's x axis).
PlanarShape regular_polygon(int sides, double r);
// An ellipse of aspect ratio a/b = aspect with the area of a disc of radius r.
PlanarShape ellipse_of_aspect(double aspect, double r);

struct Placed {
  const PlanarShape* shape = nullptr;
  Vector2 centre = Vector2::Zero();
  double angle = 0.0;  // rotation of the body frame [rad]
};

struct PlanarContact {
  double depth = 0.0;               // penetration depth [m] (> 0: overlapping)
  Vector2 normal = Vector2::UnitX();  // unit, from A to B
  Vector2 point_a = Vector2::Zero(), point_b = Vector2::Zero();  // each body's deepest point
};
// The contact of A and B, or nullopt when they do not overlap.
std::optional<PlanarContact> planar_contact(const Placed& A, const Placed& B);

// A packing of one shape on a periodic hexagonal lattice (n x n cells of two bodies each), each body
// turned by a random angle in [-max_rotation, max_rotation] (seeded) about a base orientation:
//  - ellipses: the hexagonal lattice of touching discs of radius r, compressed by `compression` and
//    stretched by sqrt(aspect) along x and 1/sqrt(aspect) along y; an affine map keeps tangency, so
//    aligned ellipses (max_rotation 0) touch their six neighbours like the discs;
//  - polygons: the spacing 2 rho (1 - compression), rho the inradius: every neighbour overlaps
//    whatever the rotations (the depth varies with them).
// Contacts (through the periodic images) with the law `law` (LAMMPS words, network/README.md), masses
// from the areal density (m = rho_a area, I = rho_a J).
struct PlanarPackingSpec {
  PlanarShape shape;
  Index n = 4;
  double r = 1e-3;             // the equal-area disc radius the lattice is built for [m]
  double aspect = 1.0;         // ellipses: the stretch (must equal shape.a / shape.b)
  double areal_density = 1.0;  // kg/m^2
  double compression = 1e-3;
  double max_rotation = 0.0;   // rad
  unsigned seed = 1;
  std::string law = "gran/hooke/history 1e5 NULL 0 NULL 0.5 0";
};
ContactNetwork planar_packing(const PlanarPackingSpec& spec);

}  // namespace dtcrit::network
