// How far are the usual time-step rules from the exact limits? A typical LAMMPS granular set-up
// (glass beads d = 1 mm, rho = 2500 kg/m^3, gran/hooke/history with k_n = 1e4 N/m,
// k_t = 2/7 k_n, restitution e = 0.7 -> gamma_n, gamma_t = gamma_n/2, fix nve/sphere), analysed as
// one contact and as a dense periodic FCC packing (all 12 neighbours in contact).
//
//   study_guide [--quick] [--out DIR]      writes DIR/rules_of_thumb.{csv,md,png}
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/plot.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

#include "../study_support.hpp"

using namespace dtcrit;

int main(int argc, char** argv) {
  const auto args = study::parse_args(argc, argv, "study_guide", "results/guide");
  if (!args) return 2;
  const bool quick = args->quick;
  const std::string dir = args->dir;
  try {
    std::filesystem::create_directories(dir);
    const double r = 5e-4, rho = 2500, kn = 1e4, kt = kn * 2.0 / 7.0, e = 0.7;
    const double m = contact::sphere_mass(r, rho), m_eff = 0.5 * m;
    const double gamma_n = gamma_n_from_restitution(e, kn, m_eff);  // LAMMPS gamma_n for this e

    // One contact (the planar model of two spheres meeting head on: I = 2/5 m r^2, arm along n).
    const std::string sphere = fmt::format("shape=custom,m={:.17g},I={:.17g},rt=0,rn={:.17g}", m, contact::sphere_inertia(m, r), r);
    PairInput in{sphere, sphere, {{"kn", kn}, {"kt", kt}, {"gamma_n", gamma_n}, {"gamma_t", 0.5 * gamma_n}}, "", ""};
    const ContactPointModel pair = build_model(in);
    const auto pair_report = analyse_pair("", pair, std::nullopt, {"velocity_verlet", "central_difference"});

    // The packing: periodic FCC, compressed by 0.1 % so that every neighbour touches.
    packing::LatticeSpec spec;
    spec.kind = packing::LatticeKind::fcc;
    spec.n = quick ? 3 : 6;
    spec.radius = r;
    spec.density = rho;
    spec.compression = 1e-3;
    const packing::Packing p = packing::make_lattice(spec);
    packing::ContactLaws laws;
    laws.base = contact::HookeParams{kn, kt, gamma_n, 0.5 * gamma_n, 0.0};
    const packing::GlobalSystem sys(packing::round_assembly(p, packing::find_contacts(p, laws)), true);
    packing::PackingAnalysisOptions opts;
    opts.integrators = {"velocity_verlet", "central_difference"};
    const auto pk = packing::analyse_packing(p, sys, opts);

    const double exact = pk.h_exact;  // LAMMPS velocity Verlet on the damped packing
    auto pair_value = [&](const std::string& name) {
      for (const auto& est : pair_report.estimates)
        if (est.name == name) return est.seconds;
      throw std::runtime_error("missing estimate " + name);
    };
    auto packing_value = [&](const std::string& name) {
      for (const auto& est : pk.estimates)
        if (est.name == name) return est.seconds;
      throw std::runtime_error("missing packing estimate " + name);
    };
    struct Row { std::string rule, source; double seconds; std::string label; };  // label: the chart's
    const std::vector<Row> rows{
        {"exact: velocity Verlet (LAMMPS), FCC packing, damped", "dtcrit packing", exact, "exact VV, packing"},
        {"exact: central difference, FCC packing, damped", "dtcrit packing", pk.integrators[1].h_crit,
         "exact CD, packing"},
        {"exact: velocity Verlet (LAMMPS), one contact, damped", "dtcrit pair", pair_report.integrators[0].h_crit,
         "exact VV, one contact"},
        {"2 / omega_max of one contact (undamped central difference)", "Belytschko", pair_value("two_over_omega_max"),
         "2/omega_max, one contact"},
        {"Burns & Hanley pi/(2 max|lambda(Q)|), one contact", "burns2016", pair_value("burns2016"), "Burns & Hanley"},
        {"sqrt(m / k_n), one particle", "O'Sullivan & Bray", std::sqrt(m / kn), "sqrt(m/k_n)"},
        {"0.2 sqrt(m / k_n)", "common rule", 0.2 * std::sqrt(m / kn), "0.2 sqrt(m/k_n)"},
        {"t_c / 50 (contact duration / 50)", "MercuryDPM, MFIX", pair_value("collision_time_over_50"), "t_c/50"},
        {"per-body stiffness, 1.41044 x 0.8 sqrt(m/K)", "Yade GlobalStiffnessTimeStepper",
         packing_value("yade_global_stiffness"), "Yade per-body stiffness"},
        {"Gershgorin bound on omega_max", "dtcrit packing", packing_value("gershgorin"), "Gershgorin bound"},
    };
    TextTable t({"rule", "source", "step [s]", "ratio to exact"});
    std::string csv = "rule,source,seconds,ratio_to_exact\n";
    PlotSeries bars{"step / exact velocity Verlet limit of the packing", {}, {}, true, 1, 1, true};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      t.add_row({rows[i].rule, rows[i].source, format_number(rows[i].seconds), fmt::format("{:.3f}", rows[i].seconds / exact)});
      csv += fmt::format("\"{}\",\"{}\",{},{}\n", rows[i].rule, rows[i].source, rows[i].seconds, rows[i].seconds / exact);
    }
    // Checks: the pair's exact VV limit is 4/pi of burns2016 (tests/test_pair_analysis.cpp), a packing
    // is stiffer than one contact, and 2/omega_max of the packing is central difference's limit.
    int failures = 0;
    auto expect = [&](bool ok, const char* what) { if (!ok) ++failures, std::cerr << "CHECK FAILED: " << what << "\n"; };
    expect(std::abs(pair_report.integrators[0].h_crit * std::numbers::pi / 4 / pair_value("burns2016") - 1) < 1e-8,
           "pair: burns2016 != pi/4 of velocity Verlet");
    expect(exact < pair_report.integrators[0].h_crit, "packing not stiffer than one contact");
    expect(std::abs(pk.integrators[1].h_crit * pk.omega_max / 2 - 1) < 1e-9, "central difference != 2/omega_max");

    std::string md = fmt::format(
        "# Time-step rules of thumb against the exact limits\n\n"
        "Generated by `build/studies/study_guide --out results/guide` (do not edit by hand).\n\n"
        "Glass beads d = 1 mm (m = {:.4g} kg), LAMMPS gran/hooke/history with k_n = {:g} N/m, "
        "k_t = 2/7 k_n, e = {:g} (gamma_n = {:.6g} 1/s, gamma_t = gamma_n/2); FCC packing of {} spheres, "
        "periodic, compressed 0.1 %, omega_max = {:.6g} rad/s. Ratios are to the exact limit of LAMMPS' velocity "
        "Verlet on the damped packing ({:.6g} s).\n\n{}",
        m, kn, e, gamma_n, pk.particles, pk.omega_max, exact, t.to_text());
    md.insert(md.find(t.to_text()), "```\n");
    md += "```\n";
    study::write_text(dir, "rules_of_thumb.csv", csv);
    study::write_text(dir, "rules_of_thumb.md", md);
    // A log-scale chart: rules as points at their ratio, one per row.
    PlotSpec plot{"Rules of thumb / exact velocity Verlet limit (damped FCC packing, e = 0.7)", "",
                  "ratio (above 1: unstable)", false, true, {}, {}};
    for (const auto& row : rows) plot.xtic_labels.push_back(row.label);
    PlotSeries one{"exact = 1", {0.5, rows.size() + 0.5}, {1.0, 1.0}, false, 7, 2};
    for (std::size_t i = 0; i < rows.size(); ++i) bars.x.push_back(i + 1.0), bars.y.push_back(rows[i].seconds / exact);
    plot.series = {bars, one};
    write_plot(dir + "/rules_of_thumb.png", plot);
    std::cout << md;
    return failures ? 1 : 0;
  } catch (const std::exception& ex) {
    std::cerr << "study_guide: error: " << ex.what() << "\n";
    return 1;
  }
}
