#include "dtcrit/packing/lammps_probe.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/packing/confirmation.hpp"

namespace dtcrit::packing {

namespace {

bool classic(const contact::ContactLaw& law) { return law.style != contact::Style::granular; }

// "kn kt gamma_n gamma_t mu 1 [limit_damping]": the arguments of the classic pair styles and of
// fix wall/gran's hooke, hooke/history and hertz/history (every value explicit, dampflag 1).
std::string classic_arguments(const contact::ContactLaw& law, double mu_override) {
  const double mu = mu_override >= 0.0 ? mu_override : law.mu;
  return fmt::format("{} {} {} {} {} 1{}", law.kn, law.kt, law.damping_coefficient, law.tangential_damping, mu,
                     law.limit_damping ? " limit_damping" : "");
}

// "xplane LO NULL" for a wall whose particles lie on the + side of x = LO, "xplane NULL HI" for -.
std::string wall_plane(const PlaneWall& w) {
  for (int d = 0; d < 3; ++d) {
    if (std::abs(std::abs(w.normal[d]) - 1.0) > 1e-12) continue;
    const double at = w.point[d];
    return w.normal[d] > 0.0 ? fmt::format("{}plane {} NULL", "xyz"[d], at) : fmt::format("{}plane NULL {}", "xyz"[d], at);
  }
  fail(fmt::format("wall {}: only walls normal to x, y or z are LAMMPS' fix wall/gran planes", w.label));
}

}  // namespace

std::vector<std::string> lammps_law_commands(const Packing& p, const ContactLaws& laws, const std::string& pair_text,
                                             double mu_override) {
  if (!p.region_walls.empty())
    fail(fmt::format("region wall '{}': the probe script repeats fix wall/gran planes only (it would need the region "
                     "commands and their rotate/move variables), so lammps-check refuses packings with region walls",
                     p.region_walls.front().name));
  std::vector<std::string> out;
  const contact::ContactLaw& base = laws.base;
  std::string granular_models;  // pair_coeff's models, from the user's own text
  if (classic(base)) {
    if (!laws.by_types.empty())
      fail(fmt::format("per-type laws (--type-law) cannot be run by LAMMPS' {}: its coefficients are the pair style's, "
                       "one law for every type (give pair_style granular with pair_coeff I J in --lammps-input)",
                       contact::to_string(base.style)));
    out.push_back(fmt::format("pair_style {} {}", contact::to_string(base.style), classic_arguments(base, mu_override)));
    out.emplace_back("pair_coeff * *");
  } else {
    const auto words = split_words(pair_text);
    if (words.empty() || words.front() != "granular")
      fail("the law is not in LAMMPS' syntax (--hertz-mindlin is EDEM's and LIGGGHTS' Hertz-Mindlin, which LAMMPS 29 "
           "Sep 2021 does not have): give it as --lammps-pair \"granular ...\" or --kn/--kt");
    if (!laws.by_types.empty())
      fail("per-type laws (--type-law) with a granular law: give the script with its pair_coeff I J lines (--lammps-input)");
    for (std::size_t k = 1; k < words.size(); ++k) granular_models += (k > 1 ? " " : "") + words[k];
    out.emplace_back("pair_style granular");
    out.push_back("pair_coeff * * " + granular_models);
  }
  for (std::size_t w = 0; w < p.walls.size(); ++w) {
    const PlaneWall& wall = p.walls[w];
    const contact::ContactLaw& law = wall.law ? *wall.law : base;
    std::string style;
    if (classic(law)) {
      const std::string name(contact::to_string(law.style));
      style = name.substr(name.find('/') + 1) + " " + classic_arguments(law, mu_override);  // gran/hooke -> hooke
    } else if (!wall.law) {
      // fix wall/gran converts hertz/material and a NULL Mindlin kt its own way (lammps_input.hpp, packing/README.md).
      // The same for dmt and jkr, which take E, nu as hertz/material does (tests/data/lammps_cohesive).
      if (base.normal == contact::NormalModel::hertz_material || contact::cohesive(base))
        fail(fmt::format("wall {}: fix wall/gran granular {} stores another stiffness than the pair style "
                         "(packing/README.md); give the walls in a LAMMPS script (--lammps-input)",
                         wall.label, contact::to_string(base.normal)));
      style = "granular " + granular_models;
    } else {
      fail(fmt::format("wall {}: a granular wall law of its own is not expressible here; give the walls in a LAMMPS "
                       "script (--lammps-input)",
                       wall.label));
    }
    out.push_back(fmt::format("fix dtcrit_wall{} all wall/gran {} {}", w + 1, style, wall_plane(wall)));
  }
  return out;
}

namespace {

std::string number_text(double v) { return fmt::format("{:.17g}", v); }

// "region NAME STYLE ARGS side in|out [open N ...] units box [rotate ...] [move ...]" for one region
// (its members first, for a union or intersection), with the variables its transform reads.
void add_region_commands(const RegionWall& w, const std::string& name, std::vector<std::string>& out) {
  std::string args;
  const auto n = number_text;
  switch (w.style) {
    case RegionStyle::plane:
      args = fmt::format("{} {} {} {} {} {}", n(w.point.x()), n(w.point.y()), n(w.point.z()), n(w.normal.x()),
                         n(w.normal.y()), n(w.normal.z()));
      break;
    case RegionStyle::block:
      args = fmt::format("{} {} {} {} {} {}", n(w.lo.x()), n(w.hi.x()), n(w.lo.y()), n(w.hi.y()), n(w.lo.z()), n(w.hi.z()));
      break;
    case RegionStyle::cylinder:
      args = fmt::format("{} {} {} {} {} {}", "xyz"[w.axis], n(w.c1), n(w.c2), n(w.radius), n(w.axis_lo), n(w.axis_hi));
      break;
    case RegionStyle::cone:
      args = fmt::format("{} {} {} {} {} {} {}", "xyz"[w.axis], n(w.c1), n(w.c2), n(w.radius_lo), n(w.radius_hi),
                         n(w.axis_lo), n(w.axis_hi));
      break;
    case RegionStyle::sphere:
      args = fmt::format("{} {} {} {}", n(w.centre.x()), n(w.centre.y()), n(w.centre.z()), n(w.radius));
      break;
    case RegionStyle::union_of:
    case RegionStyle::intersection: {
      args = std::to_string(w.members.size());
      for (std::size_t k = 0; k < w.members.size(); ++k) {
        const std::string member = fmt::format("{}_dtcrit_{}", name, k + 1);
        add_region_commands(w.members[k], member, out);
        args += " " + member;
      }
      break;
    }
  }
  std::string keywords = fmt::format(" side {} units box", w.interior ? "in" : "out");
  for (std::size_t f = 0; f < w.open.size(); ++f)
    if (w.open[f]) keywords += fmt::format(" open {}", f + 1);
  if (w.rotated) {
    out.push_back(fmt::format("variable        {}_angle equal {}", name, n(w.angle)));
    keywords += fmt::format(" rotate v_{}_angle {} {} {} {} {} {}", name, n(w.rotation_point.x()), n(w.rotation_point.y()),
                            n(w.rotation_point.z()), n(w.rotation_axis.x()), n(w.rotation_axis.y()),
                            n(w.rotation_axis.z()));
  }
  if (w.displacement != Vec3::Zero()) {
    for (int d = 0; d < 3; ++d)
      out.push_back(fmt::format("variable        {}_d{} equal {}", name, "xyz"[d], n(w.displacement[d])));
    keywords += fmt::format(" move v_{0}_dx v_{0}_dy v_{0}_dz", name);
  }
  out.push_back(fmt::format("region          {} {} {}{}", name, to_string(w.style), args, keywords));
}

}  // namespace

std::vector<std::string> lammps_region_commands(const Packing& p) {
  std::vector<std::string> out;
  for (const RegionWall& w : p.region_walls) add_region_commands(w, w.name, out);
  return out;
}

bool probe_discs(const Packing& p) {
  int discs = 0;
  for (Index i = 0; i < p.size(); ++i) {
    const double r = p.radius[static_cast<std::size_t>(i)], m = p.mass[static_cast<std::size_t>(i)];
    const double ratio = p.inertia[static_cast<std::size_t>(i)] / (m * r * r);
    if (std::abs(ratio - contact::disc_inertia(1.0, 1.0)) <= 1e-9) ++discs;
    else if (std::abs(ratio - contact::sphere_inertia(1.0, 1.0)) > 1e-9)
      fail(fmt::format("particle {}: inertia {} kg m^2 is neither a sphere's 2/5 m r^2 nor a disc's 1/2 m r^2, the "
                       "two of LAMMPS' fix nve/sphere", p.atom_id(i), p.inertia[static_cast<std::size_t>(i)]));
  }
  if (discs > 0 && (discs < p.size() || p.dim != 2))
    fail("LAMMPS' fix nve/sphere disc takes every particle as a disc, in 2D: give one body model for all");
  return discs > 0;
}

ProbeContacts probe_contacts(const Packing& p, const ContactSet& contacts) {
  ProbeContacts out;
  double smallest = std::numeric_limits<double>::infinity(), gap = 0.0;
  for (const auto& contact : contacts.contacts) {
    if (contact.overlap > 0.0) {
      smallest = std::min(smallest, contact.overlap);
    } else if (contacts.held_open(contact)) {
      ++out.open_cohesive;
      gap = std::max(gap, contact.j >= 0 ? -0.5 * contact.overlap : -contact.overlap);  // a pair: both radii grow
    } else {
      fail("the probe needs every contact closed (overlap > 0): LAMMPS does not see a contact at zero overlap; "
           "compress the packing or lower --gap-tolerance");
    }
  }
  if (!std::isfinite(smallest)) fail("the probe needs at least one closed contact (overlap > 0)");
  out.smallest_overlap = smallest;
  if (out.open_cohesive > 0)
    out.touch_growth = 1.01 * gap + 1e-6 * *std::min_element(p.radius.begin(), p.radius.end());
  return out;
}

int probe_initialisations(const std::string& script) {
  std::istringstream in(script);
  int count = 0;
  for (std::string line; std::getline(in, line);) {
    const auto w = split_words(line);
    count += !w.empty() && (w[0] == "run" || w[0] == "write_data");
  }
  return count;
}

double tsuji_restitution_for(double coefficient, int inits) {
  // The polynomial falls from 1.2728 at 0 to 0.0003 at 1.
  const double lo = contact::tsuji_polynomial(1.0), hi = contact::tsuji_polynomial(0.0);
  double y = coefficient;
  for (int k = 0; k < inits; ++k) {
    if (!(y >= lo && y <= hi))
      fail(fmt::format("no tsuji restitution in [0, 1] gives the damping coefficient {:.6g} after {} conversions "
                       "(the polynomial's values lie in [{:.4g}, {:.4g}])", coefficient, inits, lo, hi));
    double a = 0.0, b = 1.0;
    for (int i = 0; i < 200 && b - a > 1e-16; ++i) {
      const double mid = 0.5 * (a + b);
      (contact::tsuji_polynomial(mid) > y ? a : b) = mid;
    }
    y = 0.5 * (a + b);
  }
  return y;
}

std::string with_tsuji_restitution(const std::string& fix_line, double e) {
  auto w = split_words(fix_line);
  if (w.size() < 8 || w[0] != "fix" || w[3].rfind("wall/gran", 0) != 0 || w[4] != "granular")
    fail(fmt::format("'{}' is not a fix wall/gran granular line", fix_line));
  w[7] = fmt::format("{:.17g}", e);  // MODEL C1 DAMP: the damping argument follows the first coefficient
  std::string out;
  for (const auto& word : w) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::vector<std::string> probe_wall_commands(const std::vector<std::string>& law_commands,
                                             const std::map<std::string, contact::ContactLaw>& wall_laws, int inits,
                                             std::vector<std::string>& notes) {
  std::vector<std::string> out = law_commands;
  for (auto& line : out) {
    const auto w = split_words(line);
    if (w.size() < 8 || w[0] != "fix" || w[3].rfind("wall/gran", 0) != 0 || w[4] != "granular") continue;
    const auto law = wall_laws.find(w[1]);
    if (law == wall_laws.end() || law->second.damping != contact::DampingModel::tsuji) continue;
    const double e = tsuji_restitution_for(law->second.damping_coefficient, inits);
    line = with_tsuji_restitution(line, e);
    notes.push_back(fmt::format("the probe writes fix {}'s tsuji restitution {} as {:.6g}: LAMMPS converts it at each "
                                "of the probe's {} initialisations (its run and write_data commands) to the damping "
                                "coefficient {:.6g} of the run analysed",
                                w[1], w[7], e, inits, law->second.damping_coefficient));
  }
  return out;
}

namespace {

// In granular models from `first` on (pair_coeff's or fix wall/gran granular's words), the friction
// coefficients: tangential MODEL [k_t] x_gamma_t mu (linear_nohistory has no k_t), rolling sds k g mu,
// twisting sds k g mu (twisting marshall takes the tangential mu). Returns how many it replaced.
int lift_granular_caps(std::vector<std::string>& w, std::size_t first, const std::string& mu) {
  int lifted = 0;
  for (std::size_t k = first; k + 1 < w.size(); ++k) {
    std::size_t at = 0;
    if (w[k] == "tangential") at = k + (w[k + 1] == "linear_nohistory" ? 3 : 4);
    else if ((w[k] == "rolling" || w[k] == "twisting") && w[k + 1] == "sds") at = k + 4;
    if (at == 0) continue;
    if (at >= w.size()) fail(fmt::format("'{}': {} {} lacks its friction coefficient", fmt::join(w, " "), w[k], w[k + 1]));
    w[at] = mu;
    ++lifted;
  }
  return lifted;
}

}  // namespace

std::vector<std::string> with_friction_caps_lifted(const std::vector<std::string>& law_commands, double mu,
                                                   std::vector<std::string>& notes) {
  const std::string m = fmt::format("{:g}", mu);
  std::vector<std::string> out;
  for (const auto& line : law_commands) {
    auto w = split_words(line);
    int lifted = 0;
    // pair_style gran/* Kn Kt gamma_n gamma_t xmu dampflag; fix ID G wall/gran[/region] hooke... the same
    // six after the style; pair_coeff I J and fix ... wall/gran[/region] granular: the models' keywords.
    if (w.size() >= 7 && w[0] == "pair_style" && w[1].rfind("gran/", 0) == 0) {
      w[6] = m, lifted = 1;
    } else if (w.size() >= 3 && w[0] == "pair_coeff") {
      lifted = lift_granular_caps(w, 3, m);
    } else if (w.size() >= 5 && w[0] == "fix" && w[3].rfind("wall/gran", 0) == 0) {
      if (w[4] == "granular") lifted = lift_granular_caps(w, 5, m);
      else if (w.size() >= 10) w[9] = m, lifted = 1;
    }
    out.push_back(lifted ? fmt::format("{}", fmt::join(w, " ")) : line);
    if (lifted)
      notes.push_back(fmt::format("--lift-caps: the probe writes '{}' as '{}'", line, out.back()));
  }
  return out;
}

double probe_kick_energy(const Packing& p, double amplitude) {
  double m_total = 0.0, rotation = 0.0;  // sum m, sum I / r^2
  for (std::size_t i = 0; i < p.mass.size(); ++i) {
    m_total += p.mass[i];
    rotation += p.inertia[i] / (p.radius[i] * p.radius[i]);
  }
  const int spins = p.dim == 3 ? 3 : 1;  // 2D: the spin about z only (fix enforce2d)
  return 0.5 * (m_total * p.dim + rotation * spins) * amplitude * amplitude / 3.0;
}

std::string probe_script(const Packing& p, const std::vector<std::string>& law_commands, const std::string& data_file,
                         const std::string& dump_file, const ProbeRun& run, double halt_energy,
                         const std::string& units) {
  std::string boundary;
  for (int d = 0; d < p.dim; ++d) boundary += p.periodic[d] ? " p" : " m";
  // LAMMPS' 2D wants z periodic: write_lammps_data's z extent [-r_max, r_max] keeps every image at
  // >= 2 r_max, where no granular pair touches (LAMMPS' pair styles need rsq < radsum^2).
  if (p.dim == 2) boundary += " p";
  double r_min = p.radius.front();
  for (double r : p.radius) r_min = std::min(r_min, r);
  const bool discs = probe_discs(p);
  std::string s = fmt::format(
      "# dtcrit lammps-check probe: fix nve/sphere (velocity Verlet) at {} x the predicted critical step from\n"
      "# {}{}; velocities and spins every {} steps in {}.\n"
      "units           {}\natom_style      sphere\ndimension       {}\nboundary       {}\nnewton          off\n"
      "comm_modify     vel yes\nread_data       {}\n",
      run.factor, data_file, run.kick > 0.0 ? ", perturbed" : ", from rest", run.dump_every, dump_file, units, p.dim,
      boundary, data_file);
  for (const auto& c : lammps_region_commands(p)) s += c + "\n";
  for (const auto& c : law_commands) s += c + "\n";
  s += fmt::format("fix             dtcrit_nve all nve/sphere{}\n", discs ? " disc" : "");
  if (p.dim == 2) s += "fix             dtcrit_2d all enforce2d\n";
  s += fmt::format(
      "compute         dtcrit_ke all ke\n"
      "compute         dtcrit_erot all erotate/sphere\n"
      "variable        dtcrit_energy equal c_dtcrit_ke+c_dtcrit_erot\n"
      "neighbor        {:.17g} bin\n"
      "neigh_modify    every 1 delay 0 check yes\n"
      "thermo          0\n"
      "fix             dtcrit_halt all halt 1 v_dtcrit_energy > {:.17g} error soft\n",
      0.2 * r_min, halt_energy);
  if (run.touch_growth > 0.0)
    s += fmt::format("# jkr contacts held open within their pull-off distance: touched once with radii grown by {0:.17g}\n"
                     "fix             dtcrit_radii all store/state 0 radius\n"
                     "variable        dtcrit_touch atom 2.0*(f_dtcrit_radii+{0:.17g})\n"
                     "set             group all diameter v_dtcrit_touch\n"
                     "run             0\n"
                     "variable        dtcrit_back atom 2.0*f_dtcrit_radii\n"
                     "set             group all diameter v_dtcrit_back\n"
                     "unfix           dtcrit_radii\n",
                     run.touch_growth);
  if (run.settle_steps > 0)
    s += fmt::format("# settle: LAMMPS rebuilds the contact histories the data file does not carry\n"
                     "timestep        {:.17g}\nrun             {}\nreset_timestep  0\n",
                     run.settle_h, run.settle_steps);
  if (!run.settled_data.empty()) s += fmt::format("write_data      {} nocoeff\n", run.settled_data);
  if (run.kick > 0.0) {
    s += "# the perturbation, added to the settled velocities\n";
    for (int d = 0; d < p.dim; ++d)
      s += fmt::format("variable        dtcrit_d{} atom random({:.17g},{:.17g},{})\n", "xyz"[d], -run.kick, run.kick,
                       run.seed + d);
    s += fmt::format("velocity        all set v_dtcrit_dx v_dtcrit_dy {} sum yes units box\n",
                     p.dim == 3 ? "v_dtcrit_dz" : "NULL");
    // Spins too, each component up to kick / r (a surface speed of kick): a limit set by rolling or
    // twisting dashpots is a relative rotation that a kick of the centres alone barely excites.
    // fix store/state 0 keeps the settled spins (and radii, which a variable cannot read), to which set
    // adds the random ones.
    s += "fix             dtcrit_spins all store/state 0 omegax omegay omegaz radius\n";
    for (int d = 0; d < 3; ++d) {
      const bool spins = p.dim == 3 || d == 2;
      s += fmt::format("variable        dtcrit_w{} atom f_dtcrit_spins[{}]{}\n", "xyz"[d], d + 1,
                       spins ? fmt::format("+random({:.17g},{:.17g},{})/f_dtcrit_spins[4]", -run.kick, run.kick, run.seed + 3 + d)
                             : std::string());
    }
    s += "set             group all omega v_dtcrit_wx v_dtcrit_wy v_dtcrit_wz\n"
         "unfix           dtcrit_spins\n";
  }
  s += fmt::format(
      "dump            dtcrit_v all custom {} {} id mass radius vx vy vz omegax omegay omegaz\n"
      "dump_modify     dtcrit_v sort id format float %.17g\n"
      "timestep        {:.17g}\n"
      "run             {}\n",
      run.dump_every, dump_file, run.h, run.steps);
  return s;
}

namespace {

// Frame by frame reader of the probe's dump (dump custom id mass radius vx vy vz omegax omegay omegaz).
class ProbeDump {
 public:
  explicit ProbeDump(const std::string& path) : path_(path), in_(path) {
    if (!in_) fail(fmt::format("{}: cannot open LAMMPS' dump (did the run start?)", path));
  }
  struct Atom {
    long id;
    double mass, radius;
    std::array<double, 6> v;
  };
  // The next frame, or false at the end of the file (a run that halted ends early).
  bool next(long& step, std::vector<Atom>& atoms) {
    std::string line;
    if (!getline(line)) return false;
    expect(line, "ITEM: TIMESTEP");
    const std::string step_text = word_line();
    step = parse_integer<long>(fmt::format("{}:{}: step", path_, line_), step_text);
    getline_or_fail(line);
    expect(line, "ITEM: NUMBER OF ATOMS");
    const double n = number(word_line(), "number of atoms");
    if (!(n >= 1.0 && n <= 1e9) || n != std::floor(n)) fail(fmt::format("{}:{}: bad number of atoms", path_, line_));
    getline_or_fail(line);
    expect(line, "ITEM: BOX BOUNDS");
    for (int k = 0; k < 3; ++k) getline_or_fail(line);
    getline_or_fail(line);
    expect(line, "ITEM: ATOMS id mass radius vx vy vz omegax omegay omegaz");
    atoms.resize(static_cast<std::size_t>(n));
    for (auto& a : atoms) {
      getline_or_fail(line);
      const auto w = split_words(line);
      if (w.size() != 9) fail(fmt::format("{}:{}: expected 9 columns, got '{}'", path_, line_, line));
      a.id = parse_integer<long>(fmt::format("{}:{}: id", path_, line_), w[0]);
      a.mass = number(w[1], "mass");
      a.radius = number(w[2], "radius");
      for (int k = 0; k < 6; ++k) a.v[k] = number(w[3 + k], "velocity");
    }
    return true;
  }
  const std::string& path() const { return path_; }

 private:
  bool getline(std::string& line) {
    ++line_;
    return static_cast<bool>(std::getline(in_, line));
  }
  void getline_or_fail(std::string& line) {
    if (!getline(line)) fail(fmt::format("{}:{}: the dump ends inside a frame", path_, line_));
  }
  std::string word_line() {
    std::string line;
    getline_or_fail(line);
    return line;
  }
  void expect(const std::string& line, const std::string& head) {
    if (line.rfind(head, 0) != 0) fail(fmt::format("{}:{}: expected '{}', got '{}'", path_, line_, head, line));
  }
  // A blown-up run prints nan or inf: a value beyond any bound.
  double number(const std::string& word, const char* what) {
    if (word.find("nan") != std::string::npos || word.find("inf") != std::string::npos)
      return std::numeric_limits<double>::infinity();
    return parse_number(fmt::format("{}:{}: {}", path_, line_, what), word);
  }
  std::string path_;
  std::ifstream in_;
  long line_ = 0;
};

}  // namespace

std::vector<SeparationFrame> read_probe_separation(const std::string& rest_dump, const std::string& perturbed_dump,
                                                   double inertia_factor) {
  ProbeDump ref(rest_dump), pert(perturbed_dump);
  std::vector<SeparationFrame> out;
  long step_ref = 0, step_pert = 0;
  std::vector<ProbeDump::Atom> a, b;
  while (ref.next(step_ref, a) && pert.next(step_pert, b)) {
    if (step_ref != step_pert || a.size() != b.size())
      fail(fmt::format("{} and {}: frames differ (step {} with {} atoms, step {} with {} atoms)", rest_dump,
                       perturbed_dump, step_ref, a.size(), step_pert, b.size()));
    SeparationFrame f{step_ref, 0.0, 0.0};
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].id != b[i].id)
        fail(fmt::format("{} and {}: step {}: atom {} against atom {} (the dumps must be sorted by id)", rest_dump,
                         perturbed_dump, step_ref, a[i].id, b[i].id));
      const double m = a[i].mass, inertia = inertia_factor * m * a[i].radius * a[i].radius;
      for (int k = 0; k < 6; ++k) {
        const double w = k < 3 ? m : inertia, d = b[i].v[k] - a[i].v[k];
        f.separation_energy += 0.5 * w * d * d;
        f.rest_energy += 0.5 * w * a[i].v[k] * a[i].v[k];
      }
    }
    if (!std::isfinite(f.separation_energy)) f.separation_energy = std::numeric_limits<double>::infinity();
    if (!std::isfinite(f.rest_energy)) f.rest_energy = std::numeric_limits<double>::infinity();
    out.push_back(f);
  }
  return out;
}

