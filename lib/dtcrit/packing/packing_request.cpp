#include "dtcrit/packing/packing_request.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/operating_point.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/lammps/lammps_run.hpp"

namespace dtcrit::packing {

std::array<bool, 3> parse_periodic(const std::string& text) {
  std::array<bool, 3> p{false, false, false};
  if (text == "none") return p;
  for (const auto& a : split(text, ',')) {
    if (a == "x") p[0] = true;
    else if (a == "y") p[1] = true;
    else if (a == "z") p[2] = true;
    else fail(fmt::format("--periodic '{}': '{}' is not an axis; expected a list of x, y, z, or 'none'", text, a));
  }
  return p;
}

namespace {

// "types=1-2,kn=...,kt=...,gamma_n=...,gamma_t=..." (keys not given: the base law's, except gamma_t,
// which is gamma_n / 2 when gamma_n is given alone, as everywhere).
std::pair<std::pair<int, int>, contact::ContactLaw> parse_type_law(const std::string& spec,
                                                                    const contact::ContactLaw& base) {
  KeyValues kv(spec, fmt::format("--type-law {}", spec));
  const std::string types = kv.required_text("types");
  const auto parts = split(types, '-');
  if (parts.size() != 2) fail(fmt::format("--type-law {}: types = '{}' must read I-J, e.g. 1-2", spec, types));
  const int a = parse_integer<int>("--type-law type", parts[0]);
  const int b = parse_integer<int>("--type-law type", parts[1]);
  if (a < 1 || b < 1) fail(fmt::format("--type-law {}: types must be >= 1", spec));
  contact::ContactLaw law = base;
  for (const char* key : {"kn", "kt", "gamma_n", "gamma_t"})
    if (auto v = kv.number(key)) contact::set_classic_coefficient(law, key, *v);
  if (auto gn = kv.number("gamma_n"); gn && !kv.number("gamma_t"))
    contact::set_classic_coefficient(law, "gamma_t", default_ct_ratio * *gn);
  kv.reject_unused({"types", "kn", "kt", "gamma_n", "gamma_t"});
  return {{std::min(a, b), std::max(a, b)}, contact::validated(law)};
}

}  // namespace

std::array<Index, 3> box_bound_counts(const Packing& p) {
  std::array<Index, 3> counts{0, 0, 0};
  for (int d = 0; d < p.dim; ++d) {
    if (p.periodic[d]) continue;
    bool walled = false;
    for (const auto& w : p.walls) walled = walled || std::abs(w.normal[d]) == 1.0;
    // A region that holds the particles inside it (side in) bounds them on every axis; a plane
    // region on its normal's axis.
    for (const auto& w : p.region_walls)
      walled = walled || (w.style == RegionStyle::plane ? std::abs(w.normal[d]) == 1.0 && !w.rotated : w.interior);
    if (walled) continue;
    for (Index i = 0; i < p.size(); ++i)
      if (p.centre[i][d] - p.radius[i] <= p.box_lo[d] || p.centre[i][d] + p.radius[i] >= p.box_hi[d]) ++counts[static_cast<std::size_t>(d)];
  }
  return counts;
}

std::string box_bound_text(const std::array<Index, 3>& counts) {
  const char* names[] = {"x", "y", "z"};
  std::string axes;
  Index touching = 0;
  for (int d = 0; d < 3; ++d)
    if (counts[static_cast<std::size_t>(d)] > 0)
      axes += (axes.empty() ? "" : ", ") + std::string(names[d]), touching += counts[static_cast<std::size_t>(d)];
  if (touching == 0) return "";
  return fmt::format("{} particles reach the box bounds in {}, which is neither periodic nor walled: if the "
                     "simulation is periodic there, give --periodic (contacts across the bound are missing and the "
                     "step is too large); if it has walls, give --wall",
                     touching, axes);
}

namespace {

// Particles within their radius of a box bound on an axis that is neither periodic nor walled: a
// periodic simulation would have contacts across that bound which this analysis does not see (a
// step too large). "" when there are none.
std::string box_bound_warning(const Packing& p) { return box_bound_text(box_bound_counts(p)); }

std::string law_text(const contact::ContactLaw& l, const UnitSystem& u) { return contact::describe(l, u); }

std::string periodic_text(const Packing& p) {
  std::string out;
  for (int d = 0; d < p.dim; ++d)
    if (p.periodic[d]) {
      if (!out.empty()) out += ',';
      out += "xyz"[d];  // appended, not "," + name: GCC 12 warns (-Wrestrict) on that temporary when inlined
    }
  return out.empty() ? "none" : out;
}

std::pair<double, double> range(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi};
}

}  // namespace

std::string histories_text(const std::optional<ContactHistorySummary>& h, const std::vector<std::string>& files) {
  if (!h) return "contact histories: none read (zero, sticking)";
  std::string t = fmt::format("contact histories from {}: {} pair and {} wall contacts read", fmt::join(files, ", "),
                              h->pairs_read, h->walls_read);
  if (h->sliding) t += fmt::format(", {} at the Coulomb limit (linearised as sliding)", h->sliding);
  if (h->rolling_at_limit) t += fmt::format(", {} at the rolling limit", h->rolling_at_limit);
  if (h->pairs_unmatched + h->walls_unmatched)
    t += fmt::format("; {} listed contacts are not contacts of the packing", h->pairs_unmatched + h->walls_unmatched);
  if (h->pairs_missing + h->walls_missing)
    t += fmt::format("; {} contacts of the packing are not in the files (zero history)", h->pairs_missing + h->walls_missing);
  return t;
}

void reject_unread(const PackingRequest& o, const std::string& option, const std::string& why) {
  if (o.given.count(option)) fail(fmt::format("{} {}", option, why));
}

