#include "dtcrit/contact/response.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dtcrit::contact {

namespace {

// --- one code path for the force and its derivative ------------------------------------------------
// The law is written once, as a template over its scalar. With double it gives the forces; with Dual
// (a value and its gradient over the 15 inputs, forward mode) it gives the forces and their exact
// derivative along the very branches the force takes, so the linearisation cannot drift from the law.

// DualN<N>: a value and its gradient over N of the inputs. The operators are friends (found by
// argument-dependent lookup, and converting doubles as the non-template functions they are).
// Every gradient component is computed by the same operations whatever N, so a derivative over the
// velocities alone (N = 7) equals those columns of the full one (N = 15) to the last bit.
template <int N>
struct DualN {
  using Grad = Eigen::Matrix<double, 1, N>;
  double v = 0.0;
  Grad g = Grad::Zero();
  DualN() = default;
  DualN(double x) : v(x) {}  // NOLINT: constants promote implicitly, as doubles do
  DualN(double x, const Grad& d) : v(x), g(d) {}
  friend DualN operator+(const DualN& a, const DualN& b) { return {a.v + b.v, a.g + b.g}; }
  friend DualN operator-(const DualN& a, const DualN& b) { return {a.v - b.v, a.g - b.g}; }
  friend DualN operator-(const DualN& a) { return {-a.v, -a.g}; }
  friend DualN operator*(const DualN& a, const DualN& b) { return {a.v * b.v, a.v * b.g + b.v * a.g}; }
  friend DualN operator/(const DualN& a, const DualN& b) {
    return {a.v / b.v, (a.g * b.v - a.v * b.g) / (b.v * b.v)};
  }
  friend DualN sqrt(const DualN& a) {
    const double s = std::sqrt(a.v);
    return {s, s > 0.0 ? Grad(a.g / (2.0 * s)) : Grad(Grad::Zero())};
  }
  friend DualN abs(const DualN& a) { return a.v < 0.0 ? -a : a; }
  friend double value(const DualN& a) { return a.v; }
};
using Dual = DualN<in::count>;
// The velocity inputs only (velocity, rolling velocity, twisting rate: in::velocity .. in::xi_t - 1).
constexpr int velocity_inputs = in::xi_t - in::velocity;
using VelocityDual = DualN<velocity_inputs>;
double value(double a) { return a; }
// y = f(x) given as its value and df/dx at x: carries x's gradient through f (the JKR contact
// radius, found by iteration, is differentiated by the implicit function theorem instead).
double chained(double y, double /*x*/, double /*dydx*/) { return y; }
template <int N>
DualN<N> chained(double y, const DualN<N>& x, double dydx) { return {y, x.g * dydx}; }

constexpr double pi = std::numbers::pi;

// The JKR contact radius a(delta): the largest root of delta = a^2/R - 2 sqrt(pi gamma a / E)
// (LAMMPS evaluates the same root in closed form, pair_granular.cpp compute()), and da/ddelta =
// 1 / (2a/R - sqrt(pi gamma / (E a))). delta(a) is convex with its minimum at a_m^3 = pi gamma R^2
// / (4E): Newton's method from the right of the root converges monotonically. Below that minimum
// (beyond any pull-off, where LAMMPS has no contact) there is no root: a_m, with zero slope.
struct JkrRadius {
  double a = 0.0, da_ddelta = 0.0;
};
JkrRadius jkr_radius(double R, double E, double gamma, double delta) {
  const double c = std::sqrt(pi * gamma / E);  // delta = a^2/R - 2 c sqrt(a)
  auto excess = [&](double a) { return a * a / R - 2.0 * c * std::sqrt(a) - delta; };
  auto slope = [&](double a) { return 2.0 * a / R - c / std::sqrt(a); };
  const double a_m = std::cbrt(pi * gamma * R * R / (4.0 * E));
  if (excess(a_m) >= 0.0) return {a_m, 0.0};
  double a = std::max(a_m, std::sqrt(R * std::max(delta, 0.0)));
  while (excess(a) < 0.0) a *= 2.0;
  for (int k = 0; k < 200; ++k) {
    const double step = excess(a) / slope(a);
    if (!(step > 0.0)) break;  // monotone from the right: a non-positive step means converged
    a -= step;
    if (step <= 1e-16 * a) break;
  }
  return {a, 1.0 / slope(a)};
}

template <class S>
struct V3 {
  S x = S(0.0), y = S(0.0), z = S(0.0);
};
template <class S>
V3<S> operator+(const V3<S>& a, const V3<S>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class S>
V3<S> operator-(const V3<S>& a, const V3<S>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class S>
V3<S> operator*(const S& s, const V3<S>& a) { return {s * a.x, s * a.y, s * a.z}; }
template <class S>
S dot(const V3<S>& a, const V3<S>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class S>
S norm(const V3<S>& a) {
  using std::sqrt;
  return sqrt(dot(a, a));
}
template <class S>
V3<S> constant(const Vec3& a) { return {S(a.x()), S(a.y()), S(a.z())}; }

template <class S>
struct Inputs {
  S overlap;
  V3<S> v, v_roll;
  S w_tw;
  V3<S> xi_t, xi_r;
  S xi_tw;
};

template <class S>
struct Outputs {
  S Fne, Fntot;
  double Fncrit = 0.0;
  V3<S> fs, fr;
  S M;
  V3<S> xi_t, xi_r;
  S xi_tw;
  bool sliding = false, rolling_slip = false, twisting_slip = false;
  double a = 0.0, k_t = 0.0;
};

bool is_mindlin(TangentialModel m) { return m != TangentialModel::linear_history && m != TangentialModel::linear_nohistory; }
bool force_history(TangentialModel m) {
  return m == TangentialModel::mindlin_force || m == TangentialModel::mindlin_rescale_force;
}

// Mirrors PairGranular::compute() of LAMMPS 29 Sep 2021 (src/GRANULAR/pair_granular.cpp, the block
// from "delta = radsum - r" to "apply forces & torques") and the classic styles' compute(); the
// mapping of the classic styles onto these sub-models is in law.hpp and contact/README.md.
template <class S>
Outputs<S> law_kernel(const ContactLaw& law, const ContactInput& c, const Inputs<S>& p) {
  using std::abs;
  using std::sqrt;
  Outputs<S> o;
  const V3<S> n = constant<S>(c.normal);
  const double R = c.r_eff, m = c.m_eff;

  // Normal: a = sqrt(R delta) (one-sided 0 for delta <= 0; not computed for laws that do not use
  // it), F_ne = knfac delta; dmt subtracts 4 pi gamma R; jkr has its own radius and force.
  const double gamma = law.cohesion;
  S a = S(0.0);
  if (law.normal == NormalModel::jkr && gamma > 0.0) {
    const JkrRadius j = jkr_radius(R, 0.75 * law.kn, gamma, value(p.overlap));
    a = chained(j.a, p.overlap, j.da_ddelta);
  } else if (overlap_dependent(law) && value(p.overlap) > 0.0) {
    a = sqrt(p.overlap * S(R));
  }
  S knfac = S(law.kn);
  if (law.normal != NormalModel::hooke) knfac = knfac * a;
  if (law.normal == NormalModel::jkr && gamma > 0.0) {
    // F = k_n a^3/R - 4 sqrt(pi gamma E a^3), E = 3/4 k_n (JKR with work of adhesion 2 gamma).
    o.Fne = knfac * a * a / S(R) - S(4.0 * std::sqrt(pi * gamma * 0.75 * law.kn)) * a * sqrt(a);
  } else {
    o.Fne = knfac * p.overlap;
    if (law.normal == NormalModel::dmt) o.Fne = o.Fne - S(4.0 * pi * gamma * R);
  }
  S damp_normal = S(1.0);
  switch (law.damping) {
    case DampingModel::velocity: damp_normal = S(1.0); break;
    case DampingModel::mass_velocity: damp_normal = S(m); break;
    case DampingModel::viscoelastic: damp_normal = a * S(m); break;
    case DampingModel::tsuji: damp_normal = sqrt(S(m) * knfac); break;
  }
  const S eta_n = S(law.damping_coefficient) * damp_normal;
  const S vn = dot(p.v, n);
  o.Fntot = o.Fne - eta_n * vn;
  if (law.limit_damping && value(o.Fntot) < 0.0) o.Fntot = S(0.0);
  // The friction caps: |F_ntot|, but for the adhesive models LAMMPS takes |F_ne + 2 F_pulloff|
  // (F_pulloff = 3 pi gamma R for jkr, 4 pi gamma R for dmt), without the dashpot.
  S Fncrit = abs(o.Fntot);
  if (law.normal == NormalModel::jkr) Fncrit = abs(o.Fne + S(2.0 * 3.0 * pi * gamma * R));
  if (law.normal == NormalModel::dmt) Fncrit = abs(o.Fne + S(2.0 * 4.0 * pi * gamma * R));
  o.Fncrit = value(Fncrit);

  // Tangential.
  const V3<S> vt = p.v - vn * n;
  S k_t = S(law.kt);
  if (is_mindlin(law.tangential)) k_t = k_t * a;
  const S eta_t = law.style == Style::granular ? S(law.tangential_damping) * eta_n
                                               : S(law.tangential_damping) * damp_normal;
  const S Fscrit = S(law.mu) * Fncrit;
  o.xi_t = p.xi_t;
  if (law.tangential == TangentialModel::linear_nohistory) {
    // |F_t| = min(mu |F_n|, eta_t |v_t|) along -v_t. Below the cap (and as the limit v_t -> 0 when
    // the cap is open) that is -eta_t v_t, written so, which keeps its derivative at v_t = 0.
    const S vrel = norm(vt);
    const bool capped = value(eta_t) * value(vrel) > value(Fscrit);
    if (!capped) o.fs = (S(-1.0) * eta_t) * vt;
    else o.fs = (S(-1.0) * Fscrit / vrel) * vt;
    o.sliding = capped;
  } else {
    o.fs = force_history(law.tangential) ? p.xi_t - eta_t * vt : (S(-1.0) * k_t) * p.xi_t - eta_t * vt;
    // |F_t| > F_scrit, compared squared (both sides are non-negative): the norm only on the cap.
    if (value(dot(o.fs, o.fs)) > value(Fscrit) * value(Fscrit)) {
      const S fsn = norm(o.fs);
      o.sliding = true;
      if (value(norm(p.xi_t)) != 0.0) {
        const V3<S> capped = (Fscrit / fsn) * o.fs;
        // k_t = 0: LAMMPS divides by it here (an infinite history); the spring exerts no force, so
        // the history is kept.
        if (force_history(law.tangential)) o.xi_t = capped + eta_t * vt;
        else if (value(k_t) > 0.0) o.xi_t = (S(-1.0) / k_t) * (capped + eta_t * vt);
        o.fs = capped;
      } else {
        o.fs = V3<S>{};  // LAMMPS: a cap on a zero history zeroes the force
      }
    }
  }

  // Rolling resistance (sds).
  o.xi_r = p.xi_r;
  if (law.rolling == RollingModel::sds) {
    o.fr = (S(-law.k_roll)) * p.xi_r - S(law.gamma_roll) * p.v_roll;
    const S Frcrit = S(law.mu_roll) * Fncrit;
    if (value(dot(o.fr, o.fr)) > value(Frcrit) * value(Frcrit)) {
      const S frn = norm(o.fr);
      o.rolling_slip = true;
      if (value(norm(p.xi_r)) != 0.0) {
        const V3<S> capped = (Frcrit / frn) * o.fr;
        // k_roll = 0: LAMMPS divides by it (pair_granular.cpp, the rolling cap); the spring exerts no
        // force, so the history is kept, as for twisting.
        if (law.k_roll > 0.0) o.xi_r = (S(-1.0 / law.k_roll)) * (capped + S(law.gamma_roll) * p.v_roll);
        o.fr = capped;
      } else {
        o.fr = V3<S>{};
      }
    }
  }

  // Twisting resistance.
  o.xi_tw = p.xi_tw;
  o.M = S(0.0);
  if (law.twisting != TwistingModel::none) {
    S k_tw = S(law.k_twist), eta_tw = S(law.gamma_twist), mu_tw = S(law.mu_twist);
    if (law.twisting == TwistingModel::marshall) {  // Marshall (2009) eq. 32, as LAMMPS
      k_tw = S(0.5) * k_t * a * a;
      eta_tw = S(0.5) * eta_t * a * a;
      mu_tw = S(2.0 / 3.0) * a * S(law.mu);
    }
    o.M = S(-1.0) * k_tw * p.xi_tw - eta_tw * p.w_tw;
    const S Mtcrit = mu_tw * Fncrit;
    if (value(abs(o.M)) > value(Mtcrit)) {
      o.twisting_slip = true;
      // LAMMPS puts the torque on the cap with the sign of the twisting RATE (0 when it is 0).
      const double sign = (value(p.w_tw) > 0.0) - (value(p.w_tw) < 0.0);
      if (value(k_tw) > 0.0) o.xi_tw = (Mtcrit * S(sign) - eta_tw * p.w_tw) / k_tw;
      o.M = S(-sign) * Mtcrit;
    }
  }
  o.a = value(a);
  o.k_t = value(k_t);
  return o;
}

V3<double> from_vec(const Vec3& a) { return {a.x(), a.y(), a.z()}; }

template <class D = Dual>
D seed(double x, int k) {
  typename D::Grad g = D::Grad::Zero();
  g[k] = 1.0;
  return {x, g};
}
template <class D = Dual>
V3<D> seed(const Vec3& a, int k) { return {seed<D>(a.x(), k), seed<D>(a.y(), k + 1), seed<D>(a.z(), k + 2)}; }
template <class D>
V3<D> constant_dual(const Vec3& a) { return {D(a.x()), D(a.y()), D(a.z())}; }

}  // namespace

namespace {

template <class S>
void fill_response(ContactResponse& r, const Outputs<S>& o) {
  r.elastic_normal_force = value(o.Fne);
  r.normal_force = value(o.Fntot);
  r.tangential_force = Vec3(value(o.fs.x), value(o.fs.y), value(o.fs.z));
  r.rolling_force = Vec3(value(o.fr.x), value(o.fr.y), value(o.fr.z));
  r.twisting_torque = value(o.M);
  r.xi_t = Vec3(value(o.xi_t.x), value(o.xi_t.y), value(o.xi_t.z));
  r.xi_r = Vec3(value(o.xi_r.x), value(o.xi_r.y), value(o.xi_r.z));
  r.xi_tw = value(o.xi_tw);
  r.sliding = o.sliding;
  r.rolling_slip = o.rolling_slip;
  r.twisting_slip = o.twisting_slip;
  r.contact_radius = o.a;
  r.critical_normal_force = o.Fncrit;
  r.tangential_stiffness = o.k_t;
}

// Out of line: its Dual temporaries need a stack frame of several kB, which the force-only path
// (the stepper's, once per contact and step) set up on every call when both lived in one function:
// evaluate() itself, not the law, was 12 % of a stepper step (perf, tests/benchmarks/stepper_vs_lammps).
[[gnu::noinline]] ContactResponse evaluate_with_derivative(const ContactLaw& law, const ContactInput& c) {
  ContactResponse r;
  const Inputs<Dual> p{seed(c.overlap, in::overlap),      seed(c.velocity, in::velocity),
                       seed(c.rolling_velocity, in::rolling_velocity), seed(c.twisting_rate, in::twisting_rate),
                       seed(c.xi_t, in::xi_t),            seed(c.xi_r, in::xi_r),
                       seed(c.xi_tw, in::xi_tw)};
  const Outputs<Dual> o = law_kernel(law, c, p);
  fill_response(r, o);
  // Force on i = F_ntot n + F_t.
  const Vec3& n = c.normal;
  const V3<Dual> F = V3<Dual>{o.Fntot * Dual(n.x()), o.Fntot * Dual(n.y()), o.Fntot * Dual(n.z())} + o.fs;
  const Dual* rows[out::count] = {&F.x, &F.y, &F.z, &o.fr.x, &o.fr.y, &o.fr.z, &o.M};
  for (int k = 0; k < out::count; ++k) r.derivative.row(k) = rows[k]->g;
  return r;
}

// The same, differentiated by the velocities alone (Differentiate::velocities): the derivative's
// other columns are zero.
[[gnu::noinline]] ContactResponse evaluate_with_velocity_derivative(const ContactLaw& law, const ContactInput& c) {
  ContactResponse r;
  constexpr int v0 = in::velocity;
  const Inputs<VelocityDual> p{VelocityDual(c.overlap),
                               seed<VelocityDual>(c.velocity, in::velocity - v0),
                               seed<VelocityDual>(c.rolling_velocity, in::rolling_velocity - v0),
                               seed<VelocityDual>(c.twisting_rate, in::twisting_rate - v0),
                               constant_dual<VelocityDual>(c.xi_t),
                               constant_dual<VelocityDual>(c.xi_r),
                               VelocityDual(c.xi_tw)};
  const Outputs<VelocityDual> o = law_kernel(law, c, p);
  fill_response(r, o);
  const Vec3& n = c.normal;
  const V3<VelocityDual> F = V3<VelocityDual>{o.Fntot * VelocityDual(n.x()), o.Fntot * VelocityDual(n.y()),
                                              o.Fntot * VelocityDual(n.z())} + o.fs;
  const VelocityDual* rows[out::count] = {&F.x, &F.y, &F.z, &o.fr.x, &o.fr.y, &o.fr.z, &o.M};
  r.derivative.setZero();
  for (int k = 0; k < out::count; ++k) r.derivative.row(k).segment<velocity_inputs>(v0) = rows[k]->g;
  return r;
}

ContactResponse evaluate_value(const ContactLaw& law, const ContactInput& c) {
  ContactResponse r;
  const Inputs<double> p{c.overlap, from_vec(c.velocity), from_vec(c.rolling_velocity), c.twisting_rate,
                         from_vec(c.xi_t), from_vec(c.xi_r), c.xi_tw};
  fill_response(r, law_kernel(law, c, p));
  return r;
}

}  // namespace

// Both branches return a prvalue: the response (with its 7 x 15 derivative) is built in place.
ContactResponse evaluate(const ContactLaw& law, const ContactInput& c, bool derivative) {
  return derivative ? evaluate_with_derivative(law, c) : evaluate_value(law, c);
}

ContactResponse evaluate(const ContactLaw& law, const ContactInput& c, Differentiate which) {
  switch (which) {
    case Differentiate::all: return evaluate_with_derivative(law, c);
    case Differentiate::velocities: return evaluate_with_velocity_derivative(law, c);
    case Differentiate::none: break;
  }
  return evaluate_value(law, c);
}

double stored_energy(const ContactLaw& law, const ContactInput& c, const ContactResponse& r) {
  const double a = r.contact_radius;
  double e = law.normal == NormalModel::hooke ? 0.5 * law.kn * c.overlap * c.overlap
                                              : 0.4 * law.kn * a * c.overlap * c.overlap;
  const double gamma = law.cohesion;
  if (law.normal == NormalModel::dmt) e -= 4.0 * pi * gamma * c.r_eff * c.overlap;
  if (law.normal == NormalModel::jkr && gamma > 0.0) {
    // The integral of F ddelta = F(a) delta'(a) da from a = 0 (delta = 0), with E = 3/4 k_n.
    const double E = 0.75 * law.kn, R = c.r_eff;
    e = 8.0 * E * std::pow(a, 5) / (15.0 * R * R) - 8.0 / 3.0 * std::sqrt(pi * gamma * E) * std::pow(a, 3.5) / R +
        2.0 * pi * gamma * a * a;
  }
  const double k_t = r.tangential_stiffness;
  if (law.tangential != TangentialModel::linear_nohistory && k_t > 0.0)
    e += force_history(law.tangential) ? 0.5 * r.xi_t.squaredNorm() / k_t : 0.5 * k_t * r.xi_t.squaredNorm();
  if (law.rolling == RollingModel::sds) e += 0.5 * law.k_roll * r.xi_r.squaredNorm();
  if (law.twisting != TwistingModel::none) {
    const double k_tw = law.twisting == TwistingModel::marshall ? 0.5 * k_t * a * a : law.k_twist;
    e += 0.5 * k_tw * r.xi_tw * r.xi_tw;
  }
  return e;
}

History advance_granular_history(const ContactLaw& law, const ContactInput& c, const History& h, double dt) {
  History out = h;
  const Vec3& n = c.normal;
  const Vec3 vt = c.velocity - c.velocity.dot(n) * n;
  // granular: the frame-update test reads the cap and k_t at this state (before the update).
  const ContactResponse now = evaluate(law, c);
  const double Fncrit = now.critical_normal_force;
  const double a = now.contact_radius;
  const double k_t = now.tangential_stiffness;
  // Into the tangent plane of the new normal, rescaled to the old length, only when the history left
  // it by more than LAMMPS' 1e-10 of the cap (|xi.n| k > 1e-10 crit).
  auto bring_into_plane = [&](Vec3& xi, double k, double crit) {
    const double along = xi.dot(n);
    if (!(std::abs(along) * k > 1e-10 * crit)) return;
    const double before = xi.norm();
    xi -= along * n;
    const double after = xi.norm();
    xi *= after > 0.0 ? before / after : 0.0;
  };
  if (law.tangential != TangentialModel::linear_nohistory) {
    const bool force_form = force_history(law.tangential);
    const bool rescale =
        law.tangential == TangentialModel::mindlin_rescale || law.tangential == TangentialModel::mindlin_rescale_force;
    if (rescale && a < out.a_prev) out.xi_t *= a / out.a_prev;
    bring_into_plane(out.xi_t, force_form ? 1.0 : k_t, law.mu * Fncrit);  // force form: |xi.n| > 1e-10 Fscrit
    out.xi_t += force_form ? Vec3(-k_t * vt * dt) : Vec3(vt * dt);
    if (rescale) out.a_prev = a;
  }
  if (law.rolling == RollingModel::sds) {
    bring_into_plane(out.xi_r, law.k_roll, law.mu_roll * Fncrit);
    out.xi_r += c.rolling_velocity * dt;
  }
  if (law.twisting != TwistingModel::none) out.xi_tw += c.twisting_rate * dt;
  return out;
}

}  // namespace dtcrit::contact
