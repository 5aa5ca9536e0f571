// The named sweep cases. Each is a small class: its parameters (overridable by --set key=value),
// how to build a run, what it observes and what it knows exactly. Units: SI; the defaults use
// De Klerk et al.'s scaling k d / (m g) = 195 000 with m = 1 kg, d = 1 m (so g = 1 m/s^2).
// See sweep/README.md for the set-up, reference solution and purpose of each.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/core/suggest.hpp"
#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/impact.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/case_support.hpp"
#include "dtcrit/sweep/chung_ooi.hpp"
#include "dtcrit/sweep/collision_monitor.hpp"

namespace dtcrit::sweep {

using stepper::HookeParams;
using stepper::ParticleSystem;
using stepper::TangentialHistory;
using stepper::Vec3;
using namespace detail;

double SweepCase::param(const KeyValues& kv, const std::string& key, double default_value, const std::string& meaning) {
  const double value = kv.number(key).value_or(default_value);
  parameters_.push_back({key, value, meaning});
  return value;
}

namespace {

constexpr double pi = std::numbers::pi;

// Reads the engine-independent whole-number parameter `key` (e.g. a count).
long whole(std::string_view what, double value, long lo) {
  if (!(value >= static_cast<double>(lo)) || value != std::floor(value) || value > 1e9)
    fail(fmt::format("{} = {} must be a whole number >= {}", what, value, lo));
  return static_cast<long>(value);
}

// The first collision of 3D spheres i and j (i left of j), whose radii add up to d: overlap and
// approach speed along their centre line.
std::unique_ptr<Monitor> sphere_pair_monitor(Index i, Index j, double d) {
  return std::make_unique<CollisionMonitor>(
      [i, j, d](const Vector& x) { return d - (x.segment<3>(6 * j) - x.segment<3>(6 * i)).norm(); },
      [i, j](const Vector& x, const Vector& v) {
        const Eigen::Vector3d n = (x.segment<3>(6 * j) - x.segment<3>(6 * i)).normalized();
        return -(v.segment<3>(6 * j) - v.segment<3>(6 * i)).dot(n);
      });
}

// Equal spheres (mass m_, diameter d_) launched along x at speed v_: bonded-pair, head-on and
// oblique, bonded-impact, hertz-head-on. They share the set-up: the spheres, the start from a
// surface gap, and the linearisation at rest at a given gap.
class EqualSpheres : public ParticleCase {
 protected:
  explicit EqualSpheres(const CaseOptions& o) : ParticleCase(o) {}

  // The case's particles, law and bonds.
  virtual ParticleSystem make_system() const = 0;
  // The initial state with the case's contact `gap` apart (gap < 0: overlapping).
  virtual void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const = 0;

  // `count` spheres under `law`.
  ParticleSystem spheres(int count, const contact::ContactLaw& law) const {
    ParticleSystem sys(3, law, mode_);
    const double R = 0.5 * d_;
    for (int i = 0; i < count; ++i) sys.add_particle(R, m_, stepper::sphere_inertia(m_, R));
    return sys;
  }
  // Two spheres `gap` apart along x, centres at y0 and y1, approaching at -+v_.
  void place_pair(const ParticleSystem& sys, double gap, double y0, double y1, Vector& x, Vector& v) const {
    x = Vector::Zero(sys.dofs());
    v = Vector::Zero(sys.dofs());
    sys.set_centre(x, 0, Vec3(-0.5 * (d_ + gap), y0, 0));
    sys.set_centre(x, 1, Vec3(0.5 * (d_ + gap), y1, 0));
    sys.set_centre(v, 0, Vec3(v_, 0, 0));
    sys.set_centre(v, 1, Vec3(-v_, 0, 0));
  }
  RunSetup build_at(double gap) const {
    auto sys = std::make_unique<ParticleSystem>(make_system());
    RunSetup s;
    place(*sys, gap, s.x0, s.v0);
    s.system = std::move(sys);
    return s;
  }
  Linearisation linearise_at(double gap, std::string what) const {
    ParticleSystem sys = make_system();
    Vector x, v;
    place(sys, gap, x, v);
    return linearise_particles(sys, x, Vector::Zero(v.size()), std::move(what));
  }
  // The state of a head-on pair at overlap delta, overlap rate `rate` and contact energy `potential`.
  Observation pair_observation(double delta, double rate, double potential) const {
    Vector x = Vector::Zero(12), v = Vector::Zero(12);
    x[0] = -0.5 * (d_ - delta);
    x[6] = 0.5 * (d_ - delta);
    v[0] = 0.5 * rate;
    v[6] = -0.5 * rate;
    Observation o;
    o.kinetic = 0.25 * m_ * rate * rate;
    o.channels = {x, v, Vector::Constant(1, o.kinetic + potential)};
    return o;
  }

