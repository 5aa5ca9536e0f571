#include "dtcrit/lammps/lammps_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/response.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/io/input_file.hpp"

namespace dtcrit::packing {

namespace {

// One snapshot's table: column names and rows, and where it was read.
struct Table {
  std::string path;
  bool local = false;  // ITEM: ENTRIES (local dump) or ITEM: ATOMS (per-atom dump)
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<long> row_line;
};

// The last snapshot of a LAMMPS text dump (local or per-atom).
Table read_last_snapshot(const std::string& path) {
  std::istringstream in(read_input_file(path, "LAMMPS contact dump"));
  Table last;
  bool have = false;
  std::string line;
  long number = 0;
  auto next = [&](const std::string& what) {
    if (!std::getline(in, line)) fail(fmt::format("{}:{}: expected {}, got the end of the file", path, number + 1, what));
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
  };
  auto error = [&](const std::string& what) { fail(fmt::format("{}:{}: {}", path, number, what)); };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (split_words(line).empty()) continue;
    if (line.rfind("ITEM: TIMESTEP", 0) != 0) error(fmt::format("expected 'ITEM: TIMESTEP', got '{}'", excerpt(line)));
    next("a timestep");
    next("'ITEM: NUMBER OF ENTRIES' or 'ITEM: NUMBER OF ATOMS'");
    Table t;
    t.path = path;
    if (line.rfind("ITEM: NUMBER OF ENTRIES", 0) == 0) t.local = true;
    else if (line.rfind("ITEM: NUMBER OF ATOMS", 0) != 0)
      error(fmt::format("expected 'ITEM: NUMBER OF ENTRIES' or 'ITEM: NUMBER OF ATOMS', got '{}'", excerpt(line)));
    next("the number of rows");
    long rows = -1;
    {
      const auto w = split_words(line);
      const auto n = w.size() == 1 ? read_integer<long>(w[0]) : std::nullopt;
      if (!n || *n < 0) error(fmt::format("expected a number of rows, got '{}'", excerpt(line)));
      rows = *n;
    }
    next("'ITEM: BOX BOUNDS'");
    if (line.rfind("ITEM: BOX BOUNDS", 0) != 0) error(fmt::format("expected 'ITEM: BOX BOUNDS ...', got '{}'", excerpt(line)));
    for (int d = 0; d < 3; ++d) next("the box bounds");
    next(t.local ? "'ITEM: ENTRIES ...'" : "'ITEM: ATOMS ...'");
    const auto head = split_words(line);
    const std::string item = t.local ? "ENTRIES" : "ATOMS";
    if (head.size() < 3 || head[0] != "ITEM:" || head[1] != item)
      error(fmt::format("expected 'ITEM: {} <columns>', got '{}'", item, excerpt(line)));
    t.columns.assign(head.begin() + 2, head.end());
    for (long k = 0; k < rows; ++k) {
      next(fmt::format("{} rows", rows));
      const auto w = split_words(line);
      if (w.size() != t.columns.size())
        error(fmt::format("expected {} columns as the ITEM line names, got {}", t.columns.size(), w.size()));
      std::vector<double> row(w.size());
      for (std::size_t c = 0; c < w.size(); ++c) {
        const auto v = read_number(w[c]);
        if (!v || !std::isfinite(*v))
          error(fmt::format("expected a number in column {} ({}), got '{}'", c + 1, excerpt(t.columns[c]), excerpt(w[c])));
        row[c] = *v;
      }
      t.rows.push_back(std::move(row));
      t.row_line.push_back(number);
    }
    last = std::move(t);
    have = true;
  }
  if (!have) fail(fmt::format("{}: expected a snapshot (ITEM: TIMESTEP ...), found none", path));
  return last;
}

// "c_pf[3]" -> {"c", "pf", 3}; "c_pl" -> {"c", "pl", 1}; anything else: prefix "".
struct ColumnName {
  std::string prefix, id;
  int index = 1;
};
ColumnName parse_column(const std::string& name) {
  ColumnName c;
  if (name.size() < 3 || name[1] != '_' || (name[0] != 'c' && name[0] != 'f')) return c;
  c.prefix = name.substr(0, 1);
  const auto open = name.find('[');
  c.id = name.substr(2, open == std::string::npos ? std::string::npos : open - 2);
  if (open != std::string::npos) {
    const auto close = name.find(']', open);
    if (close == std::string::npos || close != name.size() - 1) return {};
    const auto index = read_integer<int>(name.substr(open + 1, close - open - 1));
    if (!index) return {};
    c.index = *index;
  }
  return c;
}

// The state a packing contact is evaluated at: its overlap, at rest, with the given histories.
contact::ContactInput rest_input(const Packing& p, const Contact& c, const contact::History& h) {
  const double ri = p.radius[static_cast<std::size_t>(c.i)];
  const double mi = p.mass[static_cast<std::size_t>(c.i)];
  contact::RoundContact rc;
  rc.normal = c.normal;
  rc.overlap = c.overlap;
  rc.ri = ri;
  rc.wall = c.j < 0;
  double mj = contact::immovable_mass;
  if (!rc.wall) {
    rc.rj = p.radius[static_cast<std::size_t>(c.j)];
    rc.distance = ri + rc.rj - c.overlap;
    mj = p.mass[static_cast<std::size_t>(c.j)];
  }
  return contact::contact_input(rc, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                                contact::effective_mass(mi, mj), h);
}

// d(force block)/d(history block) along the tangent plane: the law's spring factor s (F = s xi).
double spring_factor(const contact::Derivative& D, int out_row, int in_col, const Vec3& normal) {
  Vec3 t = normal.unitOrthogonal();
  return t.dot(D.block<3, 3>(out_row, in_col) * t);
}

struct Recovered {
  bool sliding = false, rolling_limit = false;
};

// Sets `history` (contact c's) from the tangential (and rolling) force on c.i; F_n: LAMMPS' normal
// force for the cap.
Recovered recover(const Packing& p, const contact::ContactLaw& law, const Contact& c, contact::History& history,
                  const Vec3& force_t,
                  const std::optional<Vec3>& force_r, std::optional<double> normal_force, double tol) {
  Recovered out;
  const Vec3 n = c.normal;
  const Vec3 ft = force_t - force_t.dot(n) * n;
  const contact::ContactResponse zero = contact::evaluate(law, rest_input(p, c, {}), true);
  const double fn_lammps = std::abs(normal_force.value_or(zero.normal_force));
  const double fn_dtcrit = std::abs(zero.normal_force);
  contact::History h;
  h.a_prev = zero.contact_radius;  // mindlin_rescale: no unloading since the dump
  const double st = spring_factor(zero.derivative, contact::out::force, contact::in::xi_t, n);
  if (st != 0.0 && ft.norm() > 0.0) {
    Vec3 xi = ft / st;
    if (ft.norm() >= law.mu * fn_lammps * (1.0 - tol)) {
      // On the cap: just beyond dtcrit's own cap, so that evaluate() takes the sliding branch.
      xi *= law.mu * fn_dtcrit * (1.0 + 1e-9) / ft.norm();
      out.sliding = true;
    }
    h.xi_t = xi;
  }
  if (force_r && law.rolling != contact::RollingModel::none) {
    const Vec3 fr = *force_r - force_r->dot(n) * n;
    const double sr = spring_factor(zero.derivative, contact::out::rolling_force, contact::in::xi_r, n);
    if (sr != 0.0 && fr.norm() > 0.0) {
      Vec3 xr = fr / sr;
      if (fr.norm() >= law.mu_roll * fn_lammps * (1.0 - tol)) {
        xr *= law.mu_roll * fn_dtcrit * (1.0 + 1e-9) / fr.norm();
        out.rolling_limit = true;
      }
      h.xi_r = xr;
    }
  }
  history = h;
  return out;
}

using Computes = std::map<std::string, std::vector<std::string>>;

// Column of each keyword (patom1, patom2, dist, force, p1, ...) in a local dump.
std::map<std::string, std::size_t> local_columns(const Table& t, const Computes& computes, std::vector<std::string>& notes) {
  std::map<std::string, std::vector<std::pair<int, std::size_t>>> by_id;  // compute ID -> (index, column)
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    const ColumnName c = parse_column(t.columns[k]);
    if (c.prefix == "c") by_id[c.id].push_back({c.index, k});
  }
  std::map<std::string, std::size_t> at;
  bool inferred = false;
  for (const auto& [id, cols] : by_id) {
    std::vector<std::string> kw;
    if (auto def = computes.find(id); def != computes.end()) {
      kw = def->second;
    } else {
      // The README's layout, told apart by the number of columns.
      inferred = true;
      if (cols.size() == 2) kw = {"patom1", "patom2"};
      else if (cols.size() == 5) kw = {"dist", "force", "p1", "p2", "p3"};
      else if (cols.size() == 8) kw = {"dist", "force", "p1", "p2", "p3", "p5", "p6", "p7"};
      else if (cols.size() == 9) kw = {"dist", "force", "p1", "p2", "p3", "p5", "p6", "p7", "p9"};
      else
        fail(fmt::format("{}: compute '{}' has {} columns in the dump and no definition: give the input script "
                         "(--lammps-input) whose compute line defines it, or dump the layout the README documents "
                         "(property/local patom1 patom2; pair/local dist force p1 p2 p3 [p5 p6 p7])",
                         t.path, id, cols.size()));
    }
    for (const auto& [index, column] : cols) {
      if (index < 1 || static_cast<std::size_t>(index) > kw.size())
        fail(fmt::format("{}: column {} refers to value {} of compute '{}', which has {}", t.path, t.columns[column], index,
                         id, kw.size()));
      at[kw[static_cast<std::size_t>(index - 1)]] = column;
    }
  }
  if (inferred) notes.push_back(fmt::format("{}: columns by the documented layout (no compute definitions given)", t.path));
  for (const char* need : {"patom1", "patom2", "p1", "p2", "p3"})
    if (!at.count(need))
      fail(fmt::format("{}: the ENTRIES have no '{}' column; expected property/local patom1 patom2 and pair/local p1 p2 "
                       "p3 (the tangential force)",
                       t.path, need));
  return at;
}

