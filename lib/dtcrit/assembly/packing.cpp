#include "dtcrit/assembly/packing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <numbers>
#include <random>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"

namespace dtcrit::packing {

Packing make_packing(ParticleArrays a) {
  if (a.dim != 2 && a.dim != 3) fail(fmt::format("positions have {} columns: expected 2 (discs) or 3 (spheres)", a.dim));
  const std::size_t n = a.centre.size();
  if (n == 0) fail("positions: the packing has no particle");
  auto same_size = [&](const char* name, std::size_t size, bool optional) {
    if (size != n && !(optional && size == 0))
      fail(fmt::format("{} has {} entries, positions {} rows: one per particle", name, size, n));
  };
  same_size("radii", a.radius.size(), false);
  same_size("masses", a.mass.size(), false);
  same_size("inertia", a.inertia.size(), true);
  same_size("types", a.type.size(), true);
  if (a.dim == 3 && a.body_model == BodyModel::disc) fail("disc = true applies to 2D packings only (positions with 2 columns)");
  Packing p;
  p.dim = a.dim;
  p.centre = std::move(a.centre);
  p.radius = std::move(a.radius);
  p.mass = std::move(a.mass);
  p.inertia = std::move(a.inertia);
  if (p.inertia.empty())
    for (std::size_t i = 0; i < n; ++i)
      p.inertia.push_back((a.body_model == BodyModel::disc ? 0.5 : 0.4) * p.mass[i] * p.radius[i] * p.radius[i]);
  p.type = a.type.empty() ? std::vector<int>(n, 1) : std::move(a.type);
  for (std::size_t i = 0; i < n; ++i) p.id.push_back(static_cast<std::int64_t>(i) + 1);
  if (a.box) {
    p.box_lo = (*a.box)[0];
    p.box_hi = (*a.box)[1];
  } else {
    p.box_lo = Vec3::Constant(std::numeric_limits<double>::infinity());
    p.box_hi = -p.box_lo;
    for (std::size_t i = 0; i < n; ++i) {
      p.box_lo = p.box_lo.cwiseMin(p.centre[i] - Vec3::Constant(p.radius[i]));
      p.box_hi = p.box_hi.cwiseMax(p.centre[i] + Vec3::Constant(p.radius[i]));
    }
    if (a.dim == 2) p.box_lo.z() = p.box_hi.z() = 0.0;
  }
  p.source = fmt::format("{} {} given particle by particle", n, a.dim == 2 ? "discs" : "spheres");
  return p;
}

void Packing::add(const Vec3& c, double r, double density, BodyModel model, int t) {
  require_positive("radius", r);
  require_positive("density", density);
  double m = 0.0, I = 0.0;
  if (dim == 2 && model == BodyModel::disc) {
    m = contact::areal_disc_mass(r, density);
    I = contact::disc_inertia(m, r);
  } else {
    m = contact::sphere_mass(r, density);
    I = contact::sphere_inertia(m, r);
  }
  if (id.size() == centre.size()) id.push_back(static_cast<std::int64_t>(centre.size()) + 1);
  centre.push_back(c);
  radius.push_back(r);
  mass.push_back(m);
  inertia.push_back(I);
  type.push_back(t);
}

void validate(const Packing& p) {
  if (p.dim != 2 && p.dim != 3) fail(fmt::format("packing dimension {} must be 2 or 3", p.dim));
  const std::size_t n = p.centre.size();
  if (p.radius.size() != n || p.mass.size() != n || p.inertia.size() != n || p.type.size() != n)
    fail(fmt::format("packing arrays differ in size: {} centres, {} radii, {} masses, {} inertias, {} types", n,
                     p.radius.size(), p.mass.size(), p.inertia.size(), p.type.size()));
  if (n == 0) fail("the packing has no particles");
  if (!p.id.empty() && p.id.size() != n) fail(fmt::format("packing has {} atom ids for {} particles", p.id.size(), n));
  if (!p.molecule.empty() && p.molecule.size() != n)
    fail(fmt::format("packing has {} molecule IDs for {} particles", p.molecule.size(), n));
  for (std::size_t i = 0; i < n; ++i) {
    if (!p.centre[i].allFinite()) fail(fmt::format("particle {}: centre is not finite", i));
    if (p.dim == 2 && p.centre[i].z() != 0.0) fail(fmt::format("2D particle {}: z = {} must be 0", i, p.centre[i].z()));
    require_positive(fmt::format("particle {} radius", i), p.radius[i]);
    require_positive(fmt::format("particle {} mass", i), p.mass[i]);
    require_positive(fmt::format("particle {} inertia", i), p.inertia[i]);
    if (p.type[i] < 1) fail(fmt::format("particle {}: type {} must be >= 1", i, p.type[i]));
  }
  const char* axis = "xyz";
  for (int d = 0; d < 3; ++d) {
    if (!p.periodic[d]) continue;
    if (d >= p.dim) fail(fmt::format("2D packing: axis {} cannot be periodic", axis[d]));
    if (!(p.box_hi[d] > p.box_lo[d]) || !std::isfinite(p.box_hi[d] - p.box_lo[d]))
      fail(fmt::format("periodic axis {}: box [{}, {}] must have positive length", axis[d], p.box_lo[d], p.box_hi[d]));
  }
  for (const auto& w : p.walls) {
    if (std::abs(w.normal.norm() - 1.0) > 1e-12) fail(fmt::format("wall {}: normal must be a unit vector", w.label));
    if (p.dim == 2 && (w.normal.z() != 0.0 || w.point.z() != 0.0))
      fail(fmt::format("2D wall {}: normal and point must have z = 0", w.label));
    for (int d = 0; d < 3; ++d)
      if (p.periodic[d] && w.normal[d] != 0.0)
        fail(fmt::format("wall {} is not parallel to the periodic axis {}", w.label, axis[d]));
    if (w.law) contact::validated(*w.law);
  }
  for (const auto& w : p.region_walls) {
    if (p.dim == 2)
      fail(fmt::format("region wall {}: region walls are read in 3D packings only (the 2D contact would need the "
                       "region's section in the plane)", w.name));
    validate(w);
    if (w.law) contact::validated(*w.law);
  }
}

LatticeKind parse_lattice(std::string_view name) {
  if (const auto kind = value_named(name, lattice_names)) return *kind;
  fail(fmt::format("lattice '{}' is unknown; valid: {}", name, names_list(lattice_names)));
}

std::string_view to_string(LatticeKind kind) { return name_of(kind, lattice_names); }

int lattice_dimension(LatticeKind kind) { return kind == LatticeKind::square || kind == LatticeKind::hex ? 2 : 3; }

int lattice_coordination(LatticeKind kind) {
  switch (kind) {
    case LatticeKind::square: return 4;
    case LatticeKind::hex: return 6;
    case LatticeKind::sc: return 6;
    case LatticeKind::bcc: return 8;
    case LatticeKind::fcc: return 12;
  }
  return 0;
}

int particles_per_cell(LatticeKind kind) {
  switch (kind) {
    case LatticeKind::square: return 1;
    case LatticeKind::hex: return 2;
    case LatticeKind::sc: return 1;
    case LatticeKind::bcc: return 2;
    case LatticeKind::fcc: return 4;
  }
  return 0;
}

void sort_spatially(Packing& p) {
  validate(p);
  const auto n = static_cast<std::size_t>(p.size());
  if (n < 2) return;
  Vec3 lo = p.centre[0], hi = p.centre[0];
  double rmax = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    lo = lo.cwiseMin(p.centre[i]), hi = hi.cwiseMax(p.centre[i]);
    rmax = std::max(rmax, p.radius[i]);
  }
  const double cell = rmax > 0.0 ? 2.0 * rmax : 1.0;
  // At most 2^20 cells per axis, counted in double before the cast, so that a key fits 64 bits
  // however spread out the particles are (a coarser grid only orders less well).
  constexpr double max_cells = 0x1p20;
  std::array<std::uint64_t, 3> cells{};
  for (int d = 0; d < 3; ++d) cells[d] = static_cast<std::uint64_t>(std::min((hi[d] - lo[d]) / cell, max_cells - 1.0)) + 1;
  std::vector<std::uint64_t> key(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::array<std::uint64_t, 3> c{};
    for (int d = 0; d < 3; ++d)
      c[d] = static_cast<std::uint64_t>(
          std::min((p.centre[i][d] - lo[d]) / cell, static_cast<double>(cells[d] - 1)));
    key[i] = (c[2] * cells[1] + c[1]) * cells[0] + c[0];
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  auto permute = [&](auto& v) {
    auto copy = v;
    for (std::size_t k = 0; k < n; ++k) v[k] = copy[order[k]];
  };
  permute(p.centre);
  permute(p.radius);
  permute(p.mass);
  permute(p.inertia);
  permute(p.type);
  if (!p.id.empty()) permute(p.id);
  if (!p.molecule.empty()) permute(p.molecule);
}

Packing make_lattice(const LatticeSpec& s) {
  if (s.n < 1) fail(fmt::format("lattice cells per side n = {} must be at least 1", s.n));
  require_positive("lattice radius", s.radius);
  require_positive("lattice density", s.density);
  require_in_range("lattice compression", s.compression, 0.0, 0.5);
  require_in_range("lattice radius spread", s.radius_spread, 0.0, 0.5);
  const int dim = lattice_dimension(s.kind);
  const double d = 2.0 * s.radius * (1.0 - s.compression);  // nearest-neighbour distance
  // Lattice constants (cell edge lengths) and basis in units of them.
  Vec3 a = Vec3::Constant(d);
  std::vector<Vec3> basis{Vec3::Zero()};
  switch (s.kind) {
    case LatticeKind::square:
    case LatticeKind::sc: break;
    case LatticeKind::hex:
      a = Vec3(d, d * std::sqrt(3.0), d);
      basis.push_back(Vec3(0.5, 0.5, 0.0));
      break;
    case LatticeKind::bcc:
      a = Vec3::Constant(2.0 * d / std::sqrt(3.0));
      basis.push_back(Vec3(0.5, 0.5, 0.5));
      break;
    case LatticeKind::fcc:
      a = Vec3::Constant(d * std::numbers::sqrt2);
      basis = {Vec3(0, 0, 0), Vec3(0.5, 0.5, 0), Vec3(0.5, 0, 0.5), Vec3(0, 0.5, 0.5)};
      break;
  }
  if (dim == 2) a.z() = 0.0;
  const double cells = static_cast<double>(s.n);
  const double total = std::pow(cells, dim) * static_cast<double>(basis.size());
  if (total > 2e8) fail(fmt::format("lattice of {} particles is too large (limit 2e8)", total));

  Packing p;
  p.dim = dim;
  p.source = fmt::format("{} lattice, {} cells per side{}", to_string(s.kind), s.n,
                         s.periodic ? ", periodic" : "");
  p.centre.reserve(static_cast<std::size_t>(total));
  std::mt19937_64 rng(s.seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Index nz = dim == 3 ? s.n : 1;
  for (Index k = 0; k < nz; ++k)
    for (Index j = 0; j < s.n; ++j)
      for (Index i = 0; i < s.n; ++i)
        for (const Vec3& b : basis) {
          const Vec3 c((static_cast<double>(i) + b.x()) * a.x(), (static_cast<double>(j) + b.y()) * a.y(),
                       dim == 3 ? (static_cast<double>(k) + b.z()) * a.z() : 0.0);
          const double r = s.radius_spread > 0.0 ? s.radius * (1.0 + s.radius_spread * U(rng)) : s.radius;
          p.add(c, r, s.density, s.body_model);
        }
  p.box_lo = Vec3::Zero();
  p.box_hi = cells * a;
  for (int ax = 0; ax < dim; ++ax) p.periodic[ax] = s.periodic;
  return p;
}

void add_box_walls(Packing& p, double overlap, const std::optional<contact::ContactLaw>& law) {
  require_finite("wall overlap", overlap);
  if (p.size() == 0) fail("add_box_walls: the packing has no particles");
  const char* axis = "xyz";
  for (int d = 0; d < p.dim; ++d) {
    Index lo = 0, hi = 0;
    for (Index i = 1; i < p.size(); ++i) {
      if (p.centre[i][d] < p.centre[lo][d]) lo = i;
      if (p.centre[i][d] > p.centre[hi][d]) hi = i;
    }
    Vec3 n = Vec3::Zero();
    n[d] = 1.0;
    Vec3 plo = Vec3::Zero(), phi = Vec3::Zero();
    plo[d] = p.centre[lo][d] - (p.radius[lo] - overlap);
    phi[d] = p.centre[hi][d] + (p.radius[hi] - overlap);
    p.walls.push_back(PlaneWall{plo, n, law, fmt::format("{}={}", axis[d], plo[d])});
    p.walls.push_back(PlaneWall{phi, -n, law, fmt::format("{}={}", axis[d], phi[d])});
  }
}

PlaneWall parse_wall(std::string_view spec, const Packing& p, const contact::ContactLaw& base) {
  KeyValues kv(spec, fmt::format("--wall {}", spec));
  int axis = -1;
  double pos = 0.0;
  const char* names[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d)
    if (auto v = kv.number(names[d])) {
      if (axis >= 0) fail(fmt::format("wall '{}' names more than one axis", spec));
      axis = d;
      pos = *v;
    }
  if (axis < 0) fail(fmt::format("wall '{}' must name its plane as x=..., y=... or z=...", spec));
  if (axis >= p.dim) fail(fmt::format("wall '{}': a 2D packing has no axis {}", spec, names[axis]));
  bool own_law = false;
  contact::ContactLaw law = base;
  for (const char* key : {"kn", "kt", "gamma_n", "gamma_t"})
    if (auto v = kv.number(key)) {
      contact::set_classic_coefficient(law, key, *v);
      own_law = true;
    }
  // LAMMPS: gamma_t = gamma_n / 2 unless given.
  if (auto gn = kv.number("gamma_n"); gn && !kv.number("gamma_t")) contact::set_classic_coefficient(law, "gamma_t", 0.5 * *gn);
  kv.reject_unused({"x", "y", "z", "kn", "kt", "gamma_n", "gamma_t"});
  double centroid = 0.0;
  for (const auto& c : p.centre) centroid += c[axis];
  centroid /= static_cast<double>(std::max<Index>(p.size(), 1));
  PlaneWall w;
  w.point = Vec3::Zero();
  w.point[axis] = pos;
  w.normal = Vec3::Zero();
  w.normal[axis] = centroid >= pos ? 1.0 : -1.0;
  if (own_law) w.law = contact::validated(law);
  w.label = std::string(spec);
  return w;
}

}  // namespace dtcrit::packing
