// The traditional tangential update in the predicted limits: the histories advanced by the
// velocities at the force calls (dynamics/linear_history_system.hpp), not the consistent springs.
// Closed forms of one spring held in a history; the history stiffness of the reference stepper
// against its own tangents in both modes; and the sweep case that showed the gap: variational
// alpha = 1/2 on the spinning disc, predicted unconditionally stable from the consistent model
// while its traditional runs blew up near 0.318 T_t.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include <catch2/catch.hpp>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/dynamics/linear_history_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/sweep.hpp"

using namespace dtcrit;
using Catch::Matchers::WithinRel;
using stepper::Vec3;

namespace {

// m x'' = -k x with the spring k held in a history s (P = R = sqrt(k)): the consistent system is the
// undamped oscillator omega = sqrt(k / m).
LinearHistorySystem spring_in_history(double m, double k) {
  Matrix K = Matrix::Zero(1, 1), C = Matrix::Zero(1, 1), P(1, 1), R(1, 1);
  P(0, 0) = R(0, 0) = std::sqrt(k);
  return LinearHistorySystem(Vector::Constant(1, m), K, C, P, R);
}

}  // namespace

TEST_CASE("a spring held in a traditional history: velocity Verlet's limit is the consistent 2 / omega", "[stability][traditional]") {
  // The force call is at x_{n+1} with v_{n+1/2}, and h v_{n+1/2} = x_{n+1} - x_n: the history is R x
  // at every step, and the oscillator's limit h omega = 2 holds.
  const double m = 2.0, k = 8.0e4, omega = std::sqrt(k / m);
  for (const char* spec : {"velocity_verlet", "leapfrog"}) {
    INFO(spec);
    LinearHistorySystem sys = spring_in_history(m, k);
    const CriticalStep c = critical_step(spec, sys, omega);
    REQUIRE(c.stability == Stability::conditional);
    CHECK_THAT(c.h_crit * omega, WithinRel(2.0, 1e-10));
  }
}

TEST_CASE("a spring held in a traditional history: variational alpha = 1/2 becomes explicit in the spring, limit 2 / omega",
          "[stability][traditional]") {
  // With the force call at q_{n+1/2} and the dashpots' velocity p_n / m, the history's increment is
  // h p_n / m: the spring force f = -(sigma_n + h k v_n) (sigma = sqrt(k) s) does not depend on the
  // unknown, so (v, sigma) step as v' = (1 - h^2 k / m) v - (h / m) sigma, sigma' = sigma + h k v:
  // det = 1, trace 2 - (h omega)^2, stable iff h omega <= 2. The consistent model (the midpoint rule
  // on the oscillator) is unconditionally stable.
  const double m = 0.5, k = 3.0e3, omega = std::sqrt(k / m);
  LinearHistorySystem sys = spring_in_history(m, k);
  const CriticalStep c = critical_step("variational_2", sys, omega);
  REQUIRE(c.stability == Stability::conditional);
  CHECK_THAT(c.h_crit * omega, WithinRel(2.0, 1e-9));
  LinearSystem consistent(Vector::Constant(1, m), Matrix::Constant(1, 1, k), Matrix::Zero(1, 1));
  CHECK(critical_step("variational_2", consistent, omega).stability == Stability::unconditional);
}

TEST_CASE("traditional_linear_system factors the history stiffness exactly, and is a LinearSystem without one",
          "[stability][traditional]") {
  const Vector mass = (Vector(3) << 1.0, 2.0, 0.5).finished();
  Matrix Kd = Matrix::Zero(3, 3), C = Matrix::Zero(3, 3), Kh(3, 3);
  Kd(0, 0) = 5.0;
  Kh << 2.0, -1.0, 0.0, -1.0, 2.0, -1.0, 0.0, -1.0, 1.0;  // rank 3
  Kh(2, 2) = 1.0 - 1e-30;
  auto sys = traditional_linear_system(mass, Kd, C, Kh);
  auto* h = dynamic_cast<LinearHistorySystem*>(sys.get());
  REQUIRE(h);
  CHECK((h->history_force() * h->history_rate() - Kh).norm() <= 1e-14 * Kh.norm());
  // Consistent start (s = R x): the first force equals the consistent one, -(Kd + Kh) x.
  const Vector x = (Vector(3) << 0.1, -0.2, 0.3).finished(), v = Vector::Zero(3);
  h->set_history(h->history_rate() * x);
  Vector f;
  h->force(0.0, x, v, f);
  CHECK((f + (Kd + Kh) * x).norm() <= 1e-14 * ((Kd + Kh) * x).norm());
  auto plain = traditional_linear_system(mass, Kd, C, Matrix::Zero(3, 3));
  CHECK(dynamic_cast<LinearSystem*>(plain.get()) != nullptr);
  CHECK_THROWS_WITH(traditional_linear_system(mass, Kd, C, Matrix::Zero(2, 2)), Catch::Matchers::Contains("history stiffness is 2x2"));
}

