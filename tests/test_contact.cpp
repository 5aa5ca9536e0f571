// The contact module: every law's derivative against central finite differences of its own force,
// block by block; hand-computed LAMMPS forces; the LAMMPS syntax; the Hertz impact against its
// closed form; the body-level linearisation against finite differences of the stepper's forces.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/impact.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/contact/response.hpp"

using namespace dtcrit;
using namespace dtcrit::contact;
using Catch::Matchers::WithinRel;

namespace {

// The inputs as one vector (the order of namespace `in`) and back.
Eigen::Matrix<double, in::count, 1> pack(const ContactInput& c) {
  Eigen::Matrix<double, in::count, 1> p;
  p << c.overlap, c.velocity, c.rolling_velocity, c.twisting_rate, c.xi_t, c.xi_r, c.xi_tw;
  return p;
}
ContactInput unpack(const ContactInput& base, const Eigen::Matrix<double, in::count, 1>& p) {
  ContactInput c = base;
  c.overlap = p[0];
  c.velocity = p.segment<3>(1);
  c.rolling_velocity = p.segment<3>(4);
  c.twisting_rate = p[7];
  c.xi_t = p.segment<3>(8);
  c.xi_r = p.segment<3>(11);
  c.xi_tw = p[14];
  return c;
}
Eigen::Matrix<double, out::count, 1> outputs(const ContactLaw& law, const ContactInput& c) {
  const ContactResponse r = evaluate(law, c);
  Eigen::Matrix<double, out::count, 1> y;
  y << r.force(c.normal), r.rolling_force, r.twisting_torque;
  return y;
}

// Central differences of the law's outputs, with a step per input of 1e-4 of that input's scale
// (truncation ~1e-8 relative; smaller steps drown the small dashpot terms in the rounding of the
// large spring force).
Derivative finite_difference(const ContactLaw& law, const ContactInput& c) {
  const auto p0 = pack(c);
  const double scales[in::count] = {c.overlap, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  Derivative D;
  for (int k = 0; k < in::count; ++k) {
    double s = scales[k];
    if (k >= in::velocity && k < in::twisting_rate + 1) s = std::max(1e-3, p0.segment(in::velocity, 7).norm());
    if (k >= in::xi_t) s = std::max(c.overlap, p0.segment(in::xi_t, 7).norm());
    const double h = 1e-4 * s;
    auto p = p0;
    p[k] = p0[k] + h;
    const auto yp = outputs(law, unpack(c, p));
    p[k] = p0[k] - h;
    const auto ym = outputs(law, unpack(c, p));
    D.col(k) = (yp - ym) / (2.0 * h);
  }
  return D;
}

// Compares per block (rows: force, rolling force, twisting torque; columns: overlap, velocity,
// rolling velocity, twisting rate, xi_t, xi_r, xi_tw), relative to the block's own size (absolute
// 1e-12 of the whole derivative where a block is zero).
void check_blocks(const Derivative& exact, const Derivative& fd, const std::string& what) {
  const int rows[4] = {0, 3, 6, 7};
  const int cols[8] = {0, 1, 4, 7, 8, 11, 14, 15};
  const double whole = exact.cwiseAbs().maxCoeff();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 7; ++b) {
      const auto E = exact.block(rows[a], cols[b], rows[a + 1] - rows[a], cols[b + 1] - cols[b]);
      const auto F = fd.block(rows[a], cols[b], rows[a + 1] - rows[a], cols[b + 1] - cols[b]);
      const double size = std::max(E.cwiseAbs().maxCoeff(), 1e-12 * whole);
      const double err = (E - F).cwiseAbs().maxCoeff() / size;
      INFO(what << ": block (" << a << ", " << b << ") exact\n" << E << "\nfinite differences\n" << F);
      CHECK(err < 1e-6);
    }
}

ContactInput moving_state(double overlap, double vscale, double xscale) {
  ContactInput c;
  c.normal = Vec3(0.3, -0.4, 0.5).normalized();
  c.overlap = overlap;
  const Vec3 t1 = c.normal.unitOrthogonal(), t2 = c.normal.cross(t1);
  c.velocity = vscale * (0.7 * t1 - 0.4 * t2 + 0.3 * c.normal);
  c.rolling_velocity = vscale * (0.2 * t1 + 0.5 * t2);
  c.twisting_rate = 3.0 * vscale;
  c.xi_t = xscale * (0.8 * t1 + 0.3 * t2);
  c.xi_r = xscale * (-0.4 * t1 + 0.6 * t2);
  c.xi_tw = 2.0 * xscale;
  c.r_eff = 5e-4;
  c.m_eff = 2e-3;
  return c;
}

std::vector<std::pair<std::string, ContactLaw>> laws_under_test() {
  return {
      {"gran/hooke", parse_lammps_pair("gran/hooke 2e5 NULL 50 NULL 0.5 1")},
      {"gran/hooke/history", parse_lammps_pair("gran/hooke/history 2e5 NULL 50 NULL 0.5 1")},
      {"gran/hertz/history", parse_lammps_pair("gran/hertz/history 4e8 NULL 5e3 NULL 0.5 1")},
      {"granular hooke velocity", parse_lammps_pair("granular hooke 2e5 0.3 damping velocity tangential "
                                                    "linear_history 6e4 0.5 0.4")},
      {"granular hooke mass_velocity nohistory",
       parse_lammps_pair("granular hooke 2e5 40 damping mass_velocity tangential linear_nohistory 0.5 0.4")},
      {"granular hertz viscoelastic mindlin",
       parse_lammps_pair("granular hertz 4e8 2e4 tangential mindlin 1e8 0.5 0.4")},
      {"granular hertz/material tsuji mindlin rolling twisting marshall",
       parse_lammps_pair("granular hertz/material 7e10 0.6 0.3 damping tsuji tangential mindlin NULL 1.0 0.5 "
                         "rolling sds 2e3 0.02 0.3 twisting marshall")},
      {"granular hertz/material mindlin_rescale twisting sds",
       parse_lammps_pair("granular hertz/material 7e10 5e4 0.3 tangential mindlin_rescale NULL 0.5 0.5 "
                         "twisting sds 1e-3 1e-6 0.1")},
      {"granular hertz mindlin/force",
       parse_lammps_pair("granular hertz 4e8 2e4 tangential mindlin/force 1e8 0.5 0.4")},
      {"granular hertz mindlin_rescale/force limit_damping",
       parse_lammps_pair("granular hertz 4e8 2e4 tangential mindlin_rescale/force 1e8 0.5 0.4 limit_damping")},
      {"Hertz-Mindlin (EDEM, LIGGGHTS)", hertz_mindlin(7e10, 0.3, 0.5, 0.5)},
      // Soft, so that the adhesion matters at the state's overlap 2e-6 (jkr pull-off about -2e-6).
      {"granular jkr tsuji mindlin rolling twisting marshall",
       parse_lammps_pair("granular jkr 1e7 0.5 0.3 0.5 damping tsuji tangential mindlin NULL 1.0 0.5 "
                         "rolling sds 2e3 0.02 0.3 twisting marshall")},
      {"granular dmt viscoelastic linear_history",
       parse_lammps_pair("granular dmt 1e7 2e3 0.3 0.5 tangential linear_history 1e4 0.5 0.4")},
  };
}

}  // namespace

