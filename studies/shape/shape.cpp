// Shape and the critical step (issue 14, see README.md): packings of non-spherical bodies against
// packings of spheres or discs of the same mass and contact stiffness, with the exact limit of
// velocity Verlet (LAMMPS) and the rules DEM users take the step from.
//
// 1. Clumps (clumps.{csv,md}): the exact velocity Verlet / fix rigid/small limit of packings whose
//    spheres are glued into rigid clumps of 1 to 4, beside the Rayleigh time (blind to clumping: it
//    reads one sphere's R and rho), sqrt(m/k) with the lightest body, Yade's clump rule, Gershgorin and
//    the stiffest single contact. Glass beads (E = 63 GPa, nu = 0.22, rho = 2500 kg/m^3, r = 1 mm)
//    under LAMMPS gran/hertz/history with Kn = 4G / (3 (1 - nu)), Kt = 4G / (2 - nu) (the pair style's
//    documented choice for Hertz), mu = 0.5, undamped, periodic lattices compressed by 2e-3:
//      compact clumps  FCC: each cell's four sites as 1, 2 (sites 0-1, 2-3) or 4 (the tetrahedron) bodies;
//      linear chains   simple cubic: 1, 2, 3 or 4 neighbours along x as one body.
// 2. Planar shapes (planar.{csv,md}): periodic hexagonal packings of ellipses (aspect ratio 1 to 4,
//    aligned, and turned at random by up to 0.2 rad) and of regular polygons (3 to 8 sides, turned at
//    random) of the area of a disc of radius 1 mm (network/planar_shapes.hpp: contact points and normals
//    from the penetration depth), gran/hooke/history kn = 1e5, kt = 3e4 N/m, against the disc packing.
//
//   study_shape [--quick] [--out DIR]   writes DIR/clumps.{csv,md} and DIR/planar.{csv,md}
//
// --quick (smaller packings) checks: clumps of one sphere give the sphere packing's own answer (omega_max,
// the exact step and Yade's rule to 1e-12), and every clump packing's exact step is no shorter than its
// spheres' (rigid constraints cannot raise omega_max: the clumps' is the sphere packing's Rayleigh
// quotient on a subspace with the same M); the packing of ellipses of aspect ratio 1 is the disc
// packing (omega_max to 1e-12).
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/assembly/clumps.hpp"
#include "dtcrit/network/planar_shapes.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

#include "../study_support.hpp"

using namespace dtcrit;

