// Tests of the reference DEM stepper's physics (lib/dtcrit/stepper).
//
// Expected values come from hand computation, closed forms derived in the comments, or independent
// constructions in this file, never from the code under test.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include "dtcrit/stepper/contact_law.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/stepper/planar_pair.hpp"

using namespace dtcrit;
using namespace dtcrit::stepper;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// LAMMPS-style velocity Verlet (fix nve/sphere): the force call at x_{n+1} sees v_{n+1/2}; one
// accept_step() per step. Time is t0 + n h.
template <class Observer>
void run_verlet(MechanicalSystem& sys, double t0, Vector& x, Vector& v, double h, long steps, Observer&& obs) {
  const Vector& m = sys.mass();
  Vector f(sys.dofs());
  sys.force(t0, x, v, f);
  sys.accept_step();
  for (long n = 0; n < steps; ++n) {
    v += 0.5 * h * f.cwiseQuotient(m);
    x += h * v;
    const double t = t0 + static_cast<double>(n + 1) * h;
    sys.force(t, x, v, f);
    v += 0.5 * h * f.cwiseQuotient(m);
    sys.accept_step();
    obs(t, x, v);
  }
}
void run_verlet(MechanicalSystem& sys, double t0, Vector& x, Vector& v, double h, long steps) {
  run_verlet(sys, t0, x, v, h, steps, [](double, const Vector&, const Vector&) {});
}

// Two spheres (3D) or discs (2D) of radius R, masses m1, m2, approaching head-on along x.
struct HeadOn {
  ParticleSystem sys;
  Vector x, v;
  HeadOn(int dim, const HookeParams& law, double R, double m1, double m2, double gap, double speed,
         TangentialHistory mode = TangentialHistory::traditional)
      : sys(dim, law, mode) {
    const auto I = [&](double m) { return dim == 2 ? disc_inertia(m, R) : sphere_inertia(m, R); };
    sys.add_particle(R, m1, I(m1));
    sys.add_particle(R, m2, I(m2));
    x = Vector::Zero(sys.dofs());
    v = Vector::Zero(sys.dofs());
    sys.set_centre(x, 0, Vec3(-(R + 0.5 * gap), 0, 0));
    sys.set_centre(x, 1, Vec3(R + 0.5 * gap, 0, 0));
    sys.set_centre(v, 0, Vec3(speed, 0, 0));
    sys.set_centre(v, 1, Vec3(-speed, 0, 0));
  }
};

}  // namespace

