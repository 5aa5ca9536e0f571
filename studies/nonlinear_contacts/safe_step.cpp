// The safe step under Hertz-Mindlin contacts, against impact velocity, beside the rules DEM users
// take it from (see README.md). Two equal beads meet head on at the relative speed v; the law is
// LAMMPS' `granular hertz/material E e nu damping tsuji tangential mindlin NULL 1 mu` (Tsuji's
// damping from the restitution e), linearised at the peak overlap of that impact (the stiffest
// state of the collision: `dtcrit pair --lammps-pair ... --impact-velocity v`). Beside the exact
// limit of velocity Verlet under the Hertz-Mindlin law of EDEM and LIGGGHTS (`--hertz-mindlin`,
// the same E, nu, e, mu; its damping restores e) and under LAMMPS' Tsuji form: the Rayleigh time x 0.2 and x 0.4 (EDEM's guidance), the Hertz
// collision time (textbook, effective mass m/2) and the same formula as LIGGGHTS'
// fix check/timestep/gran evaluates it (full particle mass, and twice the largest particle speed),
// and t_c / 50 with t_c the integrated duration of the impact.
//
//   study_nonlinear_contacts [--quick] [--out DIR]   writes DIR/safe_step.{csv,md,png},
//                                                    DIR/rolling_packing.{csv,md}
//
// --quick checks closed forms: with e = 1 (Hertz-Mindlin: no damping at all) every stiffness of the linearised Hertz-Mindlin
// contact scales as v^(2/5), so h_crit ~ v^(-1/5) exactly; the integrated duration against
// the exact Hertz duration 2.86826 (m*^2/(R* E*^2 v))^(1/5) (1e-4); and LIGGGHTS' Hertz time against dtcrit's
// hertz_collision_time: 2^(2/5) longer (the full mass m = 2 m*; its speed 2 v_max is v here).
#include <cmath>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/contact/impact.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/plot.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

#include "../study_support.hpp"

using namespace dtcrit;

