#include "dtcrit/assembly/contacts.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/parts_pool.hpp"

namespace dtcrit::packing {

const contact::ContactLaw& ContactLaws::between(int ti, int tj) const {
  if (by_types.empty()) return base;
  auto it = by_types.find({std::min(ti, tj), std::max(ti, tj)});
  return it == by_types.end() ? base : it->second;
}

void ContactLaws::validate() const {
  contact::validated(base);
  for (const auto& [key, law] : by_types) {
    if (key.first < 1 || key.second < key.first)
      fail(fmt::format("contact law for types ({}, {}): types must satisfy 1 <= i <= j", key.first, key.second));
    contact::validated(law);
  }
}

std::vector<std::int32_t> ContactSet::coordination(Index particles) const {
  std::vector<std::int32_t> z(static_cast<std::size_t>(particles), 0);
  for (const Contact& c : contacts) {
    ++z[static_cast<std::size_t>(c.i)];
    if (c.j >= 0) ++z[static_cast<std::size_t>(c.j)];
  }
  return z;
}

namespace {

// Interns laws so that contacts store a small index.
class LawTable {
 public:
  explicit LawTable(const ContactLaws& laws) : laws_(laws) {}
  std::int32_t pair(int ti, int tj) {
    const auto key = std::make_pair(std::min(ti, tj), std::max(ti, tj));
    auto it = pair_index_.find(key);
    if (it != pair_index_.end()) return it->second;
    return pair_index_[key] = intern(laws_.between(ti, tj));
  }
  std::int32_t wall(const std::optional<contact::ContactLaw>& law, int ti) { return law ? intern(*law) : pair(ti, ti); }
  const contact::ContactLaw& wall_law(const std::optional<contact::ContactLaw>& law, int ti) const {
    return law ? *law : laws_.between(ti, ti);
  }
  std::vector<contact::ContactLaw> take() { return std::move(table_); }
  // The index of a law, added at the end when new (merging another table's laws in their order).
  std::int32_t add(const contact::ContactLaw& h) { return intern(h); }
  // The law of a pair of types or a wall, without interning it (for the contact test).
  const contact::ContactLaw& of_pair(int ti, int tj) const { return laws_.between(ti, tj); }