TEST_CASE("every law's derivative equals central finite differences of its force, block by block", "[contact]") {
  for (const auto& [name, law] : laws_under_test()) {
    // Sticking: histories well inside the caps (mu large on the state's scale).
    ContactLaw sticking = law;
    sticking.mu = 1e3;
    sticking.mu_roll = law.rolling == RollingModel::sds ? 1e3 : 0.0;
    if (law.twisting == TwistingModel::sds) sticking.mu_twist = 1e3;
    const bool force_form =
        law.tangential == TangentialModel::mindlin_force || law.tangential == TangentialModel::mindlin_rescale_force;
    ContactInput c = moving_state(2e-6, 0.05, force_form ? 0.0 : 1e-7);
    if (force_form) c.xi_t = 0.05 * Vec3(c.normal.unitOrthogonal());  // a force [N]
    {
      INFO(name << " sticking");
      const ContactResponse r = evaluate(sticking, c, true);
      CHECK_FALSE(r.sliding);
      check_blocks(r.derivative, finite_difference(sticking, c), name + " sticking");
    }
    // Sliding: the same state against the law's own (small) friction coefficients.
    ContactLaw sliding = law;
    sliding.mu = law.tangential == TangentialModel::linear_nohistory ? 1e-5 : 0.01;
    if (law.rolling == RollingModel::sds) sliding.mu_roll = 1e-4;
    if (law.twisting == TwistingModel::sds) sliding.mu_twist = 1e-8;
    ContactInput cs = c;
    cs.xi_t *= 50.0;
    cs.xi_r *= 50.0;
    cs.xi_tw *= 50.0;
    {
      INFO(name << " sliding");
      const ContactResponse r = evaluate(sliding, cs, true);
      CHECK(r.sliding);
      check_blocks(r.derivative, finite_difference(sliding, cs), name + " sliding");
    }
  }
}

