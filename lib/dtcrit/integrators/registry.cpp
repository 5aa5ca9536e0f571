// The one table of integrators (cf. LAMMPS src/GRANULAR/gran_sub_mod_register.cpp): name,
// parameters with defaults and ranges, description, declared orders, explicit or implicit, and
// the factory. Declared orders are what tests/test_integrators.cpp measures from h sweeps on
// the scalar oscillator, undamped and damped; change a row only together with that evidence.
#include "dtcrit/integrators/registry.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>

#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/suggest.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/integrators/explicit_schemes.hpp"
#include "dtcrit/integrators/gear.hpp"
#include "dtcrit/integrators/gs4.hpp"
#include "dtcrit/integrators/runge_kutta.hpp"
#include "dtcrit/integrators/variational.hpp"

namespace dtcrit {

namespace {

using Values = std::vector<double>;
using Factory = std::function<std::unique_ptr<Integrator>(const Values&)>;
// Adjusts the declared orders / explicitness of a row for non-default parameter values.
using Adjust = std::function<void(const Values&, IntegratorInfo&)>;

struct Row {
  IntegratorInfo info;
  Factory make;              // empty for aliases
  Adjust adjust;             // optional
  std::string alias_of;      // base row of an alias
  Values alias_values;       // the base row's parameter values the alias stands for
};

template <class T, class... Args>
Factory fixed(Args... args) {
  return [=](const Values&) -> std::unique_ptr<Integrator> { return std::make_unique<T>(args...); };
}

Factory gs4_factory(GS4Coefficients (*coefficients)(double, double, double)) {
  return [coefficients](const Values& p) -> std::unique_ptr<Integrator> {
    return std::make_unique<GS4Integrator>(coefficients(p[0], p[1], p[2]));
  };
}

const std::vector<IntegratorParameter> gs4_parameters = {
    {"rho", 0.5, 0.0, 1.0, "spectral radius rho_inf of the principal roots as h -> infinity"},
    {"rho_s", 0.5, 0.0, 1.0, "rho_inf_s, first spurious root as h -> infinity"},
    {"rho_ss", 0.0, 0.0, 1.0, "rho_inf_ss, second spurious root as h -> infinity"},
};

// The -1 line of the generalised-alpha form: inertia at 1 - am, damping and stiffness at 1 - af, Newmark's
// updates (beta, gamma). With X, V, A the amplitudes of x, v, a at root lambda, the updates give
// V = h g A / (lambda - 1) and X = h^2 (g + b (lambda - 1)) A / (lambda - 1)^2, g = 1 - gamma + gamma lambda,
// b = 1/2 - beta + beta lambda, so the characteristic matrix polynomial is
//   m (lambda - 1)^2 M + h f g (lambda - 1) C + h^2 f (g + b (lambda - 1)) K,
// m = (1 - am) lambda + am, f = (1 - af) lambda + af: a linear multistep recursion. At -1,
// divided by 2 am - 1: 4M - d hC - s h^2 K with d = 2 (2 af - 1)(1 - 2 gamma) / (2 am - 1) and
// s = (2 af - 1)(2 gamma - 4 beta) / (2 am - 1). Newmark (am = af = 0): (2 - 4 gamma, 2 gamma - 4 beta);
// for gamma >= 1/2 its scalar oscillator's limit is this line's (Hughes, The Finite Element Method, 1987,
// sec. 9.1: Omega_crit = (zeta (gamma - 1/2) + (gamma/2 - beta + zeta^2 (gamma - 1/2)^2)^1/2) / (gamma/2 -
// beta)). HHT (am = 0, af = -alpha) and Chung-Hulbert's generalised-alpha give d, s <= 0: stable at every
// step when their damped oscillators are (tests/test_stability.cpp measures both premises).
// None when 2 am = 1 (generalised-alpha at rho_inf = 1: a spurious root sits at -1 at every step).
std::optional<MinusOneLine> generalized_alpha_minus_one_line(double am, double af, double beta, double gamma) {
  if (2.0 * am - 1.0 == 0.0) return std::nullopt;
  const double scale = (2.0 * af - 1.0) / (2.0 * am - 1.0);
  return MinusOneLine{2.0 * scale * (1.0 - 2.0 * gamma), scale * (2.0 * gamma - 4.0 * beta)};
}
std::optional<MinusOneLine> newmark_minus_one_line(double beta, double gamma) {
  return generalized_alpha_minus_one_line(0.0, 0.0, beta, gamma);
}
std::optional<MinusOneLine> hht_minus_one_line(double alpha) {
  return generalized_alpha_minus_one_line(0.0, -alpha, 0.25 * (1.0 - alpha) * (1.0 - alpha), 0.5 * (1.0 - 2.0 * alpha));
}
// The -1 lines of the GS4 U0 and V0 families (gs4.cpp's coefficients, r = rho, rs = rho_s, rss = rho_ss).
// Any GS4 member with forces at the weighted state x~ = x + L1 hv + L2 h^2 a + L3 h^2 da, v~ = v + L4 ha
// + L5 h da, a~ = a + L6 da and updates x+ = x + l1 hv + l2 h^2 a + l3 h^2 da, v+ = v + l4 ha + l5 h da
// steps a linear multistep recursion in x (only the force row holds M, C, K; the update rows are
// scalar), and its one-step map has the eigenvalue -1 where G0 + G1 hc + G2 h^2 k = 0 on the scalar
// oscillator: with w2 = l4/4 - l5/2, w1 = -(l3 + l1 w2 - l2/2)/2 (the solution of (-I - B) w = (l3,
// l5, 1), B the update without da), G0 = L6 - 1/2, G1 = L5 + w2 - L4/2, G2 = L3 + w1 + L1 w2 - L2/2.
// (Newmark's (beta, gamma) give (2 - 4 gamma, 2 gamma - 4 beta) again.) With D = (1 + r)(1 + rs)(1 +
// rss) and N = 3 + r + rs + rss - r rs - r rss - rs rss - 3 r rs rss (2D G0 = N; tests/test_stability.cpp
// checks both lines on the integrators' own amplification matrices):
//   U0: d = -4 (1 - rss)(1 - r rs) / N,                  s = -(1 - r)(1 - rs)(1 - rss) / N
//   V0: d = -4 (2 - r - rs - rss + r rs rss) / N,        s = the same
// Both d, s <= 0 on [0, 1]^3: stable at every step when the damped oscillators are. None at r = rs =
// rss = 1 (N = 0: a spurious root at -1 at every step).
// The line 4M - (d / n) hC - (s / n) h^2 K, s shared by both families; none at n = 0.
std::optional<MinusOneLine> gs4_minus_one_line(double d, double r, double rs, double rss) {
  const double n = 3.0 + r + rs + rss - r * rs - r * rss - rs * rss - 3.0 * r * rs * rss;
  if (n == 0.0) return std::nullopt;
  return MinusOneLine{d / n, -(1.0 - r) * (1.0 - rs) * (1.0 - rss) / n};
}
std::optional<MinusOneLine> gs4_u0_minus_one_line(double r, double rs, double rss) {
  return gs4_minus_one_line(-4.0 * (1.0 - rss) * (1.0 - r * rs), r, rs, rss);
}
std::optional<MinusOneLine> gs4_v0_minus_one_line(double r, double rs, double rss) {
  return gs4_minus_one_line(-4.0 * (2.0 - r - rs - rss + r * rs * rss), r, rs, rss);
}
std::optional<MinusOneLine> chung_hulbert_minus_one_line(double rho) {
  const double am = (2.0 * rho - 1.0) / (rho + 1.0), af = rho / (rho + 1.0);
  return generalized_alpha_minus_one_line(am, af, 0.25 * (1.0 - am + af) * (1.0 - am + af), 0.5 - am + af);
}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = [] {
    using VV = VelocityVerlet::DampingVelocity;
    constexpr auto backward = DashpotVelocity::backward_difference, central = DashpotVelocity::central_difference;
    std::vector<Row> t;
    t.push_back({{"explicit_euler", "x+ = x + h v, v+ = v + h a(x, v)", {}, 1, 1, true, DashpotVelocity::other, true}, fixed<ExplicitEuler>(), {}, {}, {}});
    t.back().info.stability_polynomial = {1.0, 1.0};
    t.push_back({{"symplectic_euler", "kick-drift: v+ = v + h a(x, v), x+ = x + h v+", {}, 1, 1, true, backward},
                 fixed<SymplecticEuler>(), {}, {}, {}});
    t.push_back({{"velocity_verlet",
                  "velocity Verlet as LAMMPS fix nve/sphere: dashpots see the half-step velocity v_{n+1/2}", {}, 2, 1, true,
                  backward},
                 fixed<VelocityVerlet>(VV::half_step), {}, {}, {}});
    t.push_back({{"velocity_verlet_implicit_damping",
                  "velocity Verlet with dashpots at v_{n+1} (solved with J = M + h/2 C)", {}, 2, 2, true, central},
                 fixed<VelocityVerlet>(VV::end_of_step), {}, {}, {}});
    t.push_back({{"leapfrog",
                  "Cundall leapfrog: v_{n+1/2} = v_{n-1/2} + h a(x_n, v_{n-1/2}); velocity() is v_{n-1/2} (offset -h/2)",
                  {}, 2, 1, true, backward},
                 fixed<Leapfrog>(), {}, {}, {}});
    t.push_back({{"central_difference",
                  "Newmark beta=0, gamma=1/2 (GS4 engine); dashpots at v_{n+1}, solved with J = M + h/2 C", {}, 2, 2, true,
                  central},
                 [](const Values&) -> std::unique_ptr<Integrator> {
                   return std::make_unique<GS4Integrator>(central_difference_coefficients());
                 },
                 {}, {}, {}});
    t.push_back({{"position_verlet", "drift-kick-drift; dashpots see the start-of-step velocity v_n", {}, 2, 1, true, backward},
                 fixed<PositionVerlet>(), {}, {}, {}});
    t.push_back({{"rigid_small",
                  "LAMMPS fix rigid/small, linearised: velocity Verlet on body momentum and angular momentum; "
                  "member atoms (dashpots) see v_{n+1/2}",
                  {}, 2, 1, true, backward},
                 fixed<RigidSmall>(), {}, {}, {}});
    t.push_back({{"rk4", "classical Runge-Kutta from its Butcher tableau (generic explicit RK stepper)", {}, 4, 4, true,
                  DashpotVelocity::other, true},
                 [](const Values&) -> std::unique_ptr<Integrator> {
                   return std::make_unique<ExplicitRungeKutta>(classical_rk4_tableau());
                 },
                 {}, {}, {}});
    t.back().info.stability_polynomial = stability_polynomial(classical_rk4_tableau());
    t.push_back({{"gear4",
                  "Gear predictor-corrector, 4-value Nordsieck, c = (1/6, 5/6, 1, 1/3), exact start-up derivatives",
                  {}, 3, 3, true, DashpotVelocity::other, false,
                  // Its characteristic polynomial is lambda^2 (lambda - 1)^2 + x b(lambda) + y c(lambda)
                  // (x = hc/m, y = h^2 k/m): 4 - 22/3 x - 2 y at -1, and no root of the damped scalar
                  // crosses the unit circle elsewhere (tests/test_stability.cpp, "gear4's boundary locus").
                  MinusOneLine{22.0 / 3.0, 2.0}},
                 [](const Values&) -> std::unique_ptr<Integrator> { return std::make_unique<GearIntegrator>(gear4_corrector()); },
                 {}, {}, {}});
    t.push_back({{"gear5",
                  "Gear predictor-corrector, 5-value Nordsieck, c = (19/120, 3/4, 1, 1/2, 1/12), exact start-up derivatives",
                  {}, 4, 4, true, DashpotVelocity::other, false, std::nullopt,
                  // Its characteristic polynomial is lambda^3 (lambda - 1)^2 + x b(lambda) + y c(lambda):
                  // -(4 - 40/3 x - 49/15 y) at -1; its boundary locus has points with x, y > 0 (the
                  // undamped scalar is unstable), all with y / x >= 101.65699 (tests/test_stability.cpp,
                  // "gear5's boundary locus").
                  LocusLimitedLine{MinusOneLine{40.0 / 3.0, 49.0 / 15.0}, 101.65}},
                 [](const Values&) -> std::unique_ptr<Integrator> { return std::make_unique<GearIntegrator>(gear5_corrector()); },
                 {}, {}, {}});
    t.push_back({{"newmark",
                  "Newmark-beta (GS4 engine): equilibrium at t_{n+1}; second order iff gamma = 1/2",
                  {{"beta", 0.25, 0.0, 0.5, "weight of a_{n+1} in the displacement update"},
                   {"gamma", 0.5, 0.5, 1.0, "weight of a_{n+1} in the velocity update"}},
                  2, 2, false},
                 [](const Values& p) -> std::unique_ptr<Integrator> {
                   return std::make_unique<GS4Integrator>(newmark_coefficients(p[0], p[1]));
                 },
                 [](const Values& p, IntegratorInfo& info) {
                   info.order = info.order_damped = p[1] == 0.5 ? 2 : 1;
                   info.is_explicit = p[0] == 0.0;
                   info.minus_one_line = newmark_minus_one_line(p[0], p[1]);
                   info.trapezoidal_rule = p[0] == 0.25 && p[1] == 0.5;
                   info.dashpot_velocity = p[0] == 0.0 && p[1] == 0.5 ? DashpotVelocity::central_difference
                                                                      : DashpotVelocity::other;
                 },
                 {}, {}});
    t.push_back({{"newmark_average", "alias of newmark:beta=0.25,gamma=0.5 (average acceleration, trapezoidal rule)", {}, 2, 2, false},
                 {}, {}, "newmark", {0.25, 0.5}});
    t.push_back({{"newmark_linear", "alias of newmark:beta=1/6,gamma=0.5 (linear acceleration)", {}, 2, 2, false},
                 {}, {}, "newmark", {1.0 / 6.0, 0.5}});
    t.push_back({{"hht", "Hilber-Hughes-Taylor alpha (GS4 engine), gamma = (1-2 alpha)/2, beta = (1-alpha)^2/4",
                  {{"alpha", -0.1, -1.0 / 3.0, 0.0, "HHT alpha; rho_inf = (1+alpha)/(1-alpha)"}}, 2, 2, false},
                 [](const Values& p) -> std::unique_ptr<Integrator> {
                   return std::make_unique<GS4Integrator>(hht_coefficients(p[0]));
                 },
                 [](const Values& p, IntegratorInfo& info) { info.minus_one_line = hht_minus_one_line(p[0]); }, {}, {}});
    t.push_back({{"generalized_alpha", "Chung-Hulbert generalised-alpha (GS4 engine)",
                  {{"rho_inf", 0.8, 0.0, 1.0, "spectral radius as h -> infinity"}}, 2, 2, false},
                 [](const Values& p) -> std::unique_ptr<Integrator> {
                   return std::make_unique<GS4Integrator>(generalized_alpha_coefficients(p[0]));
                 },
                 [](const Values& p, IntegratorInfo& info) { info.minus_one_line = chung_hulbert_minus_one_line(p[0]); },
                 {}, {}});
    t.push_back({{"gs4_u0", "GS4 (GSSSS) U0 family, single solve; U0(rho,rho,rho) is generalised-alpha",
                  gs4_parameters, 2, 2, false},
                 gs4_factory(&gs4_u0_coefficients),
                 [](const Values& p, IntegratorInfo& info) { info.minus_one_line = gs4_u0_minus_one_line(p[0], p[1], p[2]); },
                 {}, {}});
    t.push_back({{"gs4_v0", "GS4 (GSSSS) V0 family, single solve", gs4_parameters, 2, 2, false},
                 gs4_factory(&gs4_v0_coefficients),
                 [](const Values& p, IntegratorInfo& info) { info.minus_one_line = gs4_v0_minus_one_line(p[0], p[1], p[2]); },
                 {}, {}});
    t.push_back({{"variational",
                  "De Klerk et al. variational integrator, Newton + conjugate gradient; dashpots at the start-of-step velocity",
                  {{"alpha", 0.0, 0.0, 1.0, "quadrature point of the potential, q_alpha = (1-alpha) q + alpha q+"}}, 1, 1, true,
                  backward},
                 [](const Values& p) -> std::unique_ptr<Integrator> { return std::make_unique<VariationalIntegrator>(p[0]); },
                 [](const Values& p, IntegratorInfo& info) {
                   info.order = p[0] == 0.5 ? 2 : 1;
                   info.order_damped = 1;
                   info.is_explicit = p[0] * (1.0 - p[0]) == 0.0;
                   // alpha = 0 is symplectic Euler; alpha = 1 drifts first and kicks at x+ with v_n
                   info.dashpot_velocity = info.is_explicit ? DashpotVelocity::backward_difference : DashpotVelocity::other;
                   // Its momenta average to the drift, (1 - a) p+ + a p = M (q+ - q) / h (eqs. 29 and 31), which
                   // is what its dashpots see in the sum (1 - a) f+ + a f of two steps' forces: in x it steps
                   // M (x+ - 2x + x-) + hC (x - x-) + h^2 K (((1 - a)^2 + a^2) x + a (1 - a)(x+ + x-)) = 0,
                   // whose -1 line is 4M - 2hC - (2a - 1)^2 h^2 K (alpha 0 and 1: velocity Verlet's).
                   if (!info.is_explicit) info.minus_one_line = MinusOneLine{2.0, (2.0 * p[0] - 1.0) * (2.0 * p[0] - 1.0)};
                 },
                 {}, {}});
    t.push_back({{"variational_1", "alias of variational:alpha=0 (explicit in disguise; first order)", {}, 1, 1, true, backward},
                 {}, {}, "variational", {0.0}});
    t.push_back({{"variational_2", "alias of variational:alpha=0.5 (midpoint; implicit)", {}, 2, 1, false},
                 {}, {}, "variational", {0.5}});
    // A parametrised row takes the -1 line and the trapezoidal flag its adjust gives its default
    // values, an alias those of the values it stands for (the other fields are declared in the rows
    // themselves).
    for (Row& r : t) {
      const Row* base = &r;
      Values values;
      if (!r.alias_of.empty()) {
        for (const Row& b : t)
          if (b.info.name == r.alias_of) base = &b;
        values = r.alias_values;
      } else {
        for (const auto& q : r.info.parameters) values.push_back(q.default_value);
      }
      if (!base->adjust) continue;
      IntegratorInfo adjusted = base->info;
      base->adjust(values, adjusted);
      r.info.minus_one_line = adjusted.minus_one_line;
      r.info.trapezoidal_rule = adjusted.trapezoidal_rule;
    }
    return t;
  }();
  return table;
}

const Row* find_row(std::string_view name) {
  for (const Row& r : rows())
    if (r.info.name == name) return &r;
  return nullptr;
}

std::string valid_names() {
  std::string s;
  for (const Row& r : rows()) s += (s.empty() ? "" : ", ") + r.info.name;
  return s;
}

std::string canonical(const Row& base, const Values& values) {
  if (base.info.parameters.empty()) return base.info.name;
  std::string s = base.info.name + ":";
  for (std::size_t k = 0; k < values.size(); ++k)
    s += fmt::format("{}{}={}", k ? "," : "", base.info.parameters[k].name, values[k]);
  return s;
}

struct Parsed {
  const Row* named;  // the row the spec's name refers to (maybe an alias)
  const Row* base;   // the row that builds it
  Values values;     // the base row's parameter values
};

Parsed parse(std::string_view spec) {
  spec = trim(spec);
  const auto colon = spec.find(':');
  const std::string_view name = trim(spec.substr(0, colon));
  const std::string_view args = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  const Row* row = find_row(name);
  if (!row) {
    std::vector<std::string> names;
    for (const Row& r : rows()) names.push_back(r.info.name);
    fail(fmt::format("unknown integrator '{}'{}; valid integrators: {}", name, did_you_mean(name, names),
                     valid_names()));
  }
  if (!row->alias_of.empty()) {
    if (!trim(args).empty())
      fail(fmt::format("integrator '{}' takes no parameters (it is an alias of {})", name,
                       canonical(*find_row(row->alias_of), row->alias_values)));
    return {row, find_row(row->alias_of), row->alias_values};
  }
  const auto& params = row->info.parameters;
  Values values;
  for (const auto& p : params) values.push_back(p.default_value);
  if (colon == std::string_view::npos) return {row, row, values};
  if (params.empty()) fail(fmt::format("integrator '{}' takes no parameters, got '{}'", name, args));
  std::vector<std::string> valid;
  for (const auto& p : params) valid.push_back(p.name);
  const KeyValues given(args, fmt::format("integrator '{}'", name));
  for (const auto& key : given.keys())
    if (std::find(valid.begin(), valid.end(), key) == valid.end())
      fail(fmt::format("unknown parameter '{}' for integrator '{}'; valid parameters: {}", key, name,
                       fmt::join(valid, ", ")));
  for (std::size_t k = 0; k < params.size(); ++k)
    if (const auto value = given.number(params[k].name))
      values[k] = require_in_range(fmt::format("{} parameter {}", name, params[k].name), *value, params[k].min,
                                   params[k].max);
  return {row, row, values};
}

}  // namespace