 private:
  std::int32_t intern(const contact::ContactLaw& h) {
    for (std::size_t k = 0; k < table_.size(); ++k) {
      const auto& t = table_[k];
      if (t == h)
        return static_cast<std::int32_t>(k);
    }
    table_.push_back(h);
    return static_cast<std::int32_t>(table_.size() - 1);
  }
  const ContactLaws& laws_;
  std::map<std::pair<int, int>, std::int32_t> pair_index_;
  std::vector<contact::ContactLaw> table_;
};

// Appends the wall contacts of particle i: plane walls, then region walls (each region's contacts in
// LAMMPS' order, region_wall.hpp), with their surfaces when the packing has region walls.
void wall_contacts(const Packing& p, Index i, const Vec3& xi, double tol, LawTable& laws, ContactSet& set) {
  std::vector<Contact>& out = set.contacts;
  Index& count = set.wall_contacts;
  for (std::size_t w = 0; w < p.walls.size(); ++w) {
    const PlaneWall& wall = p.walls[w];
    const double dist = (xi - wall.point).dot(wall.normal);
    const double r = p.radius[static_cast<std::size_t>(i)];
    const int type = p.type[static_cast<std::size_t>(i)];
    if (dist < r * (1.0 + tol) || r - dist > contact::pulloff_overlap(laws.wall_law(wall.law, type), r)) {
      Contact c;
      c.i = static_cast<std::int32_t>(i);
      c.j = -static_cast<std::int32_t>(w) - 1;
      c.law = laws.wall(wall.law, type);
      c.normal = wall.normal;
      c.overlap = r - dist;
      out.push_back(c);
      ++count;
    }
  }
  if (p.region_walls.empty()) return;
  set.wall_surfaces.resize(out.size());
  const double r = p.radius[static_cast<std::size_t>(i)];
  for (std::size_t w = 0; w < p.region_walls.size(); ++w) {
    const RegionWall& wall = p.region_walls[w];
    for (const RegionContact& rc : region_contacts(wall, xi, r, tol)) {
      Contact c;
      c.i = static_cast<std::int32_t>(i);
      c.j = -static_cast<std::int32_t>(p.walls.size() + w) - 1;
      c.law = laws.wall(wall.law, p.type[static_cast<std::size_t>(i)]);
      c.normal = rc.normal;
      c.overlap = rc.overlap;
      out.push_back(c);
      ++count;
      WallSurface surface;
      // Only a law that reads R_eff (Hertz, Mindlin, viscoelastic damping, rolling) sees rwall: LAMMPS'
      // hooke styles run with any wall radius, so the check of R_eff > 0 waits for such a law.
      const contact::ContactLaw& law = laws.wall_law(wall.law, p.type[static_cast<std::size_t>(i)]);
      if (rc.wall_radius != 0.0 && (contact::overlap_dependent(law) || contact::uses_resistance_rates(law))) {
        surface.r_eff = lammps_effective_radius(r, rc.wall_radius, wall);
        // R_eff = r rw / (r + rw): dR_eff/drw = r^2 / (r + rw)^2.
        surface.r_eff_gradient = r * r / ((r + rc.wall_radius) * (r + rc.wall_radius)) * rc.wall_radius_gradient;
      }
      surface.normal_derivative = rc.normal_derivative();
      set.wall_surfaces.push_back(surface);
    }
  }
}

// Positions wrapped into the box on periodic axes.
std::vector<Vec3> wrapped(const Packing& p) {
  std::vector<Vec3> x = p.centre;
  const Vec3 L = p.box_length();
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int d = 0; d < 3; ++d)
      if (p.periodic[d]) {
        auto& c = x[i];
        const double periods = std::floor((c[d] - p.box_lo[d]) / L[d]);
        // Beyond 2^52 periods the wrapped position is rounding noise (and beyond the doubles, inf).
        if (!(std::abs(periods) < 0x1p52))
          fail(fmt::format("particle {}: {} = {} lies too many box lengths ({}) outside the periodic box [{}, {}]", i,
                           "xyz"[d], c[d], L[d], p.box_lo[d], p.box_hi[d]));
        c[d] -= L[d] * periods;
        if (c[d] >= p.box_hi[d]) c[d] = p.box_lo[d];  // rounding of the line above
      }
  return x;
}

// Members of one molecule (a clump for --clumps molecule, fix rigid/small; LAMMPS excludes their
// pairs) may coincide: their contact is dropped with the body's inner contacts anyway.
bool one_molecule(const Packing& p, Index i, Index j) {
  if (p.molecule.empty()) return false;
  const auto mi = p.molecule[static_cast<std::size_t>(i)], mj = p.molecule[static_cast<std::size_t>(j)];
  return mi != 0 && mi == mj;
}

// Two particles at one centre (or one at a periodic image of the other) have no contact normal:
// a broken input (a particle written twice), not a contact to skip.
[[noreturn]] void same_centre(const Packing& p, Index i, Index j) {
  const Vec3& xi = p.centre[static_cast<std::size_t>(i)];
  const bool image = xi != p.centre[static_cast<std::size_t>(j)];
  fail(fmt::format("{}: atoms {} and {} have the same centre ({}, {}, {}){}", p.source.empty() ? "packing" : p.source,
                   p.atom_id(i), p.atom_id(j), xi.x(), xi.y(), xi.z(), image ? " up to a period of the box" : ""));
}

// jkr pairs stay in contact at negative overlap down to the pull-off overlap (contact/law.hpp
// pulloff_overlap()). LAMMPS keeps such a pair only if it touched before (its touch flag); a packing
// file has no such flag, so every pair within the pull-off distance counts as touching: in a settled
// packing the near pairs got there by touching. (A pair that approaches from afar without touching
// would not be a contact in LAMMPS; contact dumps name exactly LAMMPS' contacts.)
// (any_jkr false: no law has a pull-off, and the per-pair law is not looked up.)
double pair_reach(const Packing& p, Index i, Index j, double tol, bool any_jkr, const LawTable& laws) {
  const double R = p.radius[i] + p.radius[j];
  if (!any_jkr) return R * (1.0 + tol);
  const double r_eff = contact::effective_radius(p.radius[i], p.radius[j]);
  return std::max(R * (1.0 + tol), R - contact::pulloff_overlap(laws.of_pair(p.type[i], p.type[j]), r_eff));
}

// The contact of particles i and j whose centres differ by d (x_i - x_j, image shift included), if
// they are within reach; two members of one molecule at one centre are none, two other particles
// there an error. The one place both contact searches (grid and brute force) make a contact.
std::optional<Contact> pair_contact(const Packing& p, Index i, Index j, const Vec3& d, double reach,
                                    LawTable& table) {
  const double r2 = d.squaredNorm();
  if (!(r2 < reach * reach)) return std::nullopt;
  if (r2 == 0.0) {
    if (one_molecule(p, i, j)) return std::nullopt;
    same_centre(p, i, j);
  }
  const double r = std::sqrt(r2);
  return Contact{static_cast<std::int32_t>(i), static_cast<std::int32_t>(j), table.pair(p.type[i], p.type[j]), d / r,
                 p.radius[i] + p.radius[j] - r};
}

// The largest pull-off distance of any jkr law at the largest radius (an upper bound: it grows as
// R_eff^(1/3), and R_eff <= r_max): what the neighbour search must add to its reach.
double largest_pulloff(const Packing& p, const ContactLaws& laws, double rmax) {
  double d = -contact::pulloff_overlap(laws.base, rmax);
  for (const auto& [key, law] : laws.by_types) d = std::max(d, -contact::pulloff_overlap(law, rmax));
  for (const auto& w : p.walls)
    if (w.law) d = std::max(d, -contact::pulloff_overlap(*w.law, rmax));
  return d;
}

bool positive_shift(const std::array<int, 3>& k) {
  for (int d = 0; d < 3; ++d)
    if (k[d] != 0) return k[d] > 0;
  return false;
}

// A periodic axis may be shorter than the contact distance (a particle then touches its own
// images), but not so short that a particle meets more than a few of them, nor may the particles'
// extent on an axis overflow: both are named errors, not endless image loops or broken grids.
constexpr double max_images = 8.0;
void check_extent(const Packing& p, const std::vector<Vec3>& x, double reach) {
  for (int d = 0; d < p.dim; ++d) {
    if (p.periodic[d]) {
      const double L = p.box_hi[d] - p.box_lo[d];
      if (!(reach <= max_images * L))
        fail(fmt::format("periodic axis {}: the box length {} is shorter than 1/{} of the largest contact distance {}",
                         "xyz"[d], L, max_images, reach));
    } else {
      double mn = x[0][d], mx = x[0][d];
      for (const auto& c : x) mn = std::min(mn, c[d]), mx = std::max(mx, c[d]);
      if (!std::isfinite(mx - mn))
        fail(fmt::format("axis {}: the particles' extent [{}, {}] overflows a double", "xyz"[d], mn, mx));
    }
  }
}

}  // namespace

