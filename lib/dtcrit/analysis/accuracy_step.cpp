#include "dtcrit/analysis/accuracy_step.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/sweep/chung_ooi.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace dtcrit {

namespace {
bool tangential_quantity(const std::string& q) {
  return q == "tangential_restitution" || q == "spin" || q == "rebound_angle";
}
}  // namespace

std::pair<std::string, double> parse_accuracy(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    fail(fmt::format("--accuracy '{}' must read QUANTITY=TOLERANCE, e.g. restitution=1%", text));
  const std::string quantity = text.substr(0, eq);
  std::string value = text.substr(eq + 1);
  double scale = 1.0;
  if (!value.empty() && value.back() == '%') value.pop_back(), scale = 0.01;
  const double tol = parse_number("--accuracy " + quantity, value) * scale;
  if (!(tol > 0.0 && tol < 1.0)) fail(fmt::format("--accuracy {}: tolerance = {} must lie in (0, 1)", quantity, tol));
  if (quantity != "restitution" && quantity != "peak_overlap" && quantity != "contact_duration" &&
      !tangential_quantity(quantity))
    fail(fmt::format("--accuracy: unknown quantity '{}'; valid: restitution, peak_overlap, contact_duration (the "
                     "collision), tangential_restitution, spin, rebound_angle (an oblique one: with --impact-angle)",
                     quantity));
  return {quantity, tol};
}

AccuracyStep pair_accuracy_step(const ContactPointModel& model, const std::string& integrator,
                                const std::string& quantity, double tolerance, std::optional<double> impact_angle) {
  if (model.body1().arm[0] != 0.0 || model.body2().arm[0] != 0.0)
    fail("--accuracy needs a collinear contact (both arms along the normal, r_t = 0): an eccentric impact couples "
         "to rotation and is not the head-on collision the sweep measures");
  const double m_n = model.normal_effective_mass();
  std::unique_ptr<sweep::SweepCase> c;
  const auto& origin = model.origin();
  if (tangential_quantity(quantity)) {
    // An oblique impact: body 1 strikes body 2 at rest, both round, under the law itself.
    if (!impact_angle)
      fail(fmt::format("--accuracy {} needs --impact-angle DEG: the {} of an oblique impact at that angle from the "
                       "normal", quantity, quantity));
    if (!origin || !origin->point.impact)
      fail(fmt::format("--accuracy {} needs a state-dependent law (--hertz-mindlin, --lammps-pair) and "
                       "--impact-velocity: the oblique collision is run under the law itself", quantity));
    for (const auto* b : {&model.body1(), &model.body2()})
      if (b->shape != "sphere" && b->shape != "disc")
        fail(fmt::format("--accuracy {}: body shape '{}' is not round; an oblique impact is run for spheres and "
                         "discs, whose contact point stays at r along the normal as they spin", quantity, b->shape));
    // At 0 deg there is no tangential motion to measure (the outputs divide by it).
    if (!(*impact_angle > 0.0 && *impact_angle <= 89.0))
      fail(fmt::format("--impact-angle = {} deg must lie in (0, 89]", *impact_angle));
    const auto body = [](const PlanarBody& b) { return sweep::RoundBody{b.mass, b.inertia, b.arm[1]}; };
    // --impact-velocity is the normal approach speed (the linearisation's): the speed is v / cos(angle).
    const double angle = *impact_angle * std::numbers::pi / 180.0;
    c = sweep::make_law_oblique_case(origin->contact_law, body(model.body1()), body(model.body2()),
                                     origin->point.impact_velocity / std::cos(angle), angle,
                                     sweep::CaseOptions{KeyValues("", "--accuracy"), "traditional", false});
  } else if (impact_angle) {
    fail(fmt::format("--impact-angle is read only by --accuracy tangential_restitution, spin or rebound_angle, not "
                     "{}", quantity));
  } else if (origin) {
    // A state-dependent law (Hertz, LAMMPS granular): its own collision at the impact speed, the one
    // `dtcrit sweep --case hertz-head-on` runs, not the linear spring it was linearised to.
    if (!origin->point.impact)
      fail("--accuracy with a state-dependent law (--lammps-pair, --hertz-mindlin) needs --impact-velocity: the "
           "accuracy is that of the collision at that speed");
    c = sweep::make_law_head_on_case(origin->contact_law, m_n, origin->r_eff, origin->point.impact_velocity);
  } else {
    const double zeta = damping_ratio(model.law().cn, model.law().kn, m_n);
    if (!(zeta < 1.0)) fail(fmt::format("--accuracy: the normal contact is overdamped (damping ratio {:.3g})", zeta));
    const double e = restitution_from_damping_ratio(zeta);
    // head-on: two equal spheres of mass m each, m_eff = m / 2.
    const std::string set = fmt::format("m={:.17g},kn={:.17g},restitution={:.17g}", 2.0 * m_n, model.law().kn, e);
    c = sweep::make_case("head-on", sweep::CaseOptions{KeyValues(set, "--accuracy"), "traditional", false});
  }
  sweep::SweepOptions o;
  o.integrators = {integrator};
  o.stability = 0;
  o.accuracy_quantity = quantity;
  o.tolerance = tolerance;
  const auto r = sweep::run_sweep(*c, "traditional", o);
  const auto& a = r.integrators.front().accuracy;
  if (a.status == sweep::AccuracyStatus::below_grid)
    fail(fmt::format("--accuracy {}={:g}: {} misses it even at the finest step of the sweep ({:.4g} s)", quantity,
                     tolerance, integrator, r.h0 / std::pow(2.0, r.levels - 1)));
  return {quantity, tolerance, a.h, a.status};
}

}  // namespace dtcrit
