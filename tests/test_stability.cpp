// Stability limits measured on the integrators' own step (amplification matrices) against closed
// forms from the literature and independent derivations, the GS4 family identities, and runs just
// below and just above every predicted limit.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <functional>
#include <map>

#include <Eigen/LU>
#include <fmt/format.h>

#include "dtcrit/integrators/gs4.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/integrators/runge_kutta.hpp"
#include "dtcrit/stability/eigenvalue_region.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "integrator_test_support.hpp"

using namespace dtcrit;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

const double sqrt2 = std::sqrt(2.0), sqrt3 = std::sqrt(3.0);

// Omega_crit = h_crit omega; NaN for "not conditional" (the Stability says which).
struct Oracle {
  Stability stability;
  std::function<double(double zeta)> omega;  // used when conditional
};

Oracle conditional(std::function<double(double)> f) { return {Stability::conditional, std::move(f)}; }
const Oracle unconditional{Stability::unconditional, {}};
const Oracle unstable{Stability::unstable, {}};

// Belytschko: central difference with the dashpot lagged (or at the half step):
// Omega = 2 (sqrt(1 + zeta²) - zeta). For a 2x2 amplification matrix with trace T and determinant D
// the boundary through -1 is 1 + T + D = 0; for symplectic Euler, leapfrog, velocity Verlet with
// v½ dashpots and position Verlet with v_n dashpots this is 4 - 4 zeta Omega - Omega² = 0.
double belytschko(double zeta) { return 2.0 * (std::sqrt(1.0 + zeta * zeta) - zeta); }

// Newmark (Hughes, The Finite Element Method, 1987, eq. 9.1.30), dashpot at v_{n+1}:
// Omega = [zeta (gamma - ½) + sqrt(gamma/2 - beta + zeta² (gamma - ½)²)] / (gamma/2 - beta).
double newmark_limit(double beta, double gamma, double zeta) {
  const double g = gamma - 0.5, d = 0.5 * gamma - beta;
  return (zeta * g + std::sqrt(d + zeta * zeta * g * g)) / d;
}

