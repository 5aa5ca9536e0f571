// The Chung & Ooi (2011) benchmark tests as sweep cases (chung_ooi.hpp). One class: two spheres head on
// (Tests 1, 7, 8, and law-oblique for any law) or one sphere against a rigid plane (Tests 2-6), under Hertz-Mindlin as EDEM and
// LIGGGHTS define it (contact/hertz_mindlin.hpp) or, with lammps=1, LAMMPS' `granular hertz/material
// ... tangential mindlin`. Two bodies of moduli E1, E2 and one nu have E* = 1 / ((1 - nu^2)(1/E1 + 1/E2))
// and G* = 1 / (2 (2 - nu)(1 + nu)(1/E1 + 1/E2)): the law of one material with the harmonic mean
// 2 E1 E2 / (E1 + E2), which is how LAMMPS mixes two types too. A rigid plane is E2 = infinity: the law
// of a material with 2E (the damping depends on e and on the ratio G*/E* only). LAMMPS' `fix wall/gran
// granular` has no rigid plane: with lammps=1 the plane is the law it makes of the same coefficients
// (contact::parse_lammps_wall_granular), so that the case is what LAMMPS runs
// (tests/data/lammps/in.chung_ooi_*).
#include "dtcrit/sweep/chung_ooi.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "dtcrit/contact/body_inertia.hpp"
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

SlidingImpulses sliding_impulses(double m1, double m2, double r1, double vn, double u, double mu, double restitution) {
  const double impulse = mu * (1.0 + restitution) * vn;  // tangential impulse / m*
  const double share = contact::effective_mass(m1, m2) / m1;  // m* / m1
  return {-impulse * share, -2.5 * impulse * share / r1, u - 3.5 * impulse};
}

SlidingRebound gross_sliding_rebound(double speed, double angle, double mu, double restitution, double r) {
  const double vn = speed * std::cos(angle), vt = speed * std::sin(angle);
  const SlidingImpulses s = sliding_impulses(1.0, std::numeric_limits<double>::infinity(), r, vn, vt, mu, restitution);
  // No spin before: the slip is the centre's tangential velocity; rolling along it spins the other way.
  return {1.0 + s.centre_velocity / vt, -s.spin, std::atan(s.slip / (restitution * vn))};
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
    case 5:  // steel (polyethylene: E = 1e9, nu = 0.4, rho = 1400), mu = 0.3, elastic, v_n = 5 m/s, as
             // PySPH's script of the test sets them (its r = 10 um; Hertz outcomes do not depend on r)
      return {"oblique impact of a sphere on a rigid plane at constant normal speed", 1e-5, 7850, 2.08e11, 0.30, 0.0,
              1.0, 0.3, 0.0};
    // Tests 6-8 as Kratos' benchmarks 6-8 set them: aluminium alloy, r = 0.1 m, 0.2 m/s, mu = 0.4, e = 0.5.
    case 6:
      return {"impact of a spinning sphere on a rigid plane at constant normal speed", 0.1, 2700, 7.0e10, 0.33, 0.2,
              0.5, 0.4, 45.0};
    case 7:
      return {"impact of two identical spheres spinning at constant normal speed", 0.1, 2700, 7.0e10, 0.33, 0.2, 0.5,
              0.4, 0.0};
    default:  // 8
      return {"impact of a spinning sphere on a larger sphere at constant normal speed", 0.1, 2700, 7.0e10, 0.33, 0.2,
              0.5, 0.4, 45.0};
  }
}

