#include "dtcrit/packing/stepper_adapter.hpp"

#include <algorithm>

#include "dtcrit/core/check.hpp"
#include "dtcrit/assembly/clumps.hpp"

namespace dtcrit::packing {

SteppedPacking to_particle_system(const Packing& p, const ContactLaws& laws, stepper::TangentialHistory mode) {
  validate(p);
  laws.validate();
  for (int d = 0; d < 3; ++d)
    if (p.periodic[d]) fail("the reference stepper has no periodic boundaries: use walls instead");
  if (!laws.by_types.empty()) fail("the reference stepper has one particle law: per-type laws are not supported");
  if (!p.region_walls.empty())
    fail(fmt::format("the reference stepper has plane walls only: region wall '{}' (fix wall/gran/region) is not "
                     "stepped, so --confirm and the stepper's runs refuse packings with region walls",
                     p.region_walls.front().name));
  SteppedPacking out;
  out.system = std::make_unique<stepper::ParticleSystem>(p.dim, laws.base, mode);
  double rmin = p.radius.front();
  for (Index i = 0; i < p.size(); ++i) {
    out.system->add_particle(p.radius[i], p.mass[i], p.inertia[i]);
    rmin = std::min(rmin, p.radius[i]);
  }
  for (const auto& w : p.walls) out.system->add_wall(w.point, w.normal, w.law ? *w.law : laws.base);
  out.system->set_skin(0.1 * rmin);
  out.x0 = Vector::Zero(out.system->dofs());
  for (Index i = 0; i < p.size(); ++i) out.system->set_centre(out.x0, i, p.centre[i]);
  return out;
}

SteppedClumps to_rigid_clumps(const Packing& p, const ContactLaws& laws, stepper::TangentialHistory mode) {
  const ClumpBodies cb = clump_bodies(p);
  SteppedPacking members = to_particle_system(p, laws, mode);
  std::vector<stepper::RigidBodyInit> bodies;
  for (const auto& b : cb.bodies) bodies.push_back({b.mass, b.centre, b.moments, b.axes});
  SteppedClumps out;
  out.system = std::make_unique<stepper::RigidClumpSystem>(
      std::move(members.system), std::vector<Index>(cb.body_of.begin(), cb.body_of.end()), cb.offset, bodies);
  out.x0 = out.system->start_position();
  for (double r : p.radius) out.largest_radius = std::max(out.largest_radius, r);
  return out;
}

void seed_contact_histories(SteppedPacking& sp, const ContactSet& contacts) {
  const Index n = sp.system->particle_count();
  std::vector<std::pair<stepper::ContactKey, contact::History>> h;
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const Contact& c = contacts.contacts[k];
    if (c.j >= 0 && c.j <= c.i)
      fail(fmt::format("seed_contact_histories: contact ({}, {}) is not a pair i < j (periodic images: the stepper has "
                       "none)",
                       c.i, c.j));
    h.emplace_back(stepper::ContactKey{c.i, c.j >= 0 ? c.j : n - (c.j + 1)}, contacts.history(k));
  }
  sp.system->set_initial_histories(std::move(h));
}

}  // namespace dtcrit::packing