std::string_view to_string(ProbeCourse c) { return name_of(c, probe_course_names); }

namespace {

// The largest S over the frames at times in [t - window, t] (time = step x factor), for ascending t,
// in one pass over the frames (a sliding-window maximum: the deque holds the frames that can still
// be the largest, their S descending).
class SeparationEnvelope {
 public:
  SeparationEnvelope(const std::vector<SeparationFrame>& frames, double factor, double window)
      : frames_(frames), factor_(factor), window_(window) {}
  double at(double t) {
    for (; next_ < frames_.size() && time(next_) <= t * (1.0 + 1e-12); ++next_) {
      if (std::isnan(frames_[next_].separation_energy)) continue;  // a NaN is never the largest
      while (!kept_.empty() && frames_[kept_.back()].separation_energy <= frames_[next_].separation_energy)
        kept_.pop_back();
      kept_.push_back(next_);
    }
    while (!kept_.empty() && time(kept_.front()) < t - window_) kept_.pop_front();
    return kept_.empty() ? 0.0 : frames_[kept_.front()].separation_energy;
  }

 private:
  double time(std::size_t k) const { return static_cast<double>(frames_[k].step) * factor_; }
  const std::vector<SeparationFrame>& frames_;
  double factor_, window_;
  std::size_t next_ = 0;
  std::deque<std::size_t> kept_;
};

}  // namespace

