#include "dtcrit/distributed/parallel_read.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <numeric>
#include <array>
#include <type_traits>

#include <fmt/format.h>
#include <petscsys.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/distributed/local_part.hpp"
#include "dtcrit/distributed/partition.hpp"
#include "dtcrit/distributed/runtime.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/lammps/lammps_io.hpp"

namespace dtcrit::distributed {

namespace {

using packing::Vec3;

// One particle on the wire: what the analysis needs of it, and its place in the file.
struct WireParticle {
  std::int64_t original;  // its index in the file's Atoms section (0-based)
  std::int64_t global;    // its index in the partitioned numbering (ghosts only)
  double x[3];
  double radius, mass, inertia;
  std::int32_t type;
};
static_assert(std::is_trivially_copyable_v<WireParticle>);

// Each rank's items to every rank, one MPI_Alltoallv of bytes (int counts and offsets: at most 2 GiB
// sent and received per rank, 3e7 particles). deal(emit) calls emit(rank, item) for every item, twice (a count, then a
// fill), so that only the send buffer holds the items.
template <class T, class Deal>
std::vector<T> exchange(const Deal& deal) {
  const int P = ranks();
  const auto uP = static_cast<std::size_t>(P);
  std::vector<std::size_t> items(uP, 0);
  deal([&](int q, const T&) { ++items[static_cast<std::size_t>(q)]; });
  std::vector<int> send_counts(uP), recv_counts(uP), send_at(uP, 0), recv_at(uP, 0);
  std::vector<std::size_t> fill(uP, 0);
  std::size_t sent = 0;
  constexpr auto int_max = static_cast<std::size_t>(std::numeric_limits<int>::max());
  collectively([&] {  // (on every rank: a rank alone failing would leave the others waiting)
    std::size_t all = 0;
    for (std::size_t q = 0; q < uP; ++q) all += items[q];
    if (all * sizeof(T) > int_max)
      fail(fmt::format("parallel read: {} items of {} bytes from one rank exceed one MPI message; use more ranks", all,
                       sizeof(T)));
  });
  for (std::size_t q = 0; q < uP; ++q) {
    send_counts[q] = static_cast<int>(items[q] * sizeof(T));
    send_at[q] = static_cast<int>(sent * sizeof(T));
    fill[q] = sent;
    sent += items[q];
  }
  std::vector<T> send(sent);
  deal([&](int q, const T& item) { send[fill[static_cast<std::size_t>(q)]++] = item; });
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, PETSC_COMM_WORLD);
  std::size_t total = 0;
  for (std::size_t q = 0; q < uP; ++q) {
    recv_at[q] = static_cast<int>(total);
    total += static_cast<std::size_t>(recv_counts[q]);
  }
  collectively([&] {
    if (total > int_max)
      fail(fmt::format("parallel read: {} bytes to one rank exceed one MPI message; use more ranks", total));
  });
  std::vector<T> out(total / sizeof(T));
  MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, out.data(), recv_counts.data(),
                recv_at.data(), MPI_BYTE, PETSC_COMM_WORLD);
  return out;
}

std::int64_t sum_over_ranks(std::int64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, PETSC_COMM_WORLD);
  return v;
}

// The sum over the ranks before this one.
std::int64_t exclusive_sum(std::int64_t v) {
  std::int64_t before = 0;
  MPI_Exscan(&v, &before, 1, MPI_INT64_T, MPI_SUM, PETSC_COMM_WORLD);
  return rank() == 0 ? 0 : before;
}

double reduce(double v, MPI_Op op) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, op, PETSC_COMM_WORLD);
  return v;
}

// Bytes [begin, end) of a file.
std::string read_bytes(const std::string& path, std::uint64_t begin, std::uint64_t end) {
  std::string text(static_cast<std::size_t>(end - begin), '\0');
  if (text.empty()) return text;
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(begin));
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (!in) fail(fmt::format("LAMMPS data file '{}': read error at bytes {}..{}", path, begin, end));
  return text;
}

// The first line start at or after pos within [lo, hi] (lo and hi are line starts).
std::uint64_t line_start_from(const std::string& path, std::uint64_t pos, std::uint64_t lo, std::uint64_t hi) {
  if (pos <= lo) return lo;
  if (pos >= hi) return hi;
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(pos - 1));
  char c = 0;
  std::uint64_t at = pos - 1;
  while (at < hi && in.get(c)) {
    if (c == '\n') return at + 1;
    ++at;
  }
  return hi;
}