// The effective inputs, echoed at the top of every report.
std::string inputs_text(const Packing& p, const ContactLaws& laws, const std::vector<std::string>& defaults,
                        const UnitSystem& u) {
  const auto [r0, r1] = range(p.radius);
  const auto [m0, m1] = range(p.mass);
  const auto [i0, i1] = range(p.inertia);
  std::string out = "inputs:\n";
  out += fmt::format("  law: {}\n", law_text(laws.base, u));
  for (const auto& [types, law] : laws.by_types)
    out += fmt::format("  law of types {}-{}: {}\n", types.first, types.second, law_text(law, u));
  out += fmt::format("  particles: r {:g}..{:g} {}, m {:g}..{:g} {}, I {:g}..{:g} {}\n", r0, r1, u.length, m0, m1,
                     u.mass, i0, i1, u.inertia());
  out += fmt::format("  periodic: {}; walls: ", periodic_text(p));
  if (p.wall_count() == 0) out += "none";
  for (std::size_t w = 0; w < p.walls.size(); ++w)
    out += (w ? "; " : "") + p.walls[w].label + (p.walls[w].law ? " (" + law_text(*p.walls[w].law, u) + ")" : "");
  for (std::size_t w = 0; w < p.region_walls.size(); ++w) {
    const RegionWall& r = p.region_walls[w];
    out += (w || !p.walls.empty() ? "; " : "") + r.label + (r.law ? " (" + law_text(*r.law, u) + ")" : "");
  }
  out += "\n";
  for (const auto& d : defaults) out += "  default: " + d + "\n";
  return out + "\n";
}

nlohmann::json inputs_json(const Packing& p, const ContactLaws& laws, const std::vector<std::string>& defaults,
                           const UnitSystem& u) {
  auto law_json = [&u](const contact::ContactLaw& l) {
    nlohmann::json j{{"style", contact::to_string(l.style)}, {"description", contact::describe(l, u)}, {"kn", l.kn}, {"kt", l.kt}};
    if (l.style == contact::Style::granular) {
      j["damping"] = contact::to_string(l.damping);
      j["damping_coefficient"] = l.damping_coefficient;
      j["x_gamma_t"] = l.tangential_damping;
    } else {
      j["gamma_n"] = l.damping_coefficient;
      j["gamma_t"] = l.tangential_damping;
    }
    return j;
  };
  nlohmann::json j;
  j["law"] = law_json(laws.base);
  j["type_laws"] = nlohmann::json::array();
  for (const auto& [types, law] : laws.by_types) {
    auto t = law_json(law);
    t["types"] = fmt::format("{}-{}", types.first, types.second);
    j["type_laws"].push_back(t);
  }
  const auto [r0, r1] = range(p.radius);
  const auto [m0, m1] = range(p.mass);
  const auto [i0, i1] = range(p.inertia);
  j["particles"] = {{"radius", {r0, r1}}, {"mass", {m0, m1}}, {"inertia", {i0, i1}}};
  j["units"] = u.summary();
  j["periodic"] = periodic_text(p);
  j["walls"] = nlohmann::json::array();
  for (const auto& w : p.walls) {
    nlohmann::json wj{{"wall", w.label}};
    if (w.law) wj["law"] = law_json(*w.law);
    j["walls"].push_back(wj);
  }
  for (const auto& w : p.region_walls) {
    nlohmann::json wj{{"wall", w.label}, {"region", w.name}, {"style", to_string(w.style)}};
    if (w.law) wj["law"] = law_json(*w.law);
    j["walls"].push_back(wj);
  }
  j["defaults_applied"] = defaults;
  return j;
}