ProbeStep judge_probe_step(const std::vector<SeparationFrame>& frames, double factor, bool halted,
                           const std::vector<SeparationFrame>& reference, double reference_factor) {
  for (const auto* f : {&frames, &reference})
    if (f->empty() || f->front().step != 0 || !(f->front().separation_energy > 0.0))
      fail(fmt::format("the probe at {} h_crit: no separation at step 0 in LAMMPS' dumps",
                       f == &frames ? factor : reference_factor));
  ProbeStep r;
  r.factor = factor;
  r.halted = halted;
  r.steps_compared = frames.back().step;
  const double s0 = frames.front().separation_energy;
  double s_max = 0.0, early = 0.0, late = 0.0;
  const double late_from = 0.8 * static_cast<double>(r.steps_compared);
  for (const auto& f : frames) {
    s_max = std::max(s_max, f.separation_energy);
    double& part = static_cast<double>(f.step) > late_from ? late : early;
    part = std::max(part, f.separation_energy);
  }
  r.growth = std::sqrt(s_max / s0);
  // The reference over the same physical time: its steps up to steps_compared x factor / reference_factor.
  const double until = static_cast<double>(r.steps_compared) * factor / reference_factor;
  double ref_max = 0.0;
  for (const auto& f : reference)
    if (static_cast<double>(f.step) <= until * (1.0 + 1e-12)) ref_max = std::max(ref_max, f.separation_energy);
  r.reference_growth = std::sqrt(ref_max / reference.front().separation_energy);
  r.excess = r.growth / r.reference_growth;
  // Against the reference at the same physical time t (in h_crit: step x factor), each as its
  // envelope, the largest S over the last twentieth of the run before t: S is a kinetic energy, near
  // zero at some phases of an oscillation, and a pointwise ratio would read those as growth.
  const double ref0 = reference.front().separation_energy;
  const double window = 0.05 * static_cast<double>(r.steps_compared) * factor;
  const double ref_end = static_cast<double>(reference.back().step) * reference_factor;
  SeparationEnvelope run(frames, factor, window), ref(reference, reference_factor, window);
  for (const auto& f : frames) {
    const double t = static_cast<double>(f.step) * factor;
    if (t > ref_end * (1.0 + 1e-12)) break;
    const double e = run.at(t), e_ref = ref.at(t);
    if (e_ref > 0.0) r.same_time_excess = std::max(r.same_time_excess, std::sqrt((e / s0) / (e_ref / ref0)));
  }
  r.late_rise = late > 0.0 ? std::sqrt(late / early) : 1.0;
  if (halted || !std::isfinite(r.growth)) r.course = ProbeCourse::diverged;
  else if (r.excess <= bounded_growth) r.course = ProbeCourse::bounded;
  else r.course = r.late_rise > 2.0 ? ProbeCourse::growing : ProbeCourse::saturated;
  return r;
}

