#pragma once
// Planar rigid bodies as the contact-point model sees them: mass m, moment of inertia I about the
// centre of mass G, and the contact arm r = P - G in the contact frame (t, n) = (index 0, index 1).
// Units are SI throughout: kg, kg m^2, m.
#include <string>
#include <vector>

#include "dtcrit/core/types.hpp"

namespace dtcrit {

struct PlanarBody {
  std::string shape;  // "disc", "sphere", "rect", "ellipse", "polygon" or "custom": for reports only
  double mass = 0.0;     // m [kg]
  double inertia = 0.0;  // I about G [kg m^2]
  Vector2 arm = Vector2::Zero();  // (r_t, r_n) [m]

  double arm_length() const { return arm.norm(); }     // L
  double eccentricity() const { return arm[0]; }       // e = L cos(theta) = r_t
};

// Checks m > 0, I > 0 and a finite arm; `who` names the body in messages ("body1").
PlanarBody validated(PlanarBody body, const std::string& who);

// The arm from the paper's polar form r = L (cos theta, sin theta); theta = pi/2 is collinear.
Vector2 arm_from_polar(double L, double theta);
// The arm from length and eccentricity e = L cos(theta), taking r_n = +sqrt(L^2 - e^2).
Vector2 arm_from_eccentricity(double L, double e);

// Shapes that compute I (and the arm where the geometry fixes it). Masses per body as given.
PlanarBody make_disc(double radius, double mass);                 // I = m r^2 / 2, arm (0, r)
// A sphere moving in the contact plane (its other rotations and out-of-plane motion do not couple to
// an in-plane contact): I = 2/5 m r^2, arm (0, r).
PlanarBody make_sphere(double radius, double mass);
PlanarBody make_rect(double a, double b, double mass, double e);  // sides a (along t) x b (along n): I = m(a^2+b^2)/12,
                                                                   // contact on a face of side a at offset e: arm (e, b/2)
PlanarBody make_ellipse(double a, double b, double mass, Vector2 arm);  // semi-axes a, b: I = m(a^2+b^2)/4
// Convex (or simple) polygon with uniform density: vertices in order; mass m; the contact point P in
// the polygon's own coordinates, with the contact frame aligned to its axes (t = x, n = y).
// The arm is P - centroid.
PlanarBody make_polygon(const std::vector<Vector2>& vertices, double mass, Vector2 contact_point);
// Polygon area and centroid, and the polar moment of area about the centroid (for I = rho_areal * J).
struct PolygonGeometry { double area; Vector2 centroid; double polar_moment; };
PolygonGeometry polygon_geometry(const std::vector<Vector2>& vertices);

}  // namespace dtcrit