// Classical RK4 on x'' + 2 zeta x' + x = 0: eigenvalues mu = -zeta ± i sqrt(1 - zeta²); the limit is
// the first Omega with |R(Omega mu)| = 1, R(z) = 1 + z + z²/2 + z³/6 + z⁴/24. Found here by an
// independent scan and bisection on |R| (no integrator code involved).
double rk4_limit(double zeta) {
  const std::complex<double> mu(-zeta, std::sqrt(1.0 - zeta * zeta));
  auto g = [&](double W) {
    const std::complex<double> z = W * mu;
    return std::abs(1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0) - 1.0;
  };
  double lo = 0.5, hi = 0.5;
  while (g(hi) <= 0.0) {
    lo = hi;
    hi += 0.01;
  }
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (g(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// Gear on x'' + 2 zeta x' + x = 0 from the textbook formulas (Allen & Tildesley App. E): with the
// scaled Nordsieck vector r, predict r <- P r (Pascal matrix), then
// Delta = (h²/2) a - r_2 = -(Omega²/2) r_0 - zeta Omega r_1 - r_2, and r <- r + c Delta. So
// A = (I + c gᵀ) P with g = (-Omega²/2, -zeta Omega, -1, 0, ...).
Matrix gear_textbook_matrix(const std::vector<double>& c, double Omega, double zeta) {
  const Index q = static_cast<Index>(c.size());
  Matrix P = Matrix::Zero(q, q);
  for (Index j = 0; j < q; ++j) {
    double b = 1.0;  // C(j, i), i = 0..j
    for (Index i = 0; i <= j; ++i) {
      P(i, j) = b;
      b = b * static_cast<double>(j - i) / static_cast<double>(i + 1);
    }
  }
  Vector g = Vector::Zero(q), cv(q);
  g[0] = -0.5 * Omega * Omega;
  g[1] = -zeta * Omega;
  g[2] = -1.0;
  for (Index i = 0; i < q; ++i) cv[i] = c[static_cast<std::size_t>(i)];
  return (Matrix::Identity(q, q) + cv * g.transpose()) * P;
}

double textbook_gear_limit(const std::vector<double>& c, double zeta) {
  auto rho = [&](double W) { return spectral_radius(gear_textbook_matrix(c, W, zeta)); };
  double lo = 0.05, hi = 0.05;
  while (rho(hi) <= 1.0 + 1e-12) {
    lo = hi;
    hi += 0.01;
  }
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (rho(mid) > 1.0 + 1e-12 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

const std::vector<double> gear4_c = {1.0 / 6.0, 5.0 / 6.0, 1.0, 1.0 / 3.0};
const std::vector<double> gear5_c = {19.0 / 120.0, 0.75, 1.0, 0.5, 1.0 / 12.0};

// The oracle for every registry row on the scalar oscillator, zeta = 0 and zeta > 0.
struct RowOracle {
  Oracle undamped, damped;
};

const std::map<std::string, RowOracle>& oracles() {
  static const std::map<std::string, RowOracle> table = {
      // x+ = x + h v, v+ = v + h a: rho² = 1 - 2 zeta Omega + Omega²: unstable undamped, Omega = 2 zeta damped
      {"explicit_euler", {unstable, conditional([](double z) { return 2.0 * z; })}},
      {"symplectic_euler", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"velocity_verlet", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"leapfrog", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"position_verlet", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"rigid_small", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"variational_1", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      {"variational", {conditional([](double) { return 2.0; }), conditional(belytschko)}},
      // dashpot at v_{n+1}: the limit stays 2 (Newmark beta = 0, gamma = ½ in Hughes' formula)
      {"velocity_verlet_implicit_damping", {conditional([](double) { return 2.0; }), conditional([](double) { return 2.0; })}},
      {"central_difference", {conditional([](double) { return 2.0; }), conditional([](double z) { return newmark_limit(0, 0.5, z); })}},
      {"rk4", {conditional([](double) { return 2.0 * sqrt2; }), conditional(rk4_limit)}},
      // gear4 undamped: det(-I - A) = 0 at Omega² = 2 (characteristic polynomial
      // 12 l⁴ - 24 l³ + 12 l² + Omega² (14 l³ - 5 l² + 4 l - 1) at l = -1 is 48 - 24 Omega²)
      {"gear4", {conditional([](double) { return sqrt2; }), conditional([](double z) { return textbook_gear_limit(gear4_c, z); })}},
      // gear5 undamped: rho - 1 = Omega⁶/27 + ... > 0 at every Omega (weakly unstable)
      {"gear5", {unstable, conditional([](double z) { return textbook_gear_limit(gear5_c, z); })}},
      {"newmark", {unconditional, unconditional}},
      {"newmark_average", {unconditional, unconditional}},
      {"newmark_linear", {conditional([](double) { return 2.0 * sqrt3; }), conditional([](double z) { return newmark_limit(1.0 / 6.0, 0.5, z); })}},
      {"hht", {unconditional, unconditional}},
      {"generalized_alpha", {unconditional, unconditional}},
      {"gs4_u0", {unconditional, unconditional}},
      {"gs4_v0", {unconditional, unconditional}},
      // midpoint (alpha = ½) with dashpots at p_n/M: T = -2(Omega² + 4 zeta Omega - 4)/(Omega² + 4),
      // D = (Omega² - 8 zeta Omega + 4)/(Omega² + 4), 1 + T + D = 16 (1 - zeta Omega)/(Omega² + 4):
      // unconditionally stable undamped, Omega = 1/zeta damped.
      {"variational_2", {unconditional, conditional([](double z) { return 1.0 / z; })}},
  };
  return table;
}

void check_against(const std::string& spec, const Oracle& oracle, double zeta, double tol) {
  auto sys = scalar_oscillator(1.0, zeta);
  const CriticalStep c = critical_step(spec, sys, 1.0);
  INFO(spec << " zeta = " << zeta << ": " << to_string(c.stability) << " h_crit omega = " << c.h_crit);
  REQUIRE(c.stability == oracle.stability);
  if (oracle.stability == Stability::conditional) CHECK_THAT(c.h_crit, WithinRel(oracle.omega(zeta), tol));
  else CHECK(std::isnan(c.h_crit));
}

}  // namespace

TEST_CASE("amplification matrix of explicit Euler is the textbook matrix, load or not", "[stability]") {
  const double zeta = 0.2, h = 0.3;
  auto sys = scalar_oscillator(1.0, zeta);
  auto euler = make_integrator("explicit_euler");
  Matrix expected(2, 2);
  expected << 1.0, h, -h, 1.0 - 2.0 * zeta * h;
  CHECK((amplification_matrix(*euler, sys, h) - expected).norm() < 1e-15);
  sys.set_load(Vector::Constant(1, 3.0));  // affine: the load response is subtracted
  CHECK((amplification_matrix(*euler, sys, h) - expected).norm() < 1e-15);
  CHECK_THAT(spectral_radius(expected), WithinRel(std::sqrt(1.0 - 2.0 * zeta * h + h * h), 1e-14));
}

namespace {
// A spring with a "traditional" history spring: xi_trial = xi + dt v, f = -k x - c v - kt xi_trial.
class HistorySpring final : public MechanicalSystem {
 public:
  HistorySpring(double k, double c, double kt, double dt) : k_(k), c_(c), kt_(kt), dt_(dt) {}
  Index dofs() const override { return 1; }
  const Vector& mass() const override { return mass_; }
  void force(double, const Vector& x, const Vector& v, Vector& f) override {
    trial_ = xi_ + dt_ * v[0];
    f = Vector::Constant(1, -k_ * x[0] - c_ * v[0] - kt_ * trial_);
  }
  void tangent(double, const Vector&, const Vector&, SparseMatrix& K, SparseMatrix& C) override {
    K = Matrix::Constant(1, 1, k_).sparseView();
    C = Matrix::Constant(1, 1, c_ + kt_ * dt_).sparseView();
  }
  void accept_step() override { xi_ = trial_; }
  Vector history() const override { return Vector::Constant(1, xi_); }
  void set_history(const Vector& h) override { xi_ = h[0]; }

 private:
  double k_, c_, kt_, dt_, xi_ = 0.0, trial_ = 0.0;
  Vector mass_ = Vector::Ones(1);
};
}  // namespace

TEST_CASE("amplification matrix includes the system's history", "[stability]") {
  // velocity Verlet (LAMMPS): the force at x+ sees v½ = v + (h/2) a, so xi+ = xi + dt (v + (h/2) a),
  // a+ = -k x+ - c v½ - kt xi+, v+ = v½ + (h/2) a+.
  const double k = 2.0, c = 0.1, kt = 0.5, h = 0.2;
  HistorySpring sys(k, c, kt, h);
  auto vv = make_integrator("velocity_verlet");
  const Matrix A = amplification_matrix(*vv, sys, h);
  REQUIRE(A.rows() == 4);  // x, v, a, xi
  CHECK_THAT(A(3, 0), WithinAbs(0.0, 1e-15));
  CHECK_THAT(A(3, 1), WithinRel(h, 1e-14));
  CHECK_THAT(A(3, 2), WithinRel(h * h / 2, 1e-14));
  CHECK_THAT(A(3, 3), WithinRel(1.0, 1e-15));
  CHECK_THAT(A(2, 3), WithinRel(-kt, 1e-14));          // d a+ / d xi
  CHECK_THAT(A(1, 3), WithinRel(-0.5 * h * kt, 1e-14)); // d v+ / d xi
  CHECK_THAT(A(0, 3), WithinAbs(0.0, 1e-15));
}

TEST_CASE("predicted limits reproduce the closed forms for every registry row", "[stability]") {
  const auto& table = oracles();
  for (const auto& row : integrator_registry()) {
    INFO(row.name);
    REQUIRE(table.count(row.name) == 1);  // a new row needs its oracle here
    const RowOracle& o = table.at(row.name);
    check_against(row.name, o.undamped, 0.0, 1e-12);
    for (double zeta : {0.05, 0.1, 0.3}) check_against(row.name, o.damped, zeta, 1e-11);
  }
}

TEST_CASE("Newmark family limits follow Hughes' formula", "[stability]") {
  for (auto [beta, gamma] : {std::pair{0.0, 0.5}, {0.1, 0.6}, {0.05, 0.7}, {1.0 / 12.0, 0.5}}) {
    const std::string spec = fmt::format("newmark:beta={},gamma={}", beta, gamma);
    for (double zeta : {0.0, 0.1, 0.4}) {
      auto sys = scalar_oscillator(1.0, zeta);
      const CriticalStep c = critical_step(spec, sys, 1.0);
      INFO(spec << " zeta = " << zeta);
      REQUIRE(c.stability == Stability::conditional);
      CHECK_THAT(c.h_crit, WithinRel(newmark_limit(beta, gamma, zeta), 1e-11));
    }
  }
  // 2 beta >= gamma >= ½: unconditionally stable
  auto sys = scalar_oscillator(1.0, 0.1);
  CHECK(critical_step("newmark:beta=0.3025,gamma=0.6", sys, 1.0).stability == Stability::unconditional);
}

TEST_CASE("Gear amplification matrices are the textbook ones", "[stability]") {
  for (double zeta : {0.0, 0.2})
    for (double Omega : {0.01, 0.3, 1.1}) {
      auto sys = scalar_oscillator(1.0, zeta);
      for (auto [spec, c] : {std::pair{"gear4", gear4_c}, {"gear5", gear5_c}}) {
        auto gear = make_integrator(spec);
        const Matrix A = amplification_matrix(*gear, sys, Omega);
        INFO(spec << " Omega = " << Omega << " zeta = " << zeta);
        CHECK((A - gear_textbook_matrix(c, Omega, zeta)).norm() < 1e-13 * (1.0 + A.norm()));
      }
    }
  // gear5, undamped: weak instability rho - 1 ~ Omega⁶/27 (textbook matrix)
  for (double Omega : {0.05, 0.1}) {
    const double excess = spectral_radius(gear_textbook_matrix(gear5_c, Omega, 0.0)) - 1.0;
    CHECK_THAT(excess, WithinRel(std::pow(Omega, 6) / 27.0, 0.02));
  }
}

TEST_CASE("each -1 line is its scheme's damped scalar limit, and no root leaves the circle elsewhere", "[stability]") {
  // The packing analysis takes a damped limit from a row's -1 line (registry.hpp MinusOneLine) on two
  // premises about the scalar oscillator x'' + c x' + k x = 0, h = 1 (x = c, y = k): its limit is
  // where 4 - d x - s y reaches 0, and its one-step map stays in the unit circle on the origin's side
  // of that line. Both are measured here on the integrators' own amplification matrices.
  std::vector<std::string> specs{"velocity_verlet", "leapfrog", "central_difference", "gear4", "newmark_average",
                                 "newmark_linear", "newmark:beta=0.1,gamma=0.6", "newmark:beta=0.3,gamma=0.55",
                                 "newmark:beta=0.05,gamma=0.5", "hht", "hht:alpha=-0.3333333333", "hht:alpha=0",
                                 "generalized_alpha", "generalized_alpha:rho_inf=0", "generalized_alpha:rho_inf=0.5",
                                 "generalized_alpha:rho_inf=0.99", "gs4_u0", "gs4_v0",
                                 "gs4_u0:rho=0,rho_s=0,rho_ss=0", "gs4_u0:rho=0.9,rho_s=0.2,rho_ss=0.7",
                                 "gs4_u0:rho=1,rho_s=1,rho_ss=0.5", "gs4_v0:rho=0,rho_s=0,rho_ss=0",
                                 "gs4_v0:rho=0.9,rho_s=0.2,rho_ss=0.7", "gs4_v0:rho=1,rho_s=0.5,rho_ss=0",
                                 "variational_2", "variational:alpha=0.3", "variational:alpha=0.8"};
  std::size_t with_line = 0;
  for (const auto& spec : default_integrator_specs())
    if (damped_minus_one_line(spec)) ++with_line;
  // The six backward- and two central-difference rows, gear4, newmark_average, newmark_linear, hht,
  // generalized_alpha, gs4_u0, gs4_v0 and variational_2 (gear5 has none: its undamped scalar is
  // unstable, and damped its roots leave the circle off -1; nor generalised-alpha at rho_inf = 1 and
  // GS4 at rho = rho_s = rho_ss = 1, whose spurious roots sit at -1).
  CHECK(with_line == 16);
  CHECK_FALSE(damped_minus_one_line("gear5"));
  CHECK_FALSE(damped_minus_one_line("generalized_alpha:rho_inf=1"));
  CHECK_FALSE(damped_minus_one_line("gs4_u0:rho=1,rho_s=1,rho_ss=1"));
  for (const auto& spec : specs) {
    const auto line = damped_minus_one_line(spec);
    REQUIRE(line);
    const double d = line->dashpot, s = line->stiffness;
    CAPTURE(spec, d, s);
    // 1. The limit at each damping ratio: the positive root of 4 - d 2 zeta W - s W^2 = 0.
    for (double zeta : {0.0, 0.01, 0.1, 0.3, 0.7, 1.0, 2.0, 10.0}) {
      CAPTURE(zeta);
      LinearSystem sys = scalar_oscillator(1.0, zeta);
      const CriticalStep c = critical_step(spec, sys, 1.0);
      const double root = s > 0.0 ? (std::sqrt(d * d * zeta * zeta + 4.0 * s) - d * zeta) / s
                          : d > 0.0 && zeta > 0.0 ? 2.0 / (d * zeta)
                                                  : std::numeric_limits<double>::infinity();
      if (std::isfinite(root)) {
        REQUIRE(c.stability == Stability::conditional);
        CHECK_THAT(c.h_crit, WithinRel(root, 1e-9));
      } else {
        CHECK(c.stability == Stability::unconditional);
      }
    }
    // 2. No root outside the unit circle on the stable side of the line, over a grid of (c, k) up to
    //    far beyond the line; just beyond the line, one outside.
    auto integ = make_integrator(spec);
    for (double x : {0.0, 1e-3, 0.05, 0.3, 1.0, 3.0, 10.0, 100.0, 1e4})
      for (double y : {1e-4, 0.01, 0.2, 0.9, 1.9, 3.9, 12.0, 50.0, 1e3, 1e6}) {
        const double side = 4.0 - d * x - s * y;
        if (std::abs(side) < 1e-3) continue;
        const double k = y, c = x;
        LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, k), Matrix::Constant(1, 1, c));
        const double rho = spectral_radius(amplification_matrix(*integ, sys, 1.0));
        CAPTURE(x, y, side, rho);
        if (side > 0.0) CHECK(rho <= 1.0 + 1e-9);
        else CHECK(rho > 1.0);
      }
    // 3. The line itself, also where it lies outside the quadrant (negative c or k): -1 is an
    //    eigenvalue of the one-step map at its points.
    std::vector<std::pair<double, double>> on_line;
    if (s != 0.0) on_line.emplace_back(0.0, 4.0 / s);
    if (d != 0.0) on_line.emplace_back(4.0 / d, 0.0);
    if (s != 0.0 && d != 0.0) on_line.emplace_back(1.0 / d, 3.0 / s);
    if (s == 0.0 && d != 0.0) on_line.emplace_back(4.0 / d, 2.0);
    if (s == 0.0 && d == 0.0) on_line.emplace_back(1.0, 1.0);  // 4 = 0 nowhere: no root at -1
    for (const auto& [x, y] : on_line) {
      LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, y), Matrix::Constant(1, 1, x));
      const Eigen::VectorXcd roots = *linalg::general_eigenvalues(amplification_matrix(*integ, sys, 1.0));
      const double miss = (roots.array() + 1.0).abs().minCoeff();
      CAPTURE(x, y, miss);
      if (s == 0.0 && d == 0.0) CHECK(miss > 1e-3);
      else CHECK(miss < 1e-6);
    }
  }
}

TEST_CASE("gear4's boundary locus: its damped roots leave the unit circle only through -1", "[stability]") {
  // Premise (2) of gear4's -1 line, beyond a grid: its characteristic polynomial is affine in
  // x = hc/m and y = h^2 k/m, p(l) = a(l) + x b(l) + y c(l) (its forces enter once per step), so a
  // root e^{i theta}, 0 < theta < pi, needs the one real solution (x, y) of a + x b + y c = 0: the
  // boundary locus. No point of it lies in x > 0, y >= 0, so damped roots cross only at -1 (theta =
  // pi), where the equation is the line itself. The polynomials are read off the integrator's own
  // amplification matrices.
  auto integ = make_integrator("gear4");
  auto poly = [&](double x, double y) {  // the monic characteristic polynomial, highest power first
    LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, y), Matrix::Constant(1, 1, x));
    const Eigen::VectorXcd roots = *linalg::general_eigenvalues(amplification_matrix(*integ, sys, 1.0));
    std::vector<std::complex<double>> c{1.0};
    for (const auto r : roots) {
      c.push_back(0.0);
      for (std::size_t k = c.size() - 1; k > 0; --k) c[k] -= r * c[k - 1];
    }
    std::vector<double> out;
    for (const auto z : c) out.push_back(z.real());
    return out;
  };
  const auto p00 = poly(0, 0), p10 = poly(1, 0), p01 = poly(0, 1);
  REQUIRE(p00.size() == 5);
  std::vector<double> a = p00, b(5), c(5);
  for (std::size_t k = 0; k < 5; ++k) b[k] = p10[k] - p00[k], c[k] = p01[k] - p00[k];
  for (auto [x, y] : {std::pair{0.3, 0.7}, {2.5, 1.2}, {7.0, 3.0}}) {  // affine
    const auto p = poly(x, y);
    for (std::size_t k = 0; k < 5; ++k) CHECK_THAT(p[k], WithinAbs(a[k] + x * b[k] + y * c[k], 1e-12 * (1 + x + y)));
  }
  auto at = [](const std::vector<double>& q, std::complex<double> l) {
    std::complex<double> v = 0.0;
    for (double coefficient : q) v = v * l + coefficient;
    return v;
  };
  // The line at -1: 4 - 22/3 x - 2 y (the registry's MinusOneLine).
  CHECK_THAT(at(a, -1.0).real(), WithinRel(4.0, 1e-12));
  CHECK_THAT(at(b, -1.0).real(), WithinRel(-22.0 / 3.0, 1e-12));
  CHECK_THAT(at(c, -1.0).real(), WithinRel(-2.0, 1e-12));
  int in_quadrant = 0;
  double largest_x = 0.0;
  const int n = 200000;
  for (int i = 1; i < n; ++i) {
    const double theta = M_PI * i / n;
    const std::complex<double> l = std::polar(1.0, theta), A = at(a, l), B = at(b, l), C = at(c, l);
    const double det = B.real() * C.imag() - C.real() * B.imag();
    if (det == 0.0) continue;
    const double x = (-A.real() * C.imag() + C.real() * A.imag()) / det;
    const double y = (-B.real() * A.imag() + A.real() * B.imag()) / det;
    if (y >= 0.0 && x > 1e-9) ++in_quadrant;
    if (y >= 0.0) largest_x = std::max(largest_x, x);
  }
  CAPTURE(largest_x);
  CHECK(in_quadrant == 0);
}

