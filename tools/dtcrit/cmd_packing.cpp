// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <limits>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "progress.hpp"

#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/operating_point.hpp"
#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/key_values.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/lammps_contacts.hpp"
#include "dtcrit/packing/lammps_input.hpp"
#include "dtcrit/packing/lammps_io.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/distributed_analysis.hpp"
#include "dtcrit/distributed/runtime.hpp"
#endif

namespace dtcrit::cli {

namespace {

struct PackingOptions {
  std::string lattice, data_file, dump_file;
  std::string lammps_input;                   // the user's input script: packing, law, walls, timestep
  std::vector<std::string> lammps_contacts;   // contact and wall-contact dumps: the contacts' histories
  Index n = 0;
  double radius = 1e-3, density = 2500.0, compression = 0.0, radius_spread = 0.0;
  unsigned seed = 1;
  int dimension = 3;
  bool disc = false;
  std::optional<double> kn, kt, gamma_n;
  std::optional<double> gamma_t;  // default gamma_n / 2 (LAMMPS)
  std::string lammps_pair, hertz_mindlin;
  bool geometric_stiffness = false;
  double margin = default_step_margin;
  std::vector<std::string> type_laws, walls;
  std::string periodic;
  std::optional<double> gap_tolerance;
  bool no_rotation = false;
  std::vector<std::string> integrators{"all"};
  std::optional<double> youngs, poisson;
  bool json = false;
  std::string output;
  std::string eigensolver = "auto";
  std::string operator_kind = "shell";  // distributed build: MatShell or assembled MPIAIJ
  double lanczos_tol = packing::EigenOptions{}.tolerance;
  Index ncv = packing::EigenOptions{}.ncv;
  Index amplification_dofs = 48;
  bool box_walls = false;
  int confirm_steps = 0;
  std::set<std::string> given;  // the options given on the command line (long names)
};

// An option the chosen mode would not read is an error, not a silent default.
void reject_unread(const PackingOptions& o, const std::string& option, const std::string& why) {
  if (o.given.count(option)) fail(fmt::format("{} {}", option, why));
}

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

// "types=1-2,kn=...,kt=...,gamma_n=...,gamma_t=..." (keys not given: the base law's, except gamma_t,
// which is gamma_n / 2 when gamma_n is given alone, as everywhere).
std::pair<std::pair<int, int>, contact::ContactLaw> parse_type_law(const std::string& spec,
                                                                    const contact::ContactLaw& base) {
  KeyValues kv(spec, fmt::format("--type-law {}", spec));
  const std::string types = kv.required_text("types");
  const auto parts = split(types, '-');
  if (parts.size() != 2) fail(fmt::format("--type-law {}: types = '{}' must read I-J, e.g. 1-2", spec, types));
  const int a = static_cast<int>(parse_number("--type-law type", parts[0]));
  const int b = static_cast<int>(parse_number("--type-law type", parts[1]));
  if (a < 1 || b < 1) fail(fmt::format("--type-law {}: types must be >= 1", spec));
  contact::ContactLaw law = base;
  for (const char* key : {"kn", "kt", "gamma_n", "gamma_t"})
    if (auto v = kv.number(key)) contact::set_classic_coefficient(law, key, *v);
  if (auto gn = kv.number("gamma_n"); gn && !kv.number("gamma_t"))
    contact::set_classic_coefficient(law, "gamma_t", default_ct_ratio * *gn);
  kv.reject_unused({"types", "kn", "kt", "gamma_n", "gamma_t"});
  return {{std::min(a, b), std::max(a, b)}, contact::validated(law)};
}

// Particles within their radius of a box bound on an axis that is neither periodic nor walled: a
// periodic simulation would have contacts across that bound which this analysis does not see (a
// step too large). "" when there are none.
std::string box_bound_warning(const packing::Packing& p) {
  const char* names[] = {"x", "y", "z"};
  std::string axes;
  Index touching = 0;
  for (int d = 0; d < p.dim; ++d) {
    if (p.periodic[d]) continue;
    bool walled = false;
    for (const auto& w : p.walls) walled = walled || std::abs(w.normal[d]) == 1.0;
    if (walled) continue;
    Index n = 0;
    for (Index i = 0; i < p.size(); ++i)
      if (p.centre[i][d] - p.radius[i] <= p.box_lo[d] || p.centre[i][d] + p.radius[i] >= p.box_hi[d]) ++n;
    if (n > 0) axes += (axes.empty() ? "" : ", ") + std::string(names[d]), touching += n;
  }
  if (touching == 0) return "";
  return fmt::format("{} particles reach the box bounds in {}, which is neither periodic nor walled: if the "
                     "simulation is periodic there, give --periodic (contacts across the bound are missing and the "
                     "step is too large); if it has walls, give --wall",
                     touching, axes);
}

std::string law_text(const contact::ContactLaw& l) { return contact::describe(l); }

std::string periodic_text(const packing::Packing& p) {
  std::string out;
  const char* names[] = {"x", "y", "z"};
  for (int d = 0; d < p.dim; ++d)
    if (p.periodic[d]) out += (out.empty() ? "" : ",") + std::string(names[d]);
  return out.empty() ? "none" : out;
}

std::pair<double, double> range(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi};
}

// The effective inputs, echoed at the top of every report.
std::string inputs_text(const packing::Packing& p, const packing::ContactLaws& laws,
                        const std::vector<std::string>& defaults) {
  const auto [r0, r1] = range(p.radius);
  const auto [m0, m1] = range(p.mass);
  const auto [i0, i1] = range(p.inertia);
  std::string out = "inputs:\n";
  out += fmt::format("  law: {}\n", law_text(laws.base));
  for (const auto& [types, law] : laws.by_types)
    out += fmt::format("  law of types {}-{}: {}\n", types.first, types.second, law_text(law));
  out += fmt::format("  particles: r {:g}..{:g} m, m {:g}..{:g} kg, I {:g}..{:g} kg m^2\n", r0, r1, m0, m1, i0, i1);
  out += fmt::format("  periodic: {}; walls: ", periodic_text(p));
  if (p.walls.empty()) out += "none";
  for (std::size_t w = 0; w < p.walls.size(); ++w)
    out += (w ? "; " : "") + p.walls[w].label + (p.walls[w].law ? " (" + law_text(*p.walls[w].law) + ")" : "");
  out += "\n";
  for (const auto& d : defaults) out += "  default: " + d + "\n";
  return out + "\n";
}

nlohmann::json inputs_json(const packing::Packing& p, const packing::ContactLaws& laws,
                           const std::vector<std::string>& defaults) {
  auto law_json = [](const contact::ContactLaw& l) {
    nlohmann::json j{{"style", contact::to_string(l.style)}, {"description", contact::describe(l)}, {"kn", l.kn}, {"kt", l.kt}};
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
  j["periodic"] = periodic_text(p);
  j["walls"] = nlohmann::json::array();
  for (const auto& w : p.walls) {
    nlohmann::json wj{{"wall", w.label}};
    if (w.law) wj["law"] = law_json(*w.law);
    j["walls"].push_back(wj);
  }
  j["defaults_applied"] = defaults;
  return j;
}

// "is my timestep safe?": the script's timestep against the exact limit of its integrator.
struct TimestepCheck {
  std::string verdict, text;
  nlohmann::json json;
};

TimestepCheck check_timestep(const packing::LammpsInput& in, const packing::PackingReport& report, double margin,
                             const std::string& histories) {
  TimestepCheck c;
  const double dt = in.timestep;
  const std::string dt_from = in.timestep_default ? "LAMMPS' default for units si: the script has no timestep line"
                                                  : "the script's timestep";
  c.json = {{"timestep", dt}, {"timestep_unit", "s"}, {"timestep_source", dt_from}, {"integrator", in.integrator},
            {"state", "the packing of the data file as it is, " + histories}};
  const packing::PackingIntegratorLimit* lim = nullptr;
  for (const auto& l : report.integrators)
    if (l.name == in.integrator) lim = &l;
  std::string detail;
  if (lim == nullptr || (lim->stability == Stability::conditional && !lim->converged)) {
    c.verdict = "UNKNOWN";
    detail = fmt::format("the limit of {} did not converge; no verdict", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else if (lim->stability == Stability::unconditional) {
    c.verdict = "SAFE";
    detail = fmt::format("{} is unconditionally stable on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = 0.0;
  } else if (lim->stability == Stability::unstable) {
    c.verdict = "UNSAFE";
    detail = fmt::format("{} is unstable at every step on this packing", in.integrator);
    c.json["h_crit"] = nullptr;
    c.json["ratio"] = nullptr;
  } else {
    const double ratio = dt / lim->h_crit;
    c.json["h_crit"] = lim->h_crit;
    c.json["ratio"] = ratio;
    c.verdict = ratio < 1.0 ? "SAFE" : "UNSAFE";
    detail = ratio < 1.0 ? fmt::format("timestep is {:.3g} of the critical step", ratio)
                         : fmt::format("timestep is {:.3g} times the critical step: {} blows up", ratio, in.integrator);
    if (ratio < 1.0 && ratio > margin)
      detail += fmt::format(" (above the recommended margin {:g}: the limit holds for this state only)", margin);
    c.text = fmt::format("  timestep                    {:.6g} s ({})\n  h_crit {:<20} {:.6g} s\n"
                         "  timestep / h_crit           {:.6g}\n",
                         dt, dt_from, in.integrator, lim->h_crit, ratio);
  }
  if (c.text.empty()) c.text = fmt::format("  timestep                    {:.6g} s ({})\n", dt, dt_from);
  c.json["verdict"] = c.verdict;
  c.json["message"] = c.verdict + ": " + detail;
  c.text = fmt::format("\nis the timestep of {} safe? ({} = LAMMPS' fix nve/sphere; h_crit is for the packing's current "
                       "state: {})\n{}{}: {}\n",
                       in.path, in.integrator, histories, c.text, c.verdict, detail);
  return c;
}

std::string histories_text(const std::optional<packing::ContactHistorySummary>& h, const std::vector<std::string>& files) {
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

void run(const PackingOptions& o) {
  const int sources = !o.lattice.empty() + !o.data_file.empty() + !o.dump_file.empty() + !o.lammps_input.empty();
  if (!o.lammps_input.empty()) {
    // Everything the script gives is an error when given again on the command line.
    const std::pair<const char*, const char*> supplied[] = {
        {"--lattice", "the packing (read_data)"}, {"--lammps-data", "the packing (read_data)"},
        {"--lammps-dump", "the packing (read_data)"}, {"--kn", "the law (pair_style, pair_coeff)"},
        {"--kt", "the law (pair_style, pair_coeff)"}, {"--gamma-n", "the law (pair_style, pair_coeff)"},
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
  const bool law_given = !o.lammps_pair.empty() || !o.hertz_mindlin.empty();
  if (!o.lammps_input.empty()) {
  } else if (law_given) {
    if (o.kn || o.kt || o.gamma_n || o.gamma_t)
      fail(fmt::format("{} gives the whole law: drop --kn, --kt, --gamma-n and --gamma-t",
                       o.lammps_pair.empty() ? "--hertz-mindlin" : "--lammps-pair"));
  } else {
    if (!o.kn) fail("--kn (normal stiffness [N/m]) is required, or the law as --lammps-pair");
    if (!o.kt) fail("--kt (tangential stiffness [N/m]) is required, or the law as --lammps-pair");
  }
  if (o.lattice.empty()) {
    for (const char* opt : {"--radius", "--compression", "--radius-spread", "--seed"})
      reject_unread(o, opt, "applies to --lattice only; a file gives the radii and positions");
    if (!o.data_file.empty()) reject_unread(o, "--density", "is not read with --lammps-data: the data file gives the densities");
    if (o.dimension == 3) reject_unread(o, "--disc", "applies to 2D packings only (--dimension 2)");
  } else {
    reject_unread(o, "--dimension", "applies to files only; a lattice's dimension is its kind (square, hex: 2D)");
    if (o.radius_spread == 0.0) reject_unread(o, "--seed", "is only read with --radius-spread");
    if (packing::lattice_dimension(packing::parse_lattice(o.lattice)) == 3)
      reject_unread(o, "--disc", "applies to 2D lattices only (square, hex)");
  }
  if (o.eigensolver != "spectra") reject_unread(o, "--ncv", "is Spectra's basis size: it needs --eigensolver spectra");
  // Every output is checked before the computation and written only once the report is complete.
#ifdef DTCRIT_WITH_MPI
  // The distributed build answers with SLEPc on every rank (also a single one) unless a serial solver is
  // named; a serial solver runs on rank 0 alone.
  const bool parallel = o.eigensolver == "auto" || o.eigensolver == "slepc";
  if (!parallel) reject_unread(o, "--operator", "applies to the distributed analysis (--eigensolver auto or slepc) only");
  if (!parallel && distributed::rank() != 0) return;
  if (parallel) {
    reject_unread(o, "--confirm", "is not available in the distributed analysis (mpirun): run without mpirun");
    reject_unread(o, "--lammps-contacts", "(contact histories) is not read by the distributed analysis (mpirun): run "
                                          "without mpirun");
  }
  auto on_root = [&](const std::function<void()>& f) {
    if (parallel) distributed::collectively(f, true);
    else f();
  };
#else
  if (o.eigensolver == "slepc")
    fail("--eigensolver slepc needs the distributed build (cmake --preset distributed; mpirun -np P dtcrit packing ...)");
  const bool parallel = false;
  auto on_root = [](const std::function<void()>& f) { f(); };
#endif
  OutputFiles files;
  on_root([&] { files.declare("--output", o.output); });
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto t_start = std::chrono::steady_clock::now();
  auto progress = [&](std::string_view what) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::cerr << fmt::format("[{:8.2f} s] {}\n", s, what) << std::flush;
  };

  // The input stage: on rank 0 alone in the distributed build (which scatters the packing), with its
  // errors raised on every rank.
  packing::Packing p;
  bool lattice = false;
  std::optional<packing::LammpsInput> script;
  std::vector<std::string> defaults;
  packing::ContactLaws laws;
  std::string bound_warning, history_line;
  packing::ContactSet contacts;
  std::optional<packing::ContactHistorySummary> histories;
  on_root([&] {
    if (!o.lammps_input.empty()) {
      progress("reading the LAMMPS input script and its data file");
      script = packing::read_lammps_input(o.lammps_input);
      p = script->packing;
      packing::sort_spatially(p);
    } else if (!o.lattice.empty()) {
      if (o.n < 1) fail("--lattice needs --n (unit cells per side, >= 1)");
      packing::LatticeSpec spec;
      spec.kind = packing::parse_lattice(o.lattice);
      spec.n = o.n;
      spec.radius = o.radius;
      spec.density = o.density;
      spec.compression = o.compression;
      spec.radius_spread = o.radius_spread;
      spec.seed = o.seed;
      spec.body_model = o.disc ? packing::BodyModel::disc : packing::BodyModel::sphere;
      spec.periodic = true;
      progress(fmt::format("building the {} lattice", o.lattice));
      p = packing::make_lattice(spec);
      if (!o.periodic.empty()) {
        p.periodic = parse_periodic(o.periodic);
        p.source = fmt::format("{} lattice, {} cells per side, periodic: {}", o.lattice, o.n, o.periodic);
      }
      for (int d = p.dim; d < 3; ++d) p.periodic[d] = false;
      if (o.box_walls && o.periodic != "none") fail("--box-walls needs --periodic none");
      lattice = true;
    } else {
      if (o.n != 0) fail("--n applies to --lattice only");
      if (o.box_walls) fail("--box-walls applies to --lattice only");
      packing::ReadOptions ro;
      ro.dimension = o.dimension;
      ro.body_model = o.disc ? packing::BodyModel::disc : packing::BodyModel::sphere;
      if (!o.periodic.empty()) ro.periodic = parse_periodic(o.periodic);
      if (!o.dump_file.empty()) ro.density = o.density;
      progress("reading the packing");
      p = o.data_file.empty() ? packing::read_lammps_dump(o.dump_file, ro) : packing::read_lammps_data(o.data_file, ro);
      packing::sort_spatially(p);  // files come in atom-id order; the operator wants neighbours close
    }

    const double gamma_n = o.gamma_n.value_or(0.0);
    if (!law_given && !script) {
      if (!o.gamma_t && gamma_n > 0.0)
        defaults.push_back(fmt::format("gamma_t = {:g} gamma_n (not given; LAMMPS' gran/hooke/history with NULL)", default_ct_ratio));
      if (gamma_n == 0.0 && !o.gamma_t) defaults.push_back("gamma_n = gamma_t = 0 (no damping given)");
    }
    if (script) laws = script->laws;
    else laws.base = !o.hertz_mindlin.empty() ? contact::parse_hertz_mindlin(o.hertz_mindlin, "--hertz-mindlin")
                : o.lammps_pair.empty()
                    ? contact::validated(contact::hooke_history(*o.kn, *o.kt, gamma_n,
                                                                o.gamma_t.value_or(default_ct_ratio * gamma_n), 0.0))
                    : contact::parse_lammps_pair(o.lammps_pair, "--lammps-pair");
    for (const auto& s : o.type_laws) {
      auto [key, law] = parse_type_law(s, laws.base);
      if (!laws.by_types.emplace(key, law).second)
        fail(fmt::format("--type-law for types {}-{} is given twice", key.first, key.second));
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
      packing::add_box_walls(p, wall_overlap);
    }
    for (const auto& w : o.walls) p.walls.push_back(packing::parse_wall(w, p, laws.base));

    if (script && script->timestep_default)
      defaults.push_back(fmt::format("timestep {:g} s (LAMMPS' default for units si; the script has none)", script->timestep));
    if (o.periodic.empty() && !script)
      defaults.push_back(lattice ? "periodic in every axis (lattice default)"
                         : !o.data_file.empty() ? "no periodic axis (data files do not record it)"
                                                : "periodic axes from the dump's BOX BOUNDS");
    bound_warning = o.data_file.empty() ? "" : box_bound_warning(p);

    packing::ContactOptions co;
    co.gap_tolerance = o.gap_tolerance.value_or(lattice ? 1e-9 : 0.0);
    if (!o.gap_tolerance) defaults.push_back(fmt::format("contact gap tolerance {:g}", co.gap_tolerance));
    progress(fmt::format("finding the contacts of {} particles", p.size()));
    contacts = packing::find_contacts(p, laws, co);
    if (!o.lammps_contacts.empty()) {
      progress("reading the contact histories");
      histories = packing::read_lammps_contacts(o.lammps_contacts, p, contacts,
                                                script ? script->computes : std::map<std::string, std::vector<std::string>>{});
    }
    history_line = histories_text(histories, o.lammps_contacts);
  });

  packing::PackingAnalysisOptions ao;
  ao.integrators = expand_integrator_specs(o.integrators);
  if (script && std::find(ao.integrators.begin(), ao.integrators.end(), script->integrator) == ao.integrators.end())
    ao.integrators.push_back(script->integrator);  // the script's own integrator answers its question
  if (o.youngs || o.poisson) {
    if (!o.youngs || !o.poisson) fail("the material heuristics need both --youngs and --poisson");
    ao.material = packing::PackingMaterial{*o.youngs, *o.poisson};
  }
  ao.eigen.tolerance = require_positive("--lanczos-tol", o.lanczos_tol);
  ao.amplification_dofs = o.amplification_dofs;
  ao.progress = progress;
  std::optional<packing::GlobalSystem> sys;
  packing::PackingReport report;
#ifdef DTCRIT_WITH_MPI
  std::optional<distributed::DistributedReport> dist;
  if (parallel) {
    distributed::DistributedOptions dopt;
    dopt.analysis = ao;
    dopt.rotation = !o.no_rotation;
    dopt.geometric_stiffness = o.geometric_stiffness;
    dopt.op = distributed::parse_operator_kind(o.operator_kind);
    dist = distributed::analyse_distributed(&p, &contacts, dopt);
    if (distributed::rank() != 0) return;  // rank 0 writes the report
    report = dist->report;
  }
#endif
  if (!parallel) {
    progress(fmt::format("assembling the global system ({} contacts)", contacts.contacts.size()));
    sys.emplace(p, std::move(contacts), !o.no_rotation, o.geometric_stiffness);
    ao.eigen.method = packing::parse_eigen_method(o.eigensolver);
    ao.eigen.ncv = o.ncv;
    report = packing::analyse_packing(p, *sys, ao);
  }

  if (lattice) {  // the lattice inputs that set the answer, defaults marked
    report.inputs.push_back({"radius", o.radius, "m", !o.given.count("--radius")});
    report.inputs.push_back({"density", o.density, "kg/m^3", !o.given.count("--density")});
    report.inputs.push_back({"compression", o.compression, "", !o.given.count("--compression")});
  }
  nlohmann::json confirmation = nlohmann::json::array();
  std::string confirmation_text;
  if (o.confirm_steps > 0) {
    // The stepper with the same law, mu so large that every contact sticks, from a perturbation of
    // 1e-4 of the smallest overlap.
    packing::ContactLaws sticking = laws;
    for (contact::ContactLaw* law : {&sticking.base}) {
      law->mu = 1e6;
      if (law->rolling != contact::RollingModel::none) law->mu_roll = 1e6;
      if (law->twisting == contact::TwistingModel::sds) law->mu_twist = 1e6;
    }
    double dmin = std::numeric_limits<double>::infinity();
    for (const auto& c : sys->contacts().contacts) dmin = std::min(dmin, c.overlap);
    if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
    // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth
    // measure (separation from an unperturbed run) takes out.
    const double residual = packing::equilibrium_residual(p, sticking);
    confirmation_text = fmt::format(
        "\nconfirmation with the reference stepper: growth of the separation between a run perturbed by 1e-4 of\n"
        "the smallest overlap and an unperturbed one (initial force residual {:.2g} kn x smallest overlap{}):\n",
        residual, residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out");
    std::size_t runs = 0, done = 0;
    for (const auto& lim : report.integrators) runs += lim.stability == Stability::conditional ? 2 : 0;
    const auto confirm_start = std::chrono::steady_clock::now();
    for (const auto& lim : report.integrators) {
      if (lim.stability != Stability::conditional || !lim.converged) continue;
      for (double f : {0.99, 1.01}) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - confirm_start).count();
        progress(fmt::format("stepper: {} at {} h_crit (run {}/{}{}{})", lim.name, f, done + 1, runs,
                             done ? ", " : "", time_left(spent, done, runs)));
        ++done;
        const auto run = packing::confirm_with_stepper(p, sticking, lim.name, lim.h_crit, f, o.confirm_steps, 1e-4 * dmin,
                                                       7, 0.0, &sys->contacts());
        confirmation.push_back({{"integrator", run.integrator}, {"factor", run.factor}, {"h", run.h},
                                {"steps", run.steps}, {"growth", std::isfinite(run.growth) ? nlohmann::json(run.growth) : nlohmann::json(nullptr)},
                                {"unconverged_steps", run.unconverged_steps},
                                {"equilibrium_residual", residual}});
        confirmation_text += fmt::format("  {:<24} {:.2f} h_crit = {:.6g} s: {} steps, max growth {:.4g}{}\n", run.integrator,
                                         run.factor, run.h, run.steps, run.growth,
                                         run.unconverged_steps ? fmt::format(" (SOLVER FAILURE: Newton did not converge "
                                                                             "in {} steps)", run.unconverged_steps)
                                                               : "");
      }
    }
    if (confirmation.empty()) confirmation_text += "  none of the integrators is conditionally stable: nothing to confirm\n";
  }
  progress("done");
  if (!bound_warning.empty()) std::cerr << "dtcrit: warning: " << bound_warning << "\n";
  const auto rec = recommend_from(report.integrators, o.margin);
  std::optional<TimestepCheck> dt_check;
  if (script) dt_check = check_timestep(*script, report, o.margin, history_line);
  std::string text;
  if (o.json) {
    nlohmann::json j = to_json(report);
#ifdef DTCRIT_WITH_MPI
    if (dist) j = distributed::to_json(*dist);
#endif
    j["inputs"] = inputs_json(p, laws, defaults);
    nlohmann::json hj{{"read", histories.has_value()}, {"summary", history_line}};
    if (histories) {
      hj["files"] = o.lammps_contacts;
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
    if (script) {
      j["lammps_input"] = {{"path", script->path}, {"data_file", script->data_file}, {"taken", script->taken},
                           {"skipped", script->skipped}};
      j["timestep_check"] = dt_check->json;
    }
    if (!bound_warning.empty()) j["warnings"] = {bound_warning};
    if (o.confirm_steps > 0) j["confirmation"] = confirmation;
    if (rec) j["recommended_step"] = to_json(*rec);
    text = j.dump(2) + "\n";
  } else {
    std::string head;
    if (script) {
      head = fmt::format("LAMMPS input {}: the lines read\n", script->path);
      for (const auto& t : script->taken) head += "  " + t + "\n";
      head += "  skipped (no effect on the step): " + (script->skipped.empty() ? std::string("none") : fmt::format("{}", fmt::join(script->skipped, ", "))) + "\n\n";
    }
    head += history_line + "\n";
    if (histories) {
      for (const auto& note : histories->notes) head += "  note: " + note + "\n";
    }
    text = head + inputs_text(p, laws, defaults) + format_packing_table(report) + confirmation_text;
#ifdef DTCRIT_WITH_MPI
    if (dist) text += distributed::format_distributed(*dist);
#endif
    if (!bound_warning.empty()) text += "\nwarning: " + bound_warning + "\n";
    if (rec) text += "\n" + format_recommendation(*rec);
    if (dt_check) text += dt_check->text;
  }
  if (o.output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  files.write_text(o.output, text);
  files.commit();
}

}  // namespace

void add_packing_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("packing", "critical time-steps of a whole packing (lattice or LAMMPS file)");
  auto o = std::make_shared<PackingOptions>();
  cmd->add_option("--lattice", o->lattice, "regular lattice: square, hex (2D discs), sc, bcc, fcc (3D spheres)");
  cmd->add_option("--n", o->n, "lattice unit cells per side (square, sc: 1 particle per cell; hex, bcc: 2; fcc: 4)");
  cmd->add_option("--lammps-data", o->data_file, "LAMMPS data file (write_data, atom_style sphere)");
  cmd->add_option("--lammps-dump", o->dump_file, "LAMMPS text dump with radius (or diameter) and positions; last snapshot");
  cmd->add_option("--lammps-input", o->lammps_input,
                  "your LAMMPS input script (units si): read_data, boundary, pair_style/pair_coeff, fix wall/gran "
                  "planes, timestep, fix nve/sphere; answers whether its timestep is safe for the packing");
  cmd->add_option("--lammps-contacts", o->lammps_contacts,
                  "contact histories: a local dump of compute property/local patom1 patom2 + compute pair/local dist "
                  "force p1 p2 p3 [p5 p6 p7], or a per-atom dump of fix wall/gran ... contacts (f_ID[1..8]); repeatable");
  cmd->add_option("--radius", o->radius, "lattice particle radius [m]")->capture_default_str();
  cmd->add_option("--density", o->density, "lattice density, or density for a dump without a mass column [kg/m^3]")
      ->capture_default_str();
  cmd->add_option("--compression", o->compression,
                  "lattice: nearest-neighbour distance 2r(1 - c), so every contact overlaps by 2rc")
      ->capture_default_str();
  cmd->add_option("--radius-spread", o->radius_spread, "lattice: radii r(1 + s U(-1,1)) (polydisperse)")
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of --radius-spread")->capture_default_str();
  cmd->add_option("--dimension", o->dimension, "files: 2 (discs, z dropped) or 3")->capture_default_str();
  cmd->add_flag("--disc", o->disc,
                "2D bodies as discs: m = rho pi r^2, I = m r^2 / 2 (LAMMPS set density/disc, fix nve/sphere disc); "
                "default: LAMMPS' sphere mass and inertia");
  auto* lammps_opt = cmd->add_option("--lammps-pair", o->lammps_pair,
                  "the contact law in LAMMPS' syntax instead of --kn ...: \"gran/hertz/history 1e9 NULL 1e4 NULL 0.5 "
                  "1\" or \"granular hertz/material 7e10 0.3 0.3 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 50 "
                  "0.3\"; linearised at each contact's overlap");
  cmd->add_flag("--geometric-stiffness", o->geometric_stiffness,
                "add the turning of each contact normal under its normal force (-F_n/|x_i - x_j| across the normal)");
  auto* kn_opt = cmd->add_option("--kn", o->kn, "normal stiffness k_n [N/m] (LAMMPS gran/hooke/history)");
  cmd->add_option("--hertz-mindlin", o->hertz_mindlin,
                  "Hertz-Mindlin as EDEM and LIGGGHTS define it, E=PA,nu=NU,e=RESTITUTION,mu=MU (instead of --kn ... "
                  "or --lammps-pair); linearised at each contact's overlap")
      ->excludes(lammps_opt)
      ->excludes(kn_opt);
  cmd->add_option("--kt", o->kt, "tangential stiffness k_t [N/m]");
  cmd->add_option("--gamma-n", o->gamma_n, "normal damping per unit effective mass [1/s]: c_n = m_eff gamma_n (default 0)");
  cmd->add_option("--gamma-t", o->gamma_t, "tangential damping per unit effective mass [1/s] (default gamma_n / 2, "
                                           "as LAMMPS' gran/hooke/history with NULL)");
  cmd->add_option("--margin", o->margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--type-law", o->type_laws,
                  "law of one pair of atom types, e.g. types=1-2,kn=2e5,kt=1e5 (other keys: gamma_n, gamma_t; "
                  "keys not given are the base law's); repeatable");
  cmd->add_option("--periodic", o->periodic,
                  "periodic axes, e.g. x,y, or none (lattices default to all, data files to none, dumps to BOX BOUNDS)");
  cmd->add_option("--wall", o->walls,
                  "plane wall, e.g. z=0 (faces the packing) or z=0,kn=1e6,kt=5e5; repeatable");
  cmd->add_option("--gap-tolerance", o->gap_tolerance,
                  "contact when |x_i - x_j| < (r_i + r_j)(1 + tol) (default 1e-9 for lattices, 0 for files)");
  cmd->add_flag("--no-rotation", o->no_rotation, "translational degrees of freedom only");
  cmd->add_option("--integrator", o->integrators,
                  "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
  cmd->add_option("--youngs", o->youngs, "Young's modulus E [Pa], for the Rayleigh and P-wave times");
  cmd->add_option("--poisson", o->poisson, "Poisson ratio nu, for the Rayleigh time");
  cmd->add_flag("--box-walls", o->box_walls,
                "lattice with --periodic none: six (four) walls pressed in by the compression overlap 2 r c, so that a "
                "compressed sc or square lattice is in equilibrium");
  cmd->add_option("--confirm", o->confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("-o,--output", o->output, "write to this file instead of the terminal");
  cmd->add_option("--lanczos-tol", o->lanczos_tol, "relative residual tolerance of the iterative eigensolvers")->capture_default_str();
  cmd->add_option("--eigensolver", o->eigensolver,
                  "omega_max by: auto (dense up to 600 dofs, else lanczos; the distributed build: slepc), dense, "
                  "lanczos (three-term, matrix-free), spectra (Spectra's restarted Lanczos, matrix-free), slepc "
                  "(distributed build, mpirun -np P: SLEPc Krylov-Schur over ranks)")
      ->capture_default_str();
#ifdef DTCRIT_WITH_MPI
  cmd->add_option("--operator", o->operator_kind,
                  "distributed analysis: the operator M^-1/2 K M^-1/2 as shell (matrix-free over GlobalSystem, "
                  "default) or assembled (PETSc MPIAIJ)")
      ->capture_default_str();
#endif
  cmd->add_option("--ncv", o->ncv, "Spectra's Lanczos basis size (--eigensolver spectra)")->capture_default_str();
  cmd->add_option("--amplification-dofs", o->amplification_dofs,
                  "damped packings up to this many dofs: amplification matrix for every integrator")
      ->capture_default_str();
  cmd->footer(
      "Damping: --gamma-n sets the normal dashpot per unit effective mass; without --gamma-t, gamma_t = gamma_n / 2 "
      "(LAMMPS' gran/hooke/history with NULL), also in --type-law and --wall. The report starts with "
      "the effective inputs and the defaults applied, and ends with the recommended step. --lammps-pair gives the "
      "whole law in LAMMPS' syntax instead.");
  cmd->callback([o, cmd] {
    for (const CLI::Option* opt : cmd->get_options())
      if (opt->count() > 0) o->given.insert(opt->get_name());
    run(*o);
  });
}

}  // namespace dtcrit::cli
