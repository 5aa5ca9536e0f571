// The coefficient Δt_crit / sqrt(m/k) of every conditionally stable integrator for the contacts DEM
// users meet most: equal discs, unequal discs, eccentric plates; k_t/k_n from 0.25 to 1; damping
// given as a restitution coefficient. m is the smaller body mass, k = k_n.
//
//   study_critical_step_tables [--quick] [--out DIR]
//
// writes DIR/pair_coefficients.csv (tidy: one row per configuration and integrator) and
// DIR/pair_coefficients.md (one table per family). Every run checks the closed forms it can.
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/text_table.hpp"

using namespace dtcrit;

namespace {

struct Config {
  std::string family, parameter;  // e.g. "mass ratio", "m/m' = 0.1"
  double kt_ratio, restitution;
  PairInput input;
};

const double kn = 1e7;  // the coefficients do not depend on it (scaling is tested in tests/test_model.cpp)

PairInput pair(const std::string& b1, const std::string& b2, double kt_ratio, double e) {
  PairInput in{b1, b2, {{"kn", kn}, {"kt_ratio", kt_ratio}, {"ct_ratio", 0.5}}};
  // LAMMPS' default tangential damping gamma_t = gamma_n / 2, i.e. ct = cn / 2 with one m_eff.
  if (e < 1.0) in.law["restitution"] = e;
  return in;
}

std::vector<Config> configurations(bool quick) {
  const std::vector<double> kts = quick ? std::vector<double>{0.25, 1.0} : std::vector<double>{0.25, 2.0 / 7.0, 0.5, 0.75, 1.0};
  const std::vector<double> es = quick ? std::vector<double>{1.0, 0.5} : std::vector<double>{1.0, 0.9, 0.7, 0.5, 0.3};
  const std::string disc = "shape=disc,r=0.0005,m=0.003";
  std::vector<Config> out;
  for (double kt : kts)
    for (double e : es) out.push_back({"equal discs", "m = m'", kt, e, pair(disc, disc, kt, e)});
  for (double ratio : {0.5, 0.2, 0.1, 0.01})
    for (double kt : kts)
      for (double e : es)
        out.push_back({"unequal discs", fmt::format("m/m' = {:g}", ratio), kt, e,
                       pair(fmt::format("shape=disc,r=0.0005,m={:.17g}", 0.003 * ratio), disc, kt, e)});
  for (double ecc : {0.0, 1e-4, 2e-4, 3e-4, 4e-4, 5e-4})
    for (double kt : kts)
      for (double e : es) {
        const std::string plate = fmt::format("shape=rect,a=0.001,b=0.00075,m=0.003,e={:g}", ecc);
        out.push_back({"plate-plate (1 x 0.75 mm)", fmt::format("e = e' = {:g} mm", ecc * 1e3), kt, e, pair(plate, plate, kt, e)});
      }
  return out;
}

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) ++failures, std::cerr << "CHECK FAILED: " << what << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string dir = "results/tables";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--out" && i + 1 < argc) dir = argv[++i];
    else return std::cerr << "usage: study_critical_step_tables [--quick] [--out DIR]\n", 2;
  }
  try {
    std::filesystem::create_directories(dir);
    // Every integrator conditionally stable on a damped contact, with its default parameters
    // (explicit Euler is among them: conditionally stable only when damped).
    std::vector<std::string> specs;
    {
      const ContactPointModel probe = build_model(pair("shape=disc,r=1,m=1", "shape=disc,r=1,m=1", 0.5, 0.7));
      for (const auto& l : integrator_limits(probe, default_integrator_specs()))
        if (l.stability == "conditional") specs.push_back(l.name);
    }
    std::string csv = "family,parameter,kt_ratio,restitution,integrator,stability,h_crit_s,sqrt_m_over_k_s,coefficient\n";
    // family -> rows (parameter, kt, e) -> integrator -> coefficient
    std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>> md;
    std::vector<std::string> family_order;
    for (const auto& c : configurations(quick)) {
      const ContactPointModel model = build_model(c.input);
      const double unit = std::sqrt(std::min(model.body1().mass, model.body2().mass) / kn);
      const auto limits = integrator_limits(model, specs);
      std::vector<std::string> cells;
      for (const auto& l : limits) {
        const double coef = l.h_crit / unit;
        csv += fmt::format("{},\"{}\",{},{},{},{},{},{},{}\n", c.family, c.parameter, c.kt_ratio, c.restitution, l.name,
                           l.stability, format_exact(l.h_crit), unit, format_exact(coef));
        cells.push_back(l.stability == "conditional" ? fmt::format("{:.4f}", coef) : l.stability);
      }
      // Checks: equal undamped discs at kt = kn: velocity Verlet reaches 2/omega_max = (2/sqrt 6) sqrt(m/k)
      // (eq. 29 times 4/pi); every integrator's coefficient scales with Omega_crit.
      if (c.family == "equal discs" && c.restitution == 1.0 && c.kt_ratio == 1.0)
        for (const auto& l : limits)
          if (l.name == "velocity_verlet")
            expect(std::abs(l.h_crit / unit - 2 / std::sqrt(6.0)) < 1e-9, "equal discs: velocity Verlet != 2/sqrt(6)");
      if (c.restitution == 1.0) {
        const double vv = integrator_limits(model, {"velocity_verlet"}).front().h_crit;
        expect(std::abs(vv * model.omega_max() - 2.0) < 1e-9, c.family + " " + c.parameter + ": undamped VV != 2/omega");
      }
      if (std::find(family_order.begin(), family_order.end(), c.family) == family_order.end()) family_order.push_back(c.family);
      md[c.family].push_back({fmt::format("{} | {:.3g} | {:g}", c.parameter, c.kt_ratio, c.restitution), cells});
    }
    std::ostringstream m;
    m << "# Δt_crit / sqrt(m/k) for one contact\n\n"
      << "Generated by `build/studies/study_critical_step_tables --out results/tables` (do not edit by hand).\n"
      << "m is the smaller body's mass, k = k_n; damping from the normal restitution coefficient e (contact\n"
      << "ending when the overlap returns to zero), tangential dashpot c_t = c_n / 2 (LAMMPS' default\n"
      << "γ_t = γ_n / 2). Disc radius 0.5 mm, plate 1 mm × 0.75 mm, every body 3 g except the smaller disc.\n"
      << "Read a value as: a stable step needs h < value × sqrt(m/k_n).\n";
    for (const auto& fam : family_order) {
      m << "\n## " << fam << "\n\n| configuration | kt/kn | e |";
      for (const auto& s : specs) m << " " << s << " |";
      m << "\n| --- | ---: | ---: |";
      for (std::size_t i = 0; i < specs.size(); ++i) m << " ---: |";
      m << "\n";
      for (const auto& [label, cells] : md[fam]) {
        m << "| " << label << " |";
        for (const auto& cell : cells) m << " " << cell << " |";
        m << "\n";
      }
    }
    write_file_atomically(dir + "/pair_coefficients.csv", [&](std::ostream& o) { o << csv; });
    write_file_atomically(dir + "/pair_coefficients.md", [&](std::ostream& o) { o << m.str(); });
    std::cout << "wrote " << dir << "/pair_coefficients.{csv,md}\n";
  } catch (const std::exception& e) {
    std::cerr << "study_critical_step_tables: error: " << e.what() << "\n";
    return 1;
  }
  if (failures) std::cerr << failures << " checks failed\n";
  return failures ? 1 : 0;
}