const std::vector<IntegratorInfo>& integrator_registry() {
  static const std::vector<IntegratorInfo> infos = [] {
    std::vector<IntegratorInfo> v;
    for (const Row& r : rows()) v.push_back(r.info);
    return v;
  }();
  return infos;
}

std::unique_ptr<Integrator> make_integrator(std::string_view spec) {
  const Parsed p = parse(spec);
  return p.base->make(p.values);
}

const IntegratorInfo& integrator_info(std::string_view spec) {
  const Parsed p = parse(spec);
  if (p.named != p.base) return p.named->info;  // an alias by name
  if (spec.find(':') == std::string_view::npos) return p.base->info;  // a plain name is its own row
  for (const Row& r : rows())
    if (r.alias_of == p.base->info.name && r.alias_values == p.values) return r.info;  // an alias by value
  Values defaults;
  for (const auto& q : p.base->info.parameters) defaults.push_back(q.default_value);
  if (p.values == defaults) return p.base->info;
  static std::mutex mutex;
  static std::map<std::string, IntegratorInfo> cache;  // node-based: references stay valid
  const std::string key = canonical(*p.base, p.values);
  std::lock_guard lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) {
    IntegratorInfo info = p.base->info;
    if (p.base->adjust) p.base->adjust(p.values, info);
    it = cache.emplace(key, std::move(info)).first;
  }
  return it->second;
}