TEST_CASE("gear5's boundary locus: off -1 only where y / x >= 101.65", "[stability]") {
  // The premise of gear5's LocusLimitedLine (registry.hpp), read off its own amplification matrices as
  // for gear4 above: p(l) = a(l) + x b(l) + y c(l) is affine in x = hc/m and y = h^2 k/m, -p(-1) is the
  // line 4 - 40/3 x - 49/15 y, and the locus (x, y) with a root e^{i theta}, 0 < theta < pi, has points
  // with x, y > 0 (the undamped scalar is unstable), none with x > 0 >= y, and all of them with
  // y / x >= the registry's locus_ratio, which lies within 1e-4 below the least one.
  auto integ = make_integrator("gear5");
  auto poly = [&](double x, double y) {
    LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, y), Matrix::Constant(1, 1, x));
    const Eigen::VectorXcd roots = *linalg::general_eigenvalues(amplification_matrix(*integ, sys, 1.0));
    std::vector<std::complex<double>> c{1.0};
    for (const auto r : roots) {
      c.push_back(0.0);
      for (std::size_t k = c.size() - 1; k > 0; --k) c[k] -= r * c[k - 1];
    }
    std::vector<double> out;
    for (const auto z : c) out.push_back(z.real());
    return out;
  };
  const auto p00 = poly(0, 0), p10 = poly(1, 0), p01 = poly(0, 1);
  REQUIRE(p00.size() == 6);
  std::vector<double> a = p00, b(6), c(6);
  for (std::size_t k = 0; k < 6; ++k) b[k] = p10[k] - p00[k], c[k] = p01[k] - p00[k];
  for (auto [x, y] : {std::pair{0.3, 0.7}, {2.5, 1.2}, {7.0, 3.0}}) {  // affine
    const auto p = poly(x, y);
    for (std::size_t k = 0; k < 6; ++k) CHECK_THAT(p[k], WithinAbs(a[k] + x * b[k] + y * c[k], 1e-12 * (1 + x + y)));
  }
  auto at = [](const std::vector<double>& q, std::complex<double> l) {
    std::complex<double> v = 0.0;
    for (double coefficient : q) v = v * l + coefficient;
    return v;
  };
  const auto& limited = integrator_info("gear5").locus_limited_line;
  REQUIRE(limited);
  CHECK_FALSE(integrator_info("gear5").minus_one_line);
  CHECK_THAT(-at(a, -1.0).real(), WithinRel(4.0, 1e-12));
  CHECK_THAT(at(b, -1.0).real(), WithinRel(limited->line.dashpot, 1e-12));
  CHECK_THAT(at(c, -1.0).real(), WithinRel(limited->line.stiffness, 1e-12));
  CHECK_THAT(limited->line.dashpot, WithinRel(40.0 / 3.0, 1e-15));
  CHECK_THAT(limited->line.stiffness, WithinRel(49.0 / 15.0, 1e-15));
  int singular = 0;  // a theta whose 2 x 2 system has no single solution (a line of roots on the circle)
  auto locus = [&](double theta) {
    const std::complex<double> l = std::polar(1.0, theta), A = at(a, l), B = at(b, l), C = at(c, l);
    const double det = B.real() * C.imag() - C.real() * B.imag();
    if (det == 0.0) ++singular;
    return std::pair{(-A.real() * C.imag() + C.real() * A.imag()) / det, (-B.real() * A.imag() + A.real() * B.imag()) / det};
  };
  int in_quadrant = 0, below_axis = 0;
  double least = std::numeric_limits<double>::infinity(), at_theta = 0.0;
  const int n = 400000;
  for (int i = 1; i < n; ++i) {
    const double theta = M_PI * i / n;
    const auto [x, y] = locus(theta);
    if (x > 0.0 && y <= 0.0) ++below_axis;
    if (x > 0.0 && y > 0.0) {
      ++in_quadrant;
      if (y / x < least) least = y / x, at_theta = theta;
    }
  }
  // The least ratio, refined by golden sections around the grid's.
  double lo = at_theta - M_PI / n, hi = at_theta + M_PI / n;
  auto ratio = [&](double theta) {
    const auto [x, y] = locus(theta);
    return y / x;
  };
  for (int it = 0; it < 100; ++it) {
    const double m1 = hi - 0.618033988749895 * (hi - lo), m2 = lo + 0.618033988749895 * (hi - lo);
    if (ratio(m1) < ratio(m2)) hi = m2;
    else lo = m1;
  }
  least = std::min(least, ratio(0.5 * (lo + hi)));
  CAPTURE(least, at_theta);
  CHECK(singular == 0);
  CHECK(in_quadrant > 0);
  CHECK(below_axis == 0);
  CHECK(limited->locus_ratio <= least);
  CHECK(limited->locus_ratio > least * (1.0 - 1e-4));
  // The region the line's premise leaves (x > 0, y >= 0, y / x < locus_ratio, inside the line) holds
  // no locus point, so one stability for all of it: the scheme's own map is stable at points of it,
  // and grows at points of the sliver near the y axis (y / x above the least ratio, inside the
  // locus) and beyond the line.
  auto radius = [&](double x, double y) {
    LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, y), Matrix::Constant(1, 1, x));
    return spectral_radius(amplification_matrix(*integ, sys, 1.0));
  };
  for (auto [x, y] : {std::pair{0.2, 0.1}, {0.05, 0.5}, {0.02, 1.0}, {0.1, 0.8}, {0.01, 1e-3}, {0.25, 0.0}})
    CHECK(radius(x, y) < 1.0 + 1e-12);
  CHECK(radius(0.001, 0.5) > 1.0);  // y / x = 500, inside the sliver
  CHECK(radius(0.2, 0.5) > 1.0);    // 4 - 40/3 x - 49/15 y < 0
}

