// The Chung & Ooi (2011) benchmark tests as sweep cases (chung_ooi.hpp). One class: two equal
// spheres head on (Test 1) or one sphere against a rigid plane (Tests 2-4), under Hertz-Mindlin as
// EDEM and LIGGGHTS define it (contact/hertz_mindlin.hpp) or, with lammps=1, LAMMPS' `granular
// hertz/material ... tangential mindlin`. A rigid plane has E* = E / (1 - nu^2) and G* = G / (2 - nu),
// twice the values of two bodies of the sphere's material, so the plane's law is the sphere-sphere law
// of a material with 2E and the same nu (the damping depends on e and on the ratio G*/E* only). LAMMPS'
// `fix wall/gran granular` has no rigid plane: with lammps=1 the plane is the law it makes of the same
// coefficients (contact::parse_lammps_wall_granular), so that the case is what LAMMPS runs
// (tests/data/lammps/in.chung_ooi_*).
#include "dtcrit/sweep/chung_ooi.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/impact.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/sweep/case_support.hpp"
#include "dtcrit/sweep/collision_monitor.hpp"

namespace dtcrit::sweep {

using stepper::ParticleSystem;
using stepper::Vec3;
using namespace detail;

double sliding_angle(double mu, double restitution) { return std::atan(3.5 * mu * (1.0 + restitution)); }

SlidingRebound gross_sliding_rebound(double speed, double angle, double mu, double restitution, double r) {
  const double impulse = mu * (1.0 + restitution);  // tangential impulse / (m v_n)
  SlidingRebound s;
  s.tangential_restitution = 1.0 - impulse / std::tan(angle);
  s.spin = 2.5 * impulse * speed * std::cos(angle) / r;
  s.rebound_angle = std::atan((std::tan(angle) - 3.5 * impulse) / restitution);
  return s;
}

namespace {

constexpr double degree = std::numbers::pi / 180.0;

// The published set-up of each test: material, radius, speed, restitution, friction, angle.
struct TestDefaults {
  const char* title;
  double r, density, youngs, poisson, v, restitution, mu, angle;
};
TestDefaults defaults(int test) {
  switch (test) {
    case 1:  // glass spheres at +-10 m/s (limestone: E = 2.0e10, nu = 0.25, rho = 2500)
      return {"elastic normal impact of two identical spheres", 0.010, 2800, 4.8e10, 0.20, 10.0, 1.0, 0.0, 0.0};
    case 2:  // aluminium alloy (magnesium alloy: E = 4.0e10, nu = 0.35, rho = 1800)
      return {"elastic normal impact of a sphere with a rigid plane", 0.10, 2699, 7.0e10, 0.30, 0.2, 1.0, 0.0, 0.0};
    case 3:  // aluminium oxide, e = 0.2 ... 1.0 (cast iron: E = 1.0e11, nu = 0.25, rho = 7000)
      return {"normal impact of a sphere on a rigid plane with restitution e", 0.0025, 4000, 3.8e11, 0.23, 3.9, 0.6,
              0.0, 0.0};
    case 4:  // aluminium oxide (aluminium alloy: E = 7.0e10, nu = 0.33, rho = 2700), mu = 0.092, e = 0.98
      return {"oblique impact of a sphere on a rigid plane at constant speed", 0.0025, 4000, 3.8e11, 0.23, 3.9, 0.98,
              0.092, 45.0};
    default:  // 5: steel (polyethylene: E = 1e9, nu = 0.4, rho = 1400), mu = 0.3, elastic, v_n = 5 m/s, as
              // PySPH's script of the test sets them (its r = 10 um; Hertz outcomes do not depend on r)
      return {"oblique impact of a sphere on a rigid plane at constant normal speed", 1e-5, 7850, 2.08e11, 0.30, 0.0,
              1.0, 0.3, 0.0};
  }
}

class ChungOoi final : public ParticleCase {
 public:
  ChungOoi(int test, const CaseOptions& o) : ParticleCase(o), test_(test), pair_(test == 1) {
    const TestDefaults t = defaults(test);
    name_ = fmt::format("chung-ooi-{}", test);
    const KeyValues& kv = o.overrides;
    r_ = require_positive("r", param(kv, "r", t.r, "sphere radius [m]"));
    const double rho = require_positive("density", param(kv, "density", t.density, "density [kg/m^3]"));
    youngs_ = require_positive("youngs", param(kv, "youngs", t.youngs, "Young's modulus E of the sphere [Pa]"));
    poisson_ = param(kv, "poisson", t.poisson, "Poisson's ratio of the sphere");
    if (test == 5) {
      // Test 5 keeps the normal speed and varies the tangential one.
      const double vn = require_positive("vn", param(kv, "vn", 5.0, "normal impact speed of the sphere [m/s]"));
      const double vt = require_positive("vt", param(kv, "vt", 5.0, "tangential speed of the sphere [m/s]"));
      v_ = std::hypot(vn, vt);
      angle_ = std::atan2(vt, vn);
    } else {
      v_ = require_positive("v", param(kv, "v", t.v, pair_ ? "speed of each sphere, towards the other [m/s]"
                                                            : "impact speed of the sphere [m/s]"));
    }
    e_ = require_in_range("restitution", param(kv, "restitution", t.restitution, "restitution e (1: elastic)"), 1e-6,
                          1.0);
    if (oblique()) {
      mu_ = require_non_negative("mu", param(kv, "mu", t.mu, "Coulomb friction"));
      if (test == 4)
        angle_ = require_in_range("angle", param(kv, "angle", t.angle, "incidence angle from the normal [deg]"), 0.0,
                                  89.0) * degree;
      uses_tangential_ = true;
    }
    const double lammps = param(kv, "lammps", 0.0, "1: LAMMPS' granular hertz/material, tangential mindlin; 0: "
                                                   "Hertz-Mindlin as EDEM and LIGGGHTS");
    if (lammps != 0.0 && lammps != 1.0) fail(fmt::format("lammps = {} must be 0 or 1", lammps));
    lammps_ = lammps == 1.0;
    law_ = make_law();

    m_ = contact::sphere_mass(r_, rho);
    if (!(m_ > 0.0 && std::isfinite(m_)))
      fail(fmt::format("r = {} m and density = {} kg/m^3 give the sphere a mass of {} kg", r_, rho, m_));
    m_eff_ = pair_ ? 0.5 * m_ : m_;
    r_eff_ = pair_ ? 0.5 * r_ : r_;
    vn_ = (pair_ ? 2.0 * v_ : v_) * std::cos(angle_);  // normal approach speed
    impact_ = contact::head_on_impact(law_, m_eff_, r_eff_, vn_, 0.0, 16000.0);
    tc_ = impact_.duration;
    gap_ = 0.5 * vn_ * tc_;  // the approach takes half a collision
    h0_ = tc_ / 8.0;
    t_end_ = gap_ / vn_ + 2.0 * tc_ + h0_;
    collision_scales(o, tc_, 8);
    accuracy_quantity_ = test <= 2 ? "peak_force" : test == 3 ? "restitution" : "rebound_angle";
    transient_contacts_ = true;
    channels_ = standard_channels(v_ * tc_, v_, m_ * v_ * v_);

    description_ = fmt::format("Chung & Ooi (2011) Test {}: {}; {} E = {:g} Pa, nu = {:g}, e = {:g}{}", test, t.title,
                               !lammps_ ? "Hertz-Mindlin (EDEM, LIGGGHTS),"
                               : pair_  ? "LAMMPS granular hertz/material, tangential mindlin,"
                                        : "LAMMPS granular hertz/material, tangential mindlin (the plane as fix wall/gran "
                                          "granular has it: E* = E/(2(1 - nu)), not a rigid plane's E/(1 - nu^2)),",
                               youngs_, poisson_, e_, oblique() ? fmt::format(", mu = {:g}", mu_) : "");
    if (e_ < 1.0)
      description_ += fmt::format("; the law's own restitution at v_n = {:g} m/s is {:.6g}", vn_, impact_.restitution);
    if (oblique())
      description_ += fmt::format("; it slides throughout above {:.4g} deg (here {:g} deg)",
                                  sliding_angle(mu_, impact_.restitution) / degree, angle_ / degree);
  }

