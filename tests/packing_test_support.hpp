#pragma once
// Packings shared by several test files.
#include <string>

#include <catch2/catch.hpp>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/system/global_system.hpp"

namespace dtcrit::packing::test {

// A compressed simple cubic block of 27 spheres, radii spread by 5 %, between six walls pressed in by
// the compression overlap.
inline Packing polydisperse_sc_box_packing() {
  LatticeSpec s;
  s.kind = LatticeKind::sc;
  s.n = 3;
  s.periodic = false;
  s.compression = 1e-3;
  s.radius_spread = 0.05;
  Packing p = make_lattice(s);
  add_box_walls(p, 2.0 * p.radius[0] * 1e-3);
  return p;
}

// ... with every contact under one law in LAMMPS' syntax (rotations on).
inline GlobalSystem polydisperse_sc_box(const std::string& law) {
  const Packing p = polydisperse_sc_box_packing();
  ContactLaws laws;
  laws.base = contact::parse_lammps_pair(law);
  return GlobalSystem(round_assembly(p, find_contacts(p, laws)), true);
}

// One damped packing analysed three ways for the rows no criterion decides: the reference (the whole
// amplification matrix, --amplification-dofs = its dofs), the scan (--amplification-dofs 0) and
// neither (--scan-dofs one below its dofs: not computed).
struct ScanReports {
  PackingReport whole, scanned, above;
};
inline ScanReports scan_reports(const Packing& p, const GlobalSystem& g, PackingAnalysisOptions o) {
  ScanReports r;
  o.amplification_dofs = g.dofs();
  r.whole = analyse_packing(p, g, o);
  o.amplification_dofs = 0;
  r.scanned = analyse_packing(p, g, o);
  o.scan_dofs = g.dofs() - 1;
  r.above = analyse_packing(p, g, o);
  return r;
}

}  // namespace dtcrit::packing::test

// The report's row of one integrator (fails the test when there is none).
inline const dtcrit::packing::PackingIntegratorLimit& limit_of(const dtcrit::packing::PackingReport& r,
                                                               const std::string& name) {
  for (const auto& l : r.integrators)
    if (l.name == name) return l;
  FAIL("no limit for " << name);
  return r.integrators.front();
}