TEST_CASE("limits scale with omega_max and ignore rigid-body modes", "[stability]") {
  // physical units: m = 2 g, k = 5e6 N/m, omega = 5e4 1/s
  const double m = 2e-3, k = 5e6, omega = std::sqrt(k / m);
  LinearSystem stiff(Vector::Constant(1, m), Matrix::Constant(1, 1, k), Matrix::Zero(1, 1));
  for (const char* spec : {"velocity_verlet", "central_difference", "rk4", "gear4"}) {
    const CriticalStep c = critical_step(spec, stiff, omega);
    INFO(spec);
    const double expected = std::string(spec) == "rk4" ? 2 * sqrt2 : std::string(spec) == "gear4" ? sqrt2 : 2.0;
    CHECK_THAT(c.h_crit * omega, WithinRel(expected, 1e-12));
  }
  // two free masses joined by a spring: a rigid-body mode (Jordan block at +1) and omega² = k (1/m1 + 1/m2)
  const double m1 = 1.0, m2 = 3.0, kk = 4.0;
  Matrix K(2, 2);
  K << kk, -kk, -kk, kk;
  LinearSystem free_pair((Vector(2) << m1, m2).finished(), K, Matrix::Zero(2, 2));
  const double w = std::sqrt(kk * (1 / m1 + 1 / m2));
  CHECK_THAT(dtcrit::test::omega_max_of(free_pair), WithinRel(w, 1e-14));
  for (const char* spec : {"velocity_verlet", "leapfrog", "central_difference", "gear4"}) {
    const CriticalStep c = critical_step(spec, free_pair, w);
    INFO(spec);
    REQUIRE(c.stability == Stability::conditional);
    CHECK_THAT(c.h_crit * w, WithinRel(std::string(spec) == "gear4" ? sqrt2 : 2.0, 1e-12));
  }
  CHECK(critical_step("newmark_average", free_pair, w).stability == Stability::unconditional);
}