  RunSetup build(double delay) const override {
    // Onset delayed by `delay`: the gap grows by the normal approach speed times it.
    RunSetup s = at_rest(make_system());
    place(static_cast<const ParticleSystem&>(*s.system), gap_ + vn_ * delay, s.x0, s.v0);
    return s;
  }

  std::unique_ptr<Monitor> monitor(const MechanicalSystem&) const override {
    return std::make_unique<ImpactMonitor>(*this);
  }

  // Elastic: Hertz' closed forms; damped: the law's own impact, integrated (contact::head_on_impact at
  // 16000 steps per peak-overlap time). The normal law does not see the tangential motion, so these
  // hold for Test 4 too; its tangential outcomes come from the reference run.
  std::map<std::string, double> exact_outcomes(double) const override {
    if (e_ == 1.0) {
      const double e_star = 0.75 * law_.kn;
      const double peak = contact::hertz_peak_overlap(m_eff_, r_eff_, e_star, vn_);
      return {{"restitution", 1.0},
              {"peak_overlap", peak},
              {"peak_force", elastic_force(peak)},
              {"contact_duration", contact::hertz_duration(m_eff_, r_eff_, e_star, vn_)}};
    }
    return {{"restitution", impact_.restitution},
            {"peak_overlap", impact_.peak_overlap},
            {"contact_duration", impact_.duration}};
  }