namespace {

struct Bead {
  std::string name;
  double youngs, poisson, density, radius;
};

struct Row {
  std::string bead;
  double v = 0.0;  // relative approach speed [m/s]
  double restitution = 0.0;
  double h_vv = 0.0, h_vv_tsuji = 0.0, rayleigh = 0.0, hertz = 0.0, hertz_liggghts = 0.0, t_c = 0.0;
};

double estimate(const PairReport& r, const std::string& name) {
  for (const auto& e : r.estimates)
    if (e.name == name) return e.seconds;
  throw std::runtime_error("missing estimate " + name);
}

// The EDEM/LIGGGHTS Hertz-Mindlin law (contact/hertz_mindlin.hpp: its damping gives back e) or
// LAMMPS' granular hertz/material with Tsuji's damping from the same e.
ContactPointModel pair_model(const Bead& b, double v, double e, double mu, bool lammps_tsuji) {
  const std::string body = fmt::format("shape=sphere,r={:.17g},rho={:.17g}", b.radius, b.density);
  PairInput in{body, body, {{"impact_velocity", v}}};
  if (lammps_tsuji)
    in.lammps_pair = fmt::format("granular hertz/material {:.17g} {:.17g} {:.17g} damping tsuji tangential mindlin NULL "
                                 "1.0 {:.17g}",
                                 b.youngs, e, b.poisson, mu);
  else
    in.hertz_mindlin = fmt::format("E={:.17g},nu={:.17g},e={:.17g},mu={:.17g}", b.youngs, b.poisson, e, mu);
  return build_model(in);
}

Row analyse(const Bead& b, double v, double e, double mu) {
  const ContactPointModel model = pair_model(b, v, e, mu, false);
  Material mat{b.youngs, b.poisson, b.density, b.radius, v};
  const PairReport r = analyse_pair("", model, mat, {"velocity_verlet"});
  Row row;
  row.bead = b.name;
  row.v = v;
  row.restitution = e;
  row.h_vv = r.integrators.at(0).h_crit;
  row.h_vv_tsuji = integrator_limits(pair_model(b, v, e, mu, true), {"velocity_verlet"}).at(0).h_crit;
  row.rayleigh = estimate(r, "rayleigh");
  row.hertz = estimate(r, "hertz_collision_time");
  // LIGGGHTS (src/fix_check_timestep_gran.cpp, calc_rayleigh_hertz_estims): the Hertz formula with
  // the particle's own mass 4/3 pi r^3 rho where it wants m* = m/2, R* = r/2, and the speed 2 v_max,
  // which for two beads at +-v/2 is the relative speed v. (LIGGGHTS rounds the constant to 2.87, 6e-4
  // above the exact one used here: the column shows what its choice of mass does.)
  const double m = contact::sphere_mass(b.radius, b.density);
  const double e_star = b.youngs / (2.0 * (1.0 - b.poisson * b.poisson));
  row.hertz_liggghts = contact::hertz_duration(m, 0.5 * b.radius, e_star, v);
  row.t_c = model.origin()->point.impact->duration;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = study::parse_args(argc, argv, "study_nonlinear_contacts", "results/nonlinear_contacts");
  if (!args) return 2;
  const bool quick = args->quick;
  const std::string dir = args->dir;
  try {
    std::filesystem::create_directories(dir);
    const std::vector<Bead> beads{{"glass", 63e9, 0.22, 2500.0, 1e-3}, {"steel", 210e9, 0.30, 7850.0, 1e-3}};
    const double e = 0.5, mu = 0.5;
    std::vector<double> speeds;
    const int n = quick ? 3 : 13;
    for (int k = 0; k < n; ++k) speeds.push_back(1e-2 * std::pow(1e3, double(k) / (n - 1)));  // 0.01 .. 10 m/s

    std::vector<Row> rows;
    for (const auto& b : beads)
      for (double v : speeds) rows.push_back(analyse(b, v, e, mu));

    if (quick) {
      int failures = 0;
      auto check = [&](bool ok, const std::string& what) {
        if (!ok) ++failures;
        std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
      };
      for (const auto& b : beads) {
        const Row lo = analyse(b, 0.1, 1.0, mu), hi = analyse(b, 3.2, 1.0, mu);
        const double slope = std::log(hi.h_vv / lo.h_vv) / std::log(hi.v / lo.v);
        check(std::abs(slope + 0.2) < 1e-6, fmt::format("{}: undamped h_crit ~ v^{:.9f} (closed form -0.2)", b.name, slope));
        const double m_eff = 0.5 * contact::sphere_mass(b.radius, b.density);
        const double e_star = b.youngs / (2.0 * (1.0 - b.poisson * b.poisson));
        const double formula = contact::hertz_duration(m_eff, 0.5 * b.radius, e_star, lo.v);
        check(std::abs(lo.t_c / formula - 1.0) < 1e-4,
              fmt::format("{}: integrated undamped duration {:.6g} s, Hertz formula {:.6g} s", b.name, lo.t_c, formula));
        check(std::abs(lo.hertz_liggghts / lo.hertz / std::pow(2.0, 0.4) - 1.0) < 1e-9,
              fmt::format("{}: LIGGGHTS' Hertz time / textbook = {:.6f} (2^(2/5) = {:.6f})", b.name,
                          lo.hertz_liggghts / lo.hertz, std::pow(2.0, 0.4)));
      }
      if (failures) return 1;
    }

    // CSV and a Markdown table: ratios to the exact limit (above 1: the rule allows an unstable step).
    std::string csv = "bead,impact_velocity_m_s,restitution,h_crit_velocity_verlet_s,rayleigh_s,hertz_time_s,"
                      "hertz_time_liggghts_s,impact_duration_s,h_crit_velocity_verlet_lammps_tsuji_s\n";
    TextTable t({"bead", "v [m/s]", "h_crit VV [s]", "LAMMPS tsuji / h", "0.2 T_R / h", "0.4 T_R / h", "t_c/50 / h", "0.2 T_H / h",
                 "0.2 T_H,LIGGGHTS / h"});
    for (const auto& r : rows) {
      csv += fmt::format("{},{:.6g},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}\n", r.bead, r.v, r.restitution, r.h_vv,
                         r.rayleigh, r.hertz, r.hertz_liggghts, r.t_c, r.h_vv_tsuji);
      t.add_row({r.bead, fmt::format("{:.3g}", r.v), fmt::format("{:.4g}", r.h_vv),
                 fmt::format("{:.3f}", r.h_vv_tsuji / r.h_vv),
                 fmt::format("{:.3f}", 0.2 * r.rayleigh / r.h_vv), fmt::format("{:.3f}", 0.4 * r.rayleigh / r.h_vv),
                 fmt::format("{:.3f}", r.t_c / 50.0 / r.h_vv), fmt::format("{:.3f}", 0.2 * r.hertz / r.h_vv),
                 fmt::format("{:.3f}", 0.2 * r.hertz_liggghts / r.h_vv)});
    }
    study::write_text(dir, "safe_step.csv", csv);
    const std::string md = fmt::format("# Safe step under Hertz-Mindlin contacts against impact velocity\n\n"
                                "Generated by `build/studies/study_nonlinear_contacts --out {}` (do not edit by hand).\n"
                                "Two equal beads, r = 1 mm, head on at the relative speed v; Hertz-Mindlin as EDEM and "
                                "LIGGGHTS define it (`--hertz-mindlin E=..,nu=..,e={},mu={}`); glass E = 63 GPa, "
                                "nu = 0.22, rho = 2500 kg/m^3; steel E = 210 GPa, nu = 0.30, rho = 7850 kg/m^3.\n"
                                "h_crit: exact limit of velocity Verlet (LAMMPS) of the contact linearised at the "
                                "impact's peak overlap. LAMMPS tsuji: the same limit under `granular hertz/material E e "
                                "nu damping tsuji tangential mindlin NULL 1.0 mu`, whose damping does not give back e "
                                "(contact/README.md). Other columns: each rule / h_crit (above 1: the rule gives "
                                "an unstable step). T_R: Rayleigh time; T_H: Hertz time with m* = m/2; "
                                "T_H,LIGGGHTS: the same formula with the full particle mass, as LIGGGHTS evaluates "
                                "it; t_c: integrated impact duration.\n\n```\n{}```\n",
                                dir, e, mu, t.to_text());
    study::write_text(dir, "safe_step.md", md);

    PlotSpec plot{"Velocity Verlet limit under Hertz-Mindlin (e = 0.5), and the rules of thumb",
                  "relative impact velocity [m/s]", "time step [s]", true, true, {}};
    std::size_t k = 0;
    for (const auto& b : beads) {
      PlotSeries exact{b.name + ": exact h_crit"}, ray2{b.name + ": 0.2 Rayleigh"}, ray4{b.name + ": 0.4 Rayleigh"},
          tc{b.name + ": t_c / 50"};
      for (const auto& r : rows) {
        if (r.bead != b.name) continue;
        for (auto* s : {&exact, &ray2, &ray4, &tc}) s->x.push_back(r.v);
        exact.y.push_back(r.h_vv);
        ray2.y.push_back(0.2 * r.rayleigh);
        ray4.y.push_back(0.4 * r.rayleigh);
        tc.y.push_back(r.t_c / 50.0);
      }
      for (auto* s : {&exact, &ray2, &ray4, &tc}) {
        distinct_style(*s, k++);
        plot.series.push_back(*s);
      }
    }
    write_plot(dir + "/safe_step.png", plot);

    // Rolling resistance on a packing: periodic FCC (2 cells per side, 32 glass beads r = 1 mm,
    // compressed 0.1 %, so every neighbour touches), LAMMPS `granular hooke 1e4 0 tangential
    // linear_history 2857 0 0.5 rolling sds k_r 0 0.5` (k_r = 0: no rolling keyword), undamped; the exact velocity Verlet limit
    // (dense eigen-solve of the non-symmetric system: granular's torque arm r - delta/2) against k_r.
    std::string roll_md = "| k_r / k_n | velocity Verlet h_crit [s] | / h_crit at k_r = 0 | exact |\n|---:|---:|---:|---|\n";
    std::string roll_csv = "k_roll_over_kn,h_crit_velocity_verlet_s,ratio_to_no_rolling\n";
    packing::LatticeSpec spec;
    spec.kind = packing::LatticeKind::fcc;
    spec.n = 2;
    spec.radius = 1e-3;
    spec.density = 2500.0;
    spec.compression = 1e-3;
    const packing::Packing pk = packing::make_lattice(spec);
    double h0 = 0.0;
    for (double ratio : {0.0, 0.1, 0.3, 1.0, 3.0}) {
      packing::ContactLaws laws;
      const std::string rolling = ratio > 0.0 ? fmt::format(" rolling sds {:.17g} 0 0.5", 1e4 * ratio) : "";
      laws.base = contact::parse_lammps_pair("granular hooke 1e4 0 tangential linear_history 2857 0 0.5" + rolling, "study");
      const packing::GlobalSystem sys(packing::round_assembly(pk, packing::find_contacts(pk, laws)), true);
      packing::PackingAnalysisOptions opts;
      const auto report = packing::analyse_packing(pk, sys, opts);
      const auto& lim = report.integrators.at(0);
      if (ratio == 0.0) h0 = lim.h_crit;
      roll_md += fmt::format("| {} | {:.6g} | {:.4f} | {} |\n", ratio, lim.h_crit, lim.h_crit / h0, lim.exact ? "yes" : "no (estimate)");
      roll_csv += fmt::format("{},{:.9g},{:.9g}\n", ratio, lim.h_crit, lim.h_crit / h0);
      if (quick && ratio > 0.0 && !(lim.h_crit <= h0 * (1.0 + 1e-12))) {
        std::cerr << "FAIL rolling stiffness raised the limit\n";  // a stiffer spring never softens this lattice
        return 1;
      }
    }
    study::write_text(dir, "rolling_packing.csv", roll_csv);
    write_file_atomically(dir + "/rolling_packing.md", [&](std::ostream& o) {
      o << "# Rolling stiffness and the velocity Verlet limit of a packing\n\nGenerated by "
           "`build/studies/study_nonlinear_contacts --out " << dir << "` (do not edit by hand). Periodic FCC, 2 cells per "
           "side (32 beads r = 1 mm, rho = 2500 kg/m^3, compressed 0.1 %), LAMMPS `granular hooke 1e4 0 tangential "
           "linear_history 2857 0 0.5 rolling sds k_r 0 0.5`, undamped.\n\n" << roll_md;
    });
    std::cout << roll_md;
    std::cout << t.to_text();
    return 0;
  } catch (const std::exception& ex) {
    std::cerr << "study_nonlinear_contacts: " << ex.what() << "\n";
    return 1;
  }
}
