#include "dtcrit/assembly/assembly.hpp"

#include <cstdint>
#include <utility>

#include "dtcrit/core/check.hpp"

namespace dtcrit::packing {

Assembly round_assembly(const Packing& p, ContactSet contacts) {
  validate(p);
  Assembly a;
  a.dim = p.dim;
  a.round = true;
  a.mass = p.mass;
  a.inertia = p.inertia;
  a.radius = p.radius;
  a.contacts = std::move(contacts);
  return a;
}

Assembly network_assembly(const network::ContactNetwork& net) {
  Assembly a;
  a.dim = net.dimension;
  a.round = false;
  if (a.dim != 2 && a.dim != 3) fail(fmt::format("contact network: dimension {} must be 2 or 3", a.dim));
  // Free bodies in the network's order; fixed bodies become walls.
  const std::size_t nb = net.bodies.size();
  std::vector<std::int32_t> slot(nb, -1), wall(nb, -1);
  std::int32_t walls = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    const network::Body& body = net.bodies[b];
    if (body.fixed) {
      wall[b] = walls++;
      continue;
    }
    slot[b] = static_cast<std::int32_t>(a.mass.size());
    a.mass.push_back(require_positive("body mass", body.mass));
    if (a.dim == 2) {
      a.inertia.push_back(body.moments[2]);
    } else {
      a.inertia.insert(a.inertia.end(), body.moments.data(), body.moments.data() + 3);
      a.axes.insert(a.axes.end(), body.axes.data(), body.axes.data() + 9);
    }
  }
  if (a.mass.empty()) fail("contact network: no body is free to move");
  ContactSet& cs = a.contacts;
  cs.laws = net.laws;
  cs.contacts.reserve(net.contacts.size());
  a.arms.reserve(2 * net.contacts.size());
  for (const network::Contact& nc : net.contacts) {
    // i is a free body; a fixed partner is a wall. The normal points from j to i.
    const bool swap = net.bodies[static_cast<std::size_t>(nc.i)].fixed;
    const auto bi = static_cast<std::size_t>(swap ? nc.j : nc.i), bj = static_cast<std::size_t>(swap ? nc.i : nc.j);
    if (net.bodies[bi].fixed) fail("contact network: a contact between two fixed bodies");
    Contact c;
    c.i = slot[bi];
    c.j = net.bodies[bj].fixed ? -(wall[bj] + 1) : slot[bj];
    c.law = nc.law;
    c.normal = swap ? nc.normal : Vec3(-nc.normal);
    c.overlap = nc.overlap;
    cs.contacts.push_back(c);
    const Vec3& point_i = swap ? nc.point_j : nc.point_i;
    const Vec3& point_j = swap ? nc.point_i : nc.point_j;
    a.arms.push_back(point_i - net.bodies[bi].centre);
    a.arms.push_back(c.j < 0 ? Vec3::Zero() : Vec3(point_j - net.bodies[bj].centre));
    a.r_eff.push_back(nc.r_eff > 0.0 ? nc.r_eff : 1.0);
    a.member_radii.push_back(swap ? nc.member_radius_j : nc.member_radius_i);
    a.member_radii.push_back(swap ? nc.member_radius_i : nc.member_radius_j);
    ++(c.j < 0 ? cs.wall_contacts : cs.pair_contacts);
  }
  // Yade's clump rule needs every free side's member radius.
  for (std::size_t k = 0; k < cs.contacts.size(); ++k)
    if (!(a.member_radii[2 * k] > 0.0) || (cs.contacts[k].j >= 0 && !(a.member_radii[2 * k + 1] > 0.0))) {
      a.member_radii.clear();
      break;
    }
  for (std::size_t k = 0; k < net.contacts.size(); ++k) {
    const network::Contact& nc = net.contacts[k];
    if (!nc.has_history) continue;
    contact::History& h = cs.history_to_fill(k);
    h = nc.history;
    // The tangential history is i's displacement relative to j: it changes sign with the roles.
    if (net.bodies[static_cast<std::size_t>(nc.i)].fixed) h.xi_t = -h.xi_t;
  }
  return a;
}

}  // namespace dtcrit::packing