namespace {

constexpr double E = 63e9, nu = 0.22, rho = 2500.0, radius = 1e-3;

struct Row {
  std::string family;   // "compact (FCC)" or "chains (SC)"
  int per_body = 1;
  Index spheres = 0, bodies = 0;
  double omega_max = 0.0, h_exact = 0.0, gershgorin = 0.0, yade = 0.0, single_contact = 0.0, sqrt_m_k = 0.0;
};

double estimate(const packing::PackingReport& r, const std::string& name) {
  for (const auto& e : r.estimates)
    if (e.name == name) return e.seconds;
  throw std::runtime_error("missing estimate " + name);
}

packing::ContactLaws hertz_law() {
  const double G = E / (2.0 * (1.0 + nu));
  packing::ContactLaws laws;
  laws.base = contact::parse_lammps_pair(
      fmt::format("gran/hertz/history {:.17g} {:.17g} 0 0 0.5 0", 4.0 * G / (3.0 * (1.0 - nu)), 4.0 * G / (2.0 - nu)));
  return laws;
}

// The lattice with its molecule IDs: `per_body` consecutive sites in the lattice's own order (FCC:
// a cell's basis sites; SC: neighbours along x, n a multiple of per_body).
packing::Packing lattice(packing::LatticeKind kind, Index n, int per_body) {
  packing::LatticeSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.radius = radius;
  spec.density = rho;
  spec.compression = 2e-3;
  packing::Packing p = packing::make_lattice(spec);
  for (Index i = 0; i < p.size(); ++i) p.molecule.push_back(i / per_body + 1);
  return p;
}

Row analyse(const std::string& family, packing::Packing p, int per_body, bool as_spheres = false) {
  packing::sort_spatially(p);
  const packing::ContactLaws laws = hertz_law();
  packing::ContactOptions co;
  co.gap_tolerance = 1e-9;
  const packing::ContactSet cs = packing::find_contacts(p, laws, co);
  packing::PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  o.eigen.method = packing::EigenMethod::lanczos;
  o.eigen.tolerance = 1e-12;
  packing::ClumpSummary sum;
  const auto sys = as_spheres ? std::make_unique<packing::GlobalSystem>(packing::round_assembly(p, cs))
                              : std::make_unique<packing::GlobalSystem>(packing::network_assembly(packing::clump_network(p, cs, &sum)));
  const auto r = as_spheres ? packing::analyse_packing(p, *sys, o) : packing::analyse_system(family, *sys, o);
  Row row{family, per_body, p.size(), as_spheres ? p.size() : sum.bodies, r.omega_max, r.h_exact};
  row.gershgorin = estimate(r, "gershgorin");
  row.yade = estimate(r, "yade_global_stiffness");
  row.single_contact = estimate(r, "single_contact");
  row.sqrt_m_k = estimate(r, "sqrt_m_over_k");
  return row;
}

struct PlanarRow {
  std::string shape;
  double rotation = 0.0;
  Index bodies = 0;
  double contacts_per_body = 0.0, omega_max = 0.0, h_exact = 0.0, gershgorin = 0.0, single_contact = 0.0,
         sqrt_m_k = 0.0;
};

constexpr double planar_kn = 1e5, planar_kt = 3e4, planar_rho = 2.0;  // areal density [kg/m^2]

PlanarRow analyse_planar(const std::string& name, const network::PlanarShape& shape, double aspect, double rotation,
                         Index n) {
  network::PlanarPackingSpec spec;
  spec.shape = shape;
  spec.aspect = aspect;
  spec.n = n;
  spec.r = radius;
  spec.areal_density = planar_rho;
  spec.compression = 2e-3;
  spec.max_rotation = rotation;
  spec.seed = 3;
  spec.law = fmt::format("gran/hooke/history {:g} {:g} 0 0 0.5 0", planar_kn, planar_kt);
  const network::ContactNetwork net = network::planar_packing(spec);
  const packing::GlobalSystem sys(packing::network_assembly(net));
  packing::PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet"};
  o.eigen.method = packing::EigenMethod::lanczos;
  o.eigen.tolerance = 1e-12;
  const auto r = packing::analyse_system(name, sys, o);
  PlanarRow row{name, rotation, static_cast<Index>(net.bodies.size()),
                2.0 * static_cast<double>(net.contacts.size()) / static_cast<double>(net.bodies.size()), r.omega_max,
                r.h_exact};
  row.gershgorin = estimate(r, "gershgorin");
  row.single_contact = estimate(r, "single_contact");
  row.sqrt_m_k = estimate(r, "sqrt_m_over_k");
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = study::parse_args(argc, argv, "study_shape", "results/shape");
  if (!args) return 2;
  const bool quick = args->quick;
  const std::string dir = args->dir;
  try {
    std::filesystem::create_directories(dir);
    const Index n_fcc = quick ? 2 : 6, n_sc = quick ? 12 : 12;
    std::vector<Row> rows;
    for (int k : {1, 2, 4}) rows.push_back(analyse("compact (FCC)", lattice(packing::LatticeKind::fcc, n_fcc, k), k));
    for (int k : {1, 2, 3, 4}) rows.push_back(analyse("chains (SC)", lattice(packing::LatticeKind::sc, n_sc, k), k));
    const double rayleigh = material_estimates(Material{E, nu, rho, radius, 0.0}).front().seconds;

    if (quick) {
      int failures = 0;
      auto check = [&](bool ok, const std::string& what) {
        if (!ok) ++failures;
        std::cout << (ok ? "ok   " : "FAIL ") << what << "\n";
      };
      const Row spheres = analyse("spheres", lattice(packing::LatticeKind::fcc, n_fcc, 1), 1, true);
      auto rel = [](double a, double b) { return std::abs(a - b) / std::abs(b); };
      check(rel(rows[0].omega_max, spheres.omega_max) < 1e-12 && rel(rows[0].h_exact, spheres.h_exact) < 1e-12 &&
                rel(rows[0].yade, spheres.yade) < 1e-12,
            fmt::format("clumps of one sphere = the sphere packing: omega_max {:.12g} / {:.12g} rad/s, Yade {:.9g} / {:.9g} s",
                        rows[0].omega_max, spheres.omega_max, rows[0].yade, spheres.yade));
      for (const auto& r : rows) {
        const Row& base = r.family == rows[0].family ? rows[0] : rows[3];
        check(r.h_exact >= base.h_exact * (1.0 - 1e-12),
              fmt::format("{} of {}: h_exact {:.6g} s >= spheres' {:.6g} s", r.family, r.per_body, r.h_exact, base.h_exact));
      }
      if (failures) return 1;
    }

    std::string csv = "family,spheres_per_body,spheres,bodies,omega_max_rad_s,h_exact_velocity_verlet_s,gershgorin_s,"
                      "yade_clump_rule_s,single_contact_s,sqrt_m_over_k_s,rayleigh_s\n";
    TextTable t({"clumps", "spheres per body", "bodies", "h_exact [s]", "/ spheres'", "0.2 T_R / h", "0.4 T_R / h",
                 "sqrt(m/k) / h", "Yade / h", "Gershgorin / h", "single contact / h"});
    for (const auto& r : rows) {
      const Row& base = r.family == rows[0].family ? rows[0] : rows[3];
      csv += fmt::format("{},{},{},{},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g}\n", r.family, r.per_body,
                         r.spheres, r.bodies, r.omega_max, r.h_exact, r.gershgorin, r.yade, r.single_contact, r.sqrt_m_k,
                         rayleigh);
      t.add_row({r.family, std::to_string(r.per_body), std::to_string(r.bodies), fmt::format("{:.4g}", r.h_exact),
                 fmt::format("{:.3f}", r.h_exact / base.h_exact), fmt::format("{:.3f}", 0.2 * rayleigh / r.h_exact),
                 fmt::format("{:.3f}", 0.4 * rayleigh / r.h_exact), fmt::format("{:.3f}", r.sqrt_m_k / r.h_exact),
                 fmt::format("{:.3f}", r.yade / r.h_exact), fmt::format("{:.3f}", r.gershgorin / r.h_exact),
                 fmt::format("{:.3f}", r.single_contact / r.h_exact)});
    }
    study::write_text(dir, "clumps.csv", csv);
    const std::string md = fmt::format(
        "# Clumps against spheres: the exact step and the rules of thumb\n\n"
        "Generated by `build/studies/study_shape --out {}` (do not edit by hand). Glass beads (E = 63 GPa, nu = 0.22, "
        "rho = 2500 kg/m^3, r = 1 mm), LAMMPS gran/hertz/history (Kn = 4G/(3(1-nu)), Kt = 4G/(2-nu), undamped), "
        "periodic lattices compressed by 2e-3: FCC {} cells per side with each cell's sites as 1, 2 or 4 rigid bodies "
        "(fix rigid/small: point masses + 2/5 m r^2, contacts inside a body left out), simple cubic {} per side with "
        "chains of 1 to 4 neighbours along x. h_exact: the exact limit of velocity Verlet (= rigid_small) from the "
        "Lanczos omega_max. Other columns: each rule / h_exact (above 1: the rule gives an unstable step). T_R: "
        "Rayleigh time {:.4g} s (one sphere: the same for every row); sqrt(m/k): lightest body, stiffest contact; "
        "Yade: its clump rule with its default factor 0.8 (GlobalStiffnessTimeStepper); single contact: 2 / omega of "
        "the stiffest contact's two bodies alone.\n\n```\n{}```\n",
        dir, n_fcc, n_sc, rayleigh, t.to_text());
    study::write_text(dir, "clumps.md", md);
    std::cout << md;

    // --- planar shapes against discs -------------------------------------------------------------
    const Index n_planar = quick ? 4 : 12;
    std::vector<PlanarRow> planar;
    for (double aspect : {1.0, 1.5, 2.0, 3.0, 4.0})
      for (double rotation : {0.0, 0.2}) {
        if (aspect == 1.0 && rotation > 0.0) continue;  // a disc
        planar.push_back(analyse_planar(aspect == 1.0 ? "disc" : fmt::format("ellipse {:g}:1", aspect),
                                        network::ellipse_of_aspect(aspect, radius), aspect, rotation, n_planar));
      }
    for (int sides : {3, 4, 5, 6, 8})
      planar.push_back(analyse_planar(fmt::format("{}-gon", sides), network::regular_polygon(sides, radius), 1.0,
                                      std::numbers::pi, n_planar));
    if (quick) {
      // The disc row through the ellipse builder against the disc lattice of the packing path.
      packing::LatticeSpec ls;
      ls.kind = packing::LatticeKind::hex;
      ls.n = n_planar;
      ls.radius = radius;
      ls.density = planar_rho;
      ls.compression = 2e-3;
      ls.body_model = packing::BodyModel::disc;
      const packing::Packing discs = packing::make_lattice(ls);
      packing::ContactLaws laws;
      laws.base = contact::hooke_history(planar_kn, planar_kt, 0.0, 0.0, 0.5);
      packing::ContactOptions co;
      co.gap_tolerance = 1e-9;
      const packing::GlobalSystem ds(packing::round_assembly(discs, packing::find_contacts(discs, laws, co)));
      const double w = std::sqrt(packing::largest_eigen_dense(ds, 1.0, 0.0));
      const bool ok = std::abs(planar[0].omega_max / w - 1.0) < 1e-12;
      std::cout << (ok ? "ok   " : "FAIL ")
                << fmt::format("ellipses of aspect 1 = the disc packing: omega_max {:.12g} / {:.12g} rad/s\n",
                               planar[0].omega_max, w);
      if (!ok) return 1;
    }
    std::string pcsv = "shape,max_rotation_rad,bodies,contacts_per_body,omega_max_rad_s,h_exact_velocity_verlet_s,"
                       "gershgorin_s,single_contact_s,sqrt_m_over_k_s\n";
    TextTable pt({"shape", "turned up to [rad]", "contacts per body", "h_exact [s]", "/ discs'", "sqrt(m/k) / h",
                  "Gershgorin / h", "single contact / h"});
    for (const auto& r : planar) {
      pcsv += fmt::format("{},{:.6g},{},{:.6g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g}\n", r.shape, r.rotation, r.bodies,
                          r.contacts_per_body, r.omega_max, r.h_exact, r.gershgorin, r.single_contact, r.sqrt_m_k);
      pt.add_row({r.shape, fmt::format("{:.3g}", r.rotation), fmt::format("{:.2f}", r.contacts_per_body),
                  fmt::format("{:.4g}", r.h_exact), fmt::format("{:.3f}", r.h_exact / planar[0].h_exact),
                  fmt::format("{:.3f}", r.sqrt_m_k / r.h_exact), fmt::format("{:.3f}", r.gershgorin / r.h_exact),
                  fmt::format("{:.3f}", r.single_contact / r.h_exact)});
    }
    study::write_text(dir, "planar.csv", pcsv);
    const std::string pmd = fmt::format(
        "# Planar shapes against discs: the exact step\n\n"
        "Generated by `build/studies/study_shape --out {}` (do not edit by hand). Periodic hexagonal packings of "
        "{} bodies of the area of a disc of radius 1 mm (the same mass: areal density {:g} kg/m^2), gran/hooke/history "
        "kn = {:g} N/m, kt = {:g} N/m, undamped: ellipses on the hexagonal lattice of discs compressed by 2e-3 and "
        "stretched to their aspect ratio (aligned they touch their six neighbours), aligned or turned at random by up "
        "to 0.2 rad; regular polygons at spacing 2 x inradius x (1 - 2e-3), turned at random. Contacts from the "
        "penetration depth (network/planar_shapes.hpp). h_exact: exact limit of velocity Verlet (LAMMPS) from the "
        "Lanczos omega_max. Other columns: rule / h_exact (above 1: the rule gives an unstable step). The Rayleigh "
        "time needs a material, not a spring: not given here.\n\n```\n{}```\n",
        dir, planar.front().bodies, planar_rho, planar_kn, planar_kt, pt.to_text());
    study::write_text(dir, "planar.md", pmd);
    std::cout << pmd;
  } catch (const std::exception& e) {
    std::cerr << "study_shape: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
