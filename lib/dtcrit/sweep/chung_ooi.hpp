#pragma once
// The single-particle benchmark tests of Chung & Ooi (2011, "Benchmark tests for verifying discrete
// element modelling codes at particle impact level", Granular Matter 13:643-656,
// doi:10.1007/s10035-011-0277-0) as sweep cases (chung-ooi-1 ... chung-ooi-8), and the closed forms of
// a collision that slides throughout. The materials and speeds are the paper's, as public scripts of
// the tests set them: Tests 1-4 as Yade's (Test1.py ... Test4.py, Angelidakis, Chareyre & Caulk 2023);
// Test 5 as PySPH's example script (steel, mu = 0.3, v_n = 5 m/s); Tests 6-8 (spinning spheres) as
// Kratos' DEM benchmarks 6-8 (applications/DEMApplication/test_examples/basic_benchmarks/
// benchmark{6,7,8}DEM.mdpa and python_scripts/DEM_benchmarks_class.py: aluminium alloy, r = 0.1 m,
// 0.2 m/s, mu = 0.4, e = 0.5).
// sweep/README.md describes each case; results/benchmarks/chung_ooi/ holds the accuracy table.
#include <memory>
#include <string_view>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/sweep/sweep_case.hpp"

namespace dtcrit::sweep {

// The case `name` (chung-ooi-1 ... chung-ooi-8), or nullptr when `name` is none of them.
std::unique_ptr<SweepCase> make_chung_ooi_case(std::string_view name, const CaseOptions& options);

// law-oblique: round body 1 (mass m1 [kg], moment of inertia I1 [kg m^2], radius r1 [m]) strikes round
// body 2 (m2, I2, r2), at rest, at `speed` [m/s] and `angle` [rad] from the normal, without spin, under
// `law`. Outcomes: the normal ones against the law's impact integrated (contact::head_on_impact), and
// as chung-ooi-4 has them body 1's tangential restitution, spin in the rolling sense [rad/s] and the
// contact point's rebound angle [deg], against a fine run. `dtcrit pair --accuracy spin=1%
// --impact-angle DEG` measures this collision.
struct RoundBody {
  double mass = 0.0, inertia = 0.0, radius = 0.0;
};
std::unique_ptr<SweepCase> make_law_oblique_case(const contact::ContactLaw& law, const RoundBody& body1,
                                                 const RoundBody& body2, double speed, double angle,
                                                 const CaseOptions& options);

// A solid sphere 1 (mass m1, radius r1, I = 2/5 m1 r1^2) meets body 2 (a sphere of mass m2, or a
// plane: m2 = infinity) at the normal approach speed vn, with restitution e, while its contact point
// slips at u > 0, and keeps sliding throughout (Coulomb friction mu: the tangential impulse is mu
// times the normal one, m* vn (1 + e), m* = m1 m2 / (m1 + m2)). Then, along the slip:
//   sphere 1's centre velocity changes by  -mu (1 + e) vn m* / m1              [m/s]
//   its spin changes by                    -5/2 mu (1 + e) vn m* / (m1 r1)     [rad/s] (the sense
//                                          in which spin adds to the slip)
//   the slip becomes                       u - 7/2 mu (1 + e) vn               [m/s]
// (the last for any m2: m* (1/m1 + 1/m2) = 1, and body 2's own spin change is 5/2 of its centre's).
// It holds while the slip stays positive, u >= 7/2 mu (1 + e) vn.
struct SlidingImpulses {
  double centre_velocity = 0.0;
  double spin = 0.0;
  double slip = 0.0;
};
SlidingImpulses sliding_impulses(double m1, double m2, double r1, double vn, double u, double mu, double restitution);

// Test 4's form of it: a sphere without spin strikes a plane at `speed` [m/s], `angle` [rad] from the
// normal. Then
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
// The incidence angle of the contact point's velocity above which a sphere slides throughout:
// atan(7/2 mu (1 + e)) [rad].
double sliding_angle(double mu, double restitution);

}  // namespace dtcrit::sweep