bool dashpots_read_backward_difference(std::string_view spec) {
  return integrator_info(spec).dashpot_velocity == DashpotVelocity::backward_difference;
}

std::optional<MinusOneLine> damped_minus_one_line(std::string_view spec) {
  const IntegratorInfo& info = integrator_info(spec);
  switch (info.dashpot_velocity) {
    case DashpotVelocity::backward_difference: return MinusOneLine{2.0, 1.0};
    case DashpotVelocity::central_difference: return MinusOneLine{0.0, 1.0};
    case DashpotVelocity::other: return info.minus_one_line;
  }
  return std::nullopt;
}

std::string minus_one_line_text(const MinusOneLine& line) {
  auto term = [](double coefficient, const char* what) -> std::string {
    if (coefficient == 0.0) return "";
    const double m = std::abs(coefficient);
    return fmt::format(" {} {}{}", coefficient < 0.0 ? "+" : "-", m == 1.0 ? "" : fmt::format("{:.6g}", m), what);
  };
  return "4M" + term(line.dashpot, "hC") + term(line.stiffness, "h^2 K");
}

std::vector<std::string> default_integrator_specs() {
  std::vector<std::string> specs;
  for (const Row& r : rows()) {
    if (r.alias_of.empty() && !r.info.parameters.empty()) {
      Values defaults;
      for (const auto& q : r.info.parameters) defaults.push_back(q.default_value);
      bool covered = false;
      for (const Row& a : rows()) covered = covered || (a.alias_of == r.info.name && a.alias_values == defaults);
      if (covered) continue;
    }
    specs.push_back(r.info.name);
  }
  return specs;
}

std::string canonical_integrator_spec(std::string_view spec) {
  const Parsed p = parse(spec);
  return canonical(*p.base, p.values);
}

}  // namespace dtcrit
