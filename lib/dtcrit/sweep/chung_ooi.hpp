#pragma once
// The single-particle benchmark tests of Chung & Ooi (2011, "Benchmark tests for verifying discrete
// element modelling codes at particle impact level", Granular Matter 13:643-656,
// doi:10.1007/s10035-011-0277-0) as sweep cases (chung-ooi-1 ... chung-ooi-5), and the closed form of
// the oblique test's gross-sliding regime. The materials and speeds are the paper's, as Yade's
// scripts of the tests set them (Test1.py ... Test4.py, Angelidakis, Chareyre & Caulk 2023); Test 5 as
// PySPH's example script of it (steel, mu = 0.3, v_n = 5 m/s). Tests 6-8 (two spheres with spins) are
// not here yet.
// sweep/README.md describes each case; results/benchmarks/chung_ooi/ holds the accuracy table.
#include <memory>
#include <string_view>

#include "dtcrit/sweep/sweep_case.hpp"

namespace dtcrit::sweep {

// The case `name` (chung-ooi-1 ... chung-ooi-5), or nullptr when `name` is none of them.
std::unique_ptr<SweepCase> make_chung_ooi_case(std::string_view name, const CaseOptions& options);

// A solid sphere (I = 2/5 m r^2, no spin) strikes a plane at `speed` [m/s], `angle` [rad] from the
// normal, with Coulomb friction mu and normal restitution e, and slides throughout the contact: the
// tangential impulse is mu times the normal one, m v cos(angle) (1 + e). Then
//   tangential restitution  e_t = 1 - mu (1 + e) / tan(angle)   (the centre's tangential velocity)
//   spin after impact       w   = 5 mu (1 + e) v cos(angle) / (2 r)   [rad/s], in the rolling sense
//   rebound angle           psi = atan((tan(angle) - 7/2 mu (1 + e)) / e)   [rad], the contact
//                                 point's velocity from the normal
// It holds while the contact point keeps sliding, for angle >= sliding_angle(mu, e).
struct SlidingRebound {
  double tangential_restitution = 0.0;
  double spin = 0.0;
  double rebound_angle = 0.0;
};
SlidingRebound gross_sliding_rebound(double speed, double angle, double mu, double restitution, double r);
// The incidence angle above which a sphere slides throughout: atan(7/2 mu (1 + e)) [rad].
double sliding_angle(double mu, double restitution);

}  // namespace dtcrit::sweep
