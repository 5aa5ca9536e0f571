#include "dtcrit/network/planar_shapes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "dtcrit/bodies/planar_body.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"

namespace dtcrit::network {

namespace {

Vector2 rotate(const Vector2& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

// Support of a placed shape in the unit direction n: h = max over the body of (p - centre) . n, and the
// points where it is reached (one, or the two ends of a polygon's edge normal to n).
struct Support {
  double h = 0.0;
  std::array<Vector2, 2> points{};  // world
  int count = 1;
};

Support support(const Placed& P, const Vector2& n) {
  const PlanarShape& s = *P.shape;
  Support out;
  const Vector2 local = rotate(n, -P.angle);
  if (s.kind == PlanarShape::Kind::ellipse) {
    const Vector2 w(s.a * s.a * local.x(), s.b * s.b * local.y());
    out.h = std::sqrt(s.a * s.a * local.x() * local.x() + s.b * s.b * local.y() * local.y());
    out.points[0] = P.centre + rotate(w / out.h, P.angle);
    return out;
  }
  double best = -std::numeric_limits<double>::infinity();
  double size = 0.0;
  for (const auto& v : s.vertices) best = std::max(best, v.dot(local)), size = std::max(size, v.norm());
  out.h = best;
  out.count = 0;
  for (const auto& v : s.vertices)
    if (v.dot(local) >= best - 1e-10 * size && out.count < 2) out.points[static_cast<std::size_t>(out.count++)] = P.centre + rotate(v, P.angle);
  return out;
}

// Overlap along n (from A to B): h_A(n) + h_B(-n) - n . (x_B - x_A).
double overlap_along(const Placed& A, const Placed& B, const Vector2& n) {
  return support(A, n).h + support(B, -n).h - n.dot(B.centre - A.centre);
}

Vector2 unit(double theta) { return {std::cos(theta), std::sin(theta)}; }

// The outward edge normals of a placed polygon.
std::vector<Vector2> edge_normals(const Placed& P) {
  std::vector<Vector2> out;
  const auto& v = P.shape->vertices;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const Vector2 e = v[(k + 1) % v.size()] - v[k];
    out.push_back(rotate(Vector2(e.y(), -e.x()).normalized(), P.angle));  // counter-clockwise: outward
  }
  return out;
}

}  // namespace

double PlanarShape::area() const {
  if (kind == Kind::ellipse) return std::numbers::pi * a * b;
  return polygon_geometry(vertices).area;
}

double PlanarShape::polar_moment() const {
  // The body shapes' own inertia (bodies/planar_body.hpp), per unit mass times the area.
  if (kind == Kind::ellipse) return make_ellipse(a, b, area(), Vector2::Zero()).inertia;
  return polygon_geometry(vertices).polar_moment;
}

PlanarShape regular_polygon(int sides, double r) {
  if (sides < 3) fail(fmt::format("a regular polygon needs at least 3 sides, got {}", sides));
  require_positive("polygon radius r", r);
  // Area 1/2 n R^2 sin(2 pi / n) = pi r^2.
  const double R = r * std::sqrt(2.0 * std::numbers::pi / (sides * std::sin(2.0 * std::numbers::pi / sides)));
  PlanarShape s;
  s.kind = PlanarShape::Kind::polygon;
  for (int k = 0; k < sides; ++k) s.vertices.push_back(R * unit(2.0 * std::numbers::pi * k / sides));
  return s;
}

PlanarShape ellipse_of_aspect(double aspect, double r) {
  require_positive("ellipse aspect ratio", aspect);
  require_positive("ellipse radius r", r);
  PlanarShape s;
  s.kind = PlanarShape::Kind::ellipse;
  s.a = r * std::sqrt(aspect);
  s.b = r / std::sqrt(aspect);
  return s;
}

std::optional<PlanarContact> planar_contact(const Placed& A, const Placed& B) {
  const bool polygons = A.shape->kind == PlanarShape::Kind::polygon && B.shape->kind == PlanarShape::Kind::polygon;
  // Candidate normals: the polygons' edge normals (exact for two polygons), and for a smooth body the
  // minimum of the overlap over the normal's angle, sampled then refined by golden-section search.
  Vector2 best_n = (B.centre - A.centre).normalized();
  if (!best_n.allFinite()) best_n = Vector2::UnitX();
  double best = overlap_along(A, B, best_n);
  auto consider = [&](const Vector2& n) {
    const double f = overlap_along(A, B, n);
    if (f < best) best = f, best_n = n;
  };
  if (A.shape->kind == PlanarShape::Kind::polygon)
    for (const auto& m : edge_normals(A)) consider(m);
  if (B.shape->kind == PlanarShape::Kind::polygon)
    for (const auto& m : edge_normals(B)) consider(-m);
  if (!polygons) {
    constexpr int samples = 256;
    const double step = 2.0 * std::numbers::pi / samples;
    double theta = std::atan2(best_n.y(), best_n.x());
    for (int k = 0; k < samples; ++k) {
      const double t = step * k;
      const double f = overlap_along(A, B, unit(t));
      if (f < best) best = f, theta = t;
    }
    double lo = theta - step, hi = theta + step;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = overlap_along(A, B, unit(x1)), f2 = overlap_along(A, B, unit(x2));
    while (hi - lo > 1e-13) {
      if (f1 < f2) {
        hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = overlap_along(A, B, unit(x1));
      } else {
        lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = overlap_along(A, B, unit(x2));
      }
    }
    // The minimum's angle to rounding: the root of f'(theta) = (p_A - p_B) . t (the common-normal
    // condition; p the points of support), by bisection on its sign (f alone fixes theta to sqrt(eps)).
    auto slope = [&](double th) {
      const Vector2 n = unit(th), t(-n.y(), n.x());
      return (support(A, n).points[0] - support(B, -n).points[0]).dot(t);
    };
    lo -= 1e-6, hi += 1e-6;  // the search fixed theta to about sqrt(eps) only
    if (slope(lo) < 0.0 && slope(hi) > 0.0) {
      const double theta = bisect([&](double mid) { return !(slope(mid) < 0.0); }, lo, hi, any_width, 80).mid();
      // f is flat there: its value ties the search's to rounding, and the angle is now the better one.
      const Vector2 n = unit(theta);
      const double f = overlap_along(A, B, n);
      if (f <= best + 1e-12 * (std::abs(best) + (A.centre - B.centre).norm())) best = f, best_n = n;
    } else {
      consider(unit(0.5 * (lo + hi)));
    }
  }
  if (!(best > 0.0)) return std::nullopt;
  PlanarContact c;
  c.depth = best;
  c.normal = best_n;
  const Support sa = support(A, best_n), sb = support(B, -best_n);
  if (sa.count == 2 && sb.count == 2) {
    // Two parallel edges: the middle of their overlap along the tangent, on each body's own edge.
    const Vector2 t(-best_n.y(), best_n.x());
    const double lo = std::max(std::min(sa.points[0].dot(t), sa.points[1].dot(t)), std::min(sb.points[0].dot(t), sb.points[1].dot(t)));
    const double hi = std::min(std::max(sa.points[0].dot(t), sa.points[1].dot(t)), std::max(sb.points[0].dot(t), sb.points[1].dot(t)));
    const double m = 0.5 * (lo + hi);
    c.point_a = sa.points[0].dot(best_n) * best_n + m * t;
    c.point_b = sb.points[0].dot(best_n) * best_n + m * t;
  } else if (sb.count == 1 && sa.count == 2) {
    c.point_b = sb.points[0];  // B's vertex (or smooth point) in A's edge
    c.point_a = c.point_b + best * best_n;
  } else if (sa.count == 1 && sb.count == 2) {
    c.point_a = sa.points[0];
    c.point_b = c.point_a - best * best_n;
  } else {
    c.point_a = sa.points[0];  // smooth or vertex against smooth: the common normal's two ends
    c.point_b = sb.points[0];
  }
  return c;
}

ContactNetwork planar_packing(const PlanarPackingSpec& spec) {
  if (spec.n < 1) fail(fmt::format("planar packing: n = {} cells per side must be at least 1", spec.n));
  require_positive("planar packing r", spec.r);
  require_positive("areal density", spec.areal_density);
  require_non_negative("max_rotation", spec.max_rotation);
  if (!(spec.compression >= 0.0 && spec.compression < 0.5))
    fail(fmt::format("planar packing: compression {} must lie in [0, 0.5)", spec.compression));
  const PlanarShape& shape = spec.shape;
  double sx = 1.0, sy = 1.0, d = 0.0;
  if (shape.kind == PlanarShape::Kind::ellipse) {
    if (std::abs(shape.a / shape.b - spec.aspect) > 1e-12 * spec.aspect)
      fail(fmt::format("planar packing: the ellipse's a / b = {} is not the aspect {}", shape.a / shape.b, spec.aspect));
    d = 2.0 * spec.r * (1.0 - spec.compression);
    sx = std::sqrt(spec.aspect), sy = 1.0 / std::sqrt(spec.aspect);
  } else {
    double inradius = std::numeric_limits<double>::infinity();
    const auto& v = shape.vertices;
    for (std::size_t k = 0; k < v.size(); ++k) {
      const Vector2 e = (v[(k + 1) % v.size()] - v[k]).normalized();
      inradius = std::min(inradius, std::abs(v[k].x() * e.y() - v[k].y() * e.x()));
    }
    d = 2.0 * inradius * (1.0 - spec.compression);
  }
  // Hexagonal lattice: cell d x d sqrt 3, sites (0, 0) and (d/2, d sqrt 3 / 2); then the stretch.
  const double cell_x = d * sx, cell_y = d * std::sqrt(3.0) * sy;
  const Vector2 box(static_cast<double>(spec.n) * cell_x, static_cast<double>(spec.n) * cell_y);
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<Placed> placed;
  for (Index j = 0; j < spec.n; ++j)
    for (Index i = 0; i < spec.n; ++i)
      for (const Vector2& site : {Vector2(0.0, 0.0), Vector2(0.5, 0.5)}) {
        const Vector2 c((static_cast<double>(i) + site.x()) * cell_x, (static_cast<double>(j) + site.y()) * cell_y);
        placed.push_back({&shape, c, spec.max_rotation * U(rng)});
      }
  ContactNetwork net;
  net.source = fmt::format("{} packing, hexagonal {} x {} cells, periodic, rotations up to {:g} rad (seed {})",
                           shape.kind == PlanarShape::Kind::ellipse ? fmt::format("ellipse (aspect {:g})", spec.aspect)
                                                                    : fmt::format("{}-gon", shape.vertices.size()),
                           spec.n, spec.n, spec.max_rotation, spec.seed);
  net.dimension = 2;
  net.laws.push_back(parse_law(spec.law, "planar packing law"));
  // A polygon's vertex has no radius of curvature: the builders take laws that read none.
  if (contact::overlap_dependent(net.laws.front()) || net.laws.front().rolling != contact::RollingModel::none ||
      net.laws.front().twisting != contact::TwistingModel::none)
    fail(fmt::format("planar packing: the law '{}' reads a radius of curvature; give one that does not (Hooke)", spec.law));
  net.law_texts.push_back(spec.law);
  const double mass = spec.areal_density * shape.area(), inertia = spec.areal_density * shape.polar_moment();
  for (std::size_t b = 0; b < placed.size(); ++b) {
    Body body;
    body.id = std::to_string(b + 1);
    body.mass = mass;
    body.moments = Vec3(0.0, 0.0, inertia);
    body.centre = Vec3(placed[b].centre.x(), placed[b].centre.y(), 0.0);
    net.bodies.push_back(body);
  }
  // Contacts through the periodic images: every image of j within reach of i (on a small box a pair
  // touches through more than one image; each is a contact).
  double reach = 0.0;
  if (shape.kind == PlanarShape::Kind::ellipse) reach = 2.0 * std::max(shape.a, shape.b);
  else
    for (const auto& v : shape.vertices) reach = std::max(reach, 2.0 * v.norm());
  for (std::size_t i = 0; i < placed.size(); ++i)
    for (std::size_t j = i; j < placed.size(); ++j)
      for (int kx = -1; kx <= 1; ++kx)
        for (int ky = -1; ky <= 1; ++ky) {
          if (i == j && (kx < 0 || (kx == 0 && ky <= 0))) continue;  // a body and its own image: once per pair of images
          const Vector2 shift(kx * box.x(), ky * box.y());
          Placed B = placed[j];
          B.centre += shift;
          if ((B.centre - placed[i].centre).norm() >= reach) continue;
          const auto pc = planar_contact(placed[i], B);
          if (!pc) continue;
          if (i == j) fail("planar packing: a body touches its own periodic image: take more cells per side");
          Contact c;
          c.i = static_cast<std::int32_t>(i);
          c.j = static_cast<std::int32_t>(j);
          c.normal = Vec3(pc->normal.x(), pc->normal.y(), 0.0);
          c.overlap = pc->depth;
          c.point_i = Vec3(pc->point_a.x(), pc->point_a.y(), 0.0);
          // j's point in j's own frame (its centre as listed, not the image's).
          c.point_j = Vec3(pc->point_b.x() - shift.x(), pc->point_b.y() - shift.y(), 0.0);
          net.contacts.push_back(c);
        }
  return net;
}

}  // namespace dtcrit::network
