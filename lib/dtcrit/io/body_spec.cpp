#include "dtcrit/io/body_spec.hpp"

#include <numbers>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/suggest.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit {

namespace {

Vector2 parse_point(const KeyValues& spec, const std::string& key, const std::string& text) {
  const auto parts = split(text, ':');
  if (parts.size() != 2) fail(fmt::format("{} {}: '{}' is not a point x:y", spec.who(), key, text));
  return {parse_number(spec.who() + " " + key, parts[0]), parse_number(spec.who() + " " + key, parts[1])};
}

// Mass from m=, or from rho= times area times thickness t= (required: a silent 1 m made steps 35x too
// large for a 1 mm disc).
double body_mass(const KeyValues& spec, double area) {
  const auto m = spec.number("m");
  const auto rho = spec.number("rho");
  const auto t = spec.number("t");
  if (m && rho) fail(fmt::format("{}: give the mass as m= or as rho=, not both", spec.who()));
  if (m) {
    if (t) fail(fmt::format("{}: thickness t= only goes with rho=", spec.who()));
    return require_positive(spec.who() + " m", *m);
  }
  if (!rho) fail(fmt::format("{}: missing the mass (m=, or rho= with the thickness t=)", spec.who()));
  if (!t)
    fail(fmt::format("{}: missing the thickness t= that goes with rho = {:g} (m = rho x area x t; a sphere is "
                     "shape=sphere)", spec.who(), *rho));
  return require_positive(spec.who() + " rho", *rho) * area * require_positive(spec.who() + " t", *t);
}

// The arm from rt=,rn= or L=,theta= or L=,e=; nullopt when none of these keys is given.
std::optional<Vector2> parse_arm(const KeyValues& spec) {
  const auto rt = spec.number("rt"), rn = spec.number("rn");
  const auto L = spec.number("L"), theta = spec.number("theta"), e = spec.number("e");
  if (!rt && !rn && !L && !theta && !e) return std::nullopt;
  if ((rt || rn) && (L || theta || e))
    fail(fmt::format("{}: give the arm as rt=,rn= or L=,theta= or L=,e=, not a mix", spec.who()));
  if (rt || rn) {
    if (!rt || !rn) fail(fmt::format("{}: the arm needs both rt= and rn=", spec.who()));
    return Vector2(require_finite(spec.who() + " rt", *rt), require_finite(spec.who() + " rn", *rn));
  }
  if (!L) fail(fmt::format("{}: theta= and e= need the arm length L=", spec.who()));
  if (theta && e) fail(fmt::format("{}: give L= with theta= or with e=, not both", spec.who()));
  if (theta) return arm_from_polar(*L, *theta);
  if (e) return arm_from_eccentricity(*L, *e);
  fail(fmt::format("{}: L= needs theta= or e=", spec.who()));
}

}  // namespace

PlanarBody parse_body(const KeyValues& spec) {
  const std::string shape = spec.required_text("shape");
  const std::string& who = spec.who();
  PlanarBody body;
  if (shape == "disc") {
    const double r = require_positive(who + " r", spec.required_number("r"));
    body = make_disc(r, body_mass(spec, std::numbers::pi * r * r));
    spec.reject_unused({"shape", "r", "m", "rho", "t"});  // a disc's arm follows from its radius
  } else if (shape == "sphere") {
    const double r = require_positive(who + " r", spec.required_number("r"));
    const auto m = spec.number("m");
    const auto rho = spec.number("rho");
    if (m && rho) fail(fmt::format("{}: give the mass as m= or as rho=, not both", who));
    if (!m && !rho) fail(fmt::format("{}: missing the mass (m=, or the density rho=)", who));
    body = make_sphere(r, m ? require_positive(who + " m", *m)
                            : contact::sphere_mass(r, require_positive(who + " rho", *rho)));
    spec.reject_unused({"shape", "r", "m", "rho"});
  } else if (shape == "rect") {
    const double a = require_positive(who + " a", spec.required_number("a"));
    const double b = require_positive(who + " b", spec.required_number("b"));
    body = make_rect(a, b, body_mass(spec, a * b), spec.number("e").value_or(0.0));
    spec.reject_unused({"shape", "a", "b", "m", "rho", "t", "e"});
  } else if (shape == "ellipse") {
    const double a = require_positive(who + " a", spec.required_number("a"));
    const double b = require_positive(who + " b", spec.required_number("b"));
    body = make_ellipse(a, b, body_mass(spec, std::numbers::pi * a * b), parse_arm(spec).value_or(Vector2(0.0, b)));
    spec.reject_unused({"shape", "a", "b", "m", "rho", "t", "rt", "rn", "L", "theta", "e"});
  } else if (shape == "polygon") {
    std::vector<Vector2> vertices;
    for (const auto& p : split(spec.required_text("vertices"), '/')) vertices.push_back(parse_point(spec, "vertices", p));
    const auto geometry = polygon_geometry(vertices);
    const Vector2 P = parse_point(spec, "P", spec.required_text("P"));
    body = make_polygon(vertices, body_mass(spec, geometry.area), P);
    spec.reject_unused({"shape", "vertices", "m", "rho", "t", "P"});
  } else if (shape == "custom") {
    const double m = spec.required_number("m");
    const double I = spec.required_number("I");
    auto arm = parse_arm(spec);
    if (!arm) fail(fmt::format("{}: a custom body needs its arm: rt=,rn= or L=,theta= or L=,e=", who));
    body = {"custom", m, I, *arm};
    spec.reject_unused({"shape", "m", "I", "rt", "rn", "L", "theta", "e"});
  } else {
    fail(fmt::format("{}: unknown shape '{}'{}; valid shapes: disc, sphere, rect, ellipse, polygon, custom", who, shape,
                     did_you_mean(shape, {"disc", "sphere", "rect", "ellipse", "polygon", "custom"})));
  }
  return validated(body, who);
}

}  // namespace dtcrit