// Sphere 0 starts on the x < 0 side and moves along +x towards sphere 1 (Tests 1, 7, 8) or the plane
// x = 0 (Tests 2-6); tangential motion is along y, spins about z. Its contact point (at +r0 x) moves
// along y at v0y + r0 w0z, sphere 1's (at -r1 x from its centre) at v1y - r1 w1z.
class ChungOoi final : public ParticleCase {
 public:
  ChungOoi(int test, const CaseOptions& o) : ParticleCase(o), test_(test), pair_(test == 1 || test >= 7) {
    const TestDefaults t = defaults(test);
    name_ = fmt::format("chung-ooi-{}", test);
    const KeyValues& kv = o.overrides;
    r_ = require_positive("r", param(kv, "r", t.r, test == 8 ? "radius of the small sphere [m]" : "sphere radius [m]"));
    const double rho = require_positive("density", param(kv, "density", t.density, "density [kg/m^3]"));
    youngs_ = require_positive("youngs", param(kv, "youngs", t.youngs, "Young's modulus E of the sphere [Pa]"));
    poisson_ = param(kv, "poisson", t.poisson, "Poisson's ratio of the spheres");
    if (test == 5) {
      // Test 5 keeps the normal speed and varies the tangential one.
      vn0_ = require_positive("vn", param(kv, "vn", 5.0, "normal impact speed of the sphere [m/s]"));
      vt_ = require_positive("vt", param(kv, "vt", 5.0, "tangential speed of the sphere [m/s]"));
      v_ = std::hypot(vn0_, vt_);
    } else {
      v_ = require_positive("v", param(kv, "v", t.v, test == 1 || test == 7
                                                         ? "speed of each sphere, towards the other [m/s]"
                                                         : "impact speed of the sphere [m/s]"));
      vn0_ = v_;
    }
    e_ = require_in_range("restitution", param(kv, "restitution", t.restitution, "restitution e (1: elastic)"), 1e-6,
                          1.0);
    if (test >= 4) {
      mu_ = require_non_negative("mu", param(kv, "mu", t.mu, "Coulomb friction"));
      uses_tangential_ = true;
    }
    if (test == 4) {
      const double angle = require_in_range(
          "angle", param(kv, "angle", t.angle, "incidence angle from the normal [deg]"), 0.0, 89.0) * degree;
      vn0_ = v_ * std::cos(angle);
      vt_ = v_ * std::sin(angle);
    }
    if (test == 6 || test == 8) {
      // The centre has no tangential velocity: the spin alone makes the contact point slip, at
      // u = v tan(angle).
      const double angle = require_in_range(
          "angle", param(kv, "angle", t.angle, "incidence angle of the contact point's velocity from the normal "
                                               "(its slip over the normal speed; the spin makes it) [deg]"),
          0.0, 89.0) * degree;
      spin_ = v_ * std::tan(angle) / r_;
    }
    if (test == 7) {
      // Equal and opposite spins: the two contact points move together, so nothing slips.
      spin_ = require_finite("spin", param(kv, "spin", 10.0, "spin of each sphere, opposite senses [rad/s]"));
      spin2_ = -spin_;
    }
    r2_ = r_;
    double rho2 = rho;
    youngs2_ = youngs_;
    if (test == 8) {
      // Kratos' larger sphere: five times the radius, 1000 times as dense and as stiff, at rest.
      r2_ = require_positive("r2", param(kv, "r2", 0.5, "radius of the larger sphere [m]"));
      rho2 = require_positive("density2", param(kv, "density2", 2.7e6, "density of the larger sphere [kg/m^3]"));
      youngs2_ = require_positive("youngs2", param(kv, "youngs2", 7.0e13, "Young's modulus of the larger sphere [Pa]"));
    }
    v2_ = test == 8 ? 0.0 : -v_;
    const double lammps = param(kv, "lammps", 0.0, "1: LAMMPS' granular hertz/material, tangential mindlin; 0: "
                                                   "Hertz-Mindlin as EDEM and LIGGGHTS");
    if (lammps != 0.0 && lammps != 1.0) fail(fmt::format("lammps = {} must be 0 or 1", lammps));
    lammps_ = lammps == 1.0;
    law_ = make_law();

    m_ = contact::sphere_mass(r_, rho);
    m2_ = pair_ ? contact::sphere_mass(r2_, rho2) : std::numeric_limits<double>::infinity();
    if (!(m_ > 0.0 && std::isfinite(m_)))
      fail(fmt::format("r = {} m and density = {} kg/m^3 give the sphere a mass of {} kg", r_, rho, m_));
    if (pair_ && !(m2_ > 0.0 && std::isfinite(m2_)))
      fail(fmt::format("r2 = {} m and density2 = {} kg/m^3 give the larger sphere a mass of {} kg", r2_, rho2, m2_));
    m_eff_ = contact::effective_mass(m_, m2_);  // m2 = infinity: the plane
    r_eff_ = pair_ ? contact::effective_radius(r_, r2_) : r_;
    vn_ = pair_ ? vn0_ - v2_ : vn0_;  // normal approach speed
    impact_ = contact::head_on_impact(law_, m_eff_, r_eff_, vn_, 0.0, 16000.0);
    inertia_ = stepper::sphere_inertia(m_, r_);
    inertia2_ = pair_ ? stepper::sphere_inertia(m2_, r2_) : 0.0;
    finish_setup(o);
    accuracy_quantity_ = test <= 2 ? "peak_force" : test == 3 || test == 7 ? "restitution" : "rebound_angle";

    description_ = fmt::format("Chung & Ooi (2011) Test {}: {}; {} E = {:g} Pa, nu = {:g}, e = {:g}{}", test, t.title,
                               !lammps_ ? "Hertz-Mindlin (EDEM, LIGGGHTS),"
                               : pair_  ? "LAMMPS granular hertz/material, tangential mindlin,"
                                        : "LAMMPS granular hertz/material, tangential mindlin (the plane as fix wall/gran "
                                          "granular has it: E* = E/(2(1 - nu)), not a rigid plane's E/(1 - nu^2)),",
                               youngs_, poisson_, e_, test >= 4 ? fmt::format(", mu = {:g}", mu_) : "");
    if (test == 8)
      description_ += fmt::format("; the larger sphere r2 = {:g} m, E2 = {:g} Pa, {:g} kg/m^3, at rest", r2_, youngs2_,
                                  rho2);
    if (e_ < 1.0)
      description_ += fmt::format("; the law's own restitution at v_n = {:g} m/s is {:.6g}", vn_, impact_.restitution);
    if (spinning() && test != 7)
      description_ += fmt::format("; spin {:.6g} rad/s, the contact point slipping at {:.6g} m/s", spin_, slip());
    if (test == 7) description_ += fmt::format("; spins +-{:g} rad/s: the contact points move together", spin_);
    if (test >= 4 && test != 7)
      description_ += fmt::format("; it slides throughout above {:.4g} deg (here {:.4g} deg)",
                                  sliding_angle(mu_, impact_.restitution) / degree,
                                  std::atan2(slip(), vn_) / degree);
  }