TEST_CASE("the velocity-only derivative equals the full one's velocity columns to the last bit", "[contact]") {
  // Differentiate::velocities (the stepper's damping(): C alone) runs the law on a shorter gradient;
  // every component is the same arithmetic, so its columns must be the full derivative's, bit for
  // bit, and the values the same; the other columns are zero. Sticking and sliding, every law.
  for (const auto& [name, law] : laws_under_test()) {
    for (const double mu : {1e3, 1e-5}) {
      ContactLaw l = law;
      l.mu = mu;
      if (law.rolling == RollingModel::sds) l.mu_roll = mu;
      if (law.twisting == TwistingModel::sds) l.mu_twist = mu * 1e-3;
      const bool force_form =
          law.tangential == TangentialModel::mindlin_force || law.tangential == TangentialModel::mindlin_rescale_force;
      ContactInput c = moving_state(2e-6, 0.05, force_form ? 0.0 : 5e-6);
      if (force_form) c.xi_t = 0.5 * Vec3(c.normal.unitOrthogonal());
      INFO(name << ", mu " << mu);
      const ContactResponse full = evaluate(l, c, Differentiate::all), vel = evaluate(l, c, Differentiate::velocities);
      constexpr int v0 = in::velocity, nv = in::xi_t - in::velocity;
      CHECK((full.derivative.middleCols<nv>(v0).array() == vel.derivative.middleCols<nv>(v0).array()).all());
      CHECK(vel.derivative.leftCols<v0>().isZero(0.0));
      CHECK(vel.derivative.rightCols<in::count - in::xi_t>().isZero(0.0));
      CHECK(full.normal_force == vel.normal_force);
      CHECK((full.tangential_force.array() == vel.tangential_force.array()).all());
      CHECK(full.sliding == vel.sliding);
      CHECK(full.derivative.middleCols<nv>(v0).cwiseAbs().maxCoeff() > 0.0);
    }
  }
}

TEST_CASE("gran/hertz/history force follows pair_gran_hertz_history.cpp on a hand-computed state", "[contact]") {
  // F_n = sqrt(R delta) (kn delta - m_eff gamma_n v_n), F_t = -sqrt(R delta) (kt xi + m_eff gamma_t v_t).
  const ContactLaw law = parse_lammps_pair("gran/hertz/history 1e9 5e8 1e4 2e3 10 1");
  ContactInput c;
  c.normal = Vec3::UnitZ();
  c.overlap = 4e-6;
  c.r_eff = 2.5e-4;
  c.m_eff = 1e-3;
  c.velocity = Vec3(0.01, 0.0, -0.02);
  c.xi_t = Vec3(1e-7, 2e-7, 0.0);
  const ContactResponse r = evaluate(law, c);
  const double a = std::sqrt(2.5e-4 * 4e-6);
  CHECK_THAT(r.normal_force, WithinRel(a * (1e9 * 4e-6 - 1e-3 * 1e4 * -0.02), 1e-14));
  CHECK_THAT(r.tangential_force.x(), WithinRel(-a * (5e8 * 1e-7 + 1e-3 * 2e3 * 0.01), 1e-14));
  CHECK_THAT(r.tangential_force.y(), WithinRel(-a * (5e8 * 2e-7), 1e-14));
  CHECK(r.tangential_force.z() == 0.0);
}