namespace {

// --- the options each stage reads ---------------------------------------------------------------
// Every option of the request that only some sources or modes read, listed once with the stage that
// reads it: an option given that no active stage reads is refused, with the source in use and what
// the option applies to. "Given but not read" is derived from this table rather than written per
// source. Options every request reads (the source itself, --integrator, --eigensolver, --margin,
// --confirm, ...) and the subcommands' own (--json, --operator, lammps-check's) are not listed.
bool two_dimensional(const PackingRequest& o) {
  if (!o.lattice.empty()) return lattice_dimension(parse_lattice(o.lattice)) == 2;
  if (o.packing) return o.packing->dim == 2;
  return o.dimension == 2;
}
bool from_script(const PackingRequest& o) { return !o.lammps_input.empty(); }
bool of_spheres(const PackingRequest& o) { return o.bodies.empty(); }

struct Stage {
  const char* applies_to;  // completes "it applies to ..."
  bool source_bound;       // whether it is read or not depends on the source (the message names it)
  bool (*active)(const PackingRequest&);
  std::vector<std::string_view> reads;
};

const std::vector<Stage>& stages() {
  static const std::vector<Stage> table{
      {"--lattice", true, [](const PackingRequest& o) { return !o.lattice.empty(); },
       {"--n", "--radius", "--compression", "--radius-spread", "--box-walls", "--density"}},
      {"--lattice with --radius-spread", true,
       [](const PackingRequest& o) { return !o.lattice.empty() && o.radius_spread != 0.0; }, {"--seed"}},
      {"--lammps-dump (a data file gives the densities)", true,
       [](const PackingRequest& o) { return !o.dump_file.empty(); }, {"--density"}},
      {"a data file, restart or dump read without a script (a lattice's dimension is its kind)", true,
       [](const PackingRequest& o) { return !from_script(o) && o.lattice.empty() && !o.packing && of_spheres(o); },
       {"--dimension"}},
      {"2D packings (a square or hex lattice, or --dimension 2)", true,
       [](const PackingRequest& o) { return of_spheres(o) && !from_script(o) && two_dimensional(o); }, {"--disc"}},
      {"a law given by --kn and --kt or by --lammps-pair (a script or a --bodies file carries its own)",
       true, [](const PackingRequest& o) { return of_spheres(o) && !from_script(o); },
       {"--kn", "--kt", "--kt-ratio", "--gamma-n", "--gamma-t", "--lammps-pair", "--hertz-mindlin", "--type-law"}},
      {"walls and periodicity given by --wall and --periodic (a script or a --bodies file gives its own)",
       true, [](const PackingRequest& o) { return of_spheres(o) && !from_script(o); }, {"--periodic", "--wall"}},
      {"--lammps-input", true, from_script, {"--lammps-run", "--run-in-lammps"}},
      {"packings of spheres (a --bodies file gives its contacts with their histories)", true, of_spheres,
       {"--lammps-contacts", "--gap-tolerance", "--clumps"}},
      {"free spheres (not --bodies or --clumps: the turning of a normal, the Rayleigh and P-wave times and the "
       "written dofs are those of spheres)",
       true, [](const PackingRequest& o) { return of_spheres(o) && o.clumps.empty(); },
       {"--geometric-stiffness", "--youngs", "--poisson", "--write-matrices", "--write-mode"}},
      {"--eigensolver spectra (it is Spectra's basis size)", false,
       [](const PackingRequest& o) { return o.eigensolver == "spectra"; }, {"--ncv"}},
  };
  return table;
}

std::string source_text(const PackingRequest& o) {
  if (!o.bodies.empty()) return "--bodies";
  const std::string source = from_script(o)                 ? "--lammps-input"
                             : !o.lattice.empty()           ? "--lattice"
                             : o.packing                    ? "a packing given particle by particle"
                             : !o.dump_file.empty()         ? "--lammps-dump"
                             : !o.lammps_restart.empty()    ? "--lammps-restart"
                                                            : "--lammps-data";
  return o.clumps.empty() ? source : source + " and --clumps " + o.clumps;
}

// The first option given (in name order) that no active stage reads: an error naming it.
void reject_unread_options(const PackingRequest& o) {
  for (const std::string& option : o.given) {
    std::vector<const Stage*> readers;
    bool read = false;
    for (const Stage& s : stages())
      if (std::find(s.reads.begin(), s.reads.end(), option) != s.reads.end()) {
        readers.push_back(&s);
        read = read || s.active(o);
      }
    if (readers.empty() || read) continue;
    const bool by_source = std::any_of(readers.begin(), readers.end(), [](const Stage* s) { return s->source_bound; });
    std::vector<std::string> uses;
    for (const Stage* s : readers) uses.emplace_back(s->applies_to);
    fail(fmt::format("{} is not read{}: it applies to {}", option, by_source ? " with " + source_text(o) : "",
                     fmt::join(uses, ", or to ")));
  }
}

}  // namespace

void check_packing_request(const PackingRequest& o) {
  if (!o.bodies.empty()) {
    for (const char* opt : {"--lattice", "--lammps-data", "--lammps-restart", "--lammps-dump", "--lammps-input"})
      reject_unread(o, opt, "conflicts with --bodies: give one source");
    return reject_unread_options(o);
  }
  if (o.lattice.empty() && o.data_file.empty() && o.dump_file.empty() && o.lammps_input.empty() && !o.packing)
    fail("give exactly one of --lattice, --lammps-data (or --lammps-restart), --lammps-dump, --lammps-input and --bodies");
  if (!o.clumps.empty() && o.confirm_steps > 0)
    reject_unread(o, "--lammps-contacts", "with --clumps and --confirm: the stepper's rigid clumps start from zero "
                                          "histories; drop one of them");
  // With a script, --lammps-data is its state, not a source of its own.
  const int sources = !o.lattice.empty() + (!o.data_file.empty() && o.lammps_input.empty()) + !o.dump_file.empty() +
                      !o.lammps_input.empty() + o.packing.has_value();
  if (!o.lammps_input.empty()) {
    // Everything the script gives is an error when given again on the command line.
    const std::pair<const char*, const char*> supplied[] = {
        {"--lattice", "the packing (read_data or --lammps-data)"},
        {"--lammps-dump", "the packing (read_data or --lammps-data)"}, {"--kn", "the law (pair_style, pair_coeff)"},
        {"--kt", "the law (pair_style, pair_coeff)"}, {"--kt-ratio", "the law (pair_style, pair_coeff)"},
        {"--gamma-n", "the law (pair_style, pair_coeff)"},
        {"--gamma-t", "the law (pair_style, pair_coeff)"}, {"--lammps-pair", "the law (pair_style, pair_coeff)"},
        {"--hertz-mindlin", "the law (pair_style, pair_coeff)"},
        {"--type-law", "the law of each type pair (pair_coeff I J)"}, {"--periodic", "the periodicity (boundary)"},
        {"--wall", "the walls (fix wall/gran)"}, {"--box-walls", "the walls (fix wall/gran)"},
        {"--dimension", "the dimension (dimension)"}, {"--disc", "the body model (fix nve/sphere disc)"},
        {"--density", "the densities (the data file)"}};
    for (const auto& [opt, what] : supplied)
      if (o.given.count(opt)) fail(fmt::format("{} conflicts with --lammps-input {}, which gives {}", opt, o.lammps_input, what));
  }
  if (sources != 1) fail("give exactly one of --lattice, --lammps-data, --lammps-dump and --lammps-input");
  reject_unread_options(o);
  if (!o.clumps.empty()) {
    if (o.clumps != "molecule")
      fail(fmt::format("--clumps '{}': the one body style is 'molecule' (each molecule ID one rigid body, as fix "
                       "rigid/small molecule)", o.clumps));
    if (o.data_file.empty() && o.lammps_input.empty())
      fail("--clumps molecule reads molecule IDs: give --lammps-data (or --lammps-input) with a data file of atom_style "
           "hybrid sphere molecular");
  }
  const bool law_given = !o.lammps_pair.empty() || !o.hertz_mindlin.empty();
  if (!o.lammps_input.empty()) {
  } else if (law_given) {
    if (o.kn || o.kt || o.kt_ratio || o.gamma_n || o.gamma_t)
      fail(fmt::format("{} gives the whole law: drop --kn, --kt, --kt-ratio, --gamma-n and --gamma-t",
                       o.lammps_pair.empty() ? "--hertz-mindlin" : "--lammps-pair"));
  } else {
    if (!o.kn) fail("--kn (normal stiffness [N/m]) is required, or the law as --lammps-pair");
    if (o.kt && o.kt_ratio) fail(fmt::format("give one of --kt = {:g} and --kt-ratio = {:g}", *o.kt, *o.kt_ratio));
    if (!o.kt && !o.kt_ratio)
      fail("--kt (tangential stiffness [N/m]) or --kt-ratio (k_t / k_n) is required, or the law as --lammps-pair");
    if (o.kt_ratio && !(*o.kt_ratio >= 0.0 && std::isfinite(*o.kt_ratio)))
      fail(fmt::format("--kt-ratio = {:g} (k_t / k_n) must be non-negative and finite", *o.kt_ratio));
  }
}