  double m_ = 0.0, d_ = 0.0, v_ = 0.0;
};

// ------------------------------------------------------------------------------------------
// bonded-pair: De Klerk et al. (2022) §3.1, the stability example: two equal spheres joined by a
// spring that acts at any separation, starting at zero overlap with velocities -+v.
class BondedPair final : public EqualSpheres {
 public:
  BondedPair(const CaseOptions& o) : EqualSpheres(o) {
    name_ = "bonded-pair";
    description_ = "two equal spheres joined by an always-acting spring k_B (De Klerk et al. 2022, §3.1 stability "
                   "example); analytic damped oscillation of the overlap";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass of each sphere [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kb_ = require_positive("kb", param(kv, "kb", 195000.0, "bond stiffness k_B [N/m]"));
    gamma_ = require_non_negative("gamma_n", param(kv, "gamma_n", 0.0, "damping rate per unit effective mass [1/s]"));
    v_ = require_positive("v", param(kv, "v", 1.0, "initial speed of each sphere, towards the other [m/s]"));
    const double periods = require_positive("periods", param(kv, "periods", o.quick ? 4.0 : 10.0, "run length in bond periods"));
    omega0_ = std::sqrt(2.0 * kb_ / m_);
    if (!(gamma_ < 2.0 * omega0_)) fail(fmt::format("gamma_n = {} must be below 2 omega0 = {} (underdamped)", gamma_, 2.0 * omega0_));
    const double T = 2.0 * pi / omega0_;
    t_end_ = periods * T;
    h0_ = T / 16.0;
    levels_ = o.quick ? 4 : 6;
    time_scale_ = T;
    time_scale_name_ = "T_bond";
    accuracy_quantity_ = "position";
    linear_stability_ = true;
    channels_ = standard_channels(v_ / omega0_, v_, m_ * v_ * v_);
  }

  ParticleSystem make_system() const override {
    ParticleSystem sys = spheres(2, HookeParams{kb_, 0.0, gamma_, 0.0, 0.0});
    sys.add_bond(0, 1, kb_);
    return sys;
  }
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const override {
    place_pair(sys, gap, 0, 0, x, v);
  }
  // Touching; the bond acts at any separation, so a delay changes nothing.
  RunSetup build(double) const override { return build_at(0.0); }
  bool has_exact() const override { return true; }
  Observation exact(double, double t, double tv) const override {
    const DampedSine osc{omega0_, gamma_, 2.0 * v_};
    const double delta = osc.u(t), rate = osc.du(tv);
    return pair_observation(delta, rate, 0.5 * kb_ * delta * delta);
  }
  std::optional<Linearisation> linearise() const override {
    return linearise_at(0.0, "the bond spring of the two-sphere system");
  }

 private:
  double kb_, gamma_, omega0_;
};

// ------------------------------------------------------------------------------------------
// head-on and oblique: De Klerk et al. §3.1, two equal spheres approaching with -+v (offset dy).
class TwoSphereImpact final : public EqualSpheres {
 public:
  TwoSphereImpact(const CaseOptions& o, bool oblique) : EqualSpheres(o), oblique_(oblique) {
    name_ = oblique ? "oblique" : "head-on";
    description_ = oblique ? "two equal spheres colliding with offset dy/d (De Klerk et al. 2022, §3.1), friction "
                             "optional; reference: a fine run"
                           : "two equal spheres colliding head on with normal damping (De Klerk et al. 2022, §3.1, "
                             "eqs. 32-34); analytic in and out of contact, restitution analytic";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass of each sphere [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "normal stiffness k_n [N/m]"));
    e_ = require_in_range("restitution", param(kv, "restitution", 0.7, "restitution coefficient (1: undamped)"), 1e-6, 1.0);
    v_ = require_positive("v", param(kv, "v", 1.0, "initial speed of each sphere [m/s]"));
    gap_ = require_positive("gap", param(kv, "gap", 0.02, "initial surface gap along x [m]"));
    if (oblique) {
      dy_ = require_in_range("offset", param(kv, "offset", 0.1, "centre offset dy / d"), 0.0, 0.99) * d_;
      mu_ = require_non_negative("mu", param(kv, "mu", 0.0, "Coulomb friction (0: frictionless, De Klerk)"));
      kt_ = require_non_negative("kt_ratio", param(kv, "kt_ratio", 2.0 / 7.0, "k_t / k_n")) * kn_;
      gt_ratio_ = require_non_negative("gamma_t_ratio", param(kv, "gamma_t_ratio", 0.5, "gamma_t / gamma_n (De Klerk: 1/2)"));
      uses_tangential_ = true;
    }
    m_eff_ = contact::equal_pair_mass(m_);
    gamma_n_ = gamma_n_from_restitution(e_, kn_, m_eff_);
    tc_ = collision_time(gamma_n_, kn_, m_eff_);
    h0_ = tc_ / 8.0;
    t_end_ = gap_ / (2.0 * v_) + 2.0 * tc_ + h0_;
    collision_scales(o, tc_);
    accuracy_quantity_ = "restitution";
    transient_contacts_ = true;
    channels_ = standard_channels(v_ * tc_, v_, m_ * v_ * v_);
  }

  ParticleSystem make_system() const override {
    return spheres(2, HookeParams{kn_, kt_, gamma_n_, gt_ratio_ * gamma_n_, mu_});
  }
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const override {
    place_pair(sys, gap, -0.5 * dy_, 0.5 * dy_, x, v);
  }
  RunSetup build(double delay) const override { return build_at(gap_ + 2.0 * v_ * delay); }
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override { return sphere_pair_monitor(0, 1, d_); }
  // Overlap delta(t) and its rate (head-on): free approach, damped half sine, free separation.
  std::pair<double, double> overlap(double delay, double t) const {
    const double gap = gap_ + 2.0 * v_ * delay, tA = gap / (2.0 * v_);
    const DampedSine osc{std::sqrt(kn_ / m_eff_), gamma_n_, 2.0 * v_};
    if (t <= tA) return {-gap + 2.0 * v_ * t, 2.0 * v_};
    if (t <= tA + tc_) return {osc.u(t - tA), osc.du(t - tA)};
    const double rate = osc.du(tc_);
    return {rate * (t - tA - tc_), rate};
  }
  bool has_exact() const override { return !oblique_; }
  Observation exact(double delay, double t, double tv) const override {
    const double delta = overlap(delay, t).first, rate = overlap(delay, tv).second;
    return pair_observation(delta, rate, delta > 0.0 ? 0.5 * kn_ * delta * delta : 0.0);
  }
  std::map<std::string, double> exact_outcomes(double) const override {
    if (oblique_) return {};
    const DampedSine osc{std::sqrt(kn_ / m_eff_), gamma_n_, 2.0 * v_};
    const double w = osc.wd(), t_peak = std::atan2(2.0 * w, gamma_n_) / w;
    return {{"restitution", -osc.du(tc_) / (2.0 * v_)}, {"peak_overlap", osc.u(t_peak)}, {"contact_duration", tc_}};
  }
  std::optional<Linearisation> linearise() const override {
    ParticleSystem sys = make_system();
    Vector x, v;
    // In contact: the centres 1e-3 d closer than touching, along the line the collision takes.
    place(sys, 0.0, x, v);
    const Vec3 c0 = sys.centre(x, 0), c1 = sys.centre(x, 1);
    const Vec3 n = (c1 - c0).normalized();
    sys.set_centre(x, 0, 0.5 * (c0 + c1) - 0.5 * (d_ - 1e-3 * d_) * n);
    sys.set_centre(x, 1, 0.5 * (c0 + c1) + 0.5 * (d_ - 1e-3 * d_) * n);
    return linearise_particles(sys, x, Vector::Zero(v.size()), "the closed contact of the two spheres");
  }

 private:
  bool oblique_;
  double kn_, e_, gap_, dy_ = 0.0, mu_ = 0.0, kt_ = 0.0, gt_ratio_ = 0.0;
  double m_eff_, gamma_n_, tc_;
};

// ------------------------------------------------------------------------------------------
// wall-bounce: De Klerk et al. §3.2, one sphere between two walls 1.01 d apart, perpendicular
// velocity, N collisions; analytic piecewise motion (free flight, damped half sines).
class WallBounce final : public ParticleCase {
 public:
  WallBounce(const CaseOptions& o) : ParticleCase(o) {
    name_ = "wall-bounce";
    description_ = "one sphere bouncing between two walls 1.01 d apart (De Klerk et al. 2022, §3.2); analytic "
                   "piecewise motion, energy";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "wall stiffness k_n [N/m]"));
    e_ = require_in_range("restitution", param(kv, "restitution", 1.0, "restitution coefficient (1: undamped)"), 1e-6, 1.0);
    v_ = require_positive("v", param(kv, "v", 1.0, "initial speed [m/s]"));
    sep_ = param(kv, "separation", 1.01, "wall separation / d") * d_;
    if (!(sep_ > d_)) fail(fmt::format("separation = {} must exceed 1 (walls farther apart than d)", sep_ / d_));
    collisions_ = whole("collisions", param(kv, "collisions", o.quick ? 20.0 : 250.0, "number of collisions"), 1);
    gamma_n_ = gamma_n_from_restitution(e_, kn_, m_);
    tc_ = collision_time(gamma_n_, kn_, m_);
    h0_ = tc_ / 8.0;
    if (!(v_ * h0_ < 0.5 * (sep_ - d_)))
      fail(fmt::format("wall-bounce: one coarse step of flight (v h0 = {}) must be shorter than half the free gap {}",
                       v_ * h0_, 0.5 * (sep_ - d_)));
    // End a quarter flight after the last collision.
    double t = 0.5 * (sep_ - d_) / v_ + h0_, s = v_;
    for (long c = 0; c < collisions_; ++c) {
      t += tc_;
      s *= e_;
      if (c + 1 < collisions_) t += (sep_ - d_) / s;
    }
    t_end_ = t + 0.25 * (sep_ - d_) / s;
    collision_scales(o, tc_);
    accuracy_quantity_ = "energy";
    transient_contacts_ = true;
    channels_ = standard_channels(sep_ - d_, v_, 0.5 * m_ * v_ * v_);
  }

