#include "dtcrit/contact/operating_point.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"

namespace dtcrit::contact {

namespace {
ContactResponse at_rest(const ContactLaw& law, double overlap, double m_eff, double r_eff, bool derivative) {
  ContactInput c;
  c.overlap = overlap;
  c.m_eff = m_eff;
  c.r_eff = r_eff;
  return evaluate(law, c, derivative);
}
}  // namespace

OperatingPoint operating_point(const ContactLaw& law, double m_eff, double moving_mass, double r_eff,
                               const OperatingPointInput& in) {
  const int given = in.overlap.has_value() + in.normal_force.has_value() + in.impact_velocity.has_value();
  if (given > 1) fail("give the contact's state as one of overlap, normal_force or impact_velocity, not several");
  if (overlap_dependent(law) && !(r_eff > 0.0))
    fail(fmt::format("the law '{}' depends on the contact radius: give the effective radius r_eff (got {})",
                     describe(law), r_eff));
  OperatingPoint p;
  if (in.overlap) {
    p.overlap = require_non_negative("overlap", *in.overlap);
    p.origin = "overlap";
  } else if (in.normal_force) {
    const double F = require_positive("normal_force", *in.normal_force);
    // The elastic normal force grows monotonically with the overlap: bracket, then toms748.
    double lo = 0.0, hi = 1e-12 * std::max(r_eff, 1e-9);
    for (int k = 0; at_rest(law, hi, m_eff, r_eff, false).elastic_normal_force < F; ++k) {
      if (k > 200) fail(fmt::format("normal_force = {} N is not reached by the law '{}'", F, describe(law)));
      hi *= 2.0;
    }
    p.overlap = monotone_root([&](double d) { return at_rest(law, d, m_eff, r_eff, false).elastic_normal_force - F; },
                              lo, hi)
                    .mid();
    p.origin = "normal_force";
  } else if (in.impact_velocity) {
    p.impact_velocity = require_positive("impact_velocity", *in.impact_velocity);
    // The contact-point normal mass moves; the law's dashpot keeps its own (LAMMPS) m_eff.
    p.impact = head_on_impact(law, moving_mass, r_eff, p.impact_velocity, m_eff);
    p.overlap = p.impact->peak_overlap;
    p.origin = "impact_velocity";
  } else {
    if (overlap_dependent(law))
      fail(fmt::format("the law '{}' depends on the overlap: give the contact's state as overlap, normal_force or "
                       "impact_velocity",
                       describe(law)));
    p.origin = "overlap";
  }
  const ContactResponse r = at_rest(law, p.overlap, m_eff, r_eff, false);
  p.normal_force = r.elastic_normal_force;
  p.contact_radius = p.overlap > 0.0 ? std::sqrt(r_eff * p.overlap) : 0.0;  // also for laws that do not use it
  return p;
}

LinearContactLaw linearised_law(const ContactLaw& law, const OperatingPoint& p, double m_eff, double r_eff) {
  if (law.rolling != RollingModel::none || law.twisting != TwistingModel::none)
    fail(fmt::format("rolling and twisting resistance of '{}' act on the relative rotation, which the two "
                     "contact-point coordinates of the pair model do not carry; analyse it with dtcrit packing",
                     describe(law)));
  RoundContact g;
  g.normal = Vec3::UnitX();
  g.overlap = p.overlap;
  g.ri = g.rj = 2.0 * r_eff;  // R_eff = r_eff; the centre distance does not enter (no geometric term)
  g.distance = 1.0;
  const IsotropicBlocks iso =
      isotropic_part(contact_blocks(law, g, at_rest(law, p.overlap, m_eff, r_eff, true), false), g.normal);
  LinearContactLaw lin{iso.kn, iso.kt, iso.cn, iso.ct};
  if (!(lin.kn > 0.0))
    fail(fmt::format("the law '{}' has no normal stiffness at overlap {} m: give a state with contact", describe(law),
                     p.overlap));
  return lin;
}

}  // namespace dtcrit::contact