TEST_CASE("hooke_history_force follows LAMMPS on a hand-computed contact", "[stepper]") {
  // i at (1,0,0) radius 0.6, j at the origin radius 0.5: r = 1, delta = 0.1, n = (1,0,0).
  // m_i = m_j = 2 -> m_eff = 1. kn = 1000, kt = 500, gamma_n = 10, gamma_t = 4, mu = 0.5.
  // v_i = (-1, 0.5, 0), v_j = (0, 0, 0.2); w_i = (0,0,1), w_j = (1,0,0).
  //   v_ij = (-1, 0.5, -0.2), v_n = -1, v_t = (0, 0.5, -0.2)
  //   r_i w_i + r_j w_j = (0.5, 0, 0.6); (0.5, 0, 0.6) x n = (0, 0.6, 0)
  //   v_rel,t = (0, -0.1, -0.2)
  //   F_n = kn delta - m_eff gamma_n v_n = 100 + 10 = 110 along n.
  // First force call: xi = 0 -> F_t = -m_eff gamma_t v_t = (0, 0.4, 0.8), |F_t| < 0.5 * 110.
  //   torque_i = (-r_i n) x F_t = -0.6 (0, -0.8, 0.4) = (0, 0.48, -0.24)
  //   torque_j = (-r_j n) x F_t = -0.5 (0, -0.8, 0.4) = (0, 0.4, -0.2)
  // After accept_step() at t = 0, a call at t = 0.01 with the same state:
  //   xi = 0.01 (0, -0.1, -0.2) = (0, -0.001, -0.002),
  //   F_t = -(500 xi + 4 v_t) = (0, 0.5, 1) + (0, 0.4, 0.8) = (0, 0.9, 1.8).
  const HookeParams law{1000.0, 500.0, 10.0, 4.0, 0.5};
  ParticleSystem sys(3, law, TangentialHistory::traditional);
  sys.add_particle(0.6, 2.0, 1.0);
  sys.add_particle(0.5, 2.0, 1.0);
  Vector x = Vector::Zero(12), v = Vector::Zero(12), f;
  sys.set_centre(x, 0, Vec3(1, 0, 0));
  sys.set_centre(v, 0, Vec3(-1, 0.5, 0));
  sys.set_centre(v, 1, Vec3(0, 0, 0.2));
  sys.set_spin(v, 0, Vec3(0, 0, 1));
  sys.set_spin(v, 1, Vec3(1, 0, 0));

  sys.force(0.0, x, v, f);
  Vector expected(12);
  expected << 110, 0.4, 0.8, 0, 0.48, -0.24, -110, -0.4, -0.8, 0, 0.4, -0.2;
  for (Index k = 0; k < 12; ++k) CHECK_THAT(f[k], WithinAbs(expected[k], 1e-12));
  sys.accept_step();

  sys.force(0.01, x, v, f);
  expected << 110, 0.9, 1.8, 0, 0.6 * 1.8, -0.6 * 0.9, -110, -0.9, -1.8, 0, 0.5 * 1.8, -0.5 * 0.9;
  for (Index k = 0; k < 12; ++k) CHECK_THAT(f[k], WithinAbs(expected[k], 1e-12));
  REQUIRE(sys.last_contacts().size() == 1);
  CHECK_THAT(sys.last_contacts()[0].xi.y(), WithinAbs(-0.001, 1e-15));
  CHECK_THAT(sys.last_contacts()[0].xi.z(), WithinAbs(-0.002, 1e-15));
  CHECK_FALSE(sys.last_contacts()[0].sliding);

  // The same through the pure function.
  ContactInput in;
  in.overlap = 0.1;
  in.normal = Vec3(1, 0, 0);
  in.v_rel = Vec3(-1, -0.1, -0.2);
  in.xi = Vec3(0, -0.001, -0.002);
  in.m_eff = 1.0;
  const ContactOutput out = hooke_history_force(law, in);
  CHECK_THAT(out.normal_force, WithinAbs(110.0, 1e-12));
  CHECK_THAT(out.force.x(), WithinAbs(110.0, 1e-12));
  CHECK_THAT(out.force.y(), WithinAbs(0.9, 1e-12));
  CHECK_THAT(out.force.z(), WithinAbs(1.8, 1e-12));
  CHECK(out.kn_lin == 1000.0);
  CHECK(out.cn_lin == 10.0);
  CHECK(out.kt_lin == 500.0);
  CHECK(out.ct_lin == 4.0);
}

TEST_CASE("traditional history: accept_step commits the most recent force call; xi is projected", "[stepper]") {
  const HookeParams law{1000.0, 500.0, 0.0, 0.0, 10.0};
  ParticleSystem sys(3, law, TangentialHistory::traditional);
  sys.add_particle(0.6, 2.0, 1.0);
  sys.add_particle(0.5, 2.0, 1.0);
  Vector x = Vector::Zero(12), v = Vector::Zero(12), f;
  sys.set_centre(x, 0, Vec3(1, 0, 0));
  sys.force(0.0, x, v, f);
  sys.accept_step();
  CHECK(sys.history().size() == 3);
  CHECK(sys.history().isZero());
  // Two trial calls in one step: only the second (v_y = 2, dt = 0.1) is committed.
  sys.set_centre(v, 0, Vec3(0, 1, 0));
  sys.force(0.05, x, v, f);
  sys.set_centre(v, 0, Vec3(0, 2, 0));
  sys.force(0.1, x, v, f);
  sys.accept_step();
  Vector h = sys.history();
  REQUIRE(h.size() == 3);
  CHECK_THAT(h[1], WithinAbs(0.2, 1e-15));
  // set_history with a normal component: the next call projects it away (LAMMPS' rotation).
  sys.set_history(Vector::Map(std::vector<double>{0.3, 0.01, 0.0}.data(), 3));
  v.setZero();
  sys.force(0.2, x, v, f);
  CHECK_THAT(sys.last_contacts()[0].xi.x(), WithinAbs(0.0, 1e-15));
  CHECK_THAT(f[1], WithinAbs(-500.0 * 0.01, 1e-12));
  CHECK_THROWS_AS(sys.set_history(Vector::Zero(2)), std::invalid_argument);
  CHECK(sys.history_keys().size() == 1);
  CHECK(sys.history_keys()[0] == ContactKey{0, 1});
}