TEST_CASE("granular hertz/material keeps LAMMPS' conversions: 4/3 E*, 8 G*, Tsuji's coefficient", "[contact]") {
  const ContactLaw law = parse_lammps_pair(
      "granular hertz/material 7e10 0.8 0.3 damping tsuji tangential mindlin NULL 1.0 0.5 rolling sds 1e3 50 0.3 "
      "twisting marshall");
  const double E = 7e10, nu = 0.3;
  CHECK_THAT(law.kn, WithinRel(4.0 / 3.0 * E / (2.0 * (1.0 - nu * nu)), 1e-14));
  // G* of two equal bodies: G / (2 (2 - nu)) with G = E / (2 (1 + nu)).
  CHECK_THAT(law.kt, WithinRel(8.0 * (E / (2.0 * (1.0 + nu))) / (2.0 * (2.0 - nu)), 1e-14));
  const double e = 0.8;
  CHECK_THAT(law.damping_coefficient,
             WithinRel(1.2728 - 4.2783 * e + 11.087 * e * e - 22.348 * e * e * e + 27.467 * std::pow(e, 4) -
                           18.022 * std::pow(e, 5) + 4.8218 * std::pow(e, 6),
                       1e-14));
  CHECK(law.rolling == RollingModel::sds);
  CHECK(law.twisting == TwistingModel::marshall);
  CHECK(law.k_roll == 1e3);
}

