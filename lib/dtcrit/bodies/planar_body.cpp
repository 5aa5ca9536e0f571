#include "dtcrit/bodies/planar_body.hpp"

#include <cmath>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit {

PlanarBody validated(PlanarBody body, const std::string& who) {
  require_positive(who + " mass m", body.mass);
  require_positive(who + " inertia I", body.inertia);
  require_finite(who + " arm r_t", body.arm[0]);
  require_finite(who + " arm r_n", body.arm[1]);
  return body;
}

Vector2 arm_from_polar(double L, double theta) {
  require_non_negative("arm length L", L);
  require_finite("arm angle theta", theta);
  return {L * std::cos(theta), L * std::sin(theta)};
}

Vector2 arm_from_eccentricity(double L, double e) {
  require_non_negative("arm length L", L);
  require_finite("eccentricity e", e);
  if (std::abs(e) > L) fail(fmt::format("eccentricity e = {} exceeds the arm length L = {}", e, L));
  return {e, std::sqrt(L * L - e * e)};
}

PlanarBody make_disc(double radius, double mass) {
  require_positive("disc radius r", radius);
  require_positive("disc mass m", mass);
  return {"disc", mass, contact::disc_inertia(mass, radius), {0.0, radius}};
}

PlanarBody make_sphere(double radius, double mass) {
  require_positive("sphere radius r", radius);
  require_positive("sphere mass m", mass);
  return {"sphere", mass, contact::sphere_inertia(mass, radius), {0.0, radius}};
}

PlanarBody make_rect(double a, double b, double mass, double e) {
  require_positive("rect side a", a);
  require_positive("rect side b", b);
  require_positive("rect mass m", mass);
  if (!(std::abs(e) <= 0.5 * a)) fail(fmt::format("rect eccentricity e = {} must lie within the face, |e| <= a/2 = {}", e, 0.5 * a));
  return {"rect", mass, mass * (a * a + b * b) / 12.0, {e, 0.5 * b}};
}

PlanarBody make_ellipse(double a, double b, double mass, Vector2 arm) {
  require_positive("ellipse semi-axis a", a);
  require_positive("ellipse semi-axis b", b);
  require_positive("ellipse mass m", mass);
  return {"ellipse", mass, mass * (a * a + b * b) / 4.0, arm};
}

PolygonGeometry polygon_geometry(const std::vector<Vector2>& v) {
  if (v.size() < 3) fail(fmt::format("polygon has {} vertices, needs at least 3", v.size()));
  // Shoelace formulas, then the parallel-axis theorem to move J from the origin to the centroid.
  double area2 = 0.0, jo = 0.0;
  Vector2 c = Vector2::Zero();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Vector2& p = v[i];
    const Vector2& q = v[(i + 1) % v.size()];
    const double cross = p.x() * q.y() - q.x() * p.y();
    area2 += cross;
    c += (p + q) * cross;
    jo += cross * (p.squaredNorm() + p.dot(q) + q.squaredNorm());
  }
  if (!(std::abs(area2) > 0.0)) fail("polygon has zero area");
  const double area = 0.5 * area2;
  c /= 3.0 * area2;
  const double j_origin = jo / 12.0;
  double j_centroid = j_origin - area * c.squaredNorm();
  // Clockwise vertex order gives negative signed area and J: report magnitudes.
  return {std::abs(area), c, std::abs(j_centroid)};
}

PlanarBody make_polygon(const std::vector<Vector2>& vertices, double mass, Vector2 contact_point) {
  require_positive("polygon mass m", mass);
  const auto g = polygon_geometry(vertices);
  return {"polygon", mass, mass * g.polar_moment / g.area, contact_point - g.centroid};
}

}  // namespace dtcrit