  std::optional<Linearisation> linearise() const override {
    // The stiffest state of the collision: the peak overlap, at rest.
    ParticleSystem sys = make_system();
    Vector x, v;
    place(sys, -impact_.peak_overlap, x, v);
    return linearise_particles(sys, x, Vector::Zero(v.size()),
                               pair_ ? "the two spheres at the collision's peak overlap"
                                     : "the sphere on the plane at the collision's peak overlap");
  }

 private:
  // Tests 4 and 5: a tangential velocity, friction, and the tangential outcomes.
  bool oblique() const { return test_ >= 4; }
  // Hertz' elastic force 4/3 E* sqrt(R*) delta^(3/2) (kn = 4/3 E* for both laws).
  double elastic_force(double delta) const { return law_.kn * std::sqrt(r_eff_) * std::pow(delta, 1.5); }

  // EDEM's law: a rigid plane is the sphere-sphere law of a material twice as stiff (the top of the
  // file). LAMMPS': the plane is what `fix wall/gran granular` makes of the same words.
  contact::ContactLaw make_law() const {
    if (!lammps_) return contact::hertz_mindlin(pair_ ? youngs_ : 2.0 * youngs_, poisson_, e_, mu_);
    // hertz/material E damp nu; damping tsuji reads damp as e. Elastic: no dashpot at all (tsuji's fit
    // is not exactly zero at e = 1).
    const std::string words =
        e_ == 1.0 ? fmt::format("hertz/material {:.17g} 0 {:.17g} tangential mindlin NULL 1 {:.17g} damping "
                                "viscoelastic", youngs_, poisson_, mu_)
                  : fmt::format("hertz/material {:.17g} {:.17g} {:.17g} tangential mindlin NULL 1 {:.17g} damping "
                                "tsuji", youngs_, e_, poisson_, mu_);
    if (pair_) return contact::parse_lammps_pair("granular " + words, name_);
    return contact::parse_lammps_wall_granular(split_words(words), name_);
  }

  ParticleSystem make_system() const {
    ParticleSystem sys(3, law_, mode_);
    if (pair_) {
      for (int i = 0; i < 2; ++i) sys.add_particle(r_, m_, stepper::sphere_inertia(m_, r_));
    } else {
      sys.add_particle(r_, m_, stepper::sphere_inertia(m_, r_));
      sys.add_wall(Vec3::Zero(), -Vec3::UnitX(), law_);  // the plane x = 0, the sphere on its x < 0 side
    }
    return sys;
  }

