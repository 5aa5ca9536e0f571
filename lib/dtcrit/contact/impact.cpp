#include "dtcrit/contact/impact.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dtcrit/contact/response.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"

namespace dtcrit::contact {

namespace {

// Normal force of the law at overlap d and overlap rate dd (v_n = -dd along n), no tangential motion.
double normal_force(const ContactLaw& law, double m_eff, double r_eff, double d, double dd) {
  ContactInput c;
  c.normal = Vec3::UnitZ();
  c.overlap = d;
  c.velocity = Vec3(0.0, 0.0, -dd);
  c.m_eff = m_eff;
  c.r_eff = r_eff;
  return evaluate(law, c).normal_force;
}

}  // namespace

ImpactResult head_on_impact(const ContactLaw& law, double m_eff, double r_eff, double speed, double law_m_eff,
                            double resolution) {
  require_positive("impact speed", speed);
  require_positive("effective mass", m_eff);
  require_positive("effective radius", r_eff);
  // Undamped peak overlap: the stored normal energy equals m v^2 / 2 (toms748 on the exact energy).
  ContactLaw elastic = law;
  elastic.damping_coefficient = 0.0;
  auto energy = [&](double d) {
    ContactInput c;
    c.overlap = d;
    c.m_eff = m_eff;
    c.r_eff = r_eff;
    return stored_energy(elastic, c, evaluate(elastic, c));
  };
  const double target = 0.5 * m_eff * speed * speed;
  if (!(target > 0.0 && std::isfinite(target)))
    fail(fmt::format("head-on impact at {} m/s, effective mass {} kg: its kinetic energy {} J is not positive and "
                     "finite", speed, m_eff, target));
  double hi = 1e-12 * r_eff;
  while (energy(hi) < target && std::isfinite(hi)) hi *= 2.0;
  const double peak = std::isfinite(hi) ? monotone_root([&](double d) { return energy(d) - target; }, 0.0, hi).mid()
                                        : hi;
  require_positive("impact resolution", resolution);
  const double h = (peak / speed) / resolution;
  if (!(h > 0.0 && std::isfinite(h)))
    fail(fmt::format("head-on impact at {} m/s, effective mass {} kg, radius {} m: its peak overlap {} m gives no "
                     "resolvable collision", speed, m_eff, r_eff, peak));

  // Classic RK4 on the scalar overlap ODE, not integrate_n_steps: this is the reference solution of
  // one collision (contact/ sits below integrators/, and the loop ends on the contact's end, read
  // from the Hermite interpolant of each step). Boost.Odeint's runge_kutta4 would round its stages
  // differently and move every impact result in the last digits.
  ImpactResult out;
  double d = 0.0, dd = speed;
  const double m_law = law_m_eff > 0.0 ? law_m_eff : m_eff;
  auto acc = [&](double x, double xd) { return -normal_force(law, m_law, r_eff, x, xd) / m_eff; };
  const long max_steps = std::lround(250.0 * resolution);  // 250 delta_p / v: an over-damped contact never ends
  for (long n = 1; n <= max_steps; ++n) {
    const double k1x = dd, k1v = acc(d, dd);
    const double k2x = dd + 0.5 * h * k1v, k2v = acc(d + 0.5 * h * k1x, dd + 0.5 * h * k1v);
    const double k3x = dd + 0.5 * h * k2v, k3v = acc(d + 0.5 * h * k2x, dd + 0.5 * h * k2v);
    const double k4x = dd + h * k3v, k4v = acc(d + h * k3x, dd + h * k3v);
    const double d1 = d + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    const double dd1 = dd + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    out.peak_overlap = std::max(out.peak_overlap, d1);
    if (dd > 0.0 && dd1 <= 0.0) {
      // The peak lies inside the step: the maximum of the cubic Hermite interpolant.
      for (double s = 0.0; s <= 1.0; s += 1.0 / 256.0) {
        const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
        const double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
        out.peak_overlap = std::max(out.peak_overlap, h00 * d + h10 * h * dd + h01 * d1 + h11 * h * dd1);
      }
    }
    if (d1 <= 0.0 && n > 1) {
      // Root of the cubic Hermite interpolant on [0, 1] by bisection (it is positive at 0).
      auto past_root = [&](double s) {
        const double val = (2 * s * s * s - 3 * s * s + 1) * d + (s * s * s - 2 * s * s + s) * h * dd +
                           (-2 * s * s * s + 3 * s * s) * d1 + (s * s * s - s * s) * h * dd1;
        return !(val > 0.0);
      };
      const double s = bisect(past_root, 0.0, 1.0, any_width, 100).mid();
      out.duration = (static_cast<double>(n - 1) + s) * h;
      const double rate = (6 * s * s - 6 * s) * d / h + (3 * s * s - 4 * s + 1) * dd + (-6 * s * s + 6 * s) * d1 / h +
                          (3 * s * s - 2 * s) * dd1;
      out.restitution = std::max(0.0, -rate / speed);
      out.steps = n;
      return out;
    }
    d = d1;
    dd = dd1;
  }
  fail(fmt::format("head-on impact at {} m/s under '{}' did not end within {} steps (over-damped?)", speed,
                   describe(law), max_steps));
}

double hertz_duration(double m_eff, double r_eff, double e_star, double speed) {
  return hertz_duration_constant * std::pow(m_eff * m_eff / (r_eff * e_star * e_star * speed), 0.2);
}

double hertz_peak_overlap(double m_eff, double r_eff, double e_star, double speed) {
  return std::pow(15.0 * m_eff * speed * speed / (16.0 * e_star * std::sqrt(r_eff)), 0.4);
}

double hertz_force(double r_eff, double e_star, double delta) {
  return 4.0 / 3.0 * e_star * std::sqrt(r_eff) * std::pow(delta, 1.5);
}

}  // namespace dtcrit::contact