// The end of the Atoms section: the start of the first keyword line after it (or the end of the file).
// The rest of the file is cut into P pieces; each rank looks for keyword lines starting in its own.
std::uint64_t atoms_end(const std::string& path, const packing::DataFileLayout& layout) {
  const int me = rank(), P = ranks();
  const std::uint64_t lo = layout.atoms_begin, hi = layout.size, n = hi - lo;
  const std::uint64_t b = lo + n * static_cast<std::uint64_t>(me) / static_cast<std::uint64_t>(P);
  const std::uint64_t e = lo + n * static_cast<std::uint64_t>(me + 1) / static_cast<std::uint64_t>(P);
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t start = line_start_from(path, b, lo, hi);
  std::string text;
  collectively([&] {
    if (start < e) text = read_bytes(path, start, line_start_from(path, e, lo, hi));
  });
  if (!text.empty()) {
    // Whole lines from start: those starting before e, the last one read to its end.
    for (std::size_t at = 0; at < text.size();) {
      std::size_t nl = text.find('\n', at);
      if (nl == std::string::npos) nl = text.size();
      if (packing::is_section_line(std::string_view(text).substr(at, nl - at))) {
        first = start + at;
        break;
      }
      at = nl + 1;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_UINT64_T, MPI_MIN, PETSC_COMM_WORLD);
  return std::min(first, hi);
}

// The particles of this rank's lines of the Atoms section; `first_index`: the file index of the first.
packing::Packing read_my_atoms(const std::string& path, const packing::DataFileLayout& layout,
                               const packing::ReadOptions& ro, std::int64_t& first_index) {
  const int me = rank(), P = ranks();
  const std::uint64_t lo = layout.atoms_begin, hi = atoms_end(path, layout), n = hi - lo;
  const std::uint64_t b = line_start_from(path, lo + n * static_cast<std::uint64_t>(me) / static_cast<std::uint64_t>(P), lo, hi);
  const std::uint64_t e =
      line_start_from(path, lo + n * static_cast<std::uint64_t>(me + 1) / static_cast<std::uint64_t>(P), lo, hi);
  std::string text;
  collectively([&] { text = read_bytes(path, b, e); });
  const auto lines = static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
  const long first_line = layout.atoms_first_line + static_cast<long>(exclusive_sum(lines));
  packing::Packing p;
  // The lowest rank's error is every rank's: the first bad line of the file, as the serial reader.
  collectively([&] { p = packing::read_lammps_data_atoms(std::move(text), path, first_line, layout, ro); });
  const std::int64_t mine = p.size(), total = sum_over_ranks(mine);
  first_index = exclusive_sum(mine);
  if (total != layout.atoms)
    collectively([&] {
      fail(fmt::format("{}: expected {} atoms as the header says, got {} in its Atoms section", path, layout.atoms, total));
    });
  return p;
}

// Atom ids are unique (the serial reader's check): each id goes to rank id mod P, which sorts its own.
void check_unique_ids(const std::string& path, const std::vector<std::int64_t>& ids) {
  const int P = ranks();
  std::vector<std::int64_t> mine = exchange<std::int64_t>([&](const auto& emit) {
    for (std::int64_t id : ids) emit(static_cast<int>(((id % P) + P) % P), id);
  });
  std::sort(mine.begin(), mine.end());
  collectively([&] {
    for (std::size_t k = 1; k < mine.size(); ++k)
      if (mine[k] == mine[k - 1]) fail(fmt::format("{}: atom id {} appears twice", path, mine[k]));
  });
}

// x on the periodic axes moved into the box (as find_contacts does).
Vec3 wrapped(Vec3 x, const Globals& g) {
  for (int d = 0; d < 3; ++d)
    if (g.periodic[d]) {
      const double L = g.box_hi[d] - g.box_lo[d];
      x[d] -= L * std::floor((x[d] - g.box_lo[d]) / L);
    }
  return x;
}

Vec3 position(const WireParticle& w) { return Vec3(w.x[0], w.x[1], w.x[2]); }

WireParticle wire(const packing::Packing& p, Index i, std::int64_t original) {
  WireParticle w{};
  w.original = original;
  w.global = -1;
  for (int d = 0; d < 3; ++d) w.x[d] = p.centre[static_cast<std::size_t>(i)][d];
  w.radius = p.radius[static_cast<std::size_t>(i)];
  w.mass = p.mass[static_cast<std::size_t>(i)];
  w.inertia = p.inertia[static_cast<std::size_t>(i)];
  w.type = p.type[static_cast<std::size_t>(i)];
  return w;
}

// The cuts of a recursive coordinate bisection of a sample of every rank's particles (at most 4096
// per rank, each weighted by the particles it stands for), the same on every rank.
RcbCuts sample_cuts(const std::vector<Vec3>& x) {
  const int P = ranks();
  const std::size_t n = x.size(), take = std::min<std::size_t>(n, 4096);
  std::vector<double> mine;  // x, y, z, weight
  for (std::size_t k = 0; k < take; ++k) {
    const Vec3& c = x[k * n / take];
    mine.insert(mine.end(), {c.x(), c.y(), c.z(), static_cast<double>(n) / static_cast<double>(take)});
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(P)), at(static_cast<std::size_t>(P), 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, PETSC_COMM_WORLD);
  for (int q = 1; q < P; ++q) at[static_cast<std::size_t>(q)] = at[static_cast<std::size_t>(q - 1)] + counts[static_cast<std::size_t>(q - 1)];
  std::vector<double> all(static_cast<std::size_t>(at.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), at.data(), MPI_DOUBLE, PETSC_COMM_WORLD);
  std::vector<Vec3> sample;
  std::vector<double> weight;
  for (std::size_t k = 0; k + 3 < all.size(); k += 4) {
    sample.emplace_back(all[k], all[k + 1], all[k + 2]);
    weight.push_back(all[k + 3]);
  }
  return rcb_cuts(sample, weight, P);
}

}  // namespace

