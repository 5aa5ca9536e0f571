#pragma once
// Stability of an integrator measured on its own code: the amplification matrix A(h) of one
// step is obtained by running Integrator::step on each unit vector of the full state
// z = (Integrator::state(), MechanicalSystem::history()) of a linear system. The predicted
// critical step therefore belongs to exactly the code that runs, not to a formula about it.
#include <functional>
#include <string>
#include <string_view>

#include "dtcrit/core/types.hpp"
#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/integrator.hpp"

namespace dtcrit {

// A(h): column j is step(e_j) - step(0) (the difference removes the response to a constant
// load, so affine systems give their linear part). Restarts the integrator with
// start(sys, 0, 0, 0, h); the integrator's and system's states afterwards are unspecified.
Matrix amplification_matrix(Integrator& integrator, MechanicalSystem& linear_system, double h);

// Largest eigenvalue modulus (after an exact power-of-two balancing of A).
double spectral_radius(const Matrix& A);

enum class Stability { conditional, unconditional, unstable };
// The range of Omega = h omega_max that critical_step checks: "unconditional" means stable up to
// checked_omega_max, "unstable" means unstable already at (or, extrapolated, below) checked_omega_min.
inline constexpr double checked_omega_min = 1e-6, checked_omega_max = 1e4;
// What was checked, for text outputs: "conditionally stable", "stable up to Ω = 1e4",
// "unstable below Ω = 1e-6".
std::string_view to_string(Stability);
// The one-word form the JSON and CSV outputs use: "conditional", "unconditional" or "unstable"
// (JSON adds checked_omega_min / checked_omega_max beside it).
std::string_view stability_keyword(Stability);
// The short text-table form: "conditional", "stable up to Ω = 1e4", "unstable below Ω = 1e-6".
std::string_view stability_label(Stability);
inline constexpr EnumName<Stability> stability_keywords[] = {{Stability::conditional, "conditional"},
                                                             {Stability::unconditional, "unconditional"},
                                                             {Stability::unstable, "unstable"}};
inline constexpr EnumName<Stability> stability_labels[] = {{Stability::conditional, "conditional"},
                                                           {Stability::unconditional, "stable up to Ω = 1e4"},
                                                           {Stability::unstable, "unstable below Ω = 1e-6"}};

struct CriticalStep {
  Stability stability;
  double h_crit;  // seconds; NaN unless conditional
  Index free_modes = 0;  // free (zero-frequency, undamped) modes of a LinearSystem set aside
  std::string method{};  // how the verdict was reached: "certified: ..." or "exact (scan): ..."
  // The limit is the root of a crossing function whose sign change certifies it (method "certified: ...").
  bool crossing_certified = false;
};

// A limit known only from above (h_crit an upper bound: unstable above it): what h_crit is, what
// below it was not checked, and how to decide. The default is the -1 crossing of a non-symmetric
// damped system whose complex crossings were not checked.
struct UpperBound {
  std::string what = "-1 crossing";  // tables: "upper bound (what)"; texts: "the what"
  std::string unchecked = "a complex pair of eigenvalues leaves the unit circle below it";  // "SAFE unless ..."
  std::string decide = "--crossing-check-dofs";
  std::string decide_cost = "dense: minutes at 600 dofs, growing as dofs^3";
};

// On a LinearSystem the free modes N = ker K ∩ ker C are set aside first and the rest is judged
// alone (without_free_modes, dynamics/linear_system.hpp: the free motion decouples exactly, for
// non-symmetric K and C through their left null space, and is polynomial drift, a Jordan block at
// +1 of A, not an instability);
// their number is returned in free_modes. An undamped moving part (C = 0, K symmetric, two dofs or
// more) is judged by its top mode, exactly (it decouples into modes; integrators/README.md).
// A LinearHistorySystem (traditional tangential update) has its free modes set aside likewise when
// its histories do not see them, and is scanned with the histories in the state.
// The first h at which rho(A(h)) > 1, found by scanning Omega = h omega_max geometrically over
// [1e-6, 1e4] and bisecting the first bracket to 1e-13 relative. Above 1e4 / omega_max no
// instability is looked for ("unconditional"); instability already at 1e-6 / omega_max is
// "unstable" (so a limit below 1e-6 / omega_max reads as unstable).
//
// "rho > 1" is decided with an eigenvalue-condition-aware threshold: eigenvalue i counts as
// outside the unit circle when |lambda_i| - 1 > 64 eps kappa_i |A|_F, where kappa_i =
// |x_i| |y_i| / |y_i^H x_i| is its condition number (x, y right and left eigenvectors) and A the
// balanced matrix. Near the Jordan block at -1 where undamped central-difference-type schemes
// lose stability, kappa ~ 1/sqrt(delta) (delta the distance to the critical step) and the
// rounding error of the computed eigenvalues grows like eps/sqrt(delta); a fixed threshold
// either reports rounding as instability or, when loose, misplaces linear (damped) crossings.
// The condition-aware threshold is as tight as rounding allows in both cases, and treats an
// exactly defective eigenvalue on the unit circle (rigid-body modes: A has a Jordan block at +1
// and grows linearly, not exponentially) as stable.
// The entries of A can carry more rounding than eps |A| (cancellation inside a step: implicit
// schemes at large Omega, an entry that vanishes at the critical step). So a marginal verdict
// (0 < rho - 1 < 1e-6) gets a second opinion: A is recomputed from unit states scaled by a
// non-dyadic factor (same matrix, different rounding) and the step counts as unstable only if
// both are, with rho - 1 above 16 times their disagreement.
// Finally, a scheme with rho - 1 = c Omega^p > 0 at every Omega (gear5 on the undamped
// oscillator: c = 1/27, p = 6) is first resolved above round-off at some small Omega; this is
// recognised by extrapolating rho - 1 from 2 and 4 times that Omega back to it, and reported as
// unstable (weakly, at every h) instead of as a meaningless critical step.
CriticalStep critical_step(std::string_view integrator_spec, MechanicalSystem& linear_system, double omega_max);
// The same for an integrator object (it is restarted many times).
CriticalStep critical_step(Integrator& integrator, MechanicalSystem& linear_system, double omega_max);

// True when A has an eigenvalue outside the unit circle by more than its rounding error, judged
// from eps |A| and the eigenvalue condition numbers as above. Without the second opinion (which
// needs the integrator), entries that carry more rounding than eps |A| (implicit schemes at
// Omega >~ 100) can be flagged; critical_step does not have this weakness.
bool exceeds_unit_circle(const Matrix& A);

// det(B) as (sign, log |det|) from the LU pivots: a packing's 240 x 240 A - I has a factor
// lambda - 1 ~ h s per slow mode, and their product underflows.
struct SignedLog {
  double sign, log_abs;
};
SignedLog signed_log_det(const Matrix& B);
// The root in [a, b] of a determinant d(x) whose sign differs at a and b (da, db: d(a), d(b)), by
// toms748 on sign x |d| / |d(a)| (the same zero, of order one across a narrow bracket), without any
// threshold; the root's end on a's side.
double sign_change_root(const std::function<SignedLog(double)>& d, double a, double b, SignedLog da, SignedLog db);

}  // namespace dtcrit