EigenOptions eigen_options(const PackingRequest& o) {
  EigenOptions eigen;
  if (!(o.rtol > 0.0 && o.rtol <= 1e-2))
    fail(fmt::format("--rtol = {:g} (relative precision of the limits) must lie in (0, 0.01]", o.rtol));
  eigen.tolerance = o.lanczos_tol ? require_positive("--lanczos-tol", *o.lanczos_tol) : omega_tolerance(o.rtol);
  eigen.method = parse_eigen_method(o.eigensolver);
  eigen.ncv = o.ncv;
  return eigen;
}

namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

ContactLaws request_laws(const PackingRequest& o, std::vector<std::string>& defaults) {
  const bool law_given = !o.lammps_pair.empty() || !o.hertz_mindlin.empty();
  const double gamma_n = o.gamma_n.value_or(0.0);
  if (!law_given) {
    if (!o.gamma_t && gamma_n > 0.0)
      defaults.push_back(fmt::format("gamma_t = {:g} gamma_n (not given; LAMMPS' gran/hooke/history with NULL)", default_ct_ratio));
    if (gamma_n == 0.0 && !o.gamma_t) defaults.push_back("gamma_n = gamma_t = 0 (no damping given)");
  }
  ContactLaws laws;
  laws.base = !o.hertz_mindlin.empty() ? contact::parse_hertz_mindlin(o.hertz_mindlin, "--hertz-mindlin")
              : o.lammps_pair.empty()
                  ? contact::validated(contact::hooke_history(*o.kn, o.kt ? *o.kt : *o.kt_ratio * *o.kn, gamma_n,
                                                              o.gamma_t.value_or(default_ct_ratio * gamma_n), 0.0))
                  : contact::parse_lammps_pair(o.lammps_pair, "--lammps-pair");
  for (const auto& spec : o.type_laws) {
    auto [key, law] = parse_type_law(spec, laws.base);
    if (!laws.by_types.emplace(key, law).second)
      fail(fmt::format("--type-law for types {}-{} is given twice", key.first, key.second));
  }
  return laws;
}