TEST_CASE("ParticleSystem::history_stiffness is what the traditional tangent moves from K to C", "[stepper][traditional]") {
  // Two spheres pressed and sheared (tangential spring sticking) and one on a wall, spinning.
  const contact::ContactLaw law = contact::hooke_history(1e5, 3e4, 20.0, 10.0, 10.0);
  auto build = [&](stepper::TangentialHistory mode) {
    stepper::ParticleSystem sys(3, law, mode);
    sys.add_particle(0.5, 1.0, stepper::sphere_inertia(1.0, 0.5));
    sys.add_particle(0.4, 0.8, stepper::sphere_inertia(0.8, 0.4));
    sys.add_wall(Vec3(0, 0, -0.49), Vec3(0, 0, 1), law);
    return sys;
  };
  Vector x = Vector::Zero(12), v = Vector::Zero(12);
  x.segment<3>(6) = Vec3(0.3, 0.2, 0.7);
  v.segment<3>(0) = Vec3(0.01, -0.02, 0.0);
  v.segment<3>(3) = Vec3(0.3, 0.1, -0.2);
  v.segment<3>(6) = Vec3(-0.05, 0.04, 0.01);
  stepper::ParticleSystem cons = build(stepper::TangentialHistory::consistent);
  stepper::ParticleSystem trad = build(stepper::TangentialHistory::traditional);
  Vector f;
  cons.force(0.0, x, v, f);
  trad.force(0.0, x, v, f);
  REQUIRE(trad.last_contacts().size() == 2);
  SparseMatrix Kc, Cc, Kt, Ct, Kh;
  cons.tangent(0.0, x, v, Kc, Cc);
  trad.tangent(0.0, x, v, Kt, Ct);  // dt = 0: nothing committed yet
  trad.history_stiffness(0.0, x, v, Kh);
  const double scale = Matrix(Kc).norm();
  CHECK(Matrix(Kh).norm() > 0.1 * scale);
  CHECK((Matrix(Kt) + Matrix(Kh) - Matrix(Kc)).norm() <= 1e-13 * scale);
  CHECK((Matrix(Ct) - Matrix(Cc)).norm() <= 1e-13 * Matrix(Cc).norm());
  // After a commit, at dt = 1e-3 s: the damping gains dt K_history.
  trad.accept_step();
  const double dt = 1e-3;
  trad.force(dt, x, v, f);
  SparseMatrix Kt2, Ct2;
  trad.tangent(dt, x, v, Kt2, Ct2);
  CHECK((Matrix(Ct2) - Matrix(Ct) - dt * Matrix(Kh)).norm() <= 1e-13 * (Matrix(Ct).norm() + dt * scale));
}