ProbeVerdict probe_verdict(const ProbeStep& reference, const ProbeStep& below, const ProbeStep& above,
                           bool caps_lifted) {
  // with_same_time: quote the same-time figure (where it is judged).
  auto seen = [](const ProbeStep& s, bool with_same_time) {
    return fmt::format("at {:.2f} h_crit LAMMPS' two runs separated {:.3g}x in {} steps, {:.3g}x what they did at the "
                       "reference step {:.2f} h_crit over the same time{}",
                       s.factor, s.growth, s.steps_compared, s.excess, probe_reference_factor,
                       with_same_time
                           ? fmt::format(" (at most {:.3g}x the reference at the same time)", s.same_time_excess)
                           : std::string());
  };
  auto course = [](const ProbeStep& s) -> std::string {
    switch (s.course) {
      case ProbeCourse::diverged: return fmt::format("and diverged (the kinetic energy passed the halt energy by step {})", s.steps_compared);
      case ProbeCourse::growing: return "and were still growing at the end of the run";
      case ProbeCourse::saturated:
        return "then stopped growing (contacts sliding or opening cap the unstable motion: the run goes on with wrong "
               "contact forces instead of blowing up)";
      case ProbeCourse::bounded: return "";
    }
    return "";
  };
  ProbeVerdict v;
  if (reference.course == ProbeCourse::diverged) {
    v.text = fmt::format("NOT CONFIRMED: the reference run at {:.2f} h_crit passed the halt energy by step {}: in LAMMPS "
                         "this packing runs away at half the predicted step (it is not held by its walls and loads, or "
                         "the prediction is far too large); nothing can be judged against it",
                         reference.factor, reference.steps_compared);
    return v;
  }
  const bool below_ok = below.course == ProbeCourse::bounded;
  // The same-time measure counts only for a run that grew (course not bounded): near the limit the
  // top mode of a stable step decays slowly, and against a faster-decaying reference it would read as
  // growth (at 0.99 on the damped box in.box_hooke: 4.8 in 1000 steps, growth 1).
  const bool same_time_judged = above.course != ProbeCourse::bounded;
  const bool above_unstable = above.course == ProbeCourse::diverged || above.excess > probe_unstable_excess ||
                              (same_time_judged && above.same_time_excess > probe_unstable_excess);
  v.confirmed = below_ok && above_unstable;
  if (v.confirmed) {
    v.text = fmt::format("CONFIRMED: {} (<= {:g}); {} (> {:g}), {}", seen(below, false), bounded_growth, seen(above, same_time_judged),
                         probe_unstable_excess, course(above));
  } else if (!below_ok) {
    v.text = fmt::format("NOT CONFIRMED: {} (> {:g}), {}: LAMMPS is unstable below the predicted limit; take a smaller "
                         "step than dtcrit's",
                         seen(below, false), bounded_growth, course(below));
  } else {
    v.text = fmt::format("NOT CONFIRMED: {} (<= {:g}): the instability above the limit was not seen",
                         seen(above, same_time_judged), probe_unstable_excess);
    if (reference.growth > bounded_growth)
      v.text += fmt::format(". The packing is not at rest: at the reference step its two runs separated {:.3g}x by "
                            "themselves (a flowing or rearranging packing), so the contacts the limit was computed for "
                            "may change before the unstable motion grows; write the state once the packing has settled, "
                            "or give more --steps",
                            reference.growth);
    else if (caps_lifted)
      v.text += "; give more --steps (an instability near the limit grows slowly), or probe larger steps (--factors "
                "1.05,1.1,1.2,1.5) to see where LAMMPS starts to grow: every contact ran sticking (--lift-caps), so "
                "no cap hid the growth";
    else
      v.text += "; give more --steps, or probe larger steps (--factors 1.05,1.1,1.2,1.5) to see where LAMMPS starts "
                "to grow: contacts that LAMMPS runs sliding, or at their rolling or twisting cap, lack the springs "
                "and dashpots the limit was computed with, so the limit is conservative for them (--lift-caps runs "
                "every contact sticking, to see the linear limit itself)";
  }
  return v;
}

}  // namespace dtcrit::packing