  ParticleSystem make_system(TangentialHistory mode) const {
    const HookeParams law{kn_, 0.0, gamma_n_, 0.0, 0.0};
    ParticleSystem sys(3, law, mode);
    sys.add_particle(0.5 * d_, m_, stepper::sphere_inertia(m_, 0.5 * d_));
    sys.add_wall(Vec3::Zero(), Vec3::UnitX(), law);
    sys.add_wall(Vec3(sep_, 0, 0), -Vec3::UnitX(), law);
    return sys;
  }
  RunSetup build(double delay) const override {
    RunSetup s = at_rest(make_system(mode_));
    s.x0[0] = 0.5 * sep_ - v_ * delay;
    s.v0[0] = v_;
    return s;
  }
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override {
    const double right = sep_ - 0.5 * d_;
    return std::make_unique<CollisionMonitor>([right](const Vector& x) { return x[0] - right; },
                                              [](const Vector&, const Vector& v) { return v[0]; });
  }
  // Centre position, velocity and wall overlap at time t.
  struct State {
    double x, v, overlap;
  };
  State state(double delay, double t) const {
    const double g = sep_ - d_, left = 0.5 * d_, right = sep_ - 0.5 * d_;
    const double omega0 = std::sqrt(kn_ / m_);
    double t0 = 0.0, x = 0.5 * sep_ - v_ * delay, s = v_;
    int dir = +1;
    for (long c = 0;; ++c) {
      // Free flight to the next wall.
      const double target = dir > 0 ? right : left;
      const double tf = std::abs(target - x) / s;
      if (t <= t0 + tf || c >= collisions_ + 2) return {x + dir * s * (t - t0), dir * s, 0.0};
      t0 += tf;
      // Contact: overlap is a damped half sine.
      const DampedSine osc{omega0, gamma_n_, s};
      if (t <= t0 + tc_) {
        const double u = osc.u(t - t0), du = osc.du(t - t0);
        return {target + dir * u, dir * du, u};
      }
      s = -osc.du(tc_);
      t0 += tc_;
      x = target;
      dir = -dir;
      (void)g;
    }
  }
  bool has_exact() const override { return true; }
  Observation exact(double delay, double t, double tv) const override {
    const State a = state(delay, t), b = state(delay, tv);
    Vector x = Vector::Zero(6), v = Vector::Zero(6);
    x[0] = a.x;
    v[0] = b.v;
    Observation o;
    o.kinetic = 0.5 * m_ * b.v * b.v;
    o.channels = {x, v, Vector::Constant(1, o.kinetic + 0.5 * kn_ * a.overlap * a.overlap)};
    return o;
  }
  std::map<std::string, double> exact_outcomes(double) const override {
    const DampedSine osc{std::sqrt(kn_ / m_), gamma_n_, v_};
    const double w = osc.wd(), t_peak = std::atan2(2.0 * w, gamma_n_) / w;
    return {{"restitution", -osc.du(tc_) / v_}, {"peak_overlap", osc.u(t_peak)}, {"contact_duration", tc_}};
  }
  std::optional<Linearisation> linearise() const override {
    ParticleSystem sys = make_system(mode_);
    Vector x = Vector::Zero(6);
    x[0] = sep_ - 0.5 * d_ + 1e-3 * d_;
    return linearise_particles(sys, x, Vector::Zero(6), "the sphere's closed wall contact");
  }

 private:
  double m_, d_, kn_, e_, v_, sep_, gamma_n_, tc_;
  long collisions_;
};

// ------------------------------------------------------------------------------------------
// spinning-disk: Xue et al. Case I. A disc with initial spin, pressed on a wall by a constant
// normal force (starting at the static overlap, so the normal direction stays at rest): the
// tangential spring alone governs the motion, u_t'' = -kappa (k_t u_t + c_t u_t'),
// kappa = 1/m + R^2/I, while it sticks.
class SpinningDisk final : public ParticleCase {
 public:
  SpinningDisk(const CaseOptions& o) : ParticleCase(o) {
    name_ = "spinning-disk";
    description_ = "a disc with initial spin pressed on a wall by a constant normal force, the tangential spring "
                   "governing the motion (Xue et al. 2023, Case I); analytic while it sticks";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "normal stiffness k_n [N/m]"));
    kt_ = require_positive("kt_ratio", param(kv, "kt_ratio", 2.0 / 7.0, "k_t / k_n")) * kn_;
    gamma_t_ = require_non_negative("gamma_t", param(kv, "gamma_t", 0.0, "tangential damping rate [1/s]"));
    N_ = require_positive("load", param(kv, "load", 195.0, "normal force pressing the disc on the wall [N]"));
    spin_ = require_positive("spin", param(kv, "spin", 1.0, "initial angular velocity [rad/s]"));
    mu_ = require_positive("mu", param(kv, "mu", 1.0, "Coulomb friction (large enough to stick)"));
    const double periods = require_positive("periods", param(kv, "periods", o.quick ? 3.0 : 5.0, "run length in tangential periods"));
    R_ = 0.5 * d_;
    I_ = stepper::disc_inertia(m_, R_);
    kappa_ = 1.0 / m_ + R_ * R_ / I_;
    osc_ = DampedSine{std::sqrt(kappa_ * kt_), kappa_ * m_ * gamma_t_, R_ * spin_};
    if (!(osc_.gamma < 2.0 * osc_.omega0)) fail("spinning-disk: gamma_t too large (overdamped tangential motion)");
    const double T = 2.0 * pi / osc_.wd();
    t_end_ = periods * T;
    h0_ = T / 16.0;
    levels_ = o.quick ? 4 : 6;
    time_scale_ = T;
    time_scale_name_ = "T_t";
    accuracy_quantity_ = "position";
    uses_tangential_ = true;
    // Sticking throughout: k_t |u_t| + c_t |u_t'| stays below mu N (bounds of the undamped motion).
    sticks_ = kt_ * R_ * spin_ / osc_.omega0 + m_ * gamma_t_ * R_ * spin_ < mu_ * N_;
    if (!sticks_) reference_integrator_ = "rk4";
    channels_ = standard_channels(R_ * spin_ / osc_.omega0, R_ * spin_, 0.5 * I_ * spin_ * spin_);
  }

  ParticleSystem make_system(TangentialHistory mode) const {
    const HookeParams law{kn_, kt_, 0.0, gamma_t_, mu_};
    ParticleSystem sys(2, law, mode);
    sys.add_particle(R_, m_, I_);
    sys.add_wall(Vec3::Zero(), Vec3::UnitY(), law);
    Vector f = Vector::Zero(3);
    f[1] = -N_;
    sys.set_external_force(0, f);
    return sys;
  }
  RunSetup build(double) const override {
    RunSetup s = at_rest(make_system(mode_));
    s.x0[1] = R_ - N_ / kn_;
    s.v0[2] = spin_;
    return s;
  }
  bool has_exact() const override { return sticks_; }
  Observation exact(double, double t, double tv) const override {
    const double s0 = osc_.s;
    const double u = osc_.u(t), du = osc_.du(tv);
    // Integral of the tangential force F = -(k_t u + c_t u') is (u' - u'_0) / kappa:
    //   x' = (u' - u'_0) / (kappa m),  theta' = spin + R (u' - u'_0) / (kappa I).
    const double x = (u - s0 * t) / (kappa_ * m_), vx = (du - s0) / (kappa_ * m_);
    const double th = spin_ * t + R_ * (u - s0 * t) / (kappa_ * I_), w = spin_ + R_ * (du - s0) / (kappa_ * I_);
    const double y = R_ - N_ / kn_;
    Vector xs(3), vs(3);
    xs << x, y, R_ * th;
    vs << vx, 0.0, R_ * w;
    Observation o;
    o.kinetic = 0.5 * m_ * vx * vx + 0.5 * I_ * w * w;
    const double d0 = N_ / kn_;
    o.channels = {xs, vs, Vector::Constant(1, o.kinetic + 0.5 * kn_ * d0 * d0 + 0.5 * kt_ * u * u + N_ * y)};
    return o;
  }
  std::optional<Linearisation> linearise() const override {
    ParticleSystem sys = make_system(mode_);
    const RunSetup s = build(0.0);
    return linearise_particles(sys, s.x0, Vector::Zero(3), "the disc's sticking wall contact (normal and tangential springs)");
  }

 private:
  double m_, d_, kn_, kt_, gamma_t_, N_, spin_, mu_, R_, I_, kappa_;
  DampedSine osc_{1.0, 0.0, 0.0};
  bool sticks_ = true;
};