TEST_CASE("Coulomb cap follows LAMMPS' rescaling rule", "[stepper]") {
  // Same contact as above with mu = 0.01: cap = 1.1, trial F_t = (0, 0.9, 1.8).
  const double kt = 500.0, ct = 4.0, mu = 0.01;
  ContactInput in;
  in.overlap = 0.1;
  in.normal = Vec3(1, 0, 0);
  in.v_rel = Vec3(-1, -0.1, -0.2);
  in.xi = Vec3(0, -0.001, -0.002);
  in.m_eff = 1.0;
  const ContactOutput out = hooke_history_force(HookeParams{1000.0, kt, 10.0, ct, mu}, in);
  const double fs = std::sqrt(0.9 * 0.9 + 1.8 * 1.8), cap = mu * 110.0, ratio = cap / fs;
  CHECK(out.sliding);
  CHECK_THAT(out.tangential_force.norm(), WithinRel(cap, 1e-13));
  CHECK_THAT(out.tangential_force.y(), WithinRel(0.9 * ratio, 1e-13));
  // xi' = ratio (xi + ct v_t / kt) - ct v_t / kt, and -(kt xi' + ct v_t) equals the capped force.
  const Vec3 vt(0, -0.1, -0.2);
  const Vec3 xi_expected = ratio * (in.xi + ct * vt / kt) - ct * vt / kt;
  CHECK_THAT(out.xi.y(), WithinAbs(xi_expected.y(), 1e-16));
  CHECK_THAT(out.xi.z(), WithinAbs(xi_expected.z(), 1e-16));
  const Vec3 recomputed = -(kt * out.xi + ct * vt);
  CHECK_THAT((recomputed - out.tangential_force).norm(), WithinAbs(0.0, 1e-13));
  CHECK(out.kt_lin == 0.0);

  // Without a tangential dashpot the rule reduces to k_t |xi| = mu |F_n|.
  const ContactOutput o2 = hooke_history_force(HookeParams{1000.0, kt, 10.0, 0.0, mu}, in);
  CHECK_THAT(kt * o2.xi.norm(), WithinRel(cap, 1e-13));

  // Through the system: the capped xi is what accept_step() commits.
  ParticleSystem sys(3, HookeParams{1000.0, kt, 10.0, ct, mu}, TangentialHistory::traditional);
  sys.add_particle(0.6, 2.0, 1.0);
  sys.add_particle(0.5, 2.0, 1.0);
  Vector x = Vector::Zero(12), v = Vector::Zero(12), f;
  sys.set_centre(x, 0, Vec3(1, 0, 0));
  sys.set_centre(v, 0, Vec3(-1, 0.5, 0));
  sys.set_centre(v, 1, Vec3(0, 0, 0.2));
  sys.set_spin(v, 0, Vec3(0, 0, 1));
  sys.set_spin(v, 1, Vec3(1, 0, 0));
  sys.force(0.0, x, v, f);
  sys.accept_step();
  sys.force(0.01, x, v, f);
  sys.accept_step();
  const Vector h = sys.history();
  CHECK_THAT(h[1], WithinAbs(xi_expected.y(), 1e-16));
  CHECK_THAT(h[2], WithinAbs(xi_expected.z(), 1e-16));
  CHECK_THAT(Vec3(f[0] - 110.0, f[1], f[2]).norm(), WithinRel(cap, 1e-12));
}

TEST_CASE("restitution <-> gamma_n conversion matches an independent root find", "[stepper]") {
  const double kn = 2.0e5, m_eff = 0.3;
  for (double e : {0.05, 0.3, 0.5, 0.9, 0.99}) {
    // Solve exp(-zeta pi / sqrt(1 - zeta^2)) = e for zeta by bisection.
    double lo = 0.0, hi = 1.0 - 1e-15;
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (lo + hi);
      (std::exp(-mid * std::numbers::pi / std::sqrt(1 - mid * mid)) > e ? lo : hi) = mid;
    }
    const double gamma_expected = 2.0 * lo * std::sqrt(kn / m_eff);
    CHECK_THAT(gamma_n_from_restitution(e, kn, m_eff), WithinRel(gamma_expected, 1e-12));
    CHECK_THAT(restitution_from_gamma_n(gamma_expected, kn, m_eff), WithinRel(e, 1e-12));
  }
  CHECK(gamma_n_from_restitution(1.0, kn, m_eff) == 0.0);
  CHECK_THROWS_AS(gamma_n_from_restitution(0.0, kn, m_eff), std::invalid_argument);
  CHECK_THROWS_AS(gamma_n_from_restitution(1.5, kn, m_eff), std::invalid_argument);
}
