#include "dtcrit/packing/lammps_probe.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/key_values.hpp"

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
      if (base.normal == contact::NormalModel::hertz_material)
        fail(fmt::format("wall {}: fix wall/gran granular hertz/material stores another stiffness than the pair style "
                         "(packing/README.md); give the walls in a LAMMPS script (--lammps-input)",
                         wall.label));
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

std::vector<std::array<double, 6>> probe_velocities(const Packing& p, double amplitude, unsigned seed) {
  require_positive("probe velocity amplitude", amplitude);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<std::array<double, 6>> v(p.centre.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double w = amplitude / p.radius[i];
    v[i] = {amplitude * U(rng), amplitude * U(rng), amplitude * U(rng), w * U(rng), w * U(rng), w * U(rng)};
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
                         const ProbeRun& run, double halt_energy) {
  if (p.dim != 3) fail("the LAMMPS probe runs 3D packings (spheres) only");
  std::string boundary;
  for (int d = 0; d < 3; ++d) boundary += p.periodic[d] ? " p" : " m";
  double r_min = p.radius.front();
  for (double r : p.radius) r_min = std::min(r_min, r);
  std::string s = fmt::format(
      "# dtcrit lammps-check probe: fix nve/sphere (velocity Verlet) at {} x the predicted critical step, from a\n"
      "# small random velocity; kinetic energy of every step in {}.\n"
      "units           si\natom_style      sphere\ndimension       3\nboundary       {}\nnewton          off\n"
      "comm_modify     vel yes\nread_data       {}\n",
      run.factor, run.energy_file, boundary, data_file);
  for (const auto& c : law_commands) s += c + "\n";
  s += fmt::format(
      "fix             dtcrit_nve all nve/sphere\n"
      "compute         dtcrit_ke all ke\n"
      "compute         dtcrit_erot all erotate/sphere\n"
      "variable        dtcrit_energy equal c_dtcrit_ke+c_dtcrit_erot\n"
      "fix             dtcrit_energy all ave/time 1 1 1 c_dtcrit_ke c_dtcrit_erot file {} format \" %.17g\"\n"
      "fix             dtcrit_halt all halt 1 v_dtcrit_energy > {:.17g} error soft\n"
      "neighbor        {:.17g} bin\n"
      "neigh_modify    every 1 delay 0 check yes\n"
      "thermo          0\n"
      "timestep        {:.17g}\n"
      "run             {}\n",
      run.energy_file, halt_energy, 0.2 * r_min, run.h, run.steps);
  return s;
}

std::vector<std::pair<long, double>> read_probe_energy(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(fmt::format("{}: cannot open LAMMPS' energy file (did the run start?)", path));
  std::vector<std::pair<long, double>> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto w = split_words(line);
    if (w.empty() || w.front().front() == '#') continue;
    if (w.size() != 3) fail(fmt::format("{}:{}: expected 'step ke erotate', got '{}'", path, number, line));
    const double step = parse_number(fmt::format("{}:{}: step", path, number), w[0]);
    // A run that blew up before fix halt caught it prints nan or inf: an energy beyond any bound.
    auto energy = [&](const std::string& word, const char* what) {
      if (word.find("nan") != std::string::npos || word.find("inf") != std::string::npos)
        return std::numeric_limits<double>::infinity();
      return parse_number(fmt::format("{}:{}: {}", path, number, what), word);
    };
    const double ke = energy(w[1], "ke"), er = energy(w[2], "erotate");
    out.emplace_back(static_cast<long>(step), ke + er);
  }
  return out;
}

}  // namespace dtcrit::packing