// ------------------------------------------------------------------------------------------
// falling-ball: Xue et al. Case II. A spinning disc dropped under gravity onto a wall, with
// friction and damping; reference: a fine run.
class FallingBall final : public ParticleCase {
 public:
  FallingBall(const CaseOptions& o) : ParticleCase(o) {
    name_ = "falling-ball";
    description_ = "a spinning disc dropped under gravity onto a wall, with friction and damping (Xue et al. 2023, "
                   "Case II); reference: a fine run";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "normal stiffness k_n [N/m]"));
    kt_ = require_non_negative("kt_ratio", param(kv, "kt_ratio", 2.0 / 7.0, "k_t / k_n")) * kn_;
    e_ = require_in_range("restitution", param(kv, "restitution", 0.5, "restitution coefficient"), 1e-6, 1.0);
    gt_ratio_ = require_non_negative("gamma_t_ratio", param(kv, "gamma_t_ratio", 0.5, "gamma_t / gamma_n"));
    mu_ = require_non_negative("mu", param(kv, "mu", 0.5, "Coulomb friction"));
    g_ = require_positive("g", param(kv, "g", 1.0, "gravity [m/s^2] (k_n d / (m g) = 195000 by default)"));
    drop_ = require_positive("drop", param(kv, "drop", 0.02, "initial gap between disc and wall [m]"));
    spin_ = param(kv, "spin", 0.2, "initial angular velocity [rad/s]");
    vx_ = param(kv, "vx", 0.0, "initial tangential velocity [m/s]");
    R_ = 0.5 * d_;
    gamma_n_ = gamma_n_from_restitution(e_, kn_, m_);
    tc_ = collision_time(gamma_n_, kn_, m_);
    v_impact_ = std::sqrt(2.0 * g_ * drop_);
    const double t_fall = v_impact_ / g_;
    t_end_ = 1.5 * t_fall + 2.0 * tc_;
    h0_ = tc_ / 8.0;
    collision_scales(o, tc_);
    accuracy_quantity_ = "restitution";
    uses_tangential_ = true;
    transient_contacts_ = true;
    energy_floor_ = m_ * g_ * (R_ - m_ * g_ / kn_);
    channels_ = standard_channels(drop_, v_impact_, m_ * g_ * drop_);
  }

  ParticleSystem make_system(TangentialHistory mode) const {
    const HookeParams law{kn_, kt_, gamma_n_, gt_ratio_ * gamma_n_, mu_};
    ParticleSystem sys(2, law, mode);
    sys.add_particle(R_, m_, stepper::disc_inertia(m_, R_));
    sys.add_wall(Vec3::Zero(), Vec3::UnitY(), law);
    sys.set_gravity(Vec3(0, -g_, 0));
    return sys;
  }
  RunSetup build(double delay) const override {
    RunSetup s = at_rest(make_system(mode_));
    s.x0[1] = R_ + drop_ + v_impact_ * delay;
    s.v0[0] = vx_;
    s.v0[2] = spin_;
    return s;
  }
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override {
    const double R = R_;
    return std::make_unique<CollisionMonitor>([R](const Vector& x) { return R - x[1]; },
                                              [](const Vector&, const Vector& v) { return -v[1]; });
  }
  std::optional<Linearisation> linearise() const override {
    ParticleSystem sys = make_system(mode_);
    Vector x = Vector::Zero(3);
    x[1] = R_ - m_ * g_ / kn_;
    return linearise_particles(sys, x, Vector::Zero(3), "the disc resting on the wall (sticking contact)");
  }

 private:
  double m_, d_, kn_, kt_, e_, gt_ratio_, mu_, g_, drop_, spin_, vx_, R_, gamma_n_, tc_, v_impact_;
};