TEST_CASE("GS4 U0(1,1,0) is Newmark average acceleration, U0(rho,rho,rho) generalised-alpha", "[stability]") {
  auto sys = dtcrit::test::coupled_two_dof(2.0);
  for (double h : {0.01, 0.7, 5.0, 300.0}) {
    auto u0 = make_integrator("gs4_u0:rho=1,rho_s=1,rho_ss=0"), nm = make_integrator("newmark_average");
    const Matrix A = amplification_matrix(*u0, sys, h), B = amplification_matrix(*nm, sys, h);
    CHECK((A - B).norm() <= 1e-14 * B.norm());
    for (double rho : {0.0, 0.3, 0.8, 1.0}) {
      auto g = make_integrator(fmt::format("gs4_u0:rho={0},rho_s={0},rho_ss={0}", rho));
      auto ga = make_integrator(fmt::format("generalized_alpha:rho_inf={}", rho));
      const Matrix G = amplification_matrix(*g, sys, h), H = amplification_matrix(*ga, sys, h);
      INFO("h = " << h << " rho = " << rho << ": |G - H| = " << (G - H).norm() << ", |H| = " << H.norm());
      // the coefficient formulas are algebraically equal; their rounding is amplified at large h
      CHECK((G - H).norm() <= 1e-12 * H.norm());
      // ... and at the coefficient level they agree to round-off
      const GS4Coefficients cu = gs4_u0_coefficients(rho, rho, rho), cg = generalized_alpha_coefficients(rho);
      for (auto [a, b] : {std::pair{cu.L1W1, cg.L1W1}, {cu.L2W2, cg.L2W2}, {cu.L3W3, cg.L3W3}, {cu.L4W1, cg.L4W1},
                          {cu.L5W2, cg.L5W2}, {cu.L6W1, cg.L6W1}, {cu.W1, cg.W1}, {cu.l1, cg.l1}, {cu.l2, cg.l2},
                          {cu.l3, cg.l3}, {cu.l4, cg.l4}, {cu.l5, cg.l5}})
        CHECK_THAT(a, WithinAbs(b, 1e-15));
    }
  }
  // Newmark average acceleration, undamped: lambda = (1 - Omega²/4 ± i Omega)/(1 + Omega²/4), and 0
  auto osc = scalar_oscillator(1.0, 0.0);
  for (double Omega : {0.3, 2.0, 40.0}) {
    auto u0 = make_integrator("gs4_u0:rho=1,rho_s=1,rho_ss=0");
    const Eigen::VectorXcd roots = linalg::eigen_solver(amplification_matrix(*u0, osc, Omega), true).values;
    const std::complex<double> expected((1 - Omega * Omega / 4) / (1 + Omega * Omega / 4), Omega / (1 + Omega * Omega / 4));
    double best = 1.0, smallest = 1.0;
    for (Index i = 0; i < 3; ++i) {
      const auto l = roots[i];
      best = std::min({best, std::abs(l - expected), std::abs(l - std::conj(expected))});
      smallest = std::min(smallest, std::abs(l));
    }
    CHECK(best < 1e-13);
    CHECK(smallest < 1e-13);
  }
}

