#pragma once
// The whole answer for a packing: omega_max of the global system, each integrator's critical step
// on it, and the cheap bounds users rely on with their ratio to the exact step. Rendered as an
// aligned table or JSON (same "integrators" object as `dtcrit pair`).
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/core/units.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/system/certificate.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/system/nonsymmetric.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit::packing {

struct PackingEstimate {
  std::string name;
  double seconds = 0.0;
  double ratio = 0.0;  // seconds / the exact velocity_verlet step of this packing
  std::string description;
};

struct PackingIntegratorLimit {
  std::string name;                          // integrator specification
  Stability stability = Stability::conditional;
  double h_crit = 0.0;                       // seconds; NaN unless conditional and converged
  std::string method;                        // how it was obtained, and whether it is exact
  bool exact = true;
  bool converged = true;                     // the solver behind h_crit converged (else h_crit is NaN)
  // h_crit is an upper bound of the limit, not the limit: the first -1 crossing of a non-symmetric
  // damped system (unstable just above it), with complex crossings below it not excluded; or the
  // limit of the modes computed. With h_crit NaN (bound.what "limit not computed"), only the proven
  // h_safe below the limit is known.
  bool upper_bound = false;
  UpperBound bound{};  // with upper_bound: what h_crit is and what was not checked below it
  // h_crit is the certified root of a crossing function of the amplification matrix (CriticalStep).
  bool crossing_certified = false;
  Index free_modes = 0;                      // free modes set aside by the amplification route
  // A proven safe step (NaN where none is known): h_crit rests on the Lanczos omega_max, a lower
  // bound of the true one, so h_crit alone could be too large. certified: h_safe is h_crit less
  // certificate_margin, proven by a Cholesky factorisation (certificate.hpp); otherwise h_safe rests
  // on Gershgorin upper bounds.
  double h_safe = std::numeric_limits<double>::quiet_NaN();
  std::string h_safe_method{};
  // The lower end of h_crit's bracket [h_low, h_crit] (NaN where the row has none: estimates,
  // amplification matrices): h_crit is never below the limit (it reads Ritz values, never above the
  // eigenvalues), h_low is below it if the eigensolver's Ritz value belongs to the top eigenvalue,
  // which a Krylov solver cannot certify (packing/README.md, "Precision"). h_crit - h_low <= rtol h_crit.
  double h_low = std::numeric_limits<double>::quiet_NaN();
  bool certified = false;
  // false: this path does not compute the row (the distributed analysis: the amplification matrix of
  // the whole system); h_crit is NaN and the report says so.
  bool computed = true;
  // The row's limit is the first loss of definiteness of its scheme's -1 line (registry.hpp
  // MinusOneLine) on symmetric positive semi-definite K and C: certify_limits factorises that line.
  std::optional<MinusOneLine> line{};
  // h_safe from the region of the eigenvalues (stability/eigenvalue_region.hpp: a Runge-Kutta row
  // known only as an upper bound, K and C symmetric positive semi-definite); certify_limits redoes it
  // with the certified omega_max.
  bool region_step = false;
};

// An input the caller chose (or left at its default) that sets the answer, e.g. a lattice's radius.
struct PackingInput {
  std::string name;
  double value = 0.0;
  std::string unit;
  bool is_default = false;
};

struct PackingReport {
  std::string source;
  std::vector<PackingInput> inputs;  // printed under the source; filled by the caller
  int dim = 3;
  bool rotation = true, damped = false;
  bool symmetric = true;           // K and C symmetric (else the non-symmetric analysis, nonsymmetric.hpp)
  Index general_contacts = 0;      // contacts with full blocks (histories, sliding, curved walls)
  Index torque_arm_contacts = 0;   // granular pairs whose torque arm r - delta/2 is not their velocity arm r
  PhysicalStability physical;      // assessed on non-symmetric systems: flutter / divergence, growth rate
  Index particles = 0, dofs = 0, pair_contacts = 0, wall_contacts = 0;
  Index rattlers = 0;              // particles with fewer than dim + 1 contacts (pairs and walls)
  // jkr contacts held open within their pull-off distance (overlap <= 0), analysed as touching
  // (assembly/contacts.cpp pair_reach()); LAMMPS started from a data file sees them apart.
  Index open_cohesive_contacts = 0;
  double mean_coordination = 0.0;  // contacts per particle, pairs counted for both
  double omega_max = 0.0;          // [rad/s]; non-symmetric: sqrt of the largest |mu| of M^-1 K
  double eigen_residual = 0.0;     // |K~ v - omega^2 v| / omega^2
  bool eigen_residual_is_true = false;  // computed from the eigenvector (else the Lanczos estimate)
  double eigen_tolerance = 0.0;
  bool eigen_converged = true;     // the residual is within eigen_tolerance (a true residual above it: false)
  std::string eigen_method;
  Index eigen_operations = 0;
  // Non-symmetric packings: eigen_operations run by run (M^-1 K, the first-order system, each -1
  // crossing), in the order run; empty elsewhere.
  std::vector<std::pair<std::string, Index>> eigen_operations_by_run;
  int damped_solves = 0;           // eigenvalue solves of the damped backward-difference root (0: none)
  Index damped_operations = 0;     // and their operator applications
  double rtol = 0.0;               // the precision asked of the limits (PackingAnalysisOptions::rtol)
  double top_mode_zeta = 0.0;      // v^T C~ v / (2 omega_max): modal damping ratio of the top mode
  double h_exact = 0.0;            // exact velocity_verlet (LAMMPS) step: the estimates' reference
  bool h_exact_converged = true;   // its root finding converged (else h_exact is NaN)
  // h_exact is only an upper bound of velocity_verlet's limit (the -1 crossing of a large damped
  // non-symmetric packing, complex crossings not checked): the ratios are to that bound.
  bool h_exact_upper_bound = false;
  std::vector<PackingEstimate> estimates;
  std::vector<PackingIntegratorLimit> integrators;
  // Some law keeps springs in contact histories (tangential with kt > 0, rolling, twisting): the
  // limits are those of the consistent update (histories from the positions); integrators whose
  // dashpots do not read (x_n - x_{n-1}) / h step differently under the traditional update.
  bool history_springs = false;  // has_history_springs() of the packing's laws
  std::vector<std::pair<std::string, double>> timings;  // stage, seconds
  // The unit system every number of the packing is in (a LAMMPS script's units; SI otherwise):
  // the analysis is unit-free, the report names the units.
  UnitSystem units = si_units();
};

// Whether some law keeps a spring in its contact histories: tangential with kt > 0, rolling, twisting.
bool has_history_springs(const std::vector<contact::ContactLaw>& laws);
// Whether integrator's limit in r holds for the traditional update as well as the consistent one:
// no history springs, or its dashpots read (x_n - x_{n-1}) / h, the displacement a traditional
// history is advanced by (velocity Verlet, leapfrog, ...).
bool limit_holds_for_both_updates(const PackingReport& r, const std::string& integrator);

struct PackingMaterial {  // for the Rayleigh / P-wave heuristics (smallest particle's R and rho)
  double youngs_modulus = 0.0, poisson_ratio = 0.0;
};

struct PackingAnalysisOptions {
  std::vector<std::string> integrators{"velocity_verlet"};  // registry specs (expanded: no "all")
  std::optional<PackingMaterial> material;
  EigenOptions eigen;
  // The relative width asked of each limit's bracket [h_low, h_crit] (the damped root's stopping
  // rule); omega_max's residual tolerance eigen.tolerance gives its own, omega_tolerance(rtol) this
  // one. The default is the default eigen.tolerance's.
  double rtol = 5e-9;
  // Damped packings with integrators outside the exact criteria: the amplification matrix of the
  // whole LinearSystem(M, K, C) is scanned finely up to this many dofs; above, the -1 lines, the
  // first-order eigenvalues (explicit Euler, RK4) or, where neither applies, the coarser scan up to
  // scan_dofs.
  Index amplification_dofs = 48;
  // Damped non-symmetric packings up to this many dofs: the integrator's amplification matrix is
  // checked below the -1 crossing for complex crossings (check_below_crossing: four dense
  // eigenvalue solves of order values-per-dof x dofs, by LAPACK: results/benchmarks/dense_eigenvalues.md);
  // above, the crossing is reported as an upper bound.
  Index crossing_check_dofs = 600;
  // Damped rows that no criterion decides (symmetric or not) are scanned on their amplification
  // matrix up to this many dofs (scan_amplification: 22 such solves, 5.5 times a crossing check's
  // four: about 80 s per row at 600 dofs, in.granular); above, not computed.
  Index scan_dofs = 300;
  // Symmetric packings up to this many dofs: each limit is certified by a sparse Cholesky
  // factorisation (certificate.hpp) and h_safe is the limit's h_low, less 1e-6; above, h_safe rests on
  // Gershgorin bounds. 50 000: a damped FCC lattice (coordination 12, the most fill) takes about
  // 11 s and 0.75 GB for its two factorisations at 41 472 dofs (packing/README.md).
  Index certify_dofs = 50000;
  // The most restarts of the Arnoldi runs that find the largest eigenvalues of the first-order system
  // (explicit Euler and RK4 above the dense size): the pair of largest magnitude gets at most 200 of
  // them, the six of largest magnitude after it this many. A row whose eigenvalues do not converge
  // keeps only what holds without them (the eigenvalue region's safe step, where it applies). On a
  // non-symmetric damped packing the six's run (SpectrumOptions::first_order_max_restarts) likewise:
  // without it physical stability is not judged and the Runge-Kutta rows get no limit.
  Index first_order_max_restarts = 5000;
  std::function<void(std::string_view)> progress;  // stage messages (may be empty)
};

// The relative residual tolerance of omega_max^2's solve for limits rtol wide: lambda_max lies in
// [theta, theta (1 + tol)], so Omega / omega_max in [Omega / sqrt(theta (1 + tol)), Omega / sqrt(theta)].
inline double omega_tolerance(double rtol) { return (1.0 + rtol) * (1.0 + rtol) - 1.0; }

PackingReport analyse_packing(const Packing& p, const GlobalSystem& sys, const PackingAnalysisOptions& opts);
// The same for any global system (a contact network of rigid bodies: GlobalSystem(network_assembly(network)));
// without the material heuristics (opts.material must be empty: they read the particles' radii).
PackingReport analyse_system(const std::string& source, const GlobalSystem& sys, const PackingAnalysisOptions& opts);

// What the bounds beside the exact answer read (analyse_packing takes them from one GlobalSystem, the
// distributed analysis reduces them over ranks): Gershgorin's omega_max^2 bound, Yade's step, the
// stiffest single contact's omega, the smallest particle mass, the largest contact stiffness, and the
// smallest particle's radius and mass (the material heuristics).
struct EstimateInputs {
  double gershgorin_omega2 = 0.0, yade_step = std::numeric_limits<double>::infinity(), single_contact_omega = 0.0;
  double m_min = std::numeric_limits<double>::infinity(), k_max = 0.0;
  double smallest_radius = 0.0, smallest_mass = 0.0;
  bool bodies = false;  // a network of rigid bodies (no Yade bound; the single contact of two bodies)
};
// Appends the bounds to r.estimates, with their ratios to r.h_exact (set r.omega_max and r.h_exact first).
void add_packing_estimates(PackingReport& r, const EstimateInputs& in, const PackingAnalysisOptions& opts);
// The material heuristics (Rayleigh, Hertz) of the smallest particle (radius R, mass m).
void add_material_estimates(PackingReport& r, const PackingMaterial& material, double R, double m);

// The limit of one integrator on the global system (see packing/README.md for the methods):
//  undamped: Omega_crit of the scalar oscillator / omega_max (modal decomposition, exact);
//  damped, chosen by the registry row's dashpot_velocity (integrators/registry.hpp):
//    backward_difference (velocity Verlet, leapfrog, symplectic Euler, position Verlet,
//    variational_1): first loss of definiteness of 4M - 2hC - h^2 K (exact);
//    central_difference (velocity_verlet_implicit_damping, central_difference): 2 / omega_max (exact);
//    other: the amplification matrix up to amplification_dofs; above, the scheme's -1 line, the
//    eigenvalues of the first-order system (explicit Euler, RK4: first_order_from_eigenvalues), or
//    where none of these applies the amplification matrix scanned at steps up to
//    scan_dofs (scan_amplification), and above that no limit (computed = false).
// half_step_limit: the backward-difference limit if already computed (else computed here).
// A non-symmetric system takes nonsymmetric_integrator_limit instead.
// h_safe, from k >= lambda_max(M^-1/2 K M^-1/2) and c >= lambda_max(M^-1/2 C M^-1/2) (Gershgorin,
// times 1 + 1e-12 for the rounding of the row sums): undamped Omega_crit / sqrt(k) (every mode sees
// Omega <= Omega_crit); damped backward_difference (-c + sqrt(c^2 + 4k)) / k, where
// 4 - 2hc - h^2 k, a lower bound of lambda_min(4I - 2hC~ - h^2 K~), reaches 0; damped
// central_difference 2 / sqrt(k); none for the others.
PackingIntegratorLimit packing_integrator_limit(const std::string& spec, const GlobalSystem& sys, double omega_max,
                                                double top_mode_zeta, const PackingAnalysisOptions& opts,
                                                std::optional<DampedLimit> half_step_limit = std::nullopt,
                                                double omega_residual = 0.0);

// The numerical limit of one integrator on a non-symmetric system (packing/README.md, "Non-symmetric
// packings"): undamped, per mode of M^-1 K (the largest real one by the scalar limit, each complex
// pair and the most negative real one on its own 2-dof system; exact when the spectrum is complete);
// damped, the amplification matrix of the whole LinearSystem(M, K, C) up to amplification_dofs
// (exact); above, for rows with a -1 line (registry.hpp damped_minus_one_line) with s > 0, or s = 0
// < d, the first -1 crossing (minus_one_crossing: exact, an upper bound of the limit, labelled
// upper_bound); the other rows (HHT, generalised-alpha, GS4) their amplification matrix scanned at
// steps (scan_amplification) up to scan_dofs, not computed above. Up to crossing_check_dofs the
// crossing is checked for complex crossings below it on the scheme's amplification matrix
// (check_below_crossing) and then exact; above, the crossing is an upper bound.
// crossing(line) gives the -1 crossing of the line's matrix (analyse_packing computes each line
// once); empty: computed here with the default SpectrumOptions. check(spec, h1, compute) gives the
// check below h1: compute() for the first row of a dashpot family (registry.hpp DashpotVelocity),
// that row's result for the others, whose one-step maps have the same spectral radius (one recurrence
// in x; tests/test_packing_nonsymmetric.cpp); empty: computed for every row.
using CrossingFinder = std::function<MinusOneCrossing(const MinusOneLine& line)>;
using CrossingChecker =
    std::function<CrossingCheck(const std::string& spec, double h1, const std::function<CrossingCheck()>& compute)>;
PackingIntegratorLimit nonsymmetric_integrator_limit(const std::string& spec, const GlobalSystem& sys,
                                                     const Spectrum& spectrum, const PhysicalStability& physical,
                                                     const PackingAnalysisOptions& opts,
                                                     const CrossingFinder& crossing = {},
                                                     const CrossingChecker& check = {});

// What an integrator's limit on a symmetric packing rests on, however it was computed (one GlobalSystem
// or ranks of a distributed one): omega_max, the top mode's damping ratio, Gershgorin bounds k >=
// lambda_max(K~), c >= lambda_max(C~) (c only for damped backward-difference rows), and the damped
// half-step limit when already found.
struct SpectrumFacts {
  bool damped = false;
  Index dofs = 0;
  double omega_max = 0.0, top_mode_zeta = 0.0, gershgorin_k = 0.0, gershgorin_c = 0.0;
  // omega_max^2's relative residual r: lambda_max <= omega_max^2 (1 + r) if the Ritz value belongs to
  // the top eigenvalue (the lower ends h_low of the rows that scale with 1 / omega_max)
  double omega_residual = 0.0;
  std::optional<DampedLimit> half_step;
  // K and C positive semi-definite by construction (GlobalSystem::stiffness_semidefinite,
  // damping_semidefinite): what a -1 line's limit and the eigenvalue region's safe step rest on.
  bool semidefinite = false;
  // The largest alpha with C >= alpha K contact by contact (GlobalSystem::damping_over_stiffness): the
  // range of steps in which a LocusLimitedLine decides (gear5). 0: not known.
  double damping_over_stiffness = 0.0;
  // The caller can solve the whole first-order system (packing_integrator_limit): explicit Euler and
  // RK4 take their rows from its eigenvalues up to first_order_arnoldi_dofs. false (the distributed
  // analysis): those rows get the eigenvalue region's proven safe step alone.
  bool whole_system = true;
  // The root of 4M - 2f hC - h^2 K for a dashpot factor f (f = 1 is half_step): the -1 lines of other
  // schemes, rescaled to that form. Empty, or nullopt from it: not computed on this path.
  std::function<std::optional<DampedLimit>(double f)> scaled_half_step;
  // lambda_max(M^-1/2 C M^-1/2) to a relative residual tolerance, with its residual bound (a -1 line
  // without K: 4M - d hC). Empty, or nullopt from it: not computed on this path.
  std::function<std::optional<TopAtStep>(double tolerance)> damping_top;
};
// Whether a damped row of a first-order-system scheme (explicit Euler, RK4) takes its limit from the
// eigenvalues of the whole first-order system: above amplification_dofs, every one by a dense solve up
// to 600 dofs (exact; at any size with EigenMethod::dense), the largest by Arnoldi up to
// first_order_arnoldi_dofs (an upper bound, with a proven h_safe below it). Above, the proven h_safe
// alone (limit_from_spectrum): Arnoldi on A there takes minutes where the other rows take seconds
// (375 000 polydisperse FCC dofs: 3 min).
inline constexpr Index first_order_arnoldi_dofs = 20000;
bool first_order_from_eigenvalues(const std::string& spec, Index dofs, const PackingAnalysisOptions& opts);
// packing_integrator_limit's rows that follow from those facts: every undamped row, the damped
// backward-difference rows (given half_step), central-difference rows and, above amplification_dofs,
// the -1 lines' roots and the first-order rows' proven safe step where their eigenvalues are not
// computed (SpectrumFacts::whole_system). A damped row that no criterion decides is scanned on its own
// amplification matrix (scan_amplification) by a caller with the whole system up to
// scan_dofs: nullopt, with the reason in *scan_why; otherwise it is not computed, saying
// why. nullopt also for the rows that need the whole system (its amplification matrix, or
// first_order_from_eigenvalues) or half_step when it is missing.
std::optional<PackingIntegratorLimit> limit_from_spectrum(const std::string& spec, const SpectrumFacts& f,
                                                         const PackingAnalysisOptions& opts,
                                                         std::string* scan_why = nullptr);

nlohmann::json to_json(const PackingReport& r);
std::string format_packing_table(const PackingReport& r);

}  // namespace dtcrit::packing