// ------------------------------------------------------------------------------------------
// bonded-impact: De Klerk et al. §3.3. A bonded pair (bond k_B) moving at +v struck by a third
// sphere moving at -v; contact stiffness k != k_B. Reference: a fine run.
class BondedImpact final : public EqualSpheres {
 public:
  BondedImpact(const CaseOptions& o) : EqualSpheres(o) {
    name_ = "bonded-impact";
    description_ = "a bonded pair struck by a third sphere, k_B != k (De Klerk et al. 2022, §3.3); reference: a "
                   "fine run";
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass of each sphere [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "contact stiffness k [N/m]"));
    kb_ = require_positive("kb_ratio", param(kv, "kb_ratio", 4.0, "bond stiffness k_B / k")) * kn_;
    e_ = require_in_range("restitution", param(kv, "restitution", 0.7, "restitution coefficient of the contact "
                                                                      "(the bond uses the same gamma_n)"), 1e-6, 1.0);
    v_ = require_positive("v", param(kv, "v", 1.0, "initial speed [m/s]"));
    gap_ = require_positive("gap", param(kv, "gap", 0.02, "initial surface gap between pair and striker [m]"));
    const double periods = require_positive("periods", param(kv, "periods", o.quick ? 3.0 : 10.0, "bond periods simulated after the impact"));
    gamma_n_ = gamma_n_from_restitution(e_, kn_, contact::equal_pair_mass(m_));
    tc_ = collision_time(gamma_n_, kn_, contact::equal_pair_mass(m_));
    const double T_bond = 2.0 * pi / std::sqrt(2.0 * kb_ / m_);
    h0_ = std::min(tc_, T_bond) / 8.0;
    t_end_ = gap_ / (2.0 * v_) + tc_ + periods * T_bond + h0_;
    collision_scales(o, tc_);
    accuracy_quantity_ = "peak_overlap";
    channels_ = standard_channels(v_ * tc_, v_, m_ * v_ * v_);
  }

  ParticleSystem make_system() const override {
    ParticleSystem sys = spheres(3, HookeParams{kn_, 0.0, gamma_n_, 0.0, 0.0});
    sys.add_bond(0, 1, kb_);
    return sys;
  }
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const override {
    x = Vector::Zero(sys.dofs());
    v = Vector::Zero(sys.dofs());
    const double xb = -0.5 * (d_ + gap);
    sys.set_centre(x, 0, Vec3(xb - d_, 0, 0));
    sys.set_centre(x, 1, Vec3(xb, 0, 0));
    sys.set_centre(x, 2, Vec3(-xb, 0, 0));
    sys.set_centre(v, 0, Vec3(v_, 0, 0));
    sys.set_centre(v, 1, Vec3(v_, 0, 0));
    sys.set_centre(v, 2, Vec3(-v_, 0, 0));
  }
  RunSetup build(double delay) const override { return build_at(gap_ + 2.0 * v_ * delay); }
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override { return sphere_pair_monitor(1, 2, d_); }
  std::optional<Linearisation> linearise() const override {
    // The bond alone (contact open): the state the run spends its time in. The impact lasts
    // a few steps near the limit, too short for its own (higher) frequency to grow.
    return linearise_at(gap_, "the bond of the pair, contact open");
  }

 private:
  double kn_, kb_, e_, gap_, gamma_n_, tc_;
};

// ------------------------------------------------------------------------------------------
// box-settle: De Klerk et al. §3.4. Spheres settling under gravity in an L x L x 20L box,
// L = 6 d; macroscopic quantities (eqs. 35-36) compared across integrators and steps.
class BoxSettle final : public SweepCase {
 public:
  BoxSettle(const CaseOptions& o) : mode_(stepper::parse_tangential_history(o.tangential)) {
    name_ = "box-settle";
    description_ = "spheres settling under gravity in an L x L x 20L box, L = 6 d (De Klerk et al. 2022, §3.4): "
                   "mean kinetic energy (eq. 35) and velocity fluctuation (eq. 36); reference: a finer run";
    const KeyValues& kv = o.overrides;
    n_ = whole("n", param(kv, "n", o.quick ? 24.0 : 218.0, "number of spheres"), 1);
    m_ = require_positive("m", param(kv, "m", 1.0, "mass of each sphere [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    kn_ = require_positive("kn", param(kv, "kn", 195000.0, "normal stiffness k_n [N/m]"));
    kt_ = require_non_negative("kt_ratio", param(kv, "kt_ratio", 2.0 / 7.0, "k_t / k_n")) * kn_;
    e_ = require_in_range("restitution", param(kv, "restitution", 0.5, "restitution coefficient (sphere pair)"), 1e-6, 1.0);
    gt_ratio_ = require_non_negative("gamma_t_ratio", param(kv, "gamma_t_ratio", 0.5, "gamma_t / gamma_n"));
    mu_ = require_non_negative("mu", param(kv, "mu", 0.5, "Coulomb friction"));
    g_ = require_positive("g", param(kv, "g", 1.0, "gravity [m/s^2]"));
    L_ = require_positive("L", param(kv, "L", 6.0, "box width / d")) * d_;
    spread_ = require_non_negative("spread", param(kv, "spread", 0.3, "initial random speeds, units of sqrt(g d)"));
    seed_ = whole("seed", param(kv, "seed", 1.0, "random seed of the initial state"), 0);
    t_end_ = require_positive("t_end", param(kv, "t_end", o.quick ? 0.4 : 8.0, "simulated time [s]"));
    gamma_n_ = gamma_n_from_restitution(e_, kn_, contact::equal_pair_mass(m_));
    tc_ = collision_time(gamma_n_, kn_, contact::equal_pair_mass(m_));
    h0_ = tc_ / 10.0;
    levels_ = o.quick ? 2 : 3;
    reference_integrator_ = "velocity_verlet";
    reference_refinement_ = 1;
    time_scale_ = tc_;
    time_scale_name_ = "t_c";
    accuracy_quantity_ = "mean_kinetic_energy";
    uses_tangential_ = true;
    stability_default_ = false;
    channels_ = {{"mean_height", Level::position, d_},
                 {"kinetic_energy", Level::velocity, m_ * g_ * d_},
                 {"velocity_fluctuation", Level::velocity, g_ * d_},
                 {"energy", Level::energy, m_ * g_ * d_}};
  }

  RunSetup build(double) const override {
    const HookeParams law{kn_, kt_, gamma_n_, gt_ratio_ * gamma_n_, mu_};
    auto sys = std::make_unique<ParticleSystem>(3, law, mode_);
    const double R = 0.5 * d_;
    // Walls use m_eff = m: the same restitution needs gamma_n for m.
    const HookeParams wall{kn_, kt_, gamma_n_from_restitution(e_, kn_, m_),
                           gt_ratio_ * gamma_n_from_restitution(e_, kn_, m_), mu_};
    const double H = 20.0 * L_;
    sys->add_wall(Vec3::Zero(), Vec3::UnitX(), wall);
    sys->add_wall(Vec3(L_, 0, 0), -Vec3::UnitX(), wall);
    sys->add_wall(Vec3::Zero(), Vec3::UnitY(), wall);
    sys->add_wall(Vec3(0, L_, 0), -Vec3::UnitY(), wall);
    sys->add_wall(Vec3::Zero(), Vec3::UnitZ(), wall);
    sys->add_wall(Vec3(0, 0, H), -Vec3::UnitZ(), wall);
    sys->set_gravity(Vec3(0, 0, -g_));
    // A loose lattice (spacing 1.5 d) from z = d upwards, jittered, with random velocities.
    const double a = 1.5 * d_;
    const long per_row = std::max(1L, static_cast<long>(std::floor(L_ / a)));
    const double off = 0.5 * (L_ - static_cast<double>(per_row - 1) * a);
    if (off < R) fail(fmt::format("box-settle: box width L = {} is smaller than one sphere", L_));
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed_));
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    RunSetup s;
    s.x0 = Vector::Zero(6 * n_);
    s.v0 = Vector::Zero(6 * n_);
    const double jitter = std::min(0.1 * d_, off - R), vs = spread_ * std::sqrt(g_ * d_);
    for (long i = 0; i < n_; ++i) {
      sys->add_particle(R, m_, stepper::sphere_inertia(m_, R));
      const long layer = i / (per_row * per_row), k = i % (per_row * per_row);
      const double jitter_y = U(rng), jitter_x = U(rng);  // y first: g++'s order, which the recorded sweeps used
      const Vec3 c(off + static_cast<double>(k % per_row) * a + jitter * jitter_x,
                   off + static_cast<double>(k / per_row) * a + jitter * jitter_y, d_ + static_cast<double>(layer) * a);
      if (c.z() + R > H) fail(fmt::format("box-settle: {} spheres do not fit in the box", n_));
      sys->set_centre(s.x0, i, c);
      sys->set_centre(s.v0, i, vs * draw_vec3(U, rng));
    }
    s.system = std::move(sys);
    return s;
  }
  // Eq. (35): mean kinetic energy per particle (translation + rotation); eq. (36): velocity
  // fluctuation about the mean velocity.
  std::pair<double, double> macroscopic(const Vector& mass, const Vector& v) const {
    const double K = kinetic(mass, v) / static_cast<double>(n_);
    Vec3 mean = Vec3::Zero();
    for (long i = 0; i < n_; ++i) mean += v.segment<3>(6 * i);
    mean /= static_cast<double>(n_);
    double dv = 0.0;
    for (long i = 0; i < n_; ++i) dv += (v.segment<3>(6 * i) - mean).squaredNorm();
    return {K, dv / (3.0 * static_cast<double>(n_))};
  }
  Observation observe(const MechanicalSystem& sys, const Vector& x, const Vector& v) const override {
    double z = 0.0;
    for (long i = 0; i < n_; ++i) z += x[6 * i + 2];
    const auto [K, dv] = macroscopic(sys.mass(), v);
    Observation o;
    o.channels = {Vector::Constant(1, z / static_cast<double>(n_)), Vector::Constant(1, K), Vector::Constant(1, dv),
                  Vector::Constant(1, sys.energy(x, v) / static_cast<double>(n_))};
    o.kinetic = kinetic(sys.mass(), v) / static_cast<double>(n_);
    return o;
  }
  // Outcomes: the time average of eq. (35) and the final mean height.
  class Macro final : public Monitor {
   public:
    explicit Macro(const BoxSettle& c, const Vector& mass) : c_(c), mass_(mass) {}
    void sample(double, const Vector& x, double, const Vector& v) override {
      sum_ += c_.macroscopic(mass_, v).first;
      ++count_;
      double z = 0.0;
      for (long i = 0; i < c_.n_; ++i) z += x[6 * i + 2];
      height_ = z / static_cast<double>(c_.n_);
    }
    std::map<std::string, double> outcomes() const override {
      return {{"mean_kinetic_energy", count_ ? sum_ / static_cast<double>(count_) : 0.0}, {"final_mean_height", height_}};
    }