namespace {

using Progress = std::function<void(std::string_view)>;

// Stage 1, the source: the packing, its laws and walls, and the defaults applied, in words.
struct Source {
  Packing packing;
  ContactLaws laws;
  std::optional<LammpsInput> script;
  std::vector<std::string> defaults;
  bool lattice = false;
};

Packing read_particles(const PackingRequest& o, std::optional<LammpsInput>& script, const Progress& progress) {
  Packing p;
  if (!o.lammps_input.empty()) {
    progress("reading the LAMMPS input script and its data file");
    LammpsInputOptions lo;
    lo.data_file = o.data_file;
    lo.run = o.lammps_run;
    script = read_lammps_input(o.lammps_input, lo);
    p = script->packing;
    sort_spatially(p);
  } else if (!o.lattice.empty()) {
    if (o.n < 1) fail("--lattice needs --n (unit cells per side, >= 1)");
    LatticeSpec spec;
    spec.kind = parse_lattice(o.lattice);
    spec.n = o.n;
    spec.radius = o.radius;
    spec.density = o.density;
    spec.compression = o.compression;
    spec.radius_spread = o.radius_spread;
    spec.seed = o.seed;
    spec.body_model = o.disc ? BodyModel::disc : BodyModel::sphere;
    spec.periodic = true;
    progress(fmt::format("building the {} lattice", o.lattice));
    p = make_lattice(spec);
    if (!o.periodic.empty()) {
      p.periodic = parse_periodic(o.periodic);
      p.source = fmt::format("{} lattice, {} cells per side, periodic: {}", o.lattice, o.n, o.periodic);
    }
    for (int d = p.dim; d < 3; ++d) p.periodic[d] = false;
    if (o.box_walls && o.periodic != "none") fail("--box-walls needs --periodic none");
  } else if (o.packing) {
    if (o.n != 0) fail("--n applies to --lattice only");
    if (o.box_walls) fail("--box-walls applies to --lattice only");
    p = *o.packing;
    validate(p);
    if (!o.periodic.empty()) p.periodic = parse_periodic(o.periodic);
    for (int d = p.dim; d < 3; ++d) p.periodic[d] = false;
    sort_spatially(p);
  } else {
    if (o.n != 0) fail("--n applies to --lattice only");
    if (o.box_walls) fail("--box-walls applies to --lattice only");
    ReadOptions ro;
    ro.dimension = o.dimension;
    ro.body_model = o.disc ? BodyModel::disc : BodyModel::sphere;
    if (!o.periodic.empty()) ro.periodic = parse_periodic(o.periodic);
    if (!o.dump_file.empty()) ro.density = o.density;
    progress("reading the packing");
    p = o.data_file.empty() ? read_lammps_dump(o.dump_file, ro) : read_lammps_data(o.data_file, ro);
    sort_spatially(p);  // files come in atom-id order; the operator wants neighbours close
  }
  return p;
}

Source read_source(const PackingRequest& o, const Progress& progress) {
  Source s;
  s.packing = read_particles(o, s.script, progress);
  s.lattice = !o.lattice.empty();
  Packing& p = s.packing;
  const auto& script = s.script;
  auto& defaults = s.defaults;
  ContactLaws& laws = s.laws;
  if (script) {
    laws = script->laws;
    for (const auto& spec : o.type_laws) {  // (refused with a script by check_packing_request)
      auto [key, law] = parse_type_law(spec, laws.base);
      if (!laws.by_types.emplace(key, law).second)
        fail(fmt::format("--type-law for types {}-{} is given twice", key.first, key.second));
    }
  } else {
    laws = request_laws(o, defaults);
  }
  if (o.box_walls) {
    // Walls pressed in so that a wall contact (R_eff = r) carries the force of a pair contact
    // (R_eff = r/2) at the lattice's overlap: the same overlap for overlap-independent laws.
    const double overlap = 2.0 * o.radius * o.compression;
    double wall_overlap = overlap;
    if (contact::overlap_dependent(laws.base) && overlap > 0.0) {
      const double m = p.mass.front();
      const auto pair = contact::operating_point(laws.base, 0.5 * m, 0.5 * m, 0.5 * o.radius, {overlap, {}, {}});
      wall_overlap = contact::operating_point(laws.base, m, m, o.radius, {{}, pair.normal_force, {}}).overlap;
    }
    add_box_walls(p, wall_overlap);
  }
  for (const auto& w : o.walls) p.walls.push_back(parse_wall(w, p, laws.base));

  if (script && script->timestep_default)
    defaults.push_back(fmt::format("timestep {:g} {} (LAMMPS' default for units {}; the script has none)", script->timestep,
                                   script->units.time, script->units.name));
  if (script && script->units_default)
    defaults.push_back("units lj (LAMMPS' default; the script has no units line): every number is in reduced units");
  if (o.periodic.empty() && !script)
    defaults.push_back(s.lattice    ? "periodic in every axis (lattice default)"
                       : o.packing ? "no periodic axis (none given)"
                       : !o.data_file.empty() ? "no periodic axis (data files do not record it)"
                                              : "periodic axes from the dump's BOX BOUNDS");
  return s;
}

}  // namespace

PackingAnalysisOptions analysis_options(const PackingRequest& o, const std::optional<LammpsInput>& script,
                                        const Progress& progress) {
  PackingAnalysisOptions ao;
  ao.integrators = expand_integrator_specs(o.integrators);
  if (script && std::find(ao.integrators.begin(), ao.integrators.end(), script->integrator) == ao.integrators.end())
    ao.integrators.push_back(script->integrator);  // the script's own integrator answers its question
  if (o.youngs || o.poisson) {
    if (!o.youngs || !o.poisson) fail("the material heuristics need both --youngs and --poisson");
    ao.material = PackingMaterial{*o.youngs, *o.poisson};
  }
  ao.eigen = eigen_options(o);
  ao.rtol = o.rtol;
  ao.amplification_dofs = o.amplification_dofs;
  ao.crossing_check_dofs = o.crossing_check_dofs;
  ao.scan_dofs = o.scan_dofs;
  ao.certify_dofs = o.certify_dofs;
  ao.progress = progress;
  return ao;
}

