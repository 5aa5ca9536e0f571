#include "dtcrit/assembly/clumps.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit::packing {

using network::Body;
using network::ContactNetwork;
using network::Mat3;

ClumpBodies clump_bodies(const Packing& p) {
  if (p.dim != 3) fail("--clumps: clumps are rigid bodies of spheres in 3D (the packing is 2D)");
  const auto n = static_cast<std::size_t>(p.size());
  if (p.molecule.size() != n)
    fail(fmt::format("--clumps molecule: the packing {} has no molecule IDs (a data file of atom_style hybrid sphere "
                     "molecular, 'Atoms # hybrid', carries them)", p.source));
  ClumpBodies out;
  ClumpSummary& sum = out.summary;

  // Bodies in order of first appearance; molecule ID 0 is no molecule: a free sphere of its own.
  std::vector<std::int32_t>& body_of = out.body_of;
  body_of.resize(n);
  std::vector<std::vector<std::size_t>> members;
  std::unordered_map<std::int64_t, std::int32_t> slot;
  std::vector<Body>& bodies = out.bodies;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t mol = p.molecule[i];
    std::int32_t b = -1;
    if (mol != 0) {
      const auto [it, added] = slot.emplace(mol, static_cast<std::int32_t>(members.size()));
      b = it->second;
      if (added) members.emplace_back();
    }
    if (b < 0) {
      b = static_cast<std::int32_t>(members.size());
      members.emplace_back();
      ++sum.single_spheres;
    }
    members[static_cast<std::size_t>(b)].push_back(i);
    body_of[i] = b;
    if (members[static_cast<std::size_t>(b)].size() == 1) {
      Body body;
      body.id = mol != 0 ? fmt::format("molecule {}", mol) : fmt::format("atom {}", p.atom_id(static_cast<Index>(i)));
      bodies.push_back(body);
    }
  }

  // Each member at the periodic image nearest the body's first member, then relative to the centre.
  const Vec3 length = p.box_length();
  auto nearest_image = [&](Vec3 d) {
    for (int a = 0; a < 3; ++a)
      if (p.periodic[static_cast<std::size_t>(a)]) d[a] -= length[a] * std::round(d[a] / length[a]);
    return d;
  };
  std::vector<Vec3>& offset = out.offset;  // member centre - body centre of mass
  offset.resize(n);
  for (std::size_t b = 0; b < members.size(); ++b) {
    const auto& ms = members[b];
    const Vec3 first = p.centre[ms.front()];
    double mass = 0.0;
    Vec3 moment = Vec3::Zero();
    for (std::size_t i : ms) {
      offset[i] = first + nearest_image(p.centre[i] - first);  // unwrapped position
      mass += p.mass[i];
      moment += p.mass[i] * offset[i];
    }
    const Vec3 centre = moment / mass;
    Mat3 inertia = Mat3::Zero();
    for (std::size_t i : ms) {
      offset[i] -= centre;
      const Vec3& d = offset[i];
      sum.max_extent = std::max(sum.max_extent, d.norm());
      for (int a = 0; a < 3; ++a)
        if (p.periodic[static_cast<std::size_t>(a)] && std::abs(d[a]) >= 0.25 * length[a])
          fail(fmt::format("--clumps molecule: {} spans {:g} m of the {:g} m periodic {} axis: a body must be shorter "
                           "than half the box to be unwrapped without image flags",
                           bodies[b].id, 2.0 * std::abs(d[a]), length[a], "xyz"[a]));
      inertia += p.mass[i] * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()) + p.inertia[i] * Mat3::Identity();
    }
    Body& body = bodies[b];
    body.mass = mass;
    body.centre = centre;
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(inertia);
    body.moments = eig.eigenvalues();
    body.axes = eig.eigenvectors();
    if (body.axes.determinant() < 0.0) body.axes.col(2) *= -1.0;  // a rotation, as LAMMPS makes its ex, ey, ez
    sum.largest = std::max<Index>(sum.largest, static_cast<Index>(ms.size()));
    if (ms.size() > 1) ++sum.clumps;
  }
  sum.bodies = static_cast<Index>(members.size());
  return out;
}

ContactNetwork clump_network(const Packing& p, const ContactSet& cs, ClumpSummary* summary) {
  if (!p.region_walls.empty())
    fail(fmt::format("--clumps molecule: region wall '{}' is not turned into a body of the contact network (its "
                     "curvature and R_eff are the round particle's); clumps take plane walls only",
                     p.region_walls.front().name));
  ClumpBodies cb = clump_bodies(p);
  ClumpSummary& sum = cb.summary;
  const std::vector<std::int32_t>& body_of = cb.body_of;
  const std::vector<Vec3>& offset = cb.offset;
  ContactNetwork net;
  net.source = p.source + " (clumps by molecule ID)";
  net.dimension = 3;
  net.bodies = std::move(cb.bodies);

  // Walls: one fixed body each, after the free bodies.
  std::vector<std::int32_t> wall_body(p.walls.size(), -1);
  net.laws = cs.laws;
  for (const auto& law : cs.laws) net.law_texts.push_back(contact::describe(law));
  for (std::size_t k = 0; k < cs.contacts.size(); ++k) {
    const auto& c = cs.contacts[k];
    const auto i = static_cast<std::size_t>(c.i);
    const std::int32_t bi = body_of[i];
    const Vec3 n_ij = -c.normal;  // the network's normal points from i to j; the packing's from j to i
    network::Contact nc;
    nc.i = bi;
    nc.normal = n_ij;
    nc.law = c.law;
    nc.overlap = c.overlap;
    nc.point_i = net.bodies[static_cast<std::size_t>(bi)].centre + offset[i] + p.radius[i] * n_ij;
    nc.member_radius_i = p.radius[i];
    if (c.j >= 0) {
      const auto j = static_cast<std::size_t>(c.j);
      const std::int32_t bj = body_of[j];
      if (bj == bi) {
        // Two members of one body touch directly (no stiffness), or the body touches its own image.
        const Vec3 direct = offset[i] - offset[j];
        const double distance = p.radius[i] + p.radius[j] - c.overlap;
        if (i == j || (direct - distance * c.normal).norm() > 1e-9 * (p.radius[i] + p.radius[j]))
          fail(fmt::format("--clumps molecule: {} touches its own periodic image: the box is too small for it",
                           net.bodies[static_cast<std::size_t>(bi)].id));
        ++sum.inner_contacts;
        continue;
      }
      nc.j = bj;
      nc.point_j = net.bodies[static_cast<std::size_t>(bj)].centre + offset[j] - p.radius[j] * n_ij;
      nc.r_eff = p.radius[i] * p.radius[j] / (p.radius[i] + p.radius[j]);
      nc.member_radius_j = p.radius[j];
    } else {
      const auto w = static_cast<std::size_t>(-c.j - 1);
      if (wall_body[w] < 0) {
        wall_body[w] = static_cast<std::int32_t>(net.bodies.size());
        Body wall;
        wall.id = fmt::format("wall {}", p.walls[w].label.empty() ? std::to_string(w + 1) : p.walls[w].label);
        wall.fixed = true;
        net.bodies.push_back(wall);
      }
      nc.j = wall_body[w];
      nc.point_j = nc.point_i;
      nc.r_eff = p.radius[i];
    }
    nc.has_history = cs.has_history(k);
    if (nc.has_history) nc.history = cs.history(k);  // i relative to j, normal from j to i: as the file's
    net.contacts.push_back(nc);
  }
  if (summary) *summary = sum;
  return net;
}

}  // namespace dtcrit::packing