   private:
    const BoxSettle& c_;
    Vector mass_;
    double sum_ = 0.0, height_ = 0.0;
    long count_ = 0;
  };
  std::unique_ptr<Monitor> monitor(const MechanicalSystem& sys) const override {
    return std::make_unique<Macro>(*this, sys.mass());
  }

 private:
  TangentialHistory mode_;
  long n_, seed_;
  double m_, d_, kn_, kt_, e_, gt_ratio_, mu_, g_, L_, spread_, gamma_n_, tc_;
};

// ------------------------------------------------------------------------------------------
// The head-on collision of two bodies under any contact law (effective mass m_eff, radius r_eff,
// approach speed v), run as two equal spheres of mass 2 m_eff and radius 2 r_eff at -+v/2: the same
// normal motion, whatever the bodies. Reference outcomes: the law's own impact integrated at a tight
// tolerance (contact::head_on_impact); an undamped Hertz law, Hertz' closed forms. `dtcrit pair
// --accuracy` measures this collision (make_law_head_on_case), hertz-head-on is it for EDEM's law.
class LawHeadOn : public EqualSpheres {
 public:
  LawHeadOn(const contact::ContactLaw& law, double m_eff, double r_eff, double speed, const CaseOptions& o)
      : EqualSpheres(o) {
    name_ = "law-head-on";
    description_ = fmt::format("two bodies colliding head on at {:g} m/s under {}; outcomes against the integrated "
                               "impact", speed, contact::describe(law));
    set_up(law, m_eff, r_eff, speed, o);
  }

  ParticleSystem make_system() const override { return spheres(2, law_); }
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const override {
    place_pair(sys, gap, 0, 0, x, v);
  }
  RunSetup build(double delay) const override { return build_at(gap_ + 2.0 * v_ * delay); }
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override {
    const double d = d_;
    return std::make_unique<CollisionMonitor>([d](const Vector& x) { return d - (x[6] - x[0]); },
                                              [](const Vector&, const Vector& v) { return v[0] - v[6]; });
  }
  // An undamped Hertz law: Hertz' closed forms (peak overlap from the energy balance, the duration
  // with its exact constant); else the law's impact integrated at 16000 steps per peak-overlap time.
  std::map<std::string, double> exact_outcomes(double) const override {
    const bool hertz = law_.normal == contact::NormalModel::hertz || law_.normal == contact::NormalModel::hertz_material;
    if (hertz && law_.damping_coefficient == 0.0) {
      const double s = 2.0 * v_, e_star = 0.75 * law_.kn;
      return {{"restitution", 1.0},
              {"peak_overlap", contact::hertz_peak_overlap(m_eff_, r_eff_, e_star, s)},
              {"contact_duration", contact::hertz_duration(m_eff_, r_eff_, e_star, s)}};
    }
    return {{"restitution", reference_.restitution},
            {"peak_overlap", reference_.peak_overlap},
            {"contact_duration", reference_.duration}};
  }
  std::optional<Linearisation> linearise() const override {
    // The stiffest state of the collision: the peak overlap, at rest.
    return linearise_at(-reference_.peak_overlap, "the two spheres at the collision's peak overlap");
  }
  const contact::ContactLaw& law() const { return law_; }

 protected:
  explicit LawHeadOn(const CaseOptions& o) : EqualSpheres(o) {}
  void set_up(const contact::ContactLaw& law, double m_eff, double r_eff, double speed, const CaseOptions& o) {
    law_ = law;
    m_eff_ = require_positive("effective mass", m_eff);
    r_eff_ = require_positive("effective radius", r_eff);
    m_ = 2.0 * m_eff_;
    d_ = 4.0 * r_eff_;
    v_ = 0.5 * require_positive("impact speed", speed);
    reference_ = contact::head_on_impact(law_, m_eff_, r_eff_, speed, 0.0, 16000.0);
    tc_ = reference_.duration;
    gap_ = v_ * tc_;  // the approach takes half a collision
    h0_ = tc_ / 8.0;
    t_end_ = gap_ / (2.0 * v_) + 2.0 * tc_ + h0_;
    collision_scales(o, tc_, 8);
    accuracy_quantity_ = "restitution";
    transient_contacts_ = true;
    channels_ = standard_channels(v_ * tc_, v_, m_ * v_ * v_);
  }