namespace {

// The checks every source shares: the recommended step and the confirmation runs.
void recommend_and_confirm(PackingAnswer& a, const PackingRequest& o, const Progress& progress) {
  a.recommendation = recommend_from(a.report.integrators, o.margin);
  if (a.recommendation) a.recommendation->time_unit = a.report.units.time;
  if (o.confirm_steps <= 0) return;
  if (!a.system) fail("--confirm is not available in the distributed analysis (mpirun): run without mpirun");
  if (a.network) {
    // Fixed-arm linear dynamics (the stepper's rigid bodies are clumps of spheres only).
    const LinearSystem ls = a.system->linear_system();
    a.confirmation = confirm_limits(
        a.report.integrators, ConfirmationModel::fixed_arm_linear, 0.0,
        [&](const PackingIntegratorLimit& lim, double f) {
          return confirm_linear(ls, lim.name, lim.h_crit, f, o.confirm_steps);
        },
        progress);
    return;
  }
  // The stepper with the same laws, every contact held sticking (confirmation.hpp), from a
  // perturbation of 1e-4 of the smallest overlap.
  double dmin = std::numeric_limits<double>::infinity();
  for (const auto& c : a.system->contacts().contacts) dmin = std::min(dmin, c.overlap);
  if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
  // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth measure
  // (separation from an unperturbed run) takes out.
  const double residual = equilibrium_residual(a.packing, a.laws, a.clumps.has_value());
  a.confirmation = confirm_limits(
      a.report.integrators, ConfirmationModel::stepper, residual,
      [&](const PackingIntegratorLimit& lim, double f) {
        return a.clumps ? confirm_clumps_with_stepper(a.packing, a.laws, lim.name, lim.h_crit, f, o.confirm_steps,
                                                      1e-4 * dmin)
                        : confirm_with_stepper(a.packing, a.laws, lim.name, lim.h_crit, f, o.confirm_steps, 1e-4 * dmin,
                                               7, 0.0, &a.system->contacts());
      },
      progress);
}

// The source of --bodies: a contact network, analysed as its global system.
PackingAnswer answer_network(const PackingRequest& o, const Progress& progress) {
  progress("reading the contact network");
  const network::ContactNetwork net = network::read_network(o.bodies);
  progress(fmt::format("assembling the global system ({} contacts)", net.contacts.size()));
  PackingAnswer a;
  a.system = std::make_unique<const GlobalSystem>(network_assembly(net), !o.no_rotation);
  a.report = analyse_system("contact network " + net.source, *a.system, analysis_options(o, std::nullopt, progress));
  NetworkInputs in;
  in.source = net.source;
  in.dimension = net.dimension;
  in.contacts = net.contacts.size();
  std::vector<std::size_t> uses(net.laws.size(), 0);
  for (const auto& c : net.contacts) ++uses[static_cast<std::size_t>(c.law)], in.with_history += c.has_history;
  for (std::size_t k = 0; k < net.laws.size(); ++k)
    in.laws.push_back({net.law_texts[k], contact::describe(net.laws[k]), uses[k]});
  in.mass_min = in.moment_min = std::numeric_limits<double>::infinity();
  for (const auto& b : net.bodies) {
    if (b.fixed) continue;
    in.mass_min = std::min(in.mass_min, b.mass), in.mass_max = std::max(in.mass_max, b.mass);
    for (int d = net.dimension == 2 ? 2 : 0; d < 3; ++d)
      in.moment_min = std::min(in.moment_min, b.moments[d]), in.moment_max = std::max(in.moment_max, b.moments[d]);
  }
  in.free_bodies = net.free_bodies();
  in.fixed_bodies = static_cast<Index>(net.bodies.size()) - in.free_bodies;
  a.network = std::move(in);
  a.history_line = a.network->with_history
                       ? fmt::format("contact histories: {} of {} contacts carry one (from the file)",
                                     a.network->with_history, a.network->contacts)
                       : "contact histories: none in the file (zero, sticking)";
  recommend_and_confirm(a, o, progress);
  progress("done");
  return a;
}

// Every mention of a temporary file in the answer's texts, under the name the user knows it by.
void rename_in_answer(PackingAnswer& a, const std::string& path, const std::string& name) {
  for (std::string* text : {&a.packing.source, &a.report.source, &a.history_line}) replace_all(*text, path, name);
  for (std::string& file : a.history_files) replace_all(file, path, name);
  if (a.timestep) {
    replace_all(a.timestep->text, path, name);
    std::string json = a.timestep->json.dump();
    replace_all(json, path, name);
    a.timestep->json = nlohmann::json::parse(json);
  }
  if (a.histories)
    for (auto* texts : {&a.histories->warnings, &a.histories->notes})
      for (std::string& text : *texts) replace_all(text, path, name);
  if (a.script) replace_all(a.script->data_file, path, name);
}

// --run-in-lammps: the state the installed LAMMPS reaches at the end of the script, read as
// --lammps-data with its contact dump as --lammps-contacts.
PackingAnswer answer_script_run(const PackingRequest& o, const std::function<void(std::string_view)>& progress_to,
                                const PackingAnalyser& analyse) {
  check_packing_request(o);
  if (o.lammps_input.empty()) fail("--run-in-lammps runs the script given as --lammps-input: give one");
  for (const auto& [given, option] : {std::pair{!o.data_file.empty(), "--lammps-data"},
                                      {!o.lammps_restart.empty(), "--lammps-restart"},
                                      {!o.lammps_contacts.empty(), "--lammps-contacts"}})
    if (given)
      fail(fmt::format("--run-in-lammps makes the state of {} and its contact histories: give no {}", o.lammps_input,
                       option));
  if (o.lammps_run)
    fail(fmt::format("--run-in-lammps takes the state at the end of {} and the physics of its last run, not run {}: "
                     "for that run, add 'write_data state.data' after it in the script and give --lammps-data "
                     "state.data",
                     o.lammps_input, *o.lammps_run));
  const ScratchFolder folder("dtcrit-run");
  if (progress_to) progress_to(fmt::format("running {} in lmp (LAMMPS) to the end of the script", o.lammps_input));
  const ScriptState made = run_script_to_state(o.lammps_input, folder.path(), progress_to);
  PackingRequest from_state = o;
  from_state.run_in_lammps = false;
  from_state.data_file = made.data_file;
  if (!made.contacts_file.empty()) from_state.lammps_contacts = {made.contacts_file};
  PackingAnswer a = answer_packing(from_state, progress_to, analyse);
  if (made.contacts_file.empty())
    a.history_line = "contact histories: none (zero, sticking): the pair style is hybrid, where the installed LAMMPS "
                     "crashes in compute pair/local, so the contacts were not dumped";
  rename_in_answer(a, made.data_file, "the script run to its end in lmp");
  if (!made.contacts_file.empty())
    rename_in_answer(a, made.contacts_file,
                     "the pair contacts LAMMPS dumped there (wall contacts' histories start at zero)");
  if (a.script) {
    a.script->state_from = "--run-in-lammps";
    for (auto& skipped : a.script->skipped) replace_all(skipped, "the state is --lammps-data", "the state is the script's end");
  }
  return a;
}

}  // namespace