TEST_CASE("spinning-disk, traditional update: variational alpha = 1/2 predicted at its blow-up, velocity Verlet as consistent",
          "[sweep][traditional]") {
  auto run = [](const std::string& tangential) {
    const auto c = sweep::make_case("spinning-disk", sweep::CaseOptions{KeyValues("", "--set"), tangential, true});
    sweep::SweepOptions o;
    o.integrators = {"velocity_verlet", "variational_2"};
    o.levels = 2;
    o.stability = 1;
    o.accuracy = false;
    return sweep::run_sweep(*c, tangential, o);
  };
  const sweep::SweepResult trad = run("traditional"), cons = run("consistent");
  const auto& vv_t = trad.integrators[0];
  const auto& vv_c = cons.integrators[0];
  REQUIRE(vv_t.predicted.conditional());
  CHECK_THAT(vv_t.predicted.h, WithinRel(vv_c.predicted.h, 1e-9));
  const auto& var_t = trad.integrators[1];
  const auto& var_c = cons.integrators[1];
  CHECK(var_c.predicted.stability == Stability::unconditional);
  REQUIRE(var_t.predicted.conditional());
  REQUIRE(var_t.empirical.status == sweep::EmpiricalStatus::found);
  // Safe: the runs blow up at or above the prediction (measured: emp/pred in the sweep tables).
  INFO("predicted " << var_t.predicted.h << " s, blow-up " << var_t.empirical.h << " s");
  CHECK(var_t.empirical.h >= var_t.predicted.h * (1.0 - 1e-4));
  CHECK(var_t.empirical.h <= 1.2 * var_t.predicted.h);
}

TEST_CASE("spinning-disk without a Coulomb cap, damped: traditional-mode predictions are the blow-up steps",
          "[sweep][traditional]") {
  // mu = 1e6: the tangential spring never slides, so a growing tangential mode is not capped and the
  // run blows up where the step map does; gamma_t = 100 N s/m. Measured (dtcrit sweep --case
  // spinning-disk --set gamma_t=100,mu=1e6 --tangential traditional): emp/pred 1.0001 (rk4),
  // 1.0005 (gear4), 1.0001 (variational_2), 1.0078 (central difference). The consistent model
  // predicts rk4 at 0.388 T_t, 1.7 times the traditional runs' blow-up.
  const auto c = sweep::make_case("spinning-disk", sweep::CaseOptions{KeyValues("gamma_t=100,mu=1e6", "--set"), "traditional", true});
  sweep::SweepOptions o;
  o.integrators = {"rk4", "gear4", "variational_2", "central_difference"};
  o.levels = 2;
  o.stability = 1;
  o.accuracy = false;
  const sweep::SweepResult r = sweep::run_sweep(*c, "traditional", o);
  for (const auto& s : r.integrators) {
    INFO(s.spec << ": predicted " << s.predicted.h << " s, blow-up " << s.empirical.h << " s");
    REQUIRE(s.predicted.conditional());
    REQUIRE(s.empirical.status == sweep::EmpiricalStatus::found);
    CHECK(s.empirical.h >= s.predicted.h * (1.0 - 1e-4));
    CHECK(s.empirical.h <= s.predicted.h * (s.spec == "central_difference" ? 1.01 : 1.001));
  }
  const auto cons = sweep::make_case("spinning-disk", sweep::CaseOptions{KeyValues("gamma_t=100,mu=1e6", "--set"), "consistent", true});
  sweep::SweepOptions oc = o;
  oc.integrators = {"rk4"};
  const sweep::SweepResult rc = sweep::run_sweep(*cons, "consistent", oc);
  CHECK(rc.integrators[0].predicted.h > 1.5 * r.integrators[0].predicted.h);
}

