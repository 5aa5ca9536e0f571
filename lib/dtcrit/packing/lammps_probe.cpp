#include "dtcrit/packing/lammps_probe.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"

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

bool probe_discs(const Packing& p) {
  int discs = 0;
  for (Index i = 0; i < p.size(); ++i) {
    const double r = p.radius[static_cast<std::size_t>(i)], m = p.mass[static_cast<std::size_t>(i)];
    const double ratio = p.inertia[static_cast<std::size_t>(i)] / (m * r * r);
    if (std::abs(ratio - 0.5) <= 1e-9) ++discs;
    else if (std::abs(ratio - 0.4) > 1e-9)
      fail(fmt::format("particle {}: inertia {} kg m^2 is neither a sphere's 2/5 m r^2 nor a disc's 1/2 m r^2, the "
                       "two of LAMMPS' fix nve/sphere", p.atom_id(i), p.inertia[static_cast<std::size_t>(i)]));
  }
  if (discs > 0 && (discs < p.size() || p.dim != 2))
    fail("LAMMPS' fix nve/sphere disc takes every particle as a disc, in 2D: give one body model for all");
  return discs > 0;
}

std::vector<std::array<double, 6>> probe_velocities(const Packing& p, double amplitude, unsigned seed) {
  require_positive("probe velocity amplitude", amplitude);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<std::array<double, 6>> v(p.centre.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double w = amplitude / p.radius[i];
    v[i] = {amplitude * U(rng), amplitude * U(rng), amplitude * U(rng), w * U(rng), w * U(rng), w * U(rng)};
    if (p.dim == 2) v[i][2] = v[i][3] = v[i][4] = 0.0;  // in the plane, spinning about z (fix enforce2d)
  }
  return v;
}

double kinetic_energy(const Packing& p, const std::vector<std::array<double, 6>>& velocities) {
  double e = 0.0;
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    const auto& v = velocities[i];
    e += 0.5 * p.mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
         0.5 * p.inertia[i] * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  }
  return e;
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
      "# {}; velocities and spins every {} steps in {}.\n"
      "units           {}\natom_style      sphere\ndimension       {}\nboundary       {}\nnewton          off\n"
      "comm_modify     vel yes\nread_data       {}\n",
      run.factor, data_file, run.dump_every, dump_file, units, p.dim, boundary, data_file);
  for (const auto& c : law_commands) s += c + "\n";
  s += fmt::format("fix             dtcrit_nve all nve/sphere{}\n", discs ? " disc" : "");
  if (p.dim == 2) s += "fix             dtcrit_2d all enforce2d\n";
  s += fmt::format(
      "compute         dtcrit_ke all ke\n"
      "compute         dtcrit_erot all erotate/sphere\n"
      "variable        dtcrit_energy equal c_dtcrit_ke+c_dtcrit_erot\n"
      "dump            dtcrit_v all custom {} {} id mass radius vx vy vz omegax omegay omegaz\n"
      "dump_modify     dtcrit_v sort id format float %.17g\n"
      "fix             dtcrit_halt all halt 1 v_dtcrit_energy > {:.17g} error soft\n"
      "neighbor        {:.17g} bin\n"
      "neigh_modify    every 1 delay 0 check yes\n"
      "thermo          0\n"
      "timestep        {:.17g}\n"
      "run             {}\n",
      run.dump_every, dump_file, halt_energy, 0.2 * r_min, run.h, run.steps);
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

std::vector<SeparationFrame> read_probe_separation(const std::string& reference_dump, const std::string& perturbed_dump,
                                                   double inertia_factor) {
  ProbeDump ref(reference_dump), pert(perturbed_dump);
  std::vector<SeparationFrame> out;
  long step_ref = 0, step_pert = 0;
  std::vector<ProbeDump::Atom> a, b;
  while (ref.next(step_ref, a) && pert.next(step_pert, b)) {
    if (step_ref != step_pert || a.size() != b.size())
      fail(fmt::format("{} and {}: frames differ (step {} with {} atoms, step {} with {} atoms)", reference_dump,
                       perturbed_dump, step_ref, a.size(), step_pert, b.size()));
    SeparationFrame f{step_ref, 0.0, 0.0};
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].id != b[i].id)
        fail(fmt::format("{} and {}: step {}: atom {} against atom {} (the dumps must be sorted by id)", reference_dump,
                         perturbed_dump, step_ref, a[i].id, b[i].id));
      const double m = a[i].mass, inertia = inertia_factor * m * a[i].radius * a[i].radius;
      for (int k = 0; k < 6; ++k) {
        const double w = k < 3 ? m : inertia, d = b[i].v[k] - a[i].v[k];
        f.separation_energy += 0.5 * w * d * d;
        f.reference_energy += 0.5 * w * a[i].v[k] * a[i].v[k];
      }
    }
    if (!std::isfinite(f.separation_energy)) f.separation_energy = std::numeric_limits<double>::infinity();
    if (!std::isfinite(f.reference_energy)) f.reference_energy = std::numeric_limits<double>::infinity();
    out.push_back(f);
  }
  return out;
}

}  // namespace dtcrit::packing