  // law-oblique (chung_ooi.hpp): the same machinery for any law and two round bodies.
  ChungOoi(const contact::ContactLaw& law, const RoundBody& b1, const RoundBody& b2, double speed, double angle,
           const CaseOptions& o)
      : ParticleCase(o), test_(0), pair_(true), law_(law) {
    name_ = "law-oblique";
    r_ = require_positive("body1 radius", b1.radius);
    r2_ = require_positive("body2 radius", b2.radius);
    m_ = require_positive("body1 mass", b1.mass);
    m2_ = require_positive("body2 mass", b2.mass);
    inertia_ = require_positive("body1 moment of inertia", b1.inertia);
    inertia2_ = require_positive("body2 moment of inertia", b2.inertia);
    v_ = require_positive("impact speed", speed);
    const double a = require_in_range("impact angle [rad]", angle, 0.0, 89.0 * degree);
    vn0_ = v_ * std::cos(a);
    vt_ = v_ * std::sin(a);
    v2_ = 0.0;
    mu_ = law.mu;
    uses_tangential_ = true;
    m_eff_ = contact::effective_mass(m_, m2_);
    r_eff_ = contact::effective_radius(r_, r2_);
    vn_ = vn0_;
    impact_ = contact::head_on_impact(law_, m_eff_, r_eff_, vn_, 0.0, 16000.0);
    e_ = impact_.restitution;
    youngs_ = youngs2_ = poisson_ = 0.0;
    finish_setup(o);
    accuracy_quantity_ = "rebound_angle";
    description_ = fmt::format("body 1 (m = {:g} kg, r = {:g} m) strikes body 2 (m = {:g} kg, r = {:g} m) at {:g} m/s, "
                               "{:g} deg from the normal, under {}; the law's restitution there is {:.6g}",
                               m_, r_, m2_, r2_, v_, a / degree, contact::describe(law_), e_);
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
  // hold for Tests 4-8 too. Test 7's spins make no slip, so nothing tangential changes; the other
  // tangential outcomes come from the reference run.
  std::map<std::string, double> exact_outcomes(double) const override {
    std::map<std::string, double> out;
    if (hertz_closed_forms()) {
      const double e_star = 0.75 * law_.kn;
      const double peak = contact::hertz_peak_overlap(m_eff_, r_eff_, e_star, vn_);
      out = {{"restitution", 1.0},
             {"peak_overlap", peak},
             {"peak_force", elastic_force(peak)},
             {"contact_duration", contact::hertz_duration(m_eff_, r_eff_, e_star, vn_)}};
    } else {
      out = {{"restitution", impact_.restitution},
             {"peak_overlap", impact_.peak_overlap},
             {"contact_duration", impact_.duration}};
    }
    if (test_ == 7) {
      out["tangential_velocity"] = 0.0;
      out["spin"] = spin_;
    }
    return out;
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
  // Elastic Hertz (the tests' own laws, kn = 4/3 E*): Hertz' closed forms and the peak force.
  bool hertz_closed_forms() const { return test_ != 0 && e_ == 1.0; }
  // The collision's time scales and channels, once the impact is known.
  void finish_setup(const CaseOptions& o) {
    tc_ = impact_.duration;
    gap_ = 0.5 * vn_ * tc_;  // the approach takes half a collision
    h0_ = tc_ / 8.0;
    t_end_ = gap_ / vn_ + 2.0 * tc_ + h0_;
    collision_scales(o, tc_, 8);
    transient_contacts_ = true;
    channels_ = standard_channels(v_ * tc_, v_, m_ * v_ * v_);
  }
  // Tests 4 and 5 (and law-oblique): the centre's velocity at an angle; Tests 6-8: spin.
  bool oblique() const { return test_ == 4 || test_ == 5 || test_ == 0; }
  bool spinning() const { return test_ >= 6; }
  // The contact point's slip before the impact: v0y + r0 w0z - (v1y - r1 w1z).
  double slip() const { return vt_ + r_ * spin_ + r2_ * spin2_; }
  // The contact normal at positions x, from sphere 0 towards sphere 1 or the plane; the tangent z x n
  // (y while the line of centres lies along x; Test 8's slides turn it a little).
  Vec3 normal(const Vector& x) const {
    return pair_ ? Vec3(x[6] - x[0], x[7] - x[1], x[8] - x[2]).normalized() : Vec3::UnitX();
  }
  static Vec3 tangent(const Vec3& n) { return Vec3::UnitZ().cross(n); }
  // The overlap at positions x, and the normal approach speed at velocities v.
  double overlap(const Vector& x) const {
    return pair_ ? r_ + r2_ - Vec3(x[6] - x[0], x[7] - x[1], x[8] - x[2]).norm() : r_ + x[0];
  }
  double approach(const Vector& x, const Vector& v) const {
    return pair_ ? Vec3(v[0] - v[6], v[1] - v[7], v[2] - v[8]).dot(normal(x)) : v[0];
  }
  double elastic_force(double delta) const { return contact::hertz_force(r_eff_, 0.75 * law_.kn, delta); }

  // EDEM's law: the law of one material with the harmonic mean of the two moduli, 2E against a rigid
  // plane (the top of the file). LAMMPS': the plane is what `fix wall/gran granular` makes of the same
  // words.
  contact::ContactLaw make_law() const {
    const double youngs = !pair_ ? 2.0 * youngs_ : 2.0 * youngs_ * youngs2_ / (youngs_ + youngs2_);
    if (!lammps_) return contact::hertz_mindlin(youngs, poisson_, e_, mu_);
    // hertz/material E damp nu; damping tsuji reads damp as e. Elastic: no dashpot at all (tsuji's fit
    // is not exactly zero at e = 1).
    const double e_words = pair_ ? youngs : youngs_;
    const std::string words =
        e_ == 1.0 ? fmt::format("hertz/material {:.17g} 0 {:.17g} tangential mindlin NULL 1 {:.17g} damping "
                                "viscoelastic", e_words, poisson_, mu_)
                  : fmt::format("hertz/material {:.17g} {:.17g} {:.17g} tangential mindlin NULL 1 {:.17g} damping "
                                "tsuji", e_words, e_, poisson_, mu_);
    if (pair_) return contact::parse_lammps_pair("granular " + words, name_);
    return contact::parse_lammps_wall_granular(split_words(words), name_);
  }

  ParticleSystem make_system() const {
    ParticleSystem sys(3, law_, mode_);
    sys.add_particle(r_, m_, inertia_);
    if (pair_)
      sys.add_particle(r2_, m2_, inertia2_);
    else
      sys.add_wall(Vec3::Zero(), -Vec3::UnitX(), law_);  // the plane x = 0, the sphere on its x < 0 side
    return sys;
  }

  // The contact `gap` ahead (gap < 0: overlapping): sphere 0 at -(r0 + gap/2) and sphere 1 at
  // r1 + gap/2, or sphere 0 at -(r0 + gap) before the plane; the velocities and spins of the test.
  void place(const ParticleSystem& sys, double gap, Vector& x, Vector& v) const {
    x = Vector::Zero(sys.dofs());
    v = Vector::Zero(sys.dofs());
    sys.set_centre(x, 0, Vec3(-(r_ + (pair_ ? 0.5 : 1.0) * gap), 0, 0));
    sys.set_centre(v, 0, Vec3(vn0_, vt_, 0));
    sys.set_spin(v, 0, Vec3(0, 0, spin_));
    if (pair_) {
      sys.set_centre(x, 1, Vec3(r2_ + 0.5 * gap, 0, 0));
      sys.set_centre(v, 1, Vec3(v2_, 0, 0));
      sys.set_spin(v, 1, Vec3(0, 0, spin2_));
    }
  }

  // The collision's outcomes (CollisionMonitor), with
  //   peak_force (elastic runs): Hertz' force at the peak overlap, where the elastic force peaks;
  //   and, from the second sample after the contact ends (free flight: the velocities no longer
  //   change, whatever their time level), the contact point's rebound_angle from the normal [deg], and
  //   Tests 4-5: tangential_restitution v_t' / v_t and spin in the rolling sense [rad/s];
  //   Tests 6-8: sphere 0's tangential_velocity [m/s] and spin [rad/s] in the sense of its initial
  //   spin, and (6, 8) contact_restitution -u'/u of the contact point's slip.
  class ImpactMonitor final : public Monitor {
   public:
    explicit ImpactMonitor(const ChungOoi& c)
        : c_(c),
          collision_([&c](const Vector& x) { return c.overlap(x); },
                     [&c](const Vector& x, const Vector& v) { return c.approach(x, v); }) {}
    void sample(double t, const Vector& x, double tv, const Vector& v) override {
      collision_.sample(t, x, tv, v);
      if (!c_.uses_tangential_ || done_) return;
      const bool touching = c_.overlap(x) > 0.0;
      touched_ = touched_ || touching;
      if (!touched_ || touching) return;
      if (++after_ < 2) return;
      const double vn = -c_.approach(x, v);
      const Vec3 along = tangent(c_.normal(x));
      const double vt = Vec3(v[0], v[1], v[2]).dot(along);
      const double slip = vt + c_.r_ * v[5] - (c_.pair_ ? Vec3(v[6], v[7], v[8]).dot(along) - c_.r2_ * v[11] : 0.0);
      rebound_angle_ = std::atan2(slip, vn) / degree;
      if (c_.oblique()) {
        tangential_restitution_ = vt / c_.vt_;
        spin_ = -v[5];  // rolling along +y spins about -z
      } else {
        tangential_velocity_ = vt;
        spin_ = v[5];
        contact_restitution_ = -slip / c_.slip();
      }
      done_ = true;
    }
    std::map<std::string, double> outcomes() const override {
      auto out = collision_.outcomes();
      if (c_.hertz_closed_forms()) {
        const auto it = out.find("peak_overlap");
        out["peak_force"] = it == out.end() ? std::nan("") : c_.elastic_force(it->second);
      }
      if (c_.oblique()) {
        out["tangential_restitution"] = tangential_restitution_;
        out["spin"] = spin_;
        out["rebound_angle"] = rebound_angle_;
      } else if (c_.spinning()) {
        out["tangential_velocity"] = tangential_velocity_;
        out["spin"] = spin_;
        if (c_.test_ != 7) {  // Test 7 does not slip
          out["contact_restitution"] = contact_restitution_;
          out["rebound_angle"] = rebound_angle_;
        }
      }
      return out;
    }

   private:
    const ChungOoi& c_;
    CollisionMonitor collision_;
    bool touched_ = false, done_ = false;
    int after_ = 0;
    double tangential_restitution_ = std::nan(""), tangential_velocity_ = std::nan(""), spin_ = std::nan(""),
           contact_restitution_ = std::nan(""), rebound_angle_ = std::nan("");
  };

  int test_;
  bool pair_, lammps_ = false;
  contact::ContactLaw law_;
  contact::ImpactResult impact_;
  double r_, r2_, youngs_, youngs2_, poisson_, v_, vn0_, vt_ = 0.0, v2_, e_, mu_ = 0.0, spin_ = 0.0, spin2_ = 0.0,
      m_, m2_, inertia_ = 0.0, inertia2_ = 0.0, m_eff_, r_eff_, vn_, tc_, gap_;
};

}  // namespace

std::unique_ptr<SweepCase> make_law_oblique_case(const contact::ContactLaw& law, const RoundBody& body1,
                                                 const RoundBody& body2, double speed, double angle,
                                                 const CaseOptions& options) {
  return std::make_unique<ChungOoi>(law, body1, body2, speed, angle, options);
}

std::unique_ptr<SweepCase> make_chung_ooi_case(std::string_view name, const CaseOptions& options) {
  for (int test = 1; test <= 8; ++test)
    if (name == fmt::format("chung-ooi-{}", test)) return std::make_unique<ChungOoi>(test, options);
  return nullptr;
}

}  // namespace dtcrit::sweep