ContactSet find_contacts_brute_force(const Packing& p, const ContactLaws& laws, const ContactOptions& opts) {
  validate(p);
  laws.validate();
  require_non_negative("gap tolerance", opts.gap_tolerance);
  const double tol = opts.gap_tolerance;
  const std::vector<Vec3> x = wrapped(p);
  const Vec3 L = p.box_length();
  double rmax = 0.0;
  for (double r : p.radius) rmax = std::max(rmax, r);
  const double pulloff = largest_pulloff(p, laws, rmax);
  const double cutoff = 2.0 * rmax * (1.0 + tol) + pulloff;
  check_extent(p, x, cutoff);
  std::array<int, 3> K{0, 0, 0};
  for (int d = 0; d < 3; ++d)
    if (p.periodic[d]) K[d] = static_cast<int>(std::ceil(cutoff / L[d])) + 1;
  LawTable table(laws);
  ContactSet set;
  const Index n = p.size();
  for (Index i = 0; i < n; ++i) {
    for (Index j = i; j < n; ++j) {
      const double reach = pair_reach(p, i, j, tol, pulloff > 0.0, table);
      std::array<int, 3> k{};
      for (k[0] = -K[0]; k[0] <= K[0]; ++k[0])
        for (k[1] = -K[1]; k[1] <= K[1]; ++k[1])
          for (k[2] = -K[2]; k[2] <= K[2]; ++k[2]) {
            if (i == j && !positive_shift(k)) continue;
            const Vec3 d = x[i] - x[j] - Vec3(k[0] * L[0], k[1] * L[1], k[2] * L[2]);
            if (auto c = pair_contact(p, i, j, d, reach, table)) {
              set.contacts.push_back(*c);
              ++set.pair_contacts;
            }
          }
    }
    wall_contacts(p, i, x[i], tol, table, set);
  }
  set.laws = table.take();
  return set;
}

