// The coefficient Δt_crit / sqrt(m/k) of every conditionally stable integrator for the contacts DEM
// users meet most: equal discs, unequal discs, eccentric plates; k_t/k_n from 0.25 to 1; damping
// given as a restitution coefficient. m is the smaller body mass, k = k_n.
//
//   study_critical_step_tables [--quick] [--out DIR]
//
// writes DIR/pair_coefficients.csv (tidy: one row per configuration and integrator) and
// DIR/pair_coefficients.md (one table per family). Every run checks the closed forms it can.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

#include "../study_support.hpp"

using namespace dtcrit;

namespace {

struct Config {
  std::string family, parameter;  // e.g. "mass ratio", "m/m' = 0.1"
  double kt_ratio, restitution;
  PairInput input;
};

const double kn = 1e7;  // the coefficients do not depend on it (scaling is tested in tests/test_model.cpp)

PairInput pair(const std::string& b1, const std::string& b2, double kt_ratio, double e) {
  PairInput in{b1, b2, {{"kn", kn}, {"kt_ratio", kt_ratio}, {"ct_ratio", 0.5}}, ""};
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

// The regular packings: periodic lattices compressed by 0.1 % so that every neighbour touches, LAMMPS
// damping from e through the pair's m_eff (gamma_n = 2 zeta sqrt(kn / m_eff), gamma_t = gamma_n / 2).
// Velocity Verlet (LAMMPS) and central difference: exact for any damping (lib/dtcrit/packing/README.md).
std::string packing_table(bool quick, std::string& csv) {
  const std::vector<std::pair<const char*, packing::LatticeKind>> lattices{
      {"square (discs)", packing::LatticeKind::square}, {"hex (discs)", packing::LatticeKind::hex},
      {"sc", packing::LatticeKind::sc}, {"bcc", packing::LatticeKind::bcc}, {"fcc", packing::LatticeKind::fcc}};
  const std::vector<double> kts = quick ? std::vector<double>{2.0 / 7.0} : std::vector<double>{0.25, 2.0 / 7.0, 0.5, 1.0};
  const std::vector<double> es = quick ? std::vector<double>{1.0, 0.5} : std::vector<double>{1.0, 0.9, 0.7, 0.5, 0.3};
  std::string md = "| lattice | kt/kn | e | velocity_verlet | central_difference |\n| --- | ---: | ---: | ---: | ---: |\n";
  csv = "lattice,kt_ratio,restitution,particles,omega_max,integrator,h_crit_s,sqrt_m_over_k_s,coefficient\n";
  for (const auto& [name, kind] : lattices)
    for (double kt : kts)
      for (double e : es) {
        packing::LatticeSpec spec;
        spec.kind = kind;
        spec.n = quick ? 3 : 4;
        spec.radius = 5e-4;
        spec.density = 2500.0;
        spec.compression = 1e-3;
        const packing::Packing p = packing::make_lattice(spec);
        const double m = *std::min_element(p.mass.begin(), p.mass.end());
        const double gn = e < 1.0 ? gamma_n_from_restitution(e, kn, 0.5 * m) : 0.0;
        packing::ContactLaws laws;
        laws.base = contact::HookeParams{kn, kt * kn, gn, 0.5 * gn, 0.0};
        const packing::GlobalSystem sys(packing::round_assembly(p, packing::find_contacts(p, laws)), true);
        packing::PackingAnalysisOptions opts;
        opts.integrators = {"velocity_verlet", "central_difference"};
        const auto r = packing::analyse_packing(p, sys, opts);
        const double unit = std::sqrt(m / kn);
        md += fmt::format("| {} | {:.3g} | {:g} |", name, kt, e);
        for (const auto& l : r.integrators) {
          md += fmt::format(" {:.4f} |", l.h_crit / unit);
          csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", name, kt, e, r.particles, r.omega_max, l.name,
                             format_exact(l.h_crit), unit, format_exact(l.h_crit / unit));
        }
        md += "\n";
        // Undamped, central difference and velocity Verlet both sit at 2/omega_max.
        if (e == 1.0) expect(std::abs(r.integrators[0].h_crit * r.omega_max / 2 - 1) < 1e-9, std::string(name) + ": VV != 2/omega");
      }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = study::parse_args(argc, argv, "study_critical_step_tables", "results/tables");
  if (!args) return 2;
  const bool quick = args->quick;
  const std::string dir = args->dir;
  try {
    std::filesystem::create_directories(dir);
    // Every integrator conditionally stable on a damped contact, with its default parameters
    // (explicit Euler is among them: conditionally stable only when damped).
    std::vector<std::string> specs;
    {
      const ContactPointModel probe = build_model(pair("shape=disc,r=1,m=1", "shape=disc,r=1,m=1", 0.5, 0.7));
      for (const auto& l : integrator_limits(probe, default_integrator_specs()))
        if (l.stability == Stability::conditional) specs.push_back(l.name);
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
                           stability_keyword(l.stability), format_exact(l.h_crit), unit, format_exact(coef));
        cells.push_back(l.stability == Stability::conditional ? fmt::format("{:.4f}", coef)
                                                              : std::string(stability_keyword(l.stability)));
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
    std::string packing_csv;
    const std::string packing_md = packing_table(quick, packing_csv);
    m << "\n# The same for regular packings\n\n"
      << "Periodic lattices (4 unit cells per side), compressed 0.1 % so that every neighbour touches, with\n"
      << "rotation; m is the particle mass (radius 0.5 mm, 2500 kg/m³; discs per metre of thickness), k = k_n;\n"
      << "LAMMPS damping from e through the pair's m_eff = m/2, γ_t = γ_n/2. Velocity Verlet as LAMMPS runs\n"
      << "it (exact damped criterion 4M − 2hC − h²K > 0) and central difference (2/ω_max at any damping).\n\n"
      << packing_md;
    study::write_text(dir, "packing_coefficients.csv", packing_csv);
    study::write_text(dir, "pair_coefficients.csv", csv);
    study::write_text(dir, "pair_coefficients.md", m.str());
    std::cout << "wrote " << dir << "/pair_coefficients.{csv,md} and packing_coefficients.csv\n";
  } catch (const std::exception& e) {
    std::cerr << "study_critical_step_tables: error: " << e.what() << "\n";
    return 1;
  }
  if (failures) std::cerr << failures << " checks failed\n";
  return failures ? 1 : 0;
}