TEST_CASE("hertz-head-on at its peak overlap (non-symmetric K and C): free modes set aside in both history modes",
          "[sweep][traditional][free-modes]") {
  // Mindlin's tangential spring under load makes K and C non-symmetric (~1e-6 relative); the 9 free
  // modes of the pair then decouple through the left null space. Before, the whole state was judged
  // and its Jordan blocks at +1 read as instability at round-off: Newmark average acceleration was
  // "unstable" (consistent), explicit Euler and variational alpha = 0 "unstable" (traditional).
  double euler_reference = 0.0;
  for (const std::string mode : {"consistent", "traditional"}) {
    INFO(mode);
    const auto c = sweep::make_case("hertz-head-on", sweep::CaseOptions{KeyValues("", "--set"), mode, true});
    const auto lin = c->linearise();
    REQUIRE(lin);
    if (mode == "consistent") {
      // Explicit Euler is stable iff |1 + h s| <= 1 for every eigenvalue s of the first-order
      // system: h <= -2 Re s / |s|^2 over the nonzero s (the free modes' s = 0 only drift).
      const auto& sys = dynamic_cast<const LinearSystem&>(*lin->system);
      const Index n = sys.dofs();
      const Vector minv = sys.mass().cwiseInverse();
      Matrix F = Matrix::Zero(2 * n, 2 * n);
      F.topRightCorner(n, n).setIdentity();
      F.bottomLeftCorner(n, n) = -(minv.asDiagonal() * Matrix(sys.stiffness()));
      F.bottomRightCorner(n, n) = -(minv.asDiagonal() * Matrix(sys.damping()));
      const Eigen::VectorXcd roots = linalg::eigen_solver(F, false).values;
      double h = INFINITY;
      for (Index i = 0; i < 2 * n; ++i) {
        const std::complex<double> z = roots[i];
        if (std::abs(z) > 1e-6 * lin->omega_max) h = std::min(h, -2.0 * z.real() / std::norm(z));
      }
      euler_reference = h;
    }
    auto limit = [&](const char* spec) { return critical_step(spec, *lin->system, lin->omega_max); };
    const CriticalStep vv = limit("velocity_verlet"), var1 = limit("variational_1"), euler = limit("explicit_euler");
    CHECK(vv.free_modes == 9);
    CHECK(limit("newmark_average").stability == Stability::unconditional);
    REQUIRE(vv.stability == Stability::conditional);
    REQUIRE(var1.stability == Stability::conditional);
    // alpha = 0 moves the positions as velocity Verlet does (its dashpots read v_n instead of
    // v_{n+1/2}: the same limit here to 1e-6)
    CHECK_THAT(var1.h_crit, WithinRel(vv.h_crit, 1e-6));
    // explicit Euler's history increment h v_n is its position increment: both modes give the
    // first-order eigenvalues' limit
    REQUIRE(euler.stability == Stability::conditional);
    CHECK_THAT(euler.h_crit, WithinRel(euler_reference, 1e-6));
  }
}

TEST_CASE("spinning-disk, tangential mode the stiffest: schemes that solve for v_{n+1} hold the traditional spring implicitly",
          "[sweep][traditional]") {
  // kt_ratio = 1: the tangential mode (omega_t^2 = 3.5 k_t / m) is above the normal one. Central
  // difference, velocity Verlet with implicit damping and Newmark linear acceleration solve for
  // v_{n+1}, and the traditional increment h v_{n+1} puts the tangential spring inside that solve:
  // their limits rise to the normal mode's (measured: 0.5406 T_t against 0.3121 T_t consistent for the
  // first two), and the runs blow up there (emp/pred 1.0078, 1.0000, 1.0000).
  auto run = [](const std::string& tangential) {
    const auto c = sweep::make_case("spinning-disk",
                                    sweep::CaseOptions{KeyValues("gamma_t=100,mu=1e6,kt_ratio=1", "--set"), tangential, true});
    sweep::SweepOptions o;
    o.integrators = {"central_difference", "velocity_verlet_implicit_damping", "newmark_linear"};
    o.levels = 2;
    o.stability = 1;
    o.accuracy = false;
    return sweep::run_sweep(*c, tangential, o);
  };
  const sweep::SweepResult trad = run("traditional"), cons = run("consistent");
  for (std::size_t i = 0; i < trad.integrators.size(); ++i) {
    const auto& t = trad.integrators[i];
    const auto& c = cons.integrators[i];
    INFO(t.spec << ": traditional predicted " << t.predicted.h << " s, blow-up " << t.empirical.h << " s; consistent "
                << c.predicted.h << " s, blow-up " << c.empirical.h << " s");
    REQUIRE(t.predicted.conditional());
    REQUIRE(c.predicted.conditional());
    REQUIRE(t.empirical.status == sweep::EmpiricalStatus::found);
    REQUIRE(c.empirical.status == sweep::EmpiricalStatus::found);
    CHECK(t.empirical.h >= t.predicted.h * (1.0 - 1e-4));
    CHECK(t.empirical.h <= t.predicted.h * 1.01);
    CHECK(c.empirical.h >= c.predicted.h * (1.0 - 1e-4));
    CHECK(c.empirical.h <= c.predicted.h * 1.01);
    if (t.spec != "newmark_linear") CHECK(t.predicted.h > 1.5 * c.predicted.h);
  }
}