TEST_CASE("GS4 roots at h -> infinity are -rho, -rho_s, -rho_ss", "[stability]") {
  // Compared through the characteristic polynomial (lambda + rho)(lambda + rho_s)(lambda + rho_ss),
  // i.e. trace, sum of principal 2x2 minors and determinant, which stay well conditioned at
  // multiple roots. A(h) -> A_inf with an O(1/Omega²) error.
  auto osc = scalar_oscillator(1.0, 0.0);
  for (const char* family : {"gs4_u0", "gs4_v0"})
    for (auto [r, rs, rss] : {std::tuple{0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.9, 0.4, 0.2}, {1.0, 1.0, 1.0},
                              {0.2, 0.6, 0.9}, {1.0, 0.0, 0.5}}) {
      const std::string spec = fmt::format("{}:rho={},rho_s={},rho_ss={}", family, r, rs, rss);
      auto integrator = make_integrator(spec);
      const Matrix A = amplification_matrix(*integrator, osc, 1e6);
      const double minors = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0) + A(0, 0) * A(2, 2) - A(0, 2) * A(2, 0) +
                            A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1);
      INFO(spec);
      CHECK_THAT(A.trace(), WithinAbs(-(r + rs + rss), 1e-9));
      CHECK_THAT(minors, WithinAbs(r * rs + r * rss + rs * rss, 1e-9));
      CHECK_THAT(A.determinant(), WithinAbs(-r * rs * rss, 1e-9));
    }
  // The design property of HHT and generalised-alpha: spectral radius rho_inf at h -> infinity,
  // reached by a double (HHT) or triple (generalised-alpha) root. Checked on the characteristic
  // polynomial p(l) = l³ - t l² + m l - d: p(-rho_inf) = p'(-rho_inf) = 0, and the remaining root
  // d / rho_inf² no larger in modulus.
  auto check_double_root = [&](const std::string& spec, double rho_inf) {
    auto integrator = make_integrator(spec);
    const Matrix A = amplification_matrix(*integrator, osc, 1e6);
    const double t = A.trace(), d = A.determinant();
    const double m = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0) + A(0, 0) * A(2, 2) - A(0, 2) * A(2, 0) +
                     A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1);
    const double l = -rho_inf;
    INFO(spec);
    CHECK_THAT(l * l * l - t * l * l + m * l - d, WithinAbs(0.0, 1e-9));
    CHECK_THAT(3 * l * l - 2 * t * l + m, WithinAbs(0.0, 1e-9));
    if (rho_inf > 0) CHECK(std::abs(d) / (rho_inf * rho_inf) <= rho_inf + 1e-9);
  };
  for (double alpha : {-1.0 / 3.0, -0.2, -0.1, 0.0}) check_double_root(fmt::format("hht:alpha={}", alpha), (1 + alpha) / (1 - alpha));
  for (double rho : {0.0, 0.5, 0.8, 1.0}) check_double_root(fmt::format("generalized_alpha:rho_inf={}", rho), rho);
}

TEST_CASE("GS4 families are unconditionally stable over their parameter cube", "[stability]") {
  for (const char* family : {"gs4_u0", "gs4_v0"})
    for (double r : {0.0, 0.5, 1.0})
      for (double rs : {0.0, 0.5, 1.0})
        for (double rss : {0.0, 0.5, 1.0})
          for (double zeta : {0.0, 0.2}) {
            const std::string spec = fmt::format("{}:rho={},rho_s={},rho_ss={}", family, r, rs, rss);
            auto sys = scalar_oscillator(1.0, zeta);
            INFO(spec << " zeta = " << zeta);
            CHECK(critical_step(spec, sys, 1.0).stability == Stability::unconditional);
          }
}