TEST_CASE("LAMMPS syntax: NULL defaults, errors that name the word", "[contact]") {
  const ContactLaw h = parse_lammps_pair("gran/hooke/history 1e5 NULL 50 NULL 0.5 1");
  CHECK_THAT(h.kt, WithinRel(1e5 * 2.0 / 7.0, 1e-15));
  CHECK(h.tangential_damping == 25.0);
  CHECK(parse_lammps_pair("gran/hooke/history 1e5 NULL 50 NULL 0.5 0").tangential_damping == 0.0);
  CHECK(parse_lammps_pair("gran/hooke/history 1e5 NULL 50 NULL 0.5 1 limit_damping").limit_damping);
  auto message = [](const std::string& text) {
    try {
      parse_lammps_pair(text, "--lammps-pair");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("gran/hooke/history 1e5 NULL 5x0 NULL 0.5 1"), Catch::Contains("gamma_n = '5x0'"));
  CHECK_THAT(message("gran/hooke/history 1e5 NULL 50 NULL 0.5"), Catch::Contains("dampflag"));
  CHECK_THAT(message("gran/hooke/history 1e5 NULL 50 NULL 0.5 1 extra"), Catch::Contains("'extra'"));
  CHECK_THAT(message("granular jkr 1e9 0.3 0.3 50 tangential mindlin NULL 1 0.5 limit_damping"),
             Catch::Contains("limit_damping"));
  CHECK_THAT(message("granular hooke 1e5 0.3"), Catch::Contains("tangential model"));
  CHECK_THAT(message("granular hooke 1e5 0.3 tangential mindlin NULL 1 0.5"), Catch::Contains("hertz/material"));
  CHECK_THAT(message("granular hooke 1e5 0.3 tangential linear_history 1e4 1 0.5 rolling spring 1 2 3"),
             Catch::Contains("'spring'"));
  CHECK_THAT(message("lj/cut 2.5"), Catch::Contains("'lj/cut'"));
  CHECK_THAT(message("gran/hooke/history -1 NULL 50 NULL 0.5 1"), Catch::Contains("kn = -1"));
}

TEST_CASE("the sphere and disc conventions are one: m and I of both", "[contact]") {
  CHECK_THAT(sphere_mass(1e-3, 2500.0), WithinRel(2500.0 * 4.0 / 3.0 * std::numbers::pi * 1e-9, 1e-15));
  CHECK_THAT(sphere_inertia(2.0, 0.5), WithinRel(0.2, 1e-15));
  CHECK_THAT(disc_mass(1e-3, 2e-3, 2500.0), WithinRel(2500.0 * std::numbers::pi * 1e-6 * 2e-3, 1e-15));
  CHECK_THAT(disc_inertia(2.0, 0.5), WithinRel(0.25, 1e-15));
  CHECK_THROWS_AS(disc_mass(1e-3, 0.0, 2500.0), std::invalid_argument);
  // LAMMPS' set density/disc: an areal density; a data file's density: mass over 4/3 pi r^3.
  CHECK_THAT(areal_disc_mass(1e-3, 5.0), WithinRel(5.0 * std::numbers::pi * 1e-6, 1e-15));
  CHECK_THAT(sphere_volume(2.0), WithinRel(32.0 / 3.0 * std::numbers::pi, 1e-15));
  CHECK(effective_mass(2.0, 6.0) == 1.5);
  CHECK(effective_mass(2.0, immovable_mass) == 2.0);
  CHECK(lammps_gamma_from_dashpot(dashpot_from_lammps_gamma(40.0, 0.5), 0.5) == 40.0);
}

TEST_CASE("isotropic_block: k_n along the normal, k_t across it", "[contact]") {
  const Vec3 n = Vec3(1.0, 2.0, 2.0) / 3.0, t = Vec3(2.0, -2.0, 1.0) / 3.0;
  const Eigen::Matrix3d K = isotropic_block(5.0, 2.0, n);
  CHECK_THAT((K * n - 5.0 * n).norm(), Catch::Matchers::WithinAbs(0.0, 1e-14));
  CHECK_THAT((K * t - 2.0 * t).norm(), Catch::Matchers::WithinAbs(0.0, 1e-14));
  CHECK(K == K.transpose());
}

TEST_CASE("Hertz head-on impact: duration and peak overlap against the closed form", "[contact]") {
  // Glass spheres d = 1 mm, E = 50 GPa, nu = 0.22, rho = 2500, relative impact speed 1 m/s.
  const double E = 50e9, nu = 0.22, rho = 2500.0, R = 0.5e-3;
  const ContactLaw law = parse_lammps_pair(fmt::format(
      "granular hertz/material {} 0 {} damping viscoelastic tangential mindlin NULL 0 0.5", E, nu));
  const double m = sphere_mass(R, rho), m_eff = 0.5 * m, r_eff = 0.5 * R;
  const ImpactResult imp = head_on_impact(law, m_eff, r_eff, 1.0);
  // Closed form: delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5), with k = 4/3 E* sqrt(R*) the
  // energy balance m* v^2 / 2 = 2/5 k delta_max^(5/2); duration 2 (delta_max / v) int_0^1 dx / sqrt(1 - x^(5/2)).
  const double Estar = E / (2.0 * (1.0 - nu * nu));
  const double dmax = std::pow(15.0 * m_eff / (16.0 * Estar * std::sqrt(r_eff)), 0.4);
  // The integral by the substitution x = 1 - s^2 (removes the endpoint singularity), Simpson on s.
  const int N = 20000;
  double integral = 0.0;
  for (int k = 0; k <= N; ++k) {
    const double s = static_cast<double>(k) / N;
    const double x = 1.0 - s * s;
    const double g = s == 0.0 ? 2.0 / std::sqrt(2.5) : 2.0 * s / std::sqrt(1.0 - std::pow(x, 2.5));
    integral += (k == 0 || k == N ? 1.0 : (k % 2 ? 4.0 : 2.0)) * g;
  }
  integral /= 3.0 * N;
  const double t_closed = 2.0 * dmax / 1.0 * integral;
  CHECK_THAT(imp.peak_overlap, WithinRel(dmax, 1e-6));
  CHECK_THAT(imp.duration, WithinRel(t_closed, 1e-4));
  CHECK_THAT(imp.duration, WithinRel(3.44e-6, 2e-3));  // 3.44 us, 3 digits
  CHECK_THAT(imp.restitution, WithinRel(1.0, 1e-6));
  // The closed form t_c = 2.86826 (m*^2 / (R* E*^2 v))^(1/5), to the quadrature's accuracy.
  CHECK_THAT(hertz_duration(m_eff, r_eff, Estar, 1.0), WithinRel(t_closed, 1e-4));
}

TEST_CASE("damped Hertz impact: restitution falls with damping, linear impact matches its closed form",
          "[contact]") {
  const double m_eff = 1e-3;
  // Linear spring-dashpot: duration pi / (omega0 sqrt(1 - zeta^2)) and e = exp(-zeta pi / sqrt(1 - zeta^2)).
  const ContactLaw lin = parse_lammps_pair("gran/hooke/history 1e5 NULL 3 NULL 0.5 1");
  const ImpactResult r = head_on_impact(lin, m_eff, 1e-3, 0.5);
  const double w0 = std::sqrt(1e5 / m_eff), zeta = 3.0 / (2.0 * w0);
  CHECK_THAT(r.duration, WithinRel(std::numbers::pi / (w0 * std::sqrt(1.0 - zeta * zeta)), 1e-6));
  CHECK_THAT(r.restitution, WithinRel(std::exp(-zeta * std::numbers::pi / std::sqrt(1.0 - zeta * zeta)), 1e-6));
  const ContactLaw hz = parse_lammps_pair("granular hertz/material 7e10 0.5 0.3 damping tsuji tangential mindlin NULL 1 0.5");
  const ImpactResult d = head_on_impact(hz, m_eff, 1e-3, 1.0);
  CHECK(d.restitution < 0.95);
  CHECK(d.restitution > 0.3);
}

TEST_CASE("body blocks: K and C of a sphere pair against finite differences of the generalised forces",
          "[contact]") {
  // Generalised forces A^T Q_c on (x_i, phi_i, x_j, phi_j) from positions and velocities, through the
  // same kinematics the stepper uses; the histories follow the contact coordinates (sticking).
  for (const auto& [name, law0] : laws_under_test()) {
    if (law0.tangential == TangentialModel::mindlin_force || law0.tangential == TangentialModel::mindlin_rescale_force)
      continue;  // the force form's history is k_t(a) u: its derivative in a is not a plain spring
    ContactLaw law = law0;
    law.mu = 1e3;
    if (law.rolling == RollingModel::sds) law.mu_roll = 1e3;
    if (law.twisting == TwistingModel::sds) law.mu_twist = 1e3;
    const double ri = 5e-4, rj = 4e-4, mi = 1e-3, mj = 2e-3;
    const Vec3 n0 = Vec3(0.2, 0.9, -0.3).normalized();
    const double overlap0 = 3e-6;
    using V12 = Eigen::Matrix<double, 12, 1>;
    // q = (x_i, phi_i, x_j, phi_j) relative to the reference; qd the velocities.
    auto forces = [&](const V12& q, const V12& qd) {
      const Vec3 d = n0 * (ri + rj - overlap0) + q.segment<3>(0) - q.segment<3>(6);
      const double r = d.norm();
      RoundContact g{d / r, ri + rj - r, ri, rj, r, false};
      History h;
      // Histories as the contact coordinates since the reference (sticking: xi follows u, rho, theta).
      const ContactInput dw = contact_input(g, q.segment<3>(0), q.segment<3>(3), q.segment<3>(6), q.segment<3>(9),
                                            1.0, {});
      h.xi_t = dw.velocity - dw.velocity.dot(g.normal) * g.normal;  // "velocity" of the displacements = u
      h.xi_r = dw.rolling_velocity;
      h.xi_tw = dw.twisting_rate;
      const ContactInput c = contact_input(g, qd.segment<3>(0), qd.segment<3>(3), qd.segment<3>(6), qd.segment<3>(9),
                                           effective_mass(mi, mj), h);
      const ContactResponse res = evaluate(law, c);
      const Vec3 F = res.force(g.normal), nxft = g.normal.cross(res.tangential_force);
      const Vec3 resist = c.r_eff * g.normal.cross(res.rolling_force) + res.twisting_torque * g.normal;
      V12 Q;
      Q << F, -torque_arm(law, g, true) * nxft + resist, -F, -torque_arm(law, g, false) * nxft - resist;
      return Q;
    };
    const V12 zero = V12::Zero();
    V12 qd0;
    qd0 << 1e-4, -2e-4, 3e-4, 0.1, -0.2, 0.05, -1e-4, 2e-4, 1e-4, 0.3, 0.1, -0.1;
    // K at rest (the moving state adds the turning of the velocities with the normal, which the
    // linearisation about a state at rest does not carry); C at the moving state.
    RoundContact g{n0, overlap0, ri, rj, ri + rj - overlap0, false};
    const ContactInput rest = contact_input(g, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                                            effective_mass(mi, mj), {});
    const ContactInput c0 = contact_input(g, qd0.segment<3>(0), qd0.segment<3>(3), qd0.segment<3>(6),
                                          qd0.segment<3>(9), effective_mass(mi, mj), {});
    BodyBlocks bb;
    bb.K = body_blocks(law, g, contact_blocks(law, g, evaluate(law, rest, true), true)).K;
    bb.C = body_blocks(law, g, contact_blocks(law, g, evaluate(law, c0, true), true)).C;
    Eigen::Matrix<double, 12, 12> Kfd, Cfd;
    for (int k = 0; k < 12; ++k) {
      V12 e = V12::Zero();
      const double hx = k % 6 < 3 ? 1e-11 : 1e-8, hv = k % 6 < 3 ? 1e-5 : 1e-2;
      e[k] = hx;
      Kfd.col(k) = -(forces(e, zero) - forces(-e, zero)) / (2.0 * hx);
      e[k] = hv;
      Cfd.col(k) = -(forces(zero, qd0 + e) - forces(zero, qd0 - e)) / (2.0 * hv);
    }
    INFO(name << "\nK\n" << bb.K << "\nK fd\n" << Kfd << "\nC\n" << bb.C << "\nC fd\n" << Cfd);
    CHECK((bb.K - Kfd).cwiseAbs().maxCoeff() < 1e-5 * bb.K.cwiseAbs().maxCoeff());
    CHECK((bb.C - Cfd).cwiseAbs().maxCoeff() < 1e-6 * bb.C.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("sliding: every tangential, rolling and twisting spring and dashpot off, the normal law kept", "[contact]") {
  using namespace dtcrit::contact;
  const ContactLaw law = parse_lammps_pair(
      "granular hertz/material 6.3e10 0.5 0.22 tangential mindlin NULL 1 0.4 rolling sds 5e4 0.5 0.1 twisting marshall "
      "damping tsuji");
  REQUIRE(frictional(law));
  const ContactLaw s = sliding(law);
  CHECK_FALSE(frictional(s));
  CHECK(s.kt == 0.0);
  CHECK(s.tangential_damping == 0.0);
  CHECK(s.rolling == RollingModel::none);
  CHECK(s.twisting == TwistingModel::none);
  CHECK(s.normal == law.normal);
  CHECK(s.kn == law.kn);
  CHECK(s.damping == law.damping);
  CHECK(s.damping_coefficient == law.damping_coefficient);
  // A classic law without tangential spring or dashpot is not frictional (mu alone acts on nothing).
  CHECK_FALSE(frictional(hooke_history(1e5, 0.0, 10.0, 0.0, 0.5)));
  CHECK(frictional(hooke_history(1e5, 0.0, 10.0, 5.0, 0.5)));
}