// An atom id column: an integer as LAMMPS writes it (a tagint), so 1.5 or 1e300 is no id (and
// casting 1e300 to an integer would be undefined). 2^53: where doubles stop holding every integer.
std::int64_t atom_id_in(double v, const Table& t, std::size_t r, const std::string& column) {
  if (!(v == std::floor(v) && std::abs(v) <= 0x1p53))
    fail(fmt::format("{}:{}: expected an integer atom id in column {}, got {}", t.path, t.row_line[r], column, v));
  return static_cast<std::int64_t>(v);
}

bool same_history(const contact::History& a, const contact::History& b) {
  return a.xi_t == b.xi_t && a.xi_r == b.xi_r && a.xi_tw == b.xi_tw;
}

}  // namespace

ContactHistorySummary read_lammps_contacts(const std::vector<std::string>& paths, const Packing& p, ContactSet& contacts,
                                           const Computes& computes, double cap_tolerance) {
  ContactHistorySummary s;
  std::map<std::int64_t, std::int32_t> index_of;
  for (Index i = 0; i < p.size(); ++i) index_of[p.atom_id(i)] = static_cast<std::int32_t>(i);
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> pair_at;
  std::map<std::int32_t, std::vector<std::size_t>> walls_of;
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const Contact& c = contacts.contacts[k];
    if (c.j >= 0) {
      const auto a = p.atom_id(c.i), b = p.atom_id(c.j);
      pair_at[{std::min(a, b), std::max(a, b)}].push_back(k);
    } else {
      walls_of[c.i].push_back(k);
    }
  }
  std::vector<bool> assigned(contacts.contacts.size(), false);
  std::map<std::size_t, std::string> first_row;  // "FILE:LINE" of the row that set a contact's history
  // An atom the packing does not have: the dump is another packing's (or another state's).
  auto require_atom = [&](std::int64_t id, const Table& t, std::size_t r) {
    if (!index_of.count(id))
      fail(fmt::format("{}:{}: atom {} is not in the packing ({}, {} atoms): the dump is not of this packing", t.path,
                       t.row_line[r], id, p.source.empty() ? "given" : p.source, p.size()));
  };
  // Sets contact k's history from a row; a row for a contact already read must say the same.
  // Returns false for such a repeat (counted once).
  auto take = [&](std::size_t k, const Table& t, std::size_t r, const auto& recover_into) {
    if (!assigned[k]) {
      recover_into(contacts.history_to_fill(k));
      assigned[k] = true;
      first_row[k] = fmt::format("{}:{}", t.path, t.row_line[r]);
      return true;
    }
    contact::History again;
    recover_into(again);
    const Contact& c = contacts.contacts[k];
    if (!same_history(again, contacts.history(k)))
      fail(fmt::format("{}:{}: the contact of atom {} with {} is listed again with a different force (first at {}); "
                       "which one holds is unknown",
                       t.path, t.row_line[r], p.atom_id(c.i),
                       c.j >= 0 ? fmt::format("atom {}", p.atom_id(c.j)) : std::string("a wall"), first_row[k]));
    ++s.repeated_rows;
    return false;
  };
  // A file whose rows mostly miss the packing's contacts is not of this packing: an error, not a
  // verdict at zero histories. Some unmatched rows are a named warning (at vanishing overlap
  // rounded positions put a contact in one list only).
  auto judge = [&](const std::string& path, const char* kind, Index rows, Index matched, Index unmatched) {
    if (rows > 0 && matched == 0)
      fail(fmt::format("{}: none of its {} {} contacts is a contact of the packing ({}): the dump is not of this "
                       "packing",
                       path, rows, kind, p.source.empty() ? "given" : p.source));
    if (unmatched > matched)
      fail(fmt::format("{}: {} of its {} {} contacts are not contacts of the packing, more than the {} that are: the "
                       "dump is not of this packing's state",
                       path, unmatched, rows, kind, matched));
    if (unmatched > 0)
      s.warnings.push_back(fmt::format("{}: {} of its {} {} contacts are not contacts of the packing (ignored)", path,
                                       unmatched, rows, kind));
  };
  bool granular_p9 = false;
  for (const std::string& path : paths) {
    const Table t = read_last_snapshot(path);
    const Index pair_rows0 = s.pair_rows, pairs_unmatched0 = s.pairs_unmatched, pairs_apart0 = s.pairs_apart;
    const Index wall_rows0 = s.wall_rows, walls_unmatched0 = s.walls_unmatched;
    if (t.local) {
      s.pair_file = true;
      const auto at = local_columns(t, computes, s.notes);
      const bool rolling = at.count("p5") && at.count("p6") && at.count("p7");
      granular_p9 = granular_p9 || at.count("p9");
      for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const auto& row = t.rows[r];
        ++s.pair_rows;
        const auto id1 = atom_id_in(row[at.at("patom1")], t, r, t.columns[at.at("patom1")]);
        const auto id2 = atom_id_in(row[at.at("patom2")], t, r, t.columns[at.at("patom2")]);
        require_atom(id1, t, r);
        require_atom(id2, t, r);
        const auto found = pair_at.find({std::min(id1, id2), std::max(id1, id2)});
        if (found == pair_at.end()) {
          // compute pair/local lists every pair within the force cutoff (the largest radius sum in
          // a polydisperse packing), apart ones with zero force: such a row is no contact.
          const double radii = p.radius[static_cast<std::size_t>(index_of.at(id1))] +
                               p.radius[static_cast<std::size_t>(index_of.at(id2))];
          const bool apart = at.count("dist") ? row[at.at("dist")] >= radii
                                              : row[at.at("p1")] == 0.0 && row[at.at("p2")] == 0.0 &&
                                                    row[at.at("p3")] == 0.0 && (!at.count("force") || row[at.at("force")] == 0.0);
          ++(apart ? s.pairs_apart : s.pairs_unmatched);
          continue;
        }
        // Several images of one pair (a small periodic box): the one at the dumped distance.
        std::size_t k = found->second.front();
        if (found->second.size() > 1 && at.count("dist")) {
          double best = std::numeric_limits<double>::infinity();
          for (std::size_t cand : found->second) {
            const Contact& c = contacts.contacts[cand];
            const double d = p.radius[static_cast<std::size_t>(c.i)] + p.radius[static_cast<std::size_t>(c.j)] - c.overlap;
            if (!assigned[cand] && std::abs(d - row[at.at("dist")]) < best) best = std::abs(d - row[at.at("dist")]), k = cand;
          }
        }
        const Contact& c = contacts.contacts[k];
        const contact::ContactLaw& law = contacts.laws[static_cast<std::size_t>(c.law)];
        if (at.count("dist")) {
          const double d = p.radius[static_cast<std::size_t>(c.i)] + p.radius[static_cast<std::size_t>(c.j)] - c.overlap;
          s.max_distance_mismatch = std::max(s.max_distance_mismatch, std::abs(row[at.at("dist")] - d) / d);
        }
        // LAMMPS' force is on patom1, normal from patom2 to patom1; dtcrit's on c.i, from c.j to c.i.
        // The tangential force changes sign with the order, the rolling force does not
        // (v_rl = R (w_i - w_j) x n is even in the swap).
        const double sign = p.atom_id(c.i) == id1 ? 1.0 : -1.0;
        const Vec3 ft = sign * Vec3(row[at.at("p1")], row[at.at("p2")], row[at.at("p3")]);
        std::optional<Vec3> fr;
        if (rolling && law.style == contact::Style::granular)
          fr = Vec3(row[at.at("p5")], row[at.at("p6")], row[at.at("p7")]);
        std::optional<double> fn;
        if (at.count("force")) fn = row[at.at("force")];
        Recovered rec;
        if (!take(k, t, r, [&](contact::History& h) { rec = recover(p, law, c, h, ft, fr, fn, cap_tolerance); }))
          continue;
        s.sliding += rec.sliding;
        s.rolling_at_limit += rec.rolling_limit;
        s.rolling = s.rolling || fr.has_value();
        ++s.pairs_read;
      }
      const Index rows = s.pair_rows - pair_rows0 - (s.pairs_apart - pairs_apart0),
                  unmatched = s.pairs_unmatched - pairs_unmatched0;
      judge(path, "pair", rows, rows - unmatched, unmatched);
    } else {
      // Wall rows are matched to plane walls by their contact point; a region's contacts are not (a
      // pair dump alone is read, the region walls' contacts keep zero histories).
      if (!p.region_walls.empty())
        fail(fmt::format("{}: wall contact histories with region wall '{}': they are matched to plane walls only "
                         "(give the pair contacts' dump alone)",
                         path, p.region_walls.front().name));
      s.wall_file = true;
      // Per fix ID: the columns f_ID[1..8].
      std::map<std::string, std::map<int, std::size_t>> fixes;
      std::optional<std::size_t> id_col;
      for (std::size_t k = 0; k < t.columns.size(); ++k) {
        if (t.columns[k] == "id") id_col = k;
        const ColumnName c = parse_column(t.columns[k]);
        if (c.prefix == "f") fixes[c.id][c.index] = k;
      }
      if (!id_col) fail(fmt::format("{}: the ATOMS columns have no 'id'", path));
      if (fixes.empty()) fail(fmt::format("{}: expected columns f_ID[1] .. f_ID[4] of fix wall/gran ... contacts", path));
      for (const auto& [fix, col] : fixes) {
        for (int need = 1; need <= 4; ++need)
          if (!col.count(need))
            fail(fmt::format("{}: column f_{}[{}] missing; expected f_{}[1] .. f_{}[8] of fix wall/gran ... contacts "
                             "(flag, force x y z, contact point x y z, radius)",
                             path, fix, need, fix, fix));
        const bool has_point = col.count(5) && col.count(6) && col.count(7);
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
          const auto& row = t.rows[r];
          const std::int64_t id = atom_id_in(row[*id_col], t, r, "id");
          require_atom(id, t, r);
          if (row[col.at(1)] == 0.0) continue;
          ++s.wall_rows;
          const auto atom = index_of.find(id);
          const auto mine = atom == index_of.end() ? walls_of.end() : walls_of.find(atom->second);
          if (mine == walls_of.end()) {
            ++s.walls_unmatched;
            continue;
          }
          std::optional<std::size_t> k;
          if (has_point) {  // the wall whose plane holds the contact point
            const Vec3 x(row[col.at(5)], row[col.at(6)], row[col.at(7)]);
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t cand : mine->second) {
              const PlaneWall& w = p.walls[static_cast<std::size_t>(-(contacts.contacts[cand].j + 1))];
              const double d = std::abs((x - w.point).dot(w.normal));
              if (d < best) best = d, k = cand;
            }
            if (best > 1e-9 * p.radius[static_cast<std::size_t>(atom->second)]) k.reset();
          } else if (mine->second.size() == 1) {
            k = mine->second.front();
          } else {
            fail(fmt::format("{}:{}: atom {} touches {} walls and the dump has no contact point (f_{}[5..7]) to tell "
                             "them apart",
                             path, t.row_line[r], row[*id_col], mine->second.size(), fix));
          }
          if (!k) {
            ++s.walls_unmatched;
            continue;
          }
          const Contact& c = contacts.contacts[*k];
          const contact::ContactLaw& law = contacts.laws[static_cast<std::size_t>(c.law)];
          const Vec3 f(row[col.at(2)], row[col.at(3)], row[col.at(4)]);
          Recovered rec;
          if (!take(*k, t, r, [&](contact::History& h) {
                rec = recover(p, law, c, h, f, std::nullopt, f.dot(c.normal), cap_tolerance);
              }))
            continue;
          s.sliding += rec.sliding;
          ++s.walls_read;
        }
      }
      const Index rows = s.wall_rows - wall_rows0, unmatched = s.walls_unmatched - walls_unmatched0;
      judge(path, "wall", rows, rows - unmatched, unmatched);
    }
  }
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    if (assigned[k]) continue;
    if (contacts.contacts[k].j >= 0) s.pairs_missing += s.pair_file;
    else s.walls_missing += s.wall_file;
  }
  if (s.pairs_missing + s.walls_missing > 0)
    s.warnings.push_back(fmt::format("{} pair and {} wall contacts of the packing are in no file of their kind: zero "
                                     "history (sticking)",
                                     s.pairs_missing, s.walls_missing));
  if (s.pairs_apart > 0)
    s.notes.push_back(fmt::format("{} rows are pairs apart (distance >= the sum of the radii, as compute pair/local "
                                  "lists every pair within the force cutoff): not contacts",
                                  s.pairs_apart));
  if (s.repeated_rows > 0)
    s.notes.push_back(fmt::format("{} rows repeat a contact already read with the same force (read once)", s.repeated_rows));
  if (granular_p9)
    s.notes.push_back("twisting histories not read: LAMMPS 29 Sep 2021 pair_granular.cpp single() reports p9 = 0 for "
                      "every contact below its twisting limit");
  if (s.wall_file)
    s.notes.push_back("wall contacts: fix wall/gran ... contacts gives the force only, so wall rolling and twisting "
                      "histories stay zero");
  return s;
}

}  // namespace dtcrit::packing
