#pragma once
// Non-symmetric packings (contact histories, sliding contacts, `granular` torque arms; see
// global_system.hpp): the eigenvalues mu of M^-1 K and s of the first-order system
//   d/dt (y, y') = [[0, I], [-K~, -C~]] (y, y'),   K~ = M^-1/2 K M^-1/2, C~ likewise,
// the physical stability they imply, and each integrator's numerical limit (packing/README.md,
// "Non-symmetric packings", defines it):
//   h_num = the first h at which the scheme's largest growth per step exceeds exp(2 sigma+ h),
//   sigma+ = max(0, max Re s): the scheme's own (spurious) growth rate exceeds the physical one.
// For a system the exact flow does not grow (sigma+ = 0) this is the classical limit rho(A(h)) > 1.
#include <complex>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit::packing {

struct SpectrumOptions {
  Index dense_below = 600;  // dofs at or below which every eigenvalue is computed (linalg::general_eigenvalues)
  Index nev = 6;            // Arnoldi (Spectra GenEigsSolver): eigenvalues of largest magnitude wanted
  Index ncv = 30;           // its basis size
  Index max_restarts = 5000;
  // nonsymmetric_spectrum's first-order run (damped, Arnoldi): its restarts; where it does not
  // converge the spectrum carries no s and says why (Spectrum::first_order_failure).
  Index first_order_max_restarts = 5000;
  double tolerance = 1e-10;  // Spectra's relative tolerance on the Ritz values
  // Called after every operator application of an Arnoldi run with the run's applications so far
  // (Spectra says nothing until it has converged: this is the only sign of life on long runs).
  std::function<void(Index applications)> progress;
};

struct Spectrum {
  std::vector<std::complex<double>> mu;  // eigenvalues of M^-1 K [1/s^2], largest magnitude first
  std::vector<std::complex<double>> s;   // damped: eigenvalues of the first-order system [1/s]; empty undamped
  bool complete = true;  // every eigenvalue (dense); false: the nev largest in magnitude only (Arnoldi)
  std::string method;    // "dense (LAPACK dgeev)" or "Arnoldi (Spectra GenEigsSolver), ..."
  Index operations = 0;  // operator applications (Arnoldi)
  Index first_order_operations = 0;  // those of them on the first-order system (nonsymmetric_spectrum)
  // Damped, Arnoldi: why the first-order system's eigenvalues are missing (its run did not converge;
  // s is then empty); empty when they were computed.
  std::string first_order_failure;
};
// dense when dofs <= dense_below (or force_dense), else Arnoldi on the matrix-free operators.
Spectrum nonsymmetric_spectrum(const GlobalSystem& sys, const SpectrumOptions& opts = {}, bool force_arnoldi = false);
// The eigenvalues s of the first-order system alone (damped systems; dense or Arnoldi as above), its
// companion balanced at omega (omega_max, or a frequency of the top of the spectrum): mu empty. A
// symmetric packing knows omega_max from Lanczos and needs no mu.
Spectrum first_order_spectrum(const GlobalSystem& sys, double omega, const SpectrumOptions& opts = {},
                              bool force_arnoldi = false);

struct PhysicalStability {
  bool assessed = false;  // false: a symmetric system (no flutter; divergence not looked for)
  bool unstable = false;
  std::string kind;              // "flutter", "divergence", "flutter and divergence"; empty when stable
  double growth_rate = 0.0;      // sigma = max Re s [1/s] (0 when stable)
  double efolding_time = std::numeric_limits<double>::infinity();  // 1 / sigma [s]
  double max_imag_relative = 0.0;   // max |Im mu| / max |mu|
  double min_real_relative = 0.0;   // min Re mu / max |mu|
  double tolerance = 0.0;           // relative threshold below which an Im or a negative Re is rounding
  bool complete = true;             // judged on every eigenvalue (else on the largest in magnitude only)
  std::string not_judged;           // damped: why no s was judged (Spectrum::first_order_failure); else empty
};
// Undamped: unstable when some mu has |Im mu| (flutter) or -Re mu (divergence, mu real) above
// 1e-9 max |mu|; sigma = max Re sqrt(-mu). Damped: from s, unstable when max Re s > 1e-8 max |s|;
// without s (its Arnoldi run did not converge) neither stable nor unstable: not_judged says why.
PhysicalStability physical_stability(const Spectrum& spectrum, bool damped);