std::optional<DistributedAnswer> answer_packing_parallel_read(const packing::PackingRequest& o, OperatorKind op,
                                                              DistributedEigensolver eigensolver,
                                                              const std::function<void(std::string_view)>& progress) {
  const int me = rank(), P = ranks();
  LocalInput in;
  in.input = "read in parts by every rank (--parallel-read: byte ranges of the Atoms section), redistributed by "
             "recursive coordinate bisection of a sample, ghosts within the largest contact distance, contacts found "
             "on each rank";
  auto say = [&](std::string_view what) {
    if (me == 0 && progress) progress(what);
  };

  // The request: what this path reads, the laws and the analysis options (the same on every rank).
  DistributedOptions dopt;
  dopt.op = op;
  dopt.eigensolver = eigensolver;
  std::vector<std::string> defaults;
  packing::ContactLaws laws;
  packing::ReadOptions ro;
  packing::ContactOptions co;
  co.threads = 1;  // one rank per core
  collectively([&] {
    packing::check_packing_request(o);
    if (o.data_file.empty() || !o.lammps_input.empty() || !o.lammps_restart.empty() || o.run_in_lammps)
      fail("--parallel-read reads a LAMMPS data file given as --lammps-data (no --lammps-input, --lammps-restart, "
           "--lattice or --lammps-dump)");
    const std::pair<const char*, const char*> refused[] = {
        {"--wall", "walls"}, {"--box-walls", "walls"}, {"--type-law", "per-type laws"},
        {"--clumps", "rigid clumps"}, {"--lammps-contacts", "contact histories"}, {"--disc", "discs (2D)"}};
    for (const auto& [option, what] : refused)
      packing::reject_unread(o, option,
                             fmt::format("is not read by --parallel-read ({}): run without --parallel-read", what));
    if (o.dimension != 3)
      fail(fmt::format("--dimension {}: --parallel-read reads 3D packings; run without --parallel-read", o.dimension));
    laws = packing::request_laws(o, defaults);
    dopt.analysis = packing::analysis_options(o, std::nullopt, progress);
    if (me != 0) dopt.analysis.progress = {};
    if (o.periodic.empty()) defaults.push_back("no periodic axis (data files do not record it)");
    else ro.periodic = packing::parse_periodic(o.periodic);
    co.gap_tolerance = o.gap_tolerance.value_or(0.0);
    if (!o.gap_tolerance) defaults.push_back(fmt::format("contact gap tolerance {:g}", co.gap_tolerance));
    require_non_negative("--gap-tolerance", co.gap_tolerance);
  });
  dopt.rotation = !o.no_rotation;
  dopt.geometric_stiffness = o.geometric_stiffness;
  const DistributedOptions opts = shared_options(dopt);

  // The header on every rank; this rank's lines of the Atoms section.
  say(fmt::format("reading {} in {} parts", o.data_file, P));
  packing::DataFileLayout layout;
  collectively([&] { layout = packing::read_lammps_data_layout(o.data_file, ro); });
  std::int64_t first_index = 0;
  packing::Packing mine = read_my_atoms(o.data_file, layout, ro, first_index);
  check_unique_ids(o.data_file, mine.id);
  mine.id = {};
  Globals& g = in.globals;
  g.dim = 3;
  for (int d = 0; d < 3; ++d) {
    g.box_lo[d] = layout.box_lo[d], g.box_hi[d] = layout.box_hi[d];
    g.periodic[d] = ro.periodic && (*ro.periodic)[static_cast<std::size_t>(d)];
  }
  g.particles = layout.atoms;
  g.laws = {laws.base};  // no --type-law: every pair's law is the base law, index 0

  // Redistribution by space.
  say("dealing the particles to ranks by recursive coordinate bisection of a sample");
  std::vector<Vec3> x(mine.centre.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = wrapped(mine.centre[i], g);
  const RcbCuts cuts = sample_cuts(x);
  std::vector<WireParticle> owned;
  {
    std::vector<int> owner(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) owner[i] = cuts.owner(x[i]);
    x = {};
    owned = exchange<WireParticle>([&](const auto& emit) {
      for (std::size_t i = 0; i < owner.size(); ++i)
        emit(owner[i], wire(mine, static_cast<Index>(i), first_index + static_cast<std::int64_t>(i)));
    });
    mine = packing::Packing{};
  }
  // Sorted in space as the serial path sorts what it reads (packing::sort_spatially, on the wrapped
  // centres): neighbours close in memory make the operator's applications faster.
  {
    packing::Packing sp;
    for (std::size_t k = 0; k < owned.size(); ++k) {
      sp.centre.push_back(wrapped(position(owned[k]), g));
      sp.radius.push_back(owned[k].radius), sp.mass.push_back(owned[k].mass), sp.inertia.push_back(owned[k].inertia);
      sp.type.push_back(owned[k].type), sp.id.push_back(static_cast<std::int64_t>(k));
    }
    if (!owned.empty()) packing::sort_spatially(sp);  // (it refuses an empty packing)
    std::vector<WireParticle> sorted;
    sorted.reserve(owned.size());
    for (std::int64_t k : sp.id) sorted.push_back(owned[static_cast<std::size_t>(k)]);
    owned.swap(sorted);
  }
  const auto n_owned = static_cast<std::int64_t>(owned.size());
  const std::int64_t first_global = exclusive_sum(n_owned);
  for (std::int64_t k = 0; k < n_owned; ++k) owned[static_cast<std::size_t>(k)].global = first_global + k;

  // Ghosts: the particles within the largest contact distance of another rank's bounding box (of
  // wrapped centres), periodic images included.
  double rmax = 0.0;
  for (const auto& w : owned) rmax = std::max(rmax, w.radius);
  rmax = reduce(rmax, MPI_MAX);
  double reach = 2.0 * rmax * (1.0 + co.gap_tolerance);
  // A law with a pull-off (jkr) keeps contacts down to a negative overlap (contacts.hpp).
  reach = std::max(reach, 2.0 * rmax - contact::pulloff_overlap(laws.base, 0.5 * rmax));
  reach *= 1.0 + 1e-9;  // rounding of the wrapped positions
  std::vector<double> box(6 * static_cast<std::size_t>(P));
  {
    double b[6] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (const auto& w : owned) {
      const Vec3 c = wrapped(position(w), g);
      for (int d = 0; d < 3; ++d) b[d] = std::min(b[d], c[d]), b[3 + d] = std::max(b[3 + d], c[d]);
    }
    MPI_Allgather(b, 6, MPI_DOUBLE, box.data(), 6, MPI_DOUBLE, PETSC_COMM_WORLD);
  }
  std::vector<WireParticle> ghosts;
  {
    say("sending each rank the ghosts within contact distance of its particles");
    ghosts = exchange<WireParticle>([&](const auto& emit) {
    for (const auto& w : owned) {
      const Vec3 c = wrapped(position(w), g);
      for (int q = 0; q < P; ++q) {
        if (q == me) continue;
        const double* b = box.data() + 6 * q;
        if (!(b[0] <= b[3])) continue;  // a rank without particles
        bool near = true;
        for (int d = 0; d < 3 && near; ++d) {
          auto gap = [&](double v) { return std::max({0.0, b[d] - v, v - b[3 + d]}); };
          double best = gap(c[d]);
          if (g.periodic[d]) {
            const double L = g.box_hi[d] - g.box_lo[d];
            const int K = static_cast<int>(std::ceil(reach / L)) + 1;
            for (int k = -K; k <= K; ++k) best = std::min(best, gap(c[d] + k * L));
          }
          near = best <= reach;
        }
        if (near) emit(q, w);
      }
    }
    });
  }
  std::sort(ghosts.begin(), ghosts.end(), [](const WireParticle& a, const WireParticle& b) { return a.global < b.global; });

  // The contacts of owned particles among owned particles and ghosts: the serial contact search.
  say("finding the contacts on every rank");
  packing::Packing lp;
  lp.dim = 3;
  lp.source = fmt::format("LAMMPS data file {}", o.data_file);
  for (int d = 0; d < 3; ++d) lp.box_lo[d] = g.box_lo[d], lp.box_hi[d] = g.box_hi[d], lp.periodic[d] = g.periodic[d];
  for (const auto* set : {&owned, &ghosts})
    for (const auto& w : *set) {
      lp.centre.push_back(position(w));
      lp.radius.push_back(w.radius), lp.mass.push_back(w.mass), lp.inertia.push_back(w.inertia), lp.type.push_back(w.type);
    }
  packing::ContactSet found;
  collectively([&] {
    if (!lp.centre.empty()) found = packing::find_contacts(lp, laws, co);
  });
  lp = packing::Packing{};
  // Kept: every contact that touches an owned particle, and the ghosts they reach (renumbered). The
  // contacts are compacted in place and handed to the analysis as they are (no second copy).
  LocalPart& part = in.part;
  part.owned = n_owned;
  part.first_global = first_global;
  auto touches_owned = [&](const packing::Contact& c) { return c.i < n_owned || (c.j >= 0 && c.j < n_owned); };
  std::vector<std::int32_t> ghost_slot(ghosts.size(), -1);
  for (const packing::Contact& c : found.contacts)
    if (touches_owned(c))
      for (std::int32_t b : {c.i, c.j})
        if (b >= n_owned) ghost_slot[static_cast<std::size_t>(b - n_owned)] = 0;
  std::int32_t next = static_cast<std::int32_t>(n_owned);
  for (auto& s : ghost_slot)
    if (s == 0) s = next++;  // ghosts stay in ascending global index
  auto local_of = [&](std::int32_t b) { return b < n_owned ? b : ghost_slot[static_cast<std::size_t>(b - n_owned)]; };
  auto add = [&](const WireParticle& w) {
    part.global.push_back(w.global);
    part.centre.insert(part.centre.end(), {w.x[0], w.x[1], w.x[2]});
    part.radius.push_back(w.radius), part.mass.push_back(w.mass), part.inertia.push_back(w.inertia);
    part.type.push_back(w.type);
  };
  for (const auto& w : owned) add(w), part.original.push_back(w.original);
  for (std::size_t k = 0; k < ghosts.size(); ++k)
    if (ghost_slot[k] >= 0) add(ghosts[k]);
  std::int64_t pair_twice = 0;  // every pair contact counted twice over the ranks
  std::int64_t open_twice = 0;  // likewise the jkr pairs held open within their pull-off distance
  std::vector<std::int32_t> z(static_cast<std::size_t>(n_owned), 0);
  std::size_t kept = 0;
  for (const packing::Contact& found_c : found.contacts) {
    if (!touches_owned(found_c)) continue;
    packing::Contact c = found_c;
    const std::int64_t twice = c.i < n_owned && c.j < n_owned ? 2 : 1;
    pair_twice += twice;
    if (found.held_open(c)) open_twice += twice;
    for (std::int32_t b : {c.i, c.j})
      if (b < n_owned) ++z[static_cast<std::size_t>(b)];
    c.i = local_of(c.i), c.j = local_of(c.j);
    found.contacts[kept++] = c;
  }
  found.contacts.resize(kept);
  found.laws = g.laws;
  found.pair_contacts = static_cast<Index>(kept), found.wall_contacts = 0;
  in.contacts = std::move(found);
  ghosts = {};

  // The facts of the whole packing the report gives, reduced on rank 0.
  std::int64_t rattlers = 0, z_sum = 0;
  for (auto zi : z) z_sum += zi, rattlers += zi < 4 ? 1 : 0;  // z < dim + 1
  const std::int64_t pair_contacts = sum_over_ranks(pair_twice) / 2;
  const std::int64_t open_cohesive = sum_over_ranks(open_twice) / 2;
  rattlers = sum_over_ranks(rattlers);
  z_sum = sum_over_ranks(z_sum);
  double r_lo = std::numeric_limits<double>::infinity(), r_hi = -r_lo, m_lo = r_lo, m_hi = -r_lo, i_lo = r_lo, i_hi = -r_lo;
  double smallest[2] = {r_lo, r_lo};  // radius, mass of the smallest particle
  for (const auto& w : owned) {
    r_lo = std::min(r_lo, w.radius), r_hi = std::max(r_hi, w.radius);
    m_lo = std::min(m_lo, w.mass), m_hi = std::max(m_hi, w.mass);
    i_lo = std::min(i_lo, w.inertia), i_hi = std::max(i_hi, w.inertia);
    if (w.radius < smallest[0] || (w.radius == smallest[0] && w.mass < smallest[1])) smallest[0] = w.radius, smallest[1] = w.mass;
  }
  r_lo = reduce(r_lo, MPI_MIN), r_hi = reduce(r_hi, MPI_MAX), m_lo = reduce(m_lo, MPI_MIN), m_hi = reduce(m_hi, MPI_MAX);
  i_lo = reduce(i_lo, MPI_MIN), i_hi = reduce(i_hi, MPI_MAX);
  {
    std::vector<double> all(2 * static_cast<std::size_t>(P));
    MPI_Allgather(smallest, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, PETSC_COMM_WORLD);
    for (int q = 0; q < P; ++q) {
      const double r = all[2 * static_cast<std::size_t>(q)], m = all[2 * static_cast<std::size_t>(q) + 1];
      if (r < smallest[0] || (r == smallest[0] && m < smallest[1])) smallest[0] = r, smallest[1] = m;
    }
  }
  std::array<Index, 3> bound{0, 0, 0};
  {
    packing::Packing own;
    own.dim = 3;
    for (int d = 0; d < 3; ++d) own.box_lo[d] = g.box_lo[d], own.box_hi[d] = g.box_hi[d], own.periodic[d] = g.periodic[d];
    for (const auto& w : owned) own.centre.push_back(position(w)), own.radius.push_back(w.radius);
    bound = packing::box_bound_counts(own);
    for (auto& b : bound) b = sum_over_ranks(b);
  }
  owned = {};
  packing::PackingReport& r = in.report;
  r.source = fmt::format("LAMMPS data file {}", o.data_file);
  r.dim = 3;
  r.rotation = opts.rotation;
  r.symmetric = true;
  r.particles = layout.atoms;
  r.pair_contacts = pair_contacts;
  r.wall_contacts = 0;
  r.history_springs = packing::has_history_springs(g.laws);
  r.rattlers = rattlers;
  r.open_cohesive_contacts = open_cohesive;
  r.mean_coordination = static_cast<double>(z_sum) / static_cast<double>(std::max<std::int64_t>(1, layout.atoms));
  in.estimates.m_min = m_lo;
  in.estimates.smallest_radius = smallest[0];
  in.estimates.smallest_mass = smallest[1];
  if (pair_contacts == 0)
    collectively([] {
      fail("the packing has no contacts: nothing limits the time step (check radii, compression, --gap-tolerance)");
    });

  DistributedReport report = analyse_local(std::move(in), opts);
  report.partition = "recursive coordinate bisection of a sample (at most 4096 particles per rank, weight 1)";
  if (me != 0) return std::nullopt;

  // The answer as answer_packing gives it for a data file; its packing holds the extremes only (the
  // input echo shows their ranges): no rank holds the whole packing.
  packing::PackingAnswer a;
  a.report = report.report;
  packing::Packing& echo = a.packing;
  echo.dim = 3;
  echo.source = a.report.source;
  for (int d = 0; d < 3; ++d) echo.box_lo[d] = g.box_lo[d], echo.box_hi[d] = g.box_hi[d], echo.periodic[d] = g.periodic[d];
  echo.centre = {Vec3::Zero(), Vec3::Zero()};
  echo.radius = {r_lo, r_hi}, echo.mass = {m_lo, m_hi}, echo.inertia = {i_lo, i_hi}, echo.type = {1, 1};
  a.laws = std::move(laws);
  a.defaults = std::move(defaults);
  a.history_line = packing::histories_text(std::nullopt, {});
  a.bound_warning = packing::box_bound_text(bound);
  a.recommendation = recommend_from(a.report.integrators, o.margin);
  if (a.recommendation) a.recommendation->time_unit = a.report.units.time;
  return DistributedAnswer{std::move(a), std::move(report)};
}

}  // namespace dtcrit::distributed