ContactSet find_contacts(const Packing& p, const ContactLaws& laws, const ContactOptions& opts) {
  validate(p);
  laws.validate();
  require_non_negative("gap tolerance", opts.gap_tolerance);
  const double tol = opts.gap_tolerance;
  const Index n = p.size();
  const std::vector<Vec3> x = wrapped(p);
  const Vec3 L = p.box_length();
  double rmax = 0.0;
  for (double r : p.radius) rmax = std::max(rmax, r);
  const double pulloff = largest_pulloff(p, laws, rmax);
  const double reach = 2.0 * rmax * (1.0 + tol) + pulloff;  // the largest contact distance
  check_extent(p, x, reach);
  double cutoff = reach;  // the grid's cell edge, at least reach

  // Grid. Periodic axes with at least 3 cells wrap (minimum image is then unique, since the cell
  // edge >= cutoff <= L / 3); periodic axes shorter than that get one cell and explicit image
  // shifts k L, |k| <= K; open axes span the particles' extent.
  Vec3 lo = Vec3::Zero(), edge = Vec3::Ones();
  std::array<Index, 3> dims{1, 1, 1};
  std::array<int, 3> images{0, 0, 0};
  std::array<bool, 3> wrap{false, false, false};
  // Cell counts are clamped in double before they become integers; the loop ends at the latest
  // when the cutoff overflows to infinity (one cell per axis).
  const double max_cells = 8.0 * static_cast<double>(n) + 4096.0;
  for (;;) {
    for (int d = 0; d < 3; ++d) {
      images[d] = 0;
      wrap[d] = false;
      if (d >= p.dim) {
        dims[d] = 1, lo[d] = 0.0, edge[d] = 1.0;
        continue;
      }
      if (p.periodic[d]) {
        lo[d] = p.box_lo[d];
        const auto m = static_cast<Index>(std::min(std::floor(L[d] / cutoff), max_cells));
        if (m >= 3) {
          dims[d] = m, edge[d] = L[d] / static_cast<double>(m), wrap[d] = true;
        } else {
          dims[d] = 1, edge[d] = L[d];
          images[d] = static_cast<int>(std::ceil(reach / L[d])) + 1;  // <= max_images + 1
        }
      } else {
        double mn = x[0][d], mx = x[0][d];
        for (const auto& c : x) mn = std::min(mn, c[d]), mx = std::max(mx, c[d]);
        lo[d] = mn;
        const Index m = std::max<Index>(1, static_cast<Index>(std::min(std::floor((mx - mn) / cutoff), max_cells)));
        dims[d] = m, edge[d] = std::max((mx - mn) / static_cast<double>(m), cutoff);
      }
    }
    const double cells = static_cast<double>(dims[0]) * static_cast<double>(dims[1]) * static_cast<double>(dims[2]);
    if (cells <= max_cells) break;
    cutoff *= 2.0;  // a sparse packing: coarser cells
  }
  const Index ncells = dims[0] * dims[1] * dims[2];
  auto cell_coord = [&](const Vec3& c, int d) {
    const double k = std::floor((c[d] - lo[d]) / edge[d]);
    return static_cast<Index>(std::clamp(k, 0.0, static_cast<double>(dims[d] - 1)));
  };
  std::vector<Index> cell_of(static_cast<std::size_t>(n)), start(static_cast<std::size_t>(ncells) + 1, 0),
      items(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    const Index c = cell_coord(x[i], 0) + dims[0] * (cell_coord(x[i], 1) + dims[1] * cell_coord(x[i], 2));
    cell_of[i] = c;
    ++start[c + 1];
  }
  for (Index c = 0; c < ncells; ++c) start[c + 1] += start[c];
  {
    std::vector<Index> fill(start.begin(), start.end() - 1);
    for (Index i = 0; i < n; ++i) items[fill[cell_of[i]]++] = i;
  }

  // Neighbour offsets per axis: cells -1..1 (wrapped or clipped), or image shifts -K..K.
  // The contacts of particle i (pairs with j >= i in the order of the brute-force scan, then walls),
  // appended to `set`; laws interned in `table` as first met.
  auto scan = [&](Index i, LawTable& table, ContactSet& set, std::vector<Contact>& row) {
    row.clear();
    const Index ci = cell_of[i];
    const std::array<Index, 3> cc{ci % dims[0], (ci / dims[0]) % dims[1], ci / (dims[0] * dims[1])};
    std::array<int, 3> from{}, to{};
    for (int d = 0; d < 3; ++d) {
      if (images[d] > 0) from[d] = -images[d], to[d] = images[d];
      else if (dims[d] == 1) from[d] = 0, to[d] = 0;
      else from[d] = -1, to[d] = 1;
    }
    std::array<int, 3> o{};
    for (o[2] = from[2]; o[2] <= to[2]; ++o[2])
      for (o[1] = from[1]; o[1] <= to[1]; ++o[1])
        for (o[0] = from[0]; o[0] <= to[0]; ++o[0]) {
          std::array<Index, 3> nc{};
          Vec3 shift = Vec3::Zero();  // image translation of the partner
          std::array<int, 3> k{0, 0, 0};
          bool skip = false;
          for (int d = 0; d < 3 && !skip; ++d) {
            if (images[d] > 0) {
              nc[d] = 0;
              k[d] = o[d];
              shift[d] = o[d] * L[d];
            } else {
              Index c = cc[d] + o[d];
              if (c < 0 || c >= dims[d]) {
                if (!wrap[d]) skip = true;
                c = (c + dims[d]) % dims[d];
              }
              nc[d] = c;
            }
          }
          if (skip) continue;
          const Index cell = nc[0] + dims[0] * (nc[1] + dims[1] * nc[2]);
          for (Index s = start[cell]; s < start[cell + 1]; ++s) {
            const Index j = items[s];
            if (j < i || (j == i && !positive_shift(k))) continue;
            Vec3 d = x[i] - x[j] - shift;
            for (int a = 0; a < 3; ++a)
              if (wrap[a]) d[a] -= L[a] * std::round(d[a] / L[a]);
            const double reach = pair_reach(p, i, j, tol, pulloff > 0.0, table);
            if (auto c = pair_contact(p, i, j, d, reach, table)) row.push_back(*c);
          }
        }
    // Same order as the brute-force scan: by partner, then by image.
    std::sort(row.begin(), row.end(), [](const Contact& a, const Contact& b) { return a.j < b.j; });
    set.pair_contacts += static_cast<Index>(row.size());
    set.contacts.insert(set.contacts.end(), row.begin(), row.end());
    wall_contacts(p, i, x[i], tol, table, set);
  };
  // Rounds of up to 2^17 particles, each cut into T parts. The first part scans into the result with
  // the result's law table; the others into their own sets with their own tables, appended in part
  // order after the round, each table's laws added in its own order of first use. So the contacts
  // and the laws' indices are those of one scan over every particle, whatever the thread count, and
  // a round's other parts hold a few tens of MB beside the result.
  const int T = n >= 20000 ? std::max(1, opts.threads > 0 ? opts.threads : default_threads()) : 1;
  constexpr Index round_size = Index{1} << 17;
  LawTable table(laws);
  ContactSet set;
  set.contacts.reserve(static_cast<std::size_t>(n) * (p.dim == 3 ? 7 : 4));
  std::vector<ContactSet> parts(static_cast<std::size_t>(T));
  // The other parts' buffers, sized here for a round (as the result's, 7 contacts per particle in 3D)
  // rather than grown on their threads: grown there, they came from the threads' own malloc arenas,
  // which kept the freed memory (the 10^6-sphere analysis peaked at 615 MB, 609 MB with this).
  for (std::size_t t = 1; t < parts.size(); ++t)
    parts[t].contacts.reserve(static_cast<std::size_t>(std::min(n, round_size) / T + 1) * (p.dim == 3 ? 7 : 4));
  std::vector<std::vector<Contact>> rows(static_cast<std::size_t>(T));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(T));
  std::optional<PartsPool> pool;
  if (T > 1) pool.emplace(T - 1);
  for (Index r0 = 0; r0 < n; r0 += round_size) {
    const Index r1 = std::min(n, r0 + round_size);
    std::vector<LawTable> tables(static_cast<std::size_t>(T), LawTable(laws));
    auto run_part = [&](int t) {
      const auto ut = static_cast<std::size_t>(t);
      try {
        for (Index i = r0 + (r1 - r0) * t / T, end = r0 + (r1 - r0) * (t + 1) / T; i < end; ++i)
          scan(i, t == 0 ? table : tables[ut], t == 0 ? set : parts[ut], rows[ut]);
      } catch (...) {
        errors[ut] = std::current_exception();
      }
    };
    if (pool) pool->run(T, run_part);
    else run_part(0);
    for (const auto& e : errors)  // the first particle's error, as one scan would throw it
      if (e) std::rethrow_exception(e);
    for (std::size_t t = 1; t < parts.size(); ++t) {
      ContactSet& part = parts[t];
      std::vector<std::int32_t> index;  // part t's law index -> the joined table's
      for (const auto& law : tables[t].take()) index.push_back(table.add(law));
      for (Contact& c : part.contacts) c.law = index[static_cast<std::size_t>(c.law)];
      set.contacts.insert(set.contacts.end(), part.contacts.begin(), part.contacts.end());
      // (with region walls every scan leaves a set's surfaces parallel to its contacts)
      set.wall_surfaces.insert(set.wall_surfaces.end(), part.wall_surfaces.begin(), part.wall_surfaces.end());
      set.pair_contacts += part.pair_contacts;
      set.wall_contacts += part.wall_contacts;
      part.contacts.clear();  // keeps its capacity for the next round
      part.wall_surfaces.clear();
      part.pair_contacts = part.wall_contacts = 0;
    }
  }
  set.laws = table.take();
  return set;
}