  // The contact `gap` ahead (gap < 0: overlapping). Test 1: the spheres at -+(r + gap/2) moving at +-v;
  // Tests 2-4: the sphere at x = -(r + gap), moving at v (cos angle, sin angle, 0), no spin.
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const {
    x = Vector::Zero(sys.dofs());
    v = Vector::Zero(sys.dofs());
    if (pair_) {
      sys.set_centre(x, 0, Vec3(-(r_ + 0.5 * gap), 0, 0));
      sys.set_centre(x, 1, Vec3(r_ + 0.5 * gap, 0, 0));
      sys.set_centre(v, 0, Vec3(v_, 0, 0));
      sys.set_centre(v, 1, Vec3(-v_, 0, 0));
    } else {
      sys.set_centre(x, 0, Vec3(-(r_ + gap), 0, 0));
      sys.set_centre(v, 0, Vec3(v_ * std::cos(angle_), v_ * std::sin(angle_), 0));
    }
  }

  // The collision's outcomes (CollisionMonitor), with
  //   peak_force (elastic runs): Hertz' force at the peak overlap, where the elastic force peaks;
  //   Test 4, from the second sample after the contact ends (free flight: the velocities no longer
  //   change, whatever their time level): tangential_restitution v_t' / v_t, spin in the rolling
  //   sense [rad/s], rebound_angle of the contact point's velocity from the normal [deg].
  class ImpactMonitor final : public Monitor {
   public:
    explicit ImpactMonitor(const ChungOoi& c)
        : c_(c),
          collision_(c.pair_ ? CollisionMonitor([d = 2.0 * c.r_](const Vector& x) { return d - (x[6] - x[0]); },
                                                [](const Vector&, const Vector& v) { return v[0] - v[6]; })
                             : CollisionMonitor([r = c.r_](const Vector& x) { return r + x[0]; },
                                                [](const Vector&, const Vector& v) { return v[0]; })) {}
    void sample(double t, const Vector& x, double tv, const Vector& v) override {
      collision_.sample(t, x, tv, v);
      if (!c_.oblique() || done_) return;
      const bool touching = c_.r_ + x[0] > 0.0;
      touched_ = touched_ || touching;
      if (!touched_ || touching) return;
      if (++after_ < 2) return;
      const double vn = -v[0], vt = v[1], spin = -v[5];  // rolling along +y spins about -z
      tangential_restitution_ = vt / (c_.v_ * std::sin(c_.angle_));
      spin_ = spin;
      rebound_angle_ = std::atan2(vt - c_.r_ * spin, vn) / degree;
      done_ = true;
    }
    std::map<std::string, double> outcomes() const override {
      auto out = collision_.outcomes();
      if (c_.e_ == 1.0) {
        const auto it = out.find("peak_overlap");
        out["peak_force"] = it == out.end() ? std::nan("") : c_.elastic_force(it->second);
      }
      if (c_.oblique()) {
        out["tangential_restitution"] = tangential_restitution_;
        out["spin"] = spin_;
        out["rebound_angle"] = rebound_angle_;
      }
      return out;
    }

   private:
    const ChungOoi& c_;
    CollisionMonitor collision_;
    bool touched_ = false, done_ = false;
    int after_ = 0;
    double tangential_restitution_ = std::nan(""), spin_ = std::nan(""), rebound_angle_ = std::nan("");
  };

  int test_;
  bool pair_, lammps_ = false;
  contact::ContactLaw law_;
  contact::ImpactResult impact_;
  double r_, youngs_, poisson_, v_, e_, mu_ = 0.0, angle_ = 0.0, m_, m_eff_, r_eff_, vn_, tc_, gap_;
};

}  // namespace

std::unique_ptr<SweepCase> make_chung_ooi_case(std::string_view name, const CaseOptions& options) {
  for (int test = 1; test <= 5; ++test)
    if (name == fmt::format("chung-ooi-{}", test)) return std::make_unique<ChungOoi>(test, options);
  return nullptr;
}

}  // namespace dtcrit::sweep