 private:
  contact::ContactLaw law_;
  contact::ImpactResult reference_;
  double m_eff_ = 0.0, r_eff_ = 0.0, tc_ = 0.0, gap_ = 0.0;
};

// hertz-head-on: two equal spheres colliding head on under Hertz–Mindlin as EDEM and LIGGGHTS
// define it (contact/hertz_mindlin.hpp), from the material.
class HertzHeadOn final : public LawHeadOn {
 public:
  HertzHeadOn(const CaseOptions& o) : LawHeadOn(o) {
    name_ = "hertz-head-on";
    description_ = "two equal spheres colliding head on under Hertz-Mindlin (EDEM, LIGGGHTS) from E, nu and e; "
                   "outcomes against the integrated impact (undamped: the Hertz closed forms)";
    const KeyValues& kv = o.overrides;
    const double d = require_positive("d", param(kv, "d", 1e-3, "diameter [m]"));
    const double rho = require_positive("density", param(kv, "density", 2500.0, "density [kg/m^3]"));
    const double E = param(kv, "youngs", 5e10, "Young's modulus E [Pa]");
    const double nu = param(kv, "poisson", 0.22, "Poisson's ratio");
    const double v = require_positive("v", param(kv, "v", 1.0, "initial speed of each sphere, towards the other [m/s]"));
    const double e = param(kv, "restitution", 0.7, "restitution e (EDEM's beta; 1: undamped)");
    set_up(contact::hertz_mindlin(E, nu, e, 0.5), 0.5 * contact::sphere_mass(0.5 * d, rho), 0.25 * d, 2.0 * v, o);
  }
};

// ------------------------------------------------------------------------------------------
// rolling-resistance: a sphere rolling on a wall under gravity, slowed by LAMMPS' `rolling sds`.
// While the rolling force sits on its cap mu_r F_n (F_n = m g) its torque mu_r m g r (R_eff = r on
// a wall) against the rolling, with friction keeping the rolling without slip (m a = F_t,
// I alpha = -r F_t - mu_r m g r, a = r alpha, I = 2/5 m r^2), decelerates the centre at
//   a = mu_r m g r^2 / (I + m r^2) = 5/7 mu_r g:
// it stops after T = v0 / a over s = v0^2 / (2 a). Damping gamma_r v0 > mu_r m g puts the rolling
// force on its cap from the first step; the tangential spring's start from zero history and the
// release of the cap just before the stop make the run differ from T, s by about 1e-3 (measured in
// tests/test_sweep_cases.cpp), so the convergence is measured against a fine run.
class RollingResistance final : public ParticleCase {
 public:
  RollingResistance(const CaseOptions& o) : ParticleCase(o) {
    name_ = "rolling-resistance";
    description_ = "a sphere rolling to rest on a wall under rolling sds (LAMMPS granular); stopping time and "
                   "distance, analytic 5/7 mu_r g deceleration beside a fine run";
    if (mode_ != TangentialHistory::traditional)
      fail("rolling-resistance: the rolling history is LAMMPS' (traditional); --tangential consistent carries a "
           "tangential displacement spring only");
    const KeyValues& kv = o.overrides;
    m_ = require_positive("m", param(kv, "m", 1.0, "mass [kg]"));
    d_ = require_positive("d", param(kv, "d", 1.0, "diameter [m]"));
    const double kn = require_positive("kn", param(kv, "kn", 195000.0, "normal stiffness k_n [N/m]"));
    const double kt = require_non_negative("kt_ratio", param(kv, "kt_ratio", 2.0 / 7.0, "k_t / k_n")) * kn;
    const double e = require_in_range("restitution", param(kv, "restitution", 0.3, "normal restitution (sets the "
                                                                                      "normal dashpot)"), 1e-6, 1.0);
    const double xt = require_non_negative("gamma_t_ratio", param(kv, "gamma_t_ratio", 1.0, "eta_t / eta_n (LAMMPS' x_gamma_t)"));
    const double mu = require_non_negative("mu", param(kv, "mu", 1.0, "sliding friction (large: it rolls without slip)"));
    k_roll_ = require_positive("k_roll", param(kv, "k_roll", 2e5, "rolling stiffness [N/m]"));
    gamma_roll_ = require_non_negative("gamma_roll", param(kv, "gamma_roll", 12.0, "rolling damping [N s/m]"));
    mu_roll_ = require_positive("mu_roll", param(kv, "mu_roll", 0.5, "rolling friction mu_r"));
    g_ = require_positive("g", param(kv, "g", 1.0, "gravity [m/s^2]"));
    v0_ = require_positive("v", param(kv, "v", 0.05, "initial speed, rolling without slip [m/s]"));
    const double eta_n = gamma_n_from_restitution(e, kn, m_) * m_;
    law_ = contact::parse_lammps_pair(fmt::format("granular hooke {:.17g} {:.17g} damping velocity tangential "
                                                  "linear_history {:.17g} {:.17g} {:.17g} rolling sds {:.17g} "
                                                  "{:.17g} {:.17g}",
                                                  kn, eta_n, kt, xt, mu, k_roll_, gamma_roll_, mu_roll_),
                                      "rolling-resistance");
    if (!(gamma_roll_ * v0_ > mu_roll_ * m_ * g_))
      fail(fmt::format("rolling-resistance: gamma_roll v = {} must exceed mu_roll m g = {} (the rolling force "
                       "then starts on its cap)", gamma_roll_ * v0_, mu_roll_ * m_ * g_));
    decel_ = 5.0 / 7.0 * mu_roll_ * g_;
    t_stop_ = v0_ / decel_;
    const double tc = pi * std::sqrt(m_ / kn);
    h0_ = tc / 8.0;
    t_end_ = 1.25 * t_stop_;
    levels_ = o.quick ? 4 : 6;
    time_scale_ = tc;
    time_scale_name_ = "t_c";
    accuracy_quantity_ = "stopping_distance";
    uses_tangential_ = true;
    // The energy of the sphere resting on the wall (gravity's potential m g z, the spring's k delta^2 / 2).
    const double rest = m_ * g_ / kn;
    energy_floor_ = m_ * g_ * (0.5 * d_ - rest) + 0.5 * kn * rest * rest;
    channels_ = standard_channels(v0_ * t_stop_, v0_, m_ * v0_ * v0_);
  }