const contact::History& ContactSet::history(std::size_t k) const {
  static const contact::History zero{};
  return histories.empty() ? zero : histories[k];
}

bool ContactSet::has_history(std::size_t k) const {
  if (read_history(k)) return true;
  const contact::History& h = history(k);
  return !h.xi_t.isZero(0.0) || !h.xi_r.isZero(0.0) || h.xi_tw != 0.0;
}

contact::History& ContactSet::history_to_fill(std::size_t k) {
  if (histories.empty()) {
    histories.assign(contacts.size(), contact::History{});
    history_read.assign(contacts.size(), 0);
  }
  history_read[k] = 1;
  return histories[k];
}

void transform_laws(Packing& p, ContactLaws& laws, contact::ContactLaw (*f)(contact::ContactLaw)) {
  laws.base = f(laws.base);
  for (auto& [types, law] : laws.by_types) law = f(law);
  for (auto& w : p.walls)
    if (w.law) w.law = f(*w.law);
  for (auto& w : p.region_walls)
    if (w.law) w.law = f(*w.law);
}

bool any_frictional(const Packing& p, const ContactLaws& laws) {
  bool any = contact::frictional(laws.base);
  for (const auto& [types, law] : laws.by_types) any = any || contact::frictional(law);
  for (const auto& w : p.walls) any = any || (w.law && contact::frictional(*w.law));
  for (const auto& w : p.region_walls) any = any || (w.law && contact::frictional(*w.law));
  return any;
}

}  // namespace dtcrit::packing