TEST_CASE("central difference and LAMMPS velocity Verlet are members of the GS4 form", "[stability]") {
  // Central difference: Lambda = (1, ½, 0, 1, ½, 1), lambda = (1, ½, 0, 1, ½), W1 = 1;
  // velocity Verlet Lambda = (1, ½, 0, ½, 0, 1), lambda = (1, ½, 0, 1, ½) (dashpots on v + ½ h a).
  const GS4Coefficients cd{"cd by hand", 1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 0.5};
  const GS4Coefficients vv{"vv by hand", 1.0, 0.5, 0.0, 0.5, 0.0, 1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 0.5};
  auto sys = dtcrit::test::coupled_two_dof(3.0);
  for (double h : {0.05, 0.5, 1.2}) {
    GS4Integrator cd_family(cd), vv_family(vv);
    auto cd_row = make_integrator("central_difference"), vv_row = make_integrator("velocity_verlet");
    const Matrix A = amplification_matrix(cd_family, sys, h), B = amplification_matrix(*cd_row, sys, h);
    const Matrix C = amplification_matrix(vv_family, sys, h), D = amplification_matrix(*vv_row, sys, h);
    INFO("h = " << h);
    CHECK((A - B).norm() <= 1e-14 * (1 + B.norm()));
    CHECK((C - D).norm() <= 1e-14 * (1 + D.norm()));
  }
}

TEST_CASE("GS4 V0 coefficients agree with Zhou & Tamma's single-parameter V0 and load weight", "[stability]") {
  for (double r : {0.0, 0.25, 0.5, 0.8, 1.0}) {
    // U1-V0 "optimal" member (all three rho equal), Zhou & Tamma (2004), as transcribed in the
    // GSSSS implementation of Papazafeiropoulos (MATLAB File Exchange 44649):
    const GS4Coefficients c = gs4_v0_coefficients(r, r, r);
    CHECK_THAT(c.L1W1, WithinRel((3 - r) / (2 * (1 + r)), 1e-15));
    CHECK_THAT(c.L4W1, WithinRel((3 - r) / (2 * (1 + r)), 1e-15));
    CHECK_THAT(c.L2W2, WithinRel(1 / ((1 + r) * (1 + r)), 1e-15));
    CHECK_THAT(c.L3W3, WithinRel(1 / std::pow(1 + r, 3), 1e-15));
    CHECK_THAT(c.L5W2, WithinRel(2 / std::pow(1 + r, 3), 1e-15));
    CHECK_THAT(c.L6W1, WithinRel((2 - r) / (1 + r), 1e-14));
    CHECK_THAT(c.l3, WithinRel(1 / (2 * (1 + r)), 1e-15));
    CHECK_THAT(c.l5, WithinRel(1 / (1 + r), 1e-15));
    // U0-V1 "optimal" member = generalised-alpha (same source)
    const GS4Coefficients u = gs4_u0_coefficients(r, r, r);
    CHECK_THAT(u.L3W3, WithinRel(1 / std::pow(1 + r, 3), 1e-15));
    CHECK_THAT(u.L5W2, WithinRel((3 - r) / (2 * (1 + r) * (1 + r)), 1e-15));
    CHECK_THAT(u.L6W1, WithinRel((2 - r) / (1 + r), 1e-14));
  }
  // The V0 load weight W1 from the weighting-function moments (Zhou & Tamma; the same expression
  // in Papazafeiropoulos' GSSSS and in Chang's suanPan GSSSSV0, rho and rho_s the two larger roots)
  // equals Lambda1W1.
  for (double r1 : {0.0, 0.3, 0.7, 1.0})
    for (double r2 : {0.0, 0.5, 1.0}) {
      const double s = r1 + r2, p = r1 * r2;
      const double T0 = 9 - 11 * s + 19 * p, T1 = -30 * (3 - 4 * s + 6 * p), T2 = 7.5 * (25 - 37 * s + 53 * p),
                   T3 = -35 * (3 - 5 * s + 7 * p);
      const double W1 = (T0 / 2 + T1 / 3 + T2 / 4 + T3 / 5) / (T0 + T1 / 2 + T2 / 3 + T3 / 4);
      const GS4Coefficients c = gs4_v0_coefficients(r1, r2, 0.1);
      INFO("rho = " << r1 << " rho_s = " << r2);
      CHECK_THAT(c.W1, WithinRel(W1, 1e-12));
    }
}

TEST_CASE("runs just below the predicted limit stay bounded, just above they grow", "[stability]") {
  struct Case {
    std::string name;
    std::function<LinearSystem()> make;
  };
  const std::vector<Case> cases = {
      {"undamped oscillator", [] { return scalar_oscillator(1.0, 0.0); }},
      {"damped oscillator", [] { return scalar_oscillator(1.0, 0.1); }},
      {"coupled damped 2-DOF", [] { return dtcrit::test::coupled_two_dof(2.0); }},
  };
  for (const auto& row : integrator_registry()) {
    for (const auto& cs : cases) {
      LinearSystem sys = cs.make();
      const double w = dtcrit::test::omega_max_of(sys);
      const CriticalStep c = critical_step(row.name, sys, w);
      if (c.stability != Stability::conditional) continue;
      INFO(row.name << ", " << cs.name << ": h_crit omega = " << c.h_crit * w);
      auto run = [&](double h, int max_steps, double stop_above) {
        auto integrator = make_integrator(row.name);
        const Vector x0 = Vector::Ones(sys.dofs()), v0 = Vector::Constant(sys.dofs(), 0.5);
        integrator->start(sys, 0.0, x0, v0, h);
        const double n0 = integrator->state().norm();
        double peak = 1.0;
        for (int n = 0; n < max_steps; ++n) {
          integrator->step(sys);
          const double r = integrator->state().norm() / n0;
          if (!(r < stop_above)) return r;
          peak = std::max(peak, r);
        }
        return peak;
      };
      // 0.1 % either side; the run is long enough for the growth measured at 1.001 h_crit to
      // reach 1e6 (ln 1e6 / ln rho steps), and the run below is as long.
      auto probe = make_integrator(row.name);
      const double rho = spectral_radius(amplification_matrix(*probe, sys, 1.001 * c.h_crit));
      REQUIRE(rho > 1.0);
      const double needed = std::log(1e6) / std::log(rho);
      INFO("rho(1.001 h_crit) - 1 = " << rho - 1.0 << ", " << needed << " steps");
      REQUIRE(needed <= 2e6);
      const int steps = static_cast<int>(std::max(20000.0, 2.0 * needed));
      CHECK(run(0.999 * c.h_crit, steps, 1e12) < 1e3);
      CHECK(run(1.001 * c.h_crit, steps, 1e6) >= 1e6);
    }
  }
}