PackingAnswer answer_packing(const PackingRequest& o, const std::function<void(std::string_view)>& progress_to,
                             const PackingAnalyser& analyse) {
  if (o.run_in_lammps) return answer_script_run(o, progress_to, analyse);
  if (!o.lammps_restart.empty() && o.bodies.empty()) {
    // A binary restart is the state as LAMMPS' own -restart2data writes it, read as --lammps-data.
    if (!o.data_file.empty())
      fail(fmt::format("give one of --lammps-data {} and --lammps-restart {}", o.data_file, o.lammps_restart));
    const ScratchFolder folder("dtcrit-restart");
    PackingRequest converted = o;
    converted.lammps_restart.clear();
    converted.data_file = (folder.path() / "state.data").string();
    if (progress_to) progress_to("converting the restart with lmp -restart2data");
    restart_to_data(o.lammps_restart, converted.data_file);
    PackingAnswer a = answer_packing(converted, progress_to, analyse);
    rename_in_answer(a, converted.data_file, o.lammps_restart + " (lmp -restart2data)");
    if (a.script) a.script->state_from = "--lammps-restart";
    return a;
  }
  check_packing_request(o);
  const Progress progress = [&](std::string_view what) {
    if (progress_to) progress_to(what);
  };
  if (!o.bodies.empty()) return answer_network(o, progress);

  // Source.
  Source source = read_source(o, progress);
  Packing& p = source.packing;
  const std::optional<LammpsInput>& script = source.script;
  const std::string bound_warning = o.data_file.empty() ? "" : box_bound_warning(p);

  // Contacts and their histories.
  ContactOptions co;
  co.gap_tolerance = o.gap_tolerance.value_or(source.lattice ? 1e-9 : 0.0);
  if (!o.gap_tolerance) source.defaults.push_back(fmt::format("contact gap tolerance {:g}", co.gap_tolerance));
  progress(fmt::format("finding the contacts of {} particles", p.size()));
  auto contacts = find_contacts(p, source.laws, co);
  std::optional<ContactHistorySummary> histories;
  if (!o.lammps_contacts.empty()) {
    progress("reading the contact histories");
    histories = read_lammps_contacts(o.lammps_contacts, p, contacts,
                                     script ? script->computes : std::map<std::string, std::vector<std::string>>{});
  }
  const std::string history_line = histories_text(histories, o.lammps_contacts);

  // Limits.
  const PackingAnalysisOptions ao = analysis_options(o, script, progress);
  AnalysedPacking analysed;
  std::optional<ClumpSummary> clumps;
  const bool by_molecule = !o.clumps.empty() || (script && script->rigid_molecules);  // --clumps or fix rigid/small
  if (by_molecule) {
    // fix rigid/small molecule: each molecule one rigid body; the analysis is the contact network's.
    if (analyse) fail("--clumps molecule is analysed serially: run without mpirun");
    progress("making the rigid bodies (--clumps molecule)");
    ClumpSummary summary;
    const network::ContactNetwork net = clump_network(p, contacts, &summary);
    clumps = summary;
    progress(fmt::format("assembling the global system ({} bodies, {} contacts)", summary.bodies, net.contacts.size()));
    analysed.system = std::make_unique<const GlobalSystem>(network_assembly(net), !o.no_rotation);
    analysed.report = analyse_system(p.source + ", clumps by molecule ID", *analysed.system, ao);
  } else if (analyse) {
    analysed = analyse(p, std::move(contacts), ao);
  } else {
    progress(fmt::format("assembling the global system ({} contacts)", contacts.contacts.size()));
    analysed.system = std::make_unique<const GlobalSystem>(round_assembly(p, std::move(contacts)), !o.no_rotation, o.geometric_stiffness);
    analysed.report = analyse_packing(p, *analysed.system, ao);
  }
  auto& report = analysed.report;
  if (script) report.units = script->units;
  if (source.lattice) {  // the lattice inputs that set the answer, defaults marked
    report.inputs.push_back({"radius", o.radius, "m", !o.given.count("--radius")});
    report.inputs.push_back({"density", o.density, "kg/m^3", !o.given.count("--density")});
    report.inputs.push_back({"compression", o.compression, "", !o.given.count("--compression")});
  }

  // Checks.
  PackingAnswer a;
  if (script && !analyse && !by_molecule && any_frictional(p, source.laws)) {
    progress("the diverging step: every contact sliding (normal springs and dashpots only)");
    a.diverging = diverging_step(p, source.laws, script->integrator, ao, co, !o.no_rotation, o.geometric_stiffness);
  }
  if (script) a.timestep = check_timestep(*script, report, o.margin, history_line, a.diverging);
  a.packing = std::move(p);
  a.laws = std::move(source.laws);
  a.script = std::move(source.script);
  a.system = std::move(analysed.system);
  a.report = std::move(report);
  a.defaults = std::move(source.defaults);
  a.histories = std::move(histories);
  a.history_files = o.lammps_contacts;
  a.history_line = history_line;
  a.bound_warning = bound_warning;
  a.clumps = clumps;
  recommend_and_confirm(a, o, progress);
  progress("done");
  return a;
}

