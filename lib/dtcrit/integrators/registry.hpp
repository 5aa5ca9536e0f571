#pragma once
// The integrator registry: one checked-in table (registry.cpp), one row per scheme, chosen at run
// time by a spec "name" or "name:key=value,key=value" (e.g. "gs4_u0:rho=0.5,rho_s=0.5,rho_ss=0").
// Unknown names or keys throw std::invalid_argument listing the valid ones; a bad value names
// the parameter and the value.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/integrators/integrator.hpp"

namespace dtcrit {

struct IntegratorParameter {
  std::string name;
  double default_value;
  double min, max;  // allowed range, inclusive
  std::string meaning;
};

// The velocity a scheme's dashpots see at the force evaluation at x_n, on M a + C v + K x = 0 (it
// decides which exact damped criterion applies; packing/README.md):
//  backward_difference: (x_n - x_{n-1}) / h, the velocity of the last drift (velocity Verlet's
//    v_{n+1/2}, leapfrog, symplectic Euler, position Verlet in its midpoint variable, the variational
//    integrator at alpha = 0 or 1). The scheme reduces to M(x+ - 2x + x-) + hC(x - x-) + h^2 K x = 0:
//    unstable from the first h at which 4M - 2hC - h^2 K is singular.
//  central_difference: (x_{n+1} - x_{n-1}) / 2h, the end-of-step velocity solved implicitly
//    (velocity_verlet_implicit_damping, central difference): M(x+ - 2x + x-) + (h/2)C(x+ - x-) +
//    h^2 K x = 0, unstable from h = 2 / omega_max whatever C.
//  other: no such reduction; the damped limit comes from the amplification matrix.
enum class DashpotVelocity { other, backward_difference, central_difference };

// -1 is an eigenvalue of a scheme's one-step map on M a + C v + K x = 0 exactly when
// 4M - dashpot h C - stiffness h^2 K is singular: velocity Verlet (2, 1), central difference (0, 1),
// Newmark (2 - 4 gamma, 2 gamma - 4 beta), HHT and generalised-alpha (registry.cpp,
// generalized_alpha_minus_one_line), the GS4 U0 and V0 families (gs4_u0_minus_one_line), the
// variational integrator (2, (2 alpha - 1)^2), Gear's 4-value corrector (22/3, 2).
struct MinusOneLine {
  double dashpot = 0.0, stiffness = 0.0;
};

// A -1 line that decides only while the damping is strong enough (Gear's 5-value corrector). Premise
// (1) of IntegratorInfo::minus_one_line holds, but the scalar oscillator's boundary locus (the one
// (x, y) = (hc/m, h^2 k/m) with a root e^{i theta}, 0 < theta < pi) has points with x, y > 0: there
// damped roots leave the circle off -1 (gear5: the undamped scalar is unstable at every step). All of
// them have y / x >= locus_ratio. An eigenvalue's oscillator has y / x = h k / c, and with C >= alpha K
// (alpha > 0) that is at most h / alpha: below h = alpha locus_ratio the line decides as in (2).
struct LocusLimitedLine {
  MinusOneLine line;
  double locus_ratio = 0.0;  // the least y / x over the locus' points in x, y > 0 (rounded down)
};

struct IntegratorInfo {
  std::string name;
  std::string description;
  std::vector<IntegratorParameter> parameters;
  int order;          // declared global order, forces independent of velocity
  int order_damped;   // declared global order with velocity-dependent (dashpot) forces
  bool is_explicit;   // no solve with the stiffness (a diagonal dashpot solve may remain)
  DashpotVelocity dashpot_velocity = DashpotVelocity::other;
  // The scheme steps the first-order system y' = f(y), y = (x, v), reading springs and dashpots at
  // the same stage state (explicit Euler, explicit Runge-Kutta). On a linear system y' = Ay its
  // one-step map is then R(hA), with eigenvalues R(h s) over the eigenvalues s of A: each conjugate
  // pair (or real s) steps as a scalar oscillator with those roots, whatever C and K.
  bool first_order_system = false;
  // The -1 line of a scheme with DashpotVelocity::other whose damped limit it gives (packing/README.md,
  // "Damped, schemes with a -1 line of their own"). Set when (1) on M a + C v + K x = 0 every
  // eigenvalue lambda of the one-step map, but spurious ones fixed inside the unit circle, solves
  // det(a(lambda) M + h b(lambda) C + h^2 c(lambda) K) = 0 for scalar polynomials a, b, c (a linear
  // multistep recursion in x: the generalised-alpha form, Newmark and HHT among it; Gear's
  // predictor-corrector, whose forces enter once per step), and (2) the scalar oscillator (m = 1,
  // c >= 0, k >= 0) has no root outside the unit circle on the origin's side of its -1 line
  // a(-1) + hc b(-1) + h^2 k c(-1) = 0. Normalised to a(-1) = 4.
  std::optional<MinusOneLine> minus_one_line{};
  // A -1 line that decides only below alpha x locus_ratio (LocusLimitedLine); set where minus_one_line
  // is not.
  std::optional<LocusLimitedLine> locus_limited_line{};
  // Newmark's average acceleration (beta = 1/4, gamma = 1/2) is the trapezoidal rule on y' = Ay: on
  // a linear system its one-step map is R(hA), R(z) = (1 + z/2) / (1 - z/2), whatever C and K. R is
  // A-stable: |R(hs)| > 1 only where Re s > 0, so the scheme grows only where the system itself does.
  bool trapezoidal_rule = false;
  // With first_order_system: the coefficients of R, lowest power first (explicit Euler: 1 + z).
  std::vector<double> stability_polynomial{};
};

// Every row, in table order (aliases such as newmark_average are rows of their own).
const std::vector<IntegratorInfo>& integrator_registry();

// Build the integrator a spec names. Throws std::invalid_argument on an unknown name, an unknown
// or repeated key, an unparsable value or a value outside the row's range.
std::unique_ptr<Integrator> make_integrator(std::string_view spec);

// The row for a spec. Aliases resolve both ways: "newmark_average" is its own row, and
// "newmark:beta=0.25,gamma=0.5" or "variational:alpha=0.5" return the alias row they equal.
// A spec with other non-default parameters returns a row whose orders and explicitness are
// those of these parameter values (e.g. newmark with gamma != 1/2 is first order); such rows
// are created once and live for the rest of the program.
const IntegratorInfo& integrator_info(std::string_view spec);

// Whether the scheme a spec names reads its dashpots at (x_n - x_{n-1}) / h (velocity Verlet as
// LAMMPS runs it, leapfrog, ...): the rows whose damped limit is the -1 crossing of 4M - 2hC - h^2 K.
bool dashpots_read_backward_difference(std::string_view spec);

// The -1 line whose first loss of definiteness is the scheme's damped limit on symmetric positive
// semi-definite K and C: (2, 1) for the backward-difference rows, (0, 1) for the central-difference
// ones, IntegratorInfo::minus_one_line for the others; none when the scheme has no such line.
std::optional<MinusOneLine> damped_minus_one_line(std::string_view spec);
// The line's matrix as text, e.g. "4M - 7.33333hC - 2h^2 K", "4M + 0.4hC - 0.8h^2 K", "4M - 2hC".
std::string minus_one_line_text(const MinusOneLine& line);

// What "--integrator all" means: every row with its default parameters, each scheme once (a
// parametrised row whose defaults equal an alias is listed under the alias only).
std::vector<std::string> default_integrator_specs();

// The spec with the name resolved and every parameter written out in table order, e.g.
// "newmark_average" -> "newmark:beta=0.25,gamma=0.5", "hht" -> "hht:alpha=-0.1".
std::string canonical_integrator_spec(std::string_view spec);

}  // namespace dtcrit