// The numerical limit of one integrator on a linear system whose exact flow grows at most like
// exp(sigma t) (sigma <= 0: the classical critical_step, rounding-aware). Measured on the
// integrator's own amplification matrix: a geometric scan of Omega = h omega_ref over
// [1e-4, 1e3] and bisection to 1e-12.
CriticalStep growth_limit(std::string_view integrator_spec, MechanicalSystem& linear_system, double sigma,
                          double omega_ref);

// The first step at which the one-step map of a scheme gets the eigenvalue -1. Schemes whose
// dashpots read (x_n - x_{n-1})/h (velocity Verlet with half-step dashpots, leapfrog, ...) reduce to
//   M (x_{n+1} - 2 x_n + x_{n-1}) + h C (x_n - x_{n-1}) + h^2 K x_n = 0,  Q(-1) = 4M - 2hC - h^2 K,
// schemes with the dashpot at v_{n+1} (central difference) to Q(-1) = 4M - h^2 K: dashpot_factor 2
// or 0 in 4M - f hC - h^2 K. Symmetric or not, -1 is an eigenvalue exactly when that matrix is
// singular. With mu = 1/h it is the quadratic eigenproblem (4 mu^2 M - f mu C - K) phi = 0, whose
// real roots mu > 0 are the steps h = 1/mu at which -1 is reached; the first is the largest mu.
// Linearised on (w phi~, mu phi~), phi~ = M^1/2 phi, w a balancing frequency:
//   mu (a, b) = (w b, K~ a / (4 w) + (f/4) C~ b),   K~ = M^-1/2 K M^-1/2, C~ likewise,
// whose eigenvalues of largest real part come from Arnoldi (matrix-free) or, up to dense_below
// dofs, from all of them (Eigen). Past a simple root det(4M - f hC - h^2 K) changes sign, and with
// it det Q(lambda) has a real root lambda < -1 (det Q(lambda) > 0 as lambda -> -infinity): the
// scheme is unstable just above h, so h is an upper bound of the limit, equal to it when no complex
// eigenvalue of the one-step map leaves the unit circle first. stiffness s: a scheme's own -1 line
// 4M - f hC - s h^2 K (registry.hpp MinusOneLine; K~/(4w) becomes s K~/(4w)); s = 0, f > 0 (the
// implicit variational integrator's 4M - 2hC) leaves mu = (f/4) x the eigenvalues of C~.
struct MinusOneCrossing {
  bool found = false;  // some real mu > 0: -1 is reached at h = 1/mu
  double h = std::numeric_limits<double>::quiet_NaN();  // [s]
  // |(4 mu^2 - f mu C~ - s K~) phi~| / (4 mu^2 |phi~|) of the null vector found (dense: NaN)
  double residual = std::numeric_limits<double>::quiet_NaN();
  Index operations = 0;  // operator applications (Arnoldi)
  std::string method;
  // Arnoldi: the null vector phi~ (K~'s coordinates, unit norm) whose residual is `residual`; empty
  // when dense (minus_one_mode gives it).
  Vector null_vector;
};
MinusOneCrossing minus_one_crossing(const GlobalSystem& sys, double dashpot_factor, const SpectrumOptions& opts = {},
                                    bool force_arnoldi = false, double stiffness = 1.0);

// The null vector of 4M - f hC - h^2 K at a root h of a dense minus_one_crossing (stiffness 1; the
// Arnoldi path keeps its own, MinusOneCrossing::null_vector), in K~'s coordinates (phi~ = M^1/2 phi),
// unit norm: the eigenvector of 4I - f hC~ - h^2 K~ whose eigenvalue is nearest 0 (Eigen, every
// eigenvector). residual: |(4I - f hC~ - h^2 K~) phi~| / 4.
struct MinusOneMode {
  Vector phi;
  double residual = std::numeric_limits<double>::quiet_NaN();
  std::string method;
};
MinusOneMode minus_one_mode(const GlobalSystem& sys, double dashpot_factor, double h);