nlohmann::json to_json(const PackingAnswer& a) {
  auto j = to_json(a.report);
  if (const auto& net = a.network) {
    nlohmann::json laws = nlohmann::json::array();
    for (const auto& l : net->laws) laws.push_back({{"text", l.text}, {"description", l.description}, {"contacts", l.contacts}});
    j["inputs"] = {{"file", net->source},
                   {"dimension", net->dimension},
                   {"free_bodies", net->free_bodies},
                   {"fixed_bodies", net->fixed_bodies},
                   {"mass_range_kg", {net->mass_min, net->mass_max}},
                   {"principal_moment_range_kg_m2", {net->moment_min, net->moment_max}},
                   {"laws", laws},
                   {"rotation", a.system->rotation()}};
    j["contact_histories"] = {{"read", net->with_history > 0}, {"summary", a.history_line}};
    if (a.recommendation) j["recommended_step"] = to_json(*a.recommendation);
    if (a.confirmation) j["confirmation"] = to_json(*a.confirmation);
    return j;
  }
  j["inputs"] = inputs_json(a.packing, a.laws, a.defaults, a.report.units);
  nlohmann::json hj{{"read", a.histories.has_value()}, {"summary", a.history_line}};
  if (const auto& histories = a.histories) {
    hj["files"] = a.history_files;
    hj["pairs_read"] = histories->pairs_read;
    hj["walls_read"] = histories->walls_read;
    hj["pairs_unmatched"] = histories->pairs_unmatched;
    hj["walls_unmatched"] = histories->walls_unmatched;
    hj["pairs_missing"] = histories->pairs_missing;
    hj["walls_missing"] = histories->walls_missing;
    hj["sliding"] = histories->sliding;
    hj["rolling_at_limit"] = histories->rolling_at_limit;
    hj["max_distance_mismatch"] = histories->max_distance_mismatch;
    hj["notes"] = histories->notes;
  }
  j["contact_histories"] = hj;
  if (const auto& c = a.clumps)
    j["clumps"] = {{"style", "molecule"},
                   {"bodies", c->bodies},
                   {"clumps", c->clumps},
                   {"single_spheres", c->single_spheres},
                   {"largest_members", c->largest},
                   {"inner_contacts_left_out", c->inner_contacts},
                   {"max_extent_m", c->max_extent},
                   {"inertia", "fix rigid/small: member point masses + 2/5 m r^2 per sphere, overlaps not removed"}};
  if (const auto& script = a.script) {
    j["lammps_input"] = {{"path", script->path},       {"data_file", script->data_file},
                         {"state", script->state_from}, {"units", script->units.name},
                         {"runs", script->runs},        {"physics_of", script->run_taken},
                         {"taken", script->taken},      {"skipped", script->skipped},
                         {"notes", script->notes}};
    if (a.timestep) j["timestep_check"] = a.timestep->json;
  }
  nlohmann::json warnings = nlohmann::json::array();
  if (!a.bound_warning.empty()) warnings.push_back(a.bound_warning);
  if (a.histories)
    for (const auto& w : a.histories->warnings) warnings.push_back(w);
  if (!warnings.empty()) j["warnings"] = warnings;
  if (a.recommendation) j["recommended_step"] = to_json(*a.recommendation);
  if (a.confirmation) j["confirmation"] = to_json(*a.confirmation);
  return j;
}

std::string format_packing_answer(const PackingAnswer& a, const std::string& after_table) {
  const std::string confirmation = a.confirmation ? format_confirmation(*a.confirmation) : "";
  if (const auto& net = a.network) {
    std::string text = a.history_line + "\ninputs:\n";
    text += fmt::format("  {}D, {} free bodies (m {:g}..{:g} kg, principal moments {:g}..{:g} kg m^2), {} fixed (walls)\n",
                        net->dimension, net->free_bodies, net->mass_min, net->mass_max, net->moment_min,
                        net->moment_max, net->fixed_bodies);
    for (const auto& l : net->laws)
      text += fmt::format("  law '{}' ({} contacts): {}\n", l.text, l.contacts, l.description);
    text += "  arms: from each body's centre of mass to the contact point; torque arm = velocity arm\n\n";
    text += format_packing_table(a.report) + confirmation + after_table;
    if (a.recommendation) text += "\n" + format_recommendation(*a.recommendation);
    return text;
  }
  std::string head;
  if (const auto& script = a.script) {
    head = fmt::format("LAMMPS input {} (units {}): the physics of {}, applied to the state of {} ({})\n",
                       script->path, script->units.name, script->run_taken, script->data_file, script->state_from);
    head += "  the lines in effect:\n";
    for (const auto& t : script->taken) head += "  " + t + "\n";
    head += "  skipped (no effect on the step): " +
            (script->skipped.empty() ? std::string("none") : fmt::format("{}", fmt::join(script->skipped, ", "))) + "\n";
    for (const auto& note : script->notes) head += "  note: " + note + "\n";
    head += "\n";
  }
  head += a.history_line + "\n";
  if (a.histories) {
    for (const auto& note : a.histories->notes) head += "  note: " + note + "\n";
  }
  std::string text = head + inputs_text(a.packing, a.laws, a.defaults, a.report.units);
  if (const auto& c = a.clumps)
    text += fmt::format("clumps ({}): {} spheres in {} rigid bodies ({} clumps of up to {} spheres, {} "
                        "single spheres of molecule ID 0), members up to {:g} m from their body's centre of mass; mass, "
                        "centre and inertia tensor as fix rigid/small computes them (member point masses + 2/5 m r^2 per "
                        "sphere, overlaps not removed); {} contacts between members of one body left out (no relative "
                        "motion); below, particles are the bodies\n",
                        a.script && a.script->rigid_molecules ? "the script's fix rigid/small molecule" : "--clumps molecule",
                        a.packing.size(), c->bodies, c->clumps, c->largest, c->single_spheres, c->max_extent,
                        c->inner_contacts);
  text += format_packing_table(a.report) + confirmation + after_table;
  if (!a.bound_warning.empty()) text += "\nwarning: " + a.bound_warning + "\n";
  if (a.histories)
    for (const auto& w : a.histories->warnings) text += "warning: " + w + "\n";
  if (a.recommendation) text += "\n" + format_recommendation(*a.recommendation);
  if (a.timestep) text += a.timestep->text;
  return text;
}

}  // namespace dtcrit::packing