TEST_CASE("critical_step validates its input and names the outcome", "[stability]") {
  auto sys = scalar_oscillator(1.0, 0.0);
  CHECK_THROWS_AS(critical_step("velocity_verlet", sys, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(critical_step("velocity_verlet", sys, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(critical_step("no_such_scheme", sys, 1.0), std::invalid_argument);
  CHECK(to_string(Stability::conditional) == "conditionally stable");
  // The labels say what was checked: the scan's Omega range.
  CHECK(to_string(Stability::unconditional) == "stable up to Ω = 1e4");
  CHECK(to_string(Stability::unstable) == "unstable below Ω = 1e-6");
  CHECK(stability_keyword(Stability::unconditional) == "unconditional");  // JSON and CSV
  CHECK(checked_omega_max == 1e4);
  CHECK(checked_omega_min == 1e-6);
  auto vv = make_integrator("velocity_verlet");
  CHECK_THROWS_AS(amplification_matrix(*vv, sys, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(spectral_radius(Matrix::Zero(2, 3)), std::invalid_argument);
}

TEST_CASE("regression: implicit schemes on a stiff system in physical units stay unconditionally stable", "[stability]") {
  // A Newton loop that accepted residuals at 1e-13 of the size of their terms (instead of at
  // round-off) left a real 1e-13 error at tiny h, which critical_step read as instability of
  // variational_2 at h = 1e-6 / omega_max (found through tests/test_pair_analysis.cpp).
  Matrix K(2, 2);
  K << 7.47e10, -2.35e10, -2.35e10, 7.91e10;
  LinearSystem stiff(Vector::Ones(2), K, Matrix::Zero(2, 2));
  const double w = dtcrit::test::omega_max_of(stiff);
  for (const char* spec : {"variational_2", "newmark_average", "hht", "generalized_alpha", "gs4_u0", "gs4_v0"}) {
    INFO(spec);
    CHECK(critical_step(spec, stiff, w).stability == Stability::unconditional);
  }
  // midpoint rule = Cayley transform: the (q,q) and (p,p) blocks of A are equal
  auto var = make_integrator("variational_2");
  const Matrix A = amplification_matrix(*var, stiff, 1e-6 / w);
  CHECK((A.topLeftCorner(2, 2) - A.bottomRightCorner(2, 2)).norm() < 4e-16);
}

TEST_CASE("Runge-Kutta rows: the region of a damped spectrum proven stable on the integrator's own step",
          "[stability][region]") {
  // region_step proves |R| <= 1 on D(t) = {|z| <= t, -a t/2 <= Re z <= 0} and [-a t, 0], where
  // every h s of a system with lambda_max(K~) <= 1 and lambda_max(C~) <= a lies at h = t
  // (eigenvalue_region.hpp). Checked here against the closed forms of RK4's stability intervals and
  // against RK4's own amplification matrix on scalar oscillators filling the box (k, c) in [0, 1] x
  // [0, a], which shares no code with the proof.
  const std::vector<double> rk4 = stability_polynomial(classical_rk4_tableau());
  const std::vector<double> expected{1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0};
  REQUIRE(rk4.size() == expected.size());
  for (std::size_t k = 0; k < rk4.size(); ++k) CHECK_THAT(rk4[k], WithinRel(expected[k], 1e-15));
  CHECK(integrator_info("rk4").stability_polynomial == rk4);
  CHECK(integrator_info("explicit_euler").stability_polynomial == std::vector<double>{1.0, 1.0});
  CHECK(integrator_info("gear5").stability_polynomial.empty());

  // a = 0 (undamped bounds): the imaginary interval of RK4, |R(iy)|^2 = 1 - y^6/72 + y^8/576 <= 1
  // up to y = 2 sqrt 2. a large: the real interval, the negative root of 1 + x/2 + x^2/6 + x^3/24
  // (bisected here).
  const RegionStep undamped = region_step(rk4, 0.0);
  CAPTURE(undamped.method);
  CHECK(undamped.t <= 2.0 * sqrt2);
  CHECK(undamped.t >= 0.998 * 2.0 * sqrt2);
  double lo = -3.0, hi = -2.0;  // 1 + x/2 + x^2/6 + x^3/24 changes sign once on [-3, -2]
  auto cubic = [](double x) { return 1.0 + x / 2.0 + x * x / 6.0 + x * x * x / 24.0; };
  for (int i = 0; i < 100; ++i) ((cubic(0.5 * (lo + hi)) < 0.0) == (cubic(lo) < 0.0) ? lo : hi) = 0.5 * (lo + hi);
  const double real_interval = -lo;
  const RegionStep heavy = region_step(rk4, 1000.0);
  CAPTURE(heavy.method, real_interval);
  CHECK(1000.0 * heavy.t <= real_interval);
  CHECK(1000.0 * heavy.t >= 0.998 * real_interval);

  auto integ = make_integrator("rk4");
  auto radius = [&](double k, double c, double h) {
    LinearSystem sys(Vector::Ones(1), Matrix::Constant(1, 1, k), Matrix::Constant(1, 1, c));
    return spectral_radius(amplification_matrix(*integ, sys, h));
  };
  for (const double a : {0.0, 0.1, 0.5, 2.0, 10.0}) {
    const RegionStep r = region_step(rk4, a);
    CAPTURE(a, r.method);
    REQUIRE(r.t > 0.0);
    CHECK_THAT(r.method, Catch::Matchers::Contains("proven by the maximum modulus principle"));
    // Stable at h = t for every oscillator of the box (a grid with its edges) ...
    double worst = 0.0;
    constexpr int n = 40;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) worst = std::max(worst, radius(double(i) / n, a * double(j) / n, r.t));
    CHECK(worst <= 1.0 + 1e-12);
    // ... and the proof gives away little: at 1.01 t some oscillator of the box grows.
    double beyond = 0.0;
    for (int i = 0; i <= 200; ++i)
      for (int j = 0; j <= 200; ++j) beyond = std::max(beyond, radius(double(i) / 200, a * double(j) / 200, 1.01 * r.t));
    CAPTURE(worst, beyond);
    CHECK(beyond > 1.0);
  }
  // Explicit Euler grows on every undamped oscillator: no region with c down to 0 is stable.
  for (const double a : {0.0, 1.0, 10.0}) {
    const RegionStep r = region_step({1.0, 1.0}, a);
    CAPTURE(a, r.method);
    CHECK(r.t == 0.0);
    CHECK_THAT(r.method, Catch::Matchers::Contains("|R(iy)| > 1 for every small y"));
  }
}