// Complex crossings below the -1 crossing h1 (every kind of crossing, measured on the integrator's own
// amplification matrix of the whole LinearSystem(M, K, C), or for a dashpot family's rows on the
// family's recurrence (family_recurrence_matrix): unstable when its spectral radius exceeds
// (1 + 1e-6) exp(2 sigma h), sigma > 0 the growth rate of a physically unstable system, as
// growth_limit): checked at the steps h1 x fractions (ascending, below 1). first_unstable: NaN when
// every step checked is stable, else the first unstable step found by bisection [s]. progress, when set, hears of each dense eigenvalue solve (a large
// packing's take seconds each).
struct CrossingCheck {
  // What was checked: the integrator's amplification matrix, or its dashpot family's recurrence
  // (family_recurrence_matrix: the same spectral radius, a smaller dense solve).
  std::string matrix;
  std::vector<double> fractions;
  double first_unstable = std::numeric_limits<double>::quiet_NaN();
  // The limit: where a real eigenvalue goes through -1 (sigma = 0), the root of det(A + I) between the
  // bisection's ends, free of the threshold (passed a little above the crossing); otherwise the last
  // step found stable by the threshold. `located` says which. NaN when first_unstable is.
  double limit = std::numeric_limits<double>::quiet_NaN();
  std::string located;
};
CrossingCheck check_below_crossing(std::string_view integrator_spec, const LinearSystem& linear_system, double h1, double sigma,
                                   const std::vector<double>& fractions,
                                   const std::function<void(std::string_view)>& progress = {});

// A scheme whose limit no criterion of the spectrum gives (no -1 line that decides, not a first-order
// system: HHT, generalised-alpha and GS4 on a non-symmetric damped packing; any row with a -1 line
// where K or C is not positive semi-definite): its own amplification matrix of the whole system,
// judged as in check_below_crossing, at the steps h = 2^k / omega_ref for k = scan_first_power ...
// scan_last_power, the first unstable one bisected to 1e-10 relative (fractions empty; from 0, to
// 1e-10 of the first step, when that is unstable). An instability that appears and is gone again
// between two neighbouring steps is not seen.
inline constexpr int scan_first_power = -7, scan_last_power = 14;  // 2^14 > 1e4, critical_step's top
inline constexpr int scan_steps = scan_last_power - scan_first_power + 1;
CrossingCheck scan_amplification(std::string_view integrator_spec, const LinearSystem& linear_system, double omega_ref,
                                 double sigma, const std::function<void(std::string_view)>& progress = {});

// The recurrence in x that every row of a dashpot family steps (integrators/registry.hpp,
// DashpotVelocity), as the companion matrix on (x_n, x_{n-1}), of order 2n:
//   backward_difference  x+ = (2I - h M^-1 C - h^2 M^-1 K) x + (h M^-1 C - I) x-,
//   central_difference   (M + hC/2) x+ = (2M - h^2 K) x - (M - hC/2) x-.
// Its eigenvalues are the roots of the family's quadratic, which each member's one-step map has
// too, with zeros for any further value it stores (velocity Verlet's stores three per dof): the
// same spectral radius from a dense eigenvalue solve of (2/3)^3 the cost. family: not `other`.
Matrix family_recurrence_matrix(DashpotVelocity family, const LinearSystem& linear_system, double h);

// One mode mu of M^-1 K (complex, or real and negative) as the real 2-dof system K = [[a, -b],
// [b, a]] (M = I, eigenvalues a +- i b), undamped: its numerical limit by growth_limit with
// sigma = Re sqrt(-mu). The modes of an undamped diagonalisable M^-1 K decouple exactly.
CriticalStep mode_limit(std::string_view integrator_spec, std::complex<double> mu);

}  // namespace dtcrit::packing