  ParticleSystem make_system() const {
    ParticleSystem sys(3, law_, TangentialHistory::traditional);
    const double R = 0.5 * d_;
    sys.add_particle(R, m_, stepper::sphere_inertia(m_, R));
    sys.add_wall(Vec3::Zero(), Vec3::UnitZ(), law_);
    sys.set_gravity(Vec3(0, 0, -g_));
    return sys;
  }
  // At the static overlap m g / k_n, rolling along +x without slip (omega_y = v0 / r).
  RunSetup build(double) const override {
    RunSetup s = at_rest(make_system());
    s.x0[2] = 0.5 * d_ - m_ * g_ / law_.kn;
    s.v0[0] = v0_;
    s.v0[4] = v0_ / (0.5 * d_);
    return s;
  }
  // stopping_time: the first zero crossing of the centre's speed (linear interpolation at the
  // velocity level); stopping_distance: the largest x - x0 (parabola through the three largest samples).
  class Stop final : public Monitor {
   public:
    void sample(double, const Vector& x, double tv, const Vector& v) override {
      if (xs_.empty()) x_start_ = x[0];
      xs_.push_back(x[0] - x_start_);
      if (std::isnan(t_stop_) && have_ && v_prev_ > 0.0 && v[0] <= 0.0)
        t_stop_ = tv_prev_ + (tv - tv_prev_) * v_prev_ / (v_prev_ - v[0]);
      have_ = true;
      tv_prev_ = tv;
      v_prev_ = v[0];
    }
    std::map<std::string, double> outcomes() const override {
      const auto it = std::max_element(xs_.begin(), xs_.end());
      double s = xs_.empty() ? std::nan("") : *it;
      const auto k = static_cast<std::size_t>(it - xs_.begin());
      if (k > 0 && k + 1 < xs_.size()) {
        // Vertex of the parabola through (t, x) at k-1, k, k+1 (equal steps).
        const double a = xs_[k - 1], b = xs_[k], c = xs_[k + 1], den = a - 2.0 * b + c;
        if (den < 0.0) s = b - 0.125 * (c - a) * (c - a) / den;
      }
      return {{"stopping_time", t_stop_}, {"stopping_distance", s}};
    }

   private:
    std::vector<double> xs_;
    bool have_ = false;
    double x_start_ = 0.0, tv_prev_ = 0.0, v_prev_ = 0.0, t_stop_ = std::nan("");
  };
  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override { return std::make_unique<Stop>(); }
  std::optional<Linearisation> linearise() const override {
    // At rest on the wall, every spring sticking: the state the run ends in.
    ParticleSystem sys = make_system();
    const RunSetup s = build(0.0);
    return linearise_particles(sys, s.x0, Vector::Zero(6), "the sphere resting on the wall (rolling spring sticking)");
  }
  // The analytic stop: T = v0 / a, s = v0^2 / (2 a), a = 5/7 mu_r g.
  double analytic_stopping_time() const { return t_stop_; }
  double analytic_stopping_distance() const { return 0.5 * v0_ * v0_ / decel_; }

 private:
  contact::ContactLaw law_;
  double m_, d_, k_roll_, gamma_roll_, mu_roll_, g_, v0_, decel_, t_stop_;
};

struct Entry {
  const char* name;
  const char* summary;
};
const std::vector<Entry>& entries() {
  static const std::vector<Entry> e{
      {"bonded-pair", "two spheres joined by an always-acting spring (analytic)"},
      {"head-on", "two spheres colliding head on with normal damping (analytic, De Klerk eqs. 32-34)"},
      {"oblique", "the same with offset dy/d = 0.1, friction optional (fine reference)"},
      {"wall-bounce", "one sphere between walls 1.01 d apart, 250 collisions, undamped (analytic, energy)"},
      {"spinning-disk", "spinning disc pressed on a wall, tangential spring governs (Xue Case I, analytic)"},
      {"falling-ball", "spinning disc dropped onto a wall under gravity (Xue Case II, fine reference)"},
      {"bonded-impact", "a bonded pair struck by a third sphere, k_B != k (De Klerk §3.3, fine reference)"},
      {"box-settle", "~218 spheres settling in an L x L x 20L box (De Klerk §3.4, eqs. 35-36)"},
      {"hertz-head-on", "two spheres colliding head on under Hertz-Mindlin (EDEM, LIGGGHTS) from E, nu, e (integrated)"},
      {"rolling-resistance", "a sphere rolling to rest on a wall under rolling sds (analytic 5/7 mu_r g, fine reference)"},
      {"chung-ooi-1", "Chung & Ooi Test 1: two glass spheres, elastic head-on impact at +-10 m/s (Hertz closed forms)"},
      {"chung-ooi-2", "Chung & Ooi Test 2: an aluminium sphere on a rigid plane at 0.2 m/s, elastic (Hertz closed forms)"},
      {"chung-ooi-3", "Chung & Ooi Test 3: a sphere on a rigid plane at 3.9 m/s with restitution e (integrated impact)"},
      {"chung-ooi-4", "Chung & Ooi Test 4: oblique impact on a plane at 3.9 m/s, mu = 0.092 (sliding closed form, fine run)"},
      {"chung-ooi-5", "Chung & Ooi Test 5: a steel sphere on a plane at v_n = 5 m/s, tangential v_t, mu = 0.3, elastic"},
      {"chung-ooi-6", "Chung & Ooi Test 6: a spinning aluminium sphere on a plane at 0.2 m/s, mu = 0.4, e = 0.5"},
      {"chung-ooi-7", "Chung & Ooi Test 7: two spheres with opposite spins head on, no slip (spins kept exactly)"},
      {"chung-ooi-8", "Chung & Ooi Test 8: a spinning sphere on a sphere 5x larger at rest, mu = 0.4, e = 0.5"},
  };
  return e;
}

}  // namespace

std::vector<std::string> case_names() {
  std::vector<std::string> out;
  for (const auto& e : entries()) out.emplace_back(e.name);
  return out;
}

std::string case_summary(std::string_view name) {
  for (const auto& e : entries())
    if (name == e.name) return e.summary;
  return {};
}

std::unique_ptr<SweepCase> make_law_head_on_case(const contact::ContactLaw& law, double m_eff, double r_eff,
                                                 double speed, const CaseOptions& options) {
  return std::make_unique<LawHeadOn>(law, m_eff, r_eff, speed, options);
}

std::unique_ptr<SweepCase> make_case(std::string_view name, const CaseOptions& options) {
  std::unique_ptr<SweepCase> c;
  if (name == "bonded-pair") c = std::make_unique<BondedPair>(options);
  else if (name == "head-on") c = std::make_unique<TwoSphereImpact>(options, false);
  else if (name == "oblique") c = std::make_unique<TwoSphereImpact>(options, true);
  else if (name == "wall-bounce") c = std::make_unique<WallBounce>(options);
  else if (name == "spinning-disk") c = std::make_unique<SpinningDisk>(options);
  else if (name == "falling-ball") c = std::make_unique<FallingBall>(options);
  else if (name == "bonded-impact") c = std::make_unique<BondedImpact>(options);
  else if (name == "box-settle") c = std::make_unique<BoxSettle>(options);
  else if (name == "hertz-head-on") c = std::make_unique<HertzHeadOn>(options);
  else if (name == "rolling-resistance") c = std::make_unique<RollingResistance>(options);
  else if (auto chung_ooi = make_chung_ooi_case(name, options)) c = std::move(chung_ooi);
  else fail(fmt::format("unknown sweep case '{}'{}; valid cases: {}", name, did_you_mean(name, case_names()),
                        fmt::join(case_names(), ", ")));
  std::vector<std::string> accepted;
  for (const auto& p : c->parameters()) accepted.push_back(p.name);
  options.overrides.reject_unused(accepted);
  return c;
}


}  // namespace dtcrit::sweep
