#include "dtcrit/packing/packing_analysis.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/stability/eigenvalue_region.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include <algorithm>
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit::packing {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();


// Omega_crit = h_crit omega of an integrator on the scalar oscillator with damping ratio zeta,
// cached per (spec, zeta).
CriticalStep scalar_limit(const std::string& spec, double zeta) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, double>, CriticalStep> cache;
  std::lock_guard lock(mutex);
  const auto key = std::make_pair(spec, zeta);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  LinearSystem unit = scalar_oscillator(1.0, zeta);
  return cache[key] = critical_step(spec, unit, 1.0);
}

// Folds one mode's limit into the least so far (start: unconditional). One mode unstable at every
// step makes the whole unstable.
void fold_least_limit(CriticalStep& least, const CriticalStep& c) {
  if (least.stability == Stability::unstable || c.stability == Stability::unconditional) return;
  if (c.stability == Stability::unstable) {
    least = {Stability::unstable, kNaN};
    return;
  }
  least.stability = Stability::conditional;
  least.h_crit = std::isnan(least.h_crit) ? c.h_crit : std::min(least.h_crit, c.h_crit);
}

// A limit taken over the modes computed: each is unstable above its own limit, so with modes not
// computed the least of theirs is an upper bound (`unchecked`: what a mode not computed may do). A
// mode unstable at every step is proof either way; stability at every step is not.
void label_modes_computed(PackingIntegratorLimit& out, bool every_mode, std::string unchecked,
                          std::string decide_cost) {
  out.upper_bound = !every_mode && out.stability == Stability::conditional;
  out.exact = every_mode || out.stability == Stability::unstable || out.upper_bound;
  if (out.upper_bound)
    out.bound = {"limit of the modes computed", std::move(unchecked), "--eigensolver dense", std::move(decide_cost)};
}

// The limit of a scheme that steps the first-order system (IntegratorInfo::first_order_system) on
// y' = Ay, from the eigenvalues s of A: each conjugate pair (or real s) steps as the scalar
// oscillator x'' - 2 Re(s) x' + |s|^2 x = 0, whose roots they are, so the least of those
// oscillators' limits, measured on the integrator's code, is the system's. |s| at or below
// `free_below` (free motion, R(0) = 1) sets none. sigma > 0 (a growing packing): each oscillator's
// first h where the scheme grows faster than exp(2 sigma h), as growth_limit defines it.
CriticalStep first_order_limit(const std::string& spec, const std::vector<std::complex<double>>& s, double sigma,
                               double free_below) {
  CriticalStep least{Stability::unconditional, kNaN};
  for (const auto z : s) {
    const double w = std::abs(z);
    if (z.imag() < 0.0 || w <= free_below) continue;  // the pair's other half; free motion
    CriticalStep c;
    if (sigma > 0.0) {
      LinearSystem oscillator(Vector::Ones(1), Matrix::Constant(1, 1, w * w), Matrix::Constant(1, 1, -2.0 * z.real()));
      c = growth_limit(spec, oscillator, sigma, w);
    } else {
      c = scalar_limit(spec, std::clamp(-z.real() / w, 0.0, 1.0));
      if (c.stability == Stability::conditional) c.h_crit /= w;
    }
    fold_least_limit(least, c);
    if (least.stability == Stability::unstable) break;
  }
  return least;
}

// The safe step below a Runge-Kutta row's upper bound (or in place of a limit not computed) on a
// symmetric damped packing with K and C positive semi-definite (stability/eigenvalue_region.hpp):
// every hs lies in a region set by omega_b^2 >= lambda_max(K~) and c_b >= lambda_max(C~), Gershgorin
// bounds or certified ones (certify_limits).
void set_region_step(PackingIntegratorLimit& out, double omega_b, bool omega_certified, double c_b, bool c_certified) {
  const RegionStep step = region_step(integrator_info(out.name).stability_polynomial, c_b / omega_b);
  out.region_step = true;
  if (!(step.t > 0.0)) {
    out.h_safe_method = "none: " + step.method;
    return;
  }
  out.h_safe = step.t / omega_b;
  out.h_safe_method = fmt::format(
      "t / omega_b, omega_b = {:.6g} 1/s ({}) and c_b = {:.6g} 1/s ({}) upper bounds of sqrt(lambda_max(K~)) "
      "and lambda_max(C~), K and C positive semi-definite: {}",
      omega_b, omega_certified ? "certified" : "Gershgorin", c_b, c_certified ? "certified" : "Gershgorin", step.method);
}

// Whether a row of a first-order-system scheme can take the region's safe step: a Runge-Kutta
// stability polynomial, on a symmetric damped packing with K and C positive semi-definite.
bool region_applies(const std::string& spec, bool symmetric, bool damped, bool semidefinite) {
  return symmetric && damped && semidefinite && !integrator_info(spec).stability_polynomial.empty();
}

bool region_applies(const std::string& spec, const GlobalSystem& sys) {
  return region_applies(spec, sys.symmetric(), sys.damped(), sys.stiffness_semidefinite() && sys.damping_semidefinite());
}

// set_region_step on an upper-bound row of sys, where the region applies (omega_b, c_b == 0:
// Gershgorin's bounds).
void add_region_step(PackingIntegratorLimit& out, const GlobalSystem& sys, double omega_b = 0.0, double c_b = 0.0) {
  if (!out.upper_bound || !region_applies(out.name, sys)) return;
  const bool omega_gershgorin = omega_b == 0.0, c_gershgorin = c_b == 0.0;
  if (omega_gershgorin) omega_b = std::sqrt(sys.gershgorin_bound(1.0, 0.0) * (1.0 + 1e-12));
  if (c_gershgorin) c_b = sys.gershgorin_bound(0.0, 1.0) * (1.0 + 1e-12);
  set_region_step(out, omega_b, !omega_gershgorin, c_b, !c_gershgorin);
}

// A damped first-order-system row (explicit Euler, RK4) whose path does not compute the eigenvalues
// of the first-order system (above first_order_arnoldi_dofs, or the distributed analysis): the
// region's proven safe step alone, from the Gershgorin bounds k, c (already rounded up), and no
// limit; where the region gives no step (explicit Euler), the row is not computed.
PackingIntegratorLimit region_only_row(const std::string& spec, Index dofs, double k, double c, const std::string& why) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  set_region_step(out, std::sqrt(k), false, c, false);
  const double order = 2.0 * static_cast<double>(dofs);
  const std::string cost = fmt::format("every eigenvalue of the first-order system, a dense solve of order {:.0f} ({:.3g} GB "
                                       "for its matrix alone, time growing as its order cubed)",
                                       order, order * order * 8e-9);
  if (!std::isfinite(out.h_safe)) {
    out.computed = false;
    out.method = fmt::format("damped, {} dofs: {}; no safe step either ({}); the limit needs --eigensolver dense: {}",
                             dofs, why, out.h_safe_method, cost);
    return out;
  }
  out.upper_bound = true;  // the limit lies above h_safe; h_crit (its upper end) is not computed
  out.bound = {"limit not computed", "a step above the proven safe step is stable", "--eigensolver dense", cost};
  out.method = fmt::format("damped, {} dofs: {}; a proven safe step only, the limit itself lies above it", dofs, why);
  return out;
}

// What dense eigenvalue solves of a scheme's amplification matrix cost on a packing of dofs dofs: the
// order is the scheme's values per dof times the dofs (two for a dashpot family's recurrence,
// family_recurrence_matrix), growing as the order cubed from what was measured on 2 cores
// (packing/README.md): four solves of velocity Verlet's recurrence took 55.7 s at order 3072 (1536
// dofs), four of its amplification matrix 106 s at order 4608; an implicit scheme's matrix takes
// longer to build (a solve per column), and 22 of gs4_v0's took 78 s at order 1800 (in.granular).
std::string dense_solves_cost(const std::string& spec, Index dofs, int solves) {
  LinearSystem one(Vector::Ones(1), Matrix::Constant(1, 1, 1.0), Matrix::Constant(1, 1, 0.1));
  const auto integ = make_integrator(spec);
  const bool implicit = !integrator_info(spec).is_explicit;
  const bool family = integrator_info(spec).dashpot_velocity != DashpotVelocity::other;
  const Index order = (family ? 2 : amplification_matrix(*integ, one, 1.0).rows()) * dofs;
  const double each = family ? 55.7 / 4.0 : implicit ? 78.0 / 22.0 : 106.0 / 4.0;
  const double at = family ? 3072.0 : implicit ? 1800.0 : 4608.0;
  const double seconds = each * solves * std::pow(static_cast<double>(order) / at, 3.0);
  return fmt::format("dense: {} eigenvalue solves of order {} per row, growing as the order cubed from {} on 2 cores: "
                     "about {} here",
                     solves, order,
                     family     ? "55.7 s for four at order 3072"
                     : implicit ? "78 s for 22 of an implicit scheme at order 1800"
                                : "106 s for four at order 4608",
                     seconds < 90.0     ? fmt::format("{:.0f} s", seconds)
                     : seconds < 3600.0 ? fmt::format("{:.0f} min", seconds / 60.0)
                                        : fmt::format("{:.2g} h", seconds / 3600.0));
}

// A damped row that no criterion of the spectrum decides (context: the packing; why: what is missing),
// where its amplification matrix is not scanned (scanned_row): above scan_dofs, or on a path
// without the whole system. No limit, and no step or verdict from it.
PackingIntegratorLimit undecided_row(const std::string& spec, Index dofs, bool whole_system, const std::string& context,
                                     const std::string& why, const PackingAnalysisOptions& opts) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  out.computed = false;
  out.method = fmt::format(
      "{}: {}; its own amplification matrix decides, scanned at {} steps {}: no limit here", context, why, scan_steps,
      whole_system || dofs > opts.scan_dofs
          ? fmt::format("up to --scan-dofs = {} only ({})", opts.scan_dofs,
                        dense_solves_cost(spec, dofs, scan_steps))
          : std::string("on the whole LinearSystem(M, K, C) on one process: run without mpirun"));
  return out;
}

// The same row from its own amplification matrix (a dashpot family's row: the family's recurrence)
// on the whole system (scan_amplification): stable at
// every step checked, or the first step found unstable, bisected. omega_ref: sqrt of the largest
// |eigenvalue| of M^-1 K; sigma > 0: the packing's own growth rate.
PackingIntegratorLimit scanned_row(const std::string& spec, const GlobalSystem& sys, double omega_ref, double sigma,
                                   const std::string& context, const std::string& why,
                                   const PackingAnalysisOptions& opts) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  LinearSystem ls = sys.linear_system();
  const CrossingCheck scan = scan_amplification(spec, ls, omega_ref, sigma, opts.progress);
  const std::string steps = fmt::format("h = 2^k / omega_ref, k = {} ... {}, omega_ref = {:.6g} rad/s",
                                        scan_first_power, scan_last_power, omega_ref);
  const std::string growth =
      sigma > 0.0 ? fmt::format("exp(2 sigma h), sigma = {:.6g} 1/s the packing's own growth rate", sigma) : "1";
  if (std::isnan(scan.first_unstable)) {
    out.stability = Stability::unconditional;
    out.method = fmt::format(
        "{}: {}; {} on LinearSystem(M, K, C) has spectral radius at most (1 + 1e-6) x {} at each of the {} steps {}: "
        "stable at every step checked (checked at these steps only; --scan-dofs = {})",
        context, why, scan.matrix, growth, scan_steps, steps, opts.scan_dofs);
    return out;
  }
  // Unstable at the smallest step: bisected towards 0, as critical_step reads "unstable" below its
  // smallest Omega.
  if (scan.first_unstable < checked_omega_min / omega_ref) {
    out.stability = Stability::unstable;
    out.method = fmt::format("{}: {}; {} on LinearSystem(M, K, C) has spectral radius above (1 + 1e-6) x {} at every "
                             "step checked, {} and, bisected towards 0, down to {:.3g} s: unstable",
                             context, why, scan.matrix, growth, steps, scan.first_unstable);
    return out;
  }
  out.h_crit = scan.limit;
  out.method = fmt::format(
      "{}: {}; {} on LinearSystem(M, K, C) is unstable above {:.6g} s (its spectral radius passes (1 + 1e-6) x {} at "
      "{:.6g} s, scanned at {}, bisected between the last step found stable and the first found unstable; the limit "
      "is {})",
      context, why, scan.matrix, scan.limit, growth, scan.first_unstable, steps, scan.located);
  return out;
}

// The row of a first-order-system scheme from A's eigenvalues sp.s (first_order_limit): exact when
// every eigenvalue was computed, else an upper bound (or unstable, when a mode computed is).
PackingIntegratorLimit first_order_row(const std::string& spec, const GlobalSystem& sys, const Spectrum& sp,
                                       const PhysicalStability& phys) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  const double sigma = phys.unstable ? phys.growth_rate : 0.0;
  double s_max = 0.0;
  for (const auto z : sp.s) s_max = std::max(s_max, std::abs(z));
  const CriticalStep c = first_order_limit(spec, sp.s, sigma, phys.tolerance * s_max);
  out.stability = c.stability;
  out.h_crit = c.stability == Stability::conditional ? c.h_crit : kNaN;
  label_modes_computed(out, sp.complete,
                       fmt::format("an eigenvalue of the first-order system outside the {} of largest magnitude "
                                   "computed, less damped, sets a lower limit",
                                   sp.s.size()),
                       "every eigenvalue");
  out.method = fmt::format(
      "damped, {}{} dofs: a step of y' = Ay, so each eigenvalue s of the first-order system steps as "
      "the scalar oscillator with roots s, s*; the least of their limits ({}{})",
      sys.symmetric() ? "" : "non-symmetric, ", sys.dofs(), sp.complete ? "every eigenvalue" : "only the largest eigenvalues",
      sp.complete                                  ? ", exact"
      : out.stability == Stability::unstable       ? ": one of them is unstable at every step"
      : out.upper_bound                            ? ": an upper bound of the limit"
                                                   : ": a mode not computed may still be unstable");
  add_region_step(out, sys);
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Replaces each symmetric limit's Gershgorin h_safe by the lower end h_low of its bracket less
// certificate_margin, proven by a Cholesky factorisation of its criterion (one per criterion, shared
// by the rows): at omega_max's upper end omega_max sqrt(1 + residual), at the damped root's h_low.
// So the proof does not depend on rtol, and a criterion that does not factorise means the
// eigensolver missed the top of the spectrum: the limit is then too large and withdrawn. A
// Runge-Kutta row's region step is redone with omega_max and lambda_max(C~) (Lanczos, eigen)
// certified: its upper bound is Arnoldi's and stays.
void certify_limits(const GlobalSystem& sys, PackingReport& r, const EigenOptions& eigen) {
  std::optional<Certificate> omega, half;
  std::optional<double> damping_top;  // a certified upper bound of lambda_max(C~); 0: none
  for (auto& row : r.integrators) {
    if (!row.computed || !row.exact || !row.converged || row.stability != Stability::conditional ||
        (!std::isfinite(row.h_crit) && !row.region_step) || row.free_modes > 0)
      continue;
    const DashpotVelocity dashpot = integrator_info(row.name).dashpot_velocity;
    Certificate* cert = nullptr;
    Certificate own;  // a row's own -1 line: no other row shares it
    double step = kNaN;
    const bool by_omega_max = row.line && row.line->dashpot == 0.0 && row.line->stiffness > 0.0;  // 2 / (sqrt(s) omega_max)
    if (!r.damped || dashpot == DashpotVelocity::central_difference || by_omega_max) {
      if (!omega) omega = certify_omega_max(sys, r.omega_max * std::sqrt(1.0 + r.eigen_residual));
      cert = &*omega;
      step = row.h_crit * r.omega_max * omega->step;  // Omega_crit / omega_cert
    } else if (dashpot == DashpotVelocity::backward_difference && std::isfinite(r.h_exact) && r.h_exact_converged) {
      if (!half) half = certify_half_step(sys, row.h_low);  // the rows share the criterion and its bracket
      cert = &*half;
      step = half->step * row.h_crit / r.h_exact;  // the rows share the criterion: h_crit = h_exact
    } else if (row.region_step) {  // the eigenvalues' region again, omega_b now certified
      if (!omega) omega = certify_omega_max(sys, r.omega_max * std::sqrt(1.0 + r.eigen_residual));
      if (!omega->holds) continue;  // the Gershgorin h_safe stands; the upper bound is Arnoldi's, not Lanczos'
      if (!damping_top) {  // Lanczos on C~, its Ritz value raised by the residual and the margin, proven
        const TopAtStep top = top_eigenvalue(sys, 0.0, 1.0, eigen, 1e-6);
        const double c = (top.lambda + std::max(top.residual, 0.0)) * (1.0 + certificate_margin);
        damping_top = std::isfinite(c) && c > 0.0 && positive_definite(sys, c, -1.0, 0.0) ? c : 0.0;
      }
      add_region_step(row, sys, 1.0 / omega->step, *damping_top);
      if (std::isfinite(row.h_safe)) {
        row.h_safe_method = fmt::format("certified (Cholesky of omega^2 M - K at omega^2 = omega_max^2 (1 + {:g}){}): {}",
                                        certificate_margin,
                                        *damping_top > 0.0 ? " and of c_b M - C" : "", row.h_safe_method);
        row.certified = true;
      }
      continue;
    } else if (row.line && row.line->dashpot != 0.0 && std::isfinite(row.h_low)) {
      own = certify_minus_one_line(sys, row.h_low, *row.line);  // a scheme's own -1 line
      cert = &own;
      step = cert->step;
    } else {
      continue;  // the amplification matrix of the whole system (dense, exact): no criterion to factorise
    }
    if (cert->holds) {
      row.h_safe = step;
      row.h_safe_method = "certified: " + cert->method;
      row.certified = true;
    } else {
      row.converged = false;
      row.h_crit = kNaN;
      row.method += "; withdrawn: " + cert->method + " failed, so the eigensolver missed the top of the spectrum";
    }
  }
}

}  // namespace

bool first_order_from_eigenvalues(const std::string& spec, Index dofs, const PackingAnalysisOptions& opts) {
  return integrator_info(spec).first_order_system && dofs > opts.amplification_dofs &&
         (dofs <= first_order_arnoldi_dofs || opts.eigen.method == EigenMethod::dense);
}

// The eigenvalues of A for the Runge-Kutta rows, to 1e-8 (the non-symmetric rows' tolerance): every
// one up to the dense size; above, the pair of largest magnitude (an upper bound needs no more: 81 000
// dofs, 2.4 s against 5.9 s for six to 1e-10, the same bound to 2e-14) in at most 200 restarts, and
// where that pair does not converge (a cluster at the top of the spectrum: 1536 polydisperse FCC
// dofs) the six of largest magnitude. nullopt with `why` when neither converges.
static std::optional<Spectrum> first_order_eigenvalues_for_rows(const GlobalSystem& sys, double omega_max,
                                                         const PackingAnalysisOptions& opts,
                                                         std::function<void(Index)> progress, std::string& why) {
  SpectrumOptions so;
  so.tolerance = 1e-8;
  so.max_restarts = opts.first_order_max_restarts;
  so.progress = std::move(progress);
  if (opts.eigen.method == EigenMethod::dense) so.dense_below = std::numeric_limits<Index>::max();
  if (sys.dofs() > so.dense_below) {
    SpectrumOptions pair = so;
    pair.nev = 2;
    pair.ncv = 20;
    pair.max_restarts = std::min<Index>(200, so.max_restarts);
    try {
      return first_order_spectrum(sys, omega_max, pair);
    } catch (const std::exception&) {
    }
  }
  try {
    return first_order_spectrum(sys, omega_max, so);
  } catch (const std::exception& e) {
    why = e.what();
    return std::nullopt;
  }
}

// The rows of first_order_from_eigenvalues when A's eigenvalues did not converge: no limit; where the
// eigenvalue region applies, its proven safe step alone (as above first_order_arnoldi_dofs), else no
// number at all.
static PackingIntegratorLimit first_order_row_not_converged(const std::string& spec, const GlobalSystem& sys,
                                                     const std::string& why) {
  const std::string what = fmt::format("the eigenvalues of the first-order system did not converge ({})", why);
  if (region_applies(spec, sys))
    return region_only_row(spec, sys.dofs(), sys.gershgorin_bound(1.0, 0.0) * (1.0 + 1e-12),
                           sys.gershgorin_bound(0.0, 1.0) * (1.0 + 1e-12), what);
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, false};
  out.method = fmt::format("damped, {} dofs: {}: no limit", sys.dofs(), what);
  return out;
}

// A damped row whose -1 line decides only below h_locus = alpha x locus_ratio (registry.hpp
// LocusLimitedLine: gear5), K and C symmetric positive semi-definite, k and c Gershgorin bounds of
// K~ and C~. Below h_locus every eigenvalue of the one-step map that reaches the unit circle does so
// at -1, so the line's first root is the limit where it lies below h_locus; elsewhere it is an upper
// bound (past it a real eigenvalue lies below -1), and a step below both h_locus and the line's
// Gershgorin root is proven safe. nullopt where this path cannot find the root.
std::optional<PackingIntegratorLimit> locus_limited_row(const std::string& spec, const SpectrumFacts& f,
                                                        const LocusLimitedLine& limited, double k, double c) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  const double d = limited.line.dashpot, s = limited.line.stiffness;
  std::optional<DampedLimit> root = f.scaled_half_step ? f.scaled_half_step(d / (2.0 * std::sqrt(s))) : std::nullopt;
  if (!root) return std::nullopt;
  const std::string matrix = minus_one_line_text(limited.line);
  const double alpha = f.damping_over_stiffness, h_locus = alpha * limited.locus_ratio;
  const double line_safe = (std::sqrt(d * d * c * c + 16.0 * s * k) - d * c) / (2.0 * s * k);
  const std::string premise = fmt::format(
      "damped, {} dofs, K and C positive semi-definite, C >= {:.6g} s x K contact by contact: the scheme's characteristic "
      "polynomial is a(l)M + h b(l)C + h^2 c(l)K, and its damped oscillators leave the unit circle off -1 only where "
      "h k / c >= {:g}, so below h = {:.6g} s only at -1",
      f.dofs, alpha, limited.locus_ratio, h_locus);
  out.h_crit = root->h_crit / std::sqrt(s);
  out.converged = root->converged;
  if (out.converged && out.h_crit < h_locus) {
    out.h_low = root->h_low / std::sqrt(s);
    out.method = premise + fmt::format("; the limit is the first h where {} is singular (exact)", matrix);
    out.h_safe = line_safe;
    out.h_safe_method = fmt::format("root of 4 - {:.6g} hc - {:.6g} h^2 k, c and k Gershgorin bounds of C~ and K~", d, s);
    out.line = limited.line;
    return out;
  }
  if (!out.converged) {
    out.h_crit = kNaN;
    out.method = premise + fmt::format("; the first h where {} is singular was not found (its eigenvalue solves did not "
                                       "converge): no limit", matrix);
    return out;
  }
  out.upper_bound = true;
  out.bound = {"-1 crossing",
               alpha > 0.0 ? fmt::format("a complex pair of eigenvalues leaves the unit circle between {:.6g} s and it",
                                         h_locus)
                           : std::string("a complex pair of eigenvalues leaves the unit circle below it (a spring "
                                         "without a dashpot: the damping does not bound h k / c)"),
               "--amplification-dofs", "the whole amplification matrix: a dense eigenvalue scan, growing as dofs^3"};
  out.method = fmt::format("{}; the first h where {} is singular lies above that: an upper bound of the limit",
                           alpha > 0.0 ? premise : fmt::format("damped, {} dofs, K and C positive semi-definite, but some "
                                                               "contact's spring has no dashpot", f.dofs),
                           matrix);
  if (h_locus > 0.0) {
    out.h_safe = std::min(line_safe, h_locus * (1.0 - 1e-12));
    out.h_safe_method = fmt::format("the least of the root of 4 - {:.6g} hc - {:.6g} h^2 k (c and k Gershgorin bounds "
                                    "of C~ and K~) and {:.6g} s x {:g}",
                                    d, s, alpha, limited.locus_ratio);
  }
  return out;
}

std::optional<PackingIntegratorLimit> limit_from_spectrum(const std::string& spec, const SpectrumFacts& f,
                                                         const PackingAnalysisOptions& opts, std::string* scan_why) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  auto from = [&](const CriticalStep& c, double scale) {
    out.stability = c.stability;
    out.h_crit = c.stability == Stability::conditional ? c.h_crit * scale : kNaN;
  };
  // Upper bounds of lambda_max of M^-1/2 K M^-1/2 and M^-1/2 C M^-1/2 (row sums rounded up).
  const double k = f.gershgorin_k * (1.0 + 1e-12), c = f.gershgorin_c * (1.0 + 1e-12);
  if (!f.damped) {
    const CriticalStep scalar = scalar_limit(spec, 0.0);
    from(scalar, 1.0 / f.omega_max);
    out.h_low = out.h_crit / std::sqrt(1.0 + f.omega_residual);
    if (scalar.stability == Stability::conditional) {
      out.h_safe = scalar.h_crit / std::sqrt(k);
      out.h_safe_method = "Omega_crit / sqrt(Gershgorin bound of omega_max^2)";
    }
    out.method = "undamped: Omega_crit(scalar oscillator) / omega_max, exact by modal decomposition";
    return out;
  }
  const DashpotVelocity dashpot = integrator_info(spec).dashpot_velocity;
  if (dashpot == DashpotVelocity::backward_difference) {
    if (!f.half_step) return std::nullopt;
    out.h_crit = f.half_step->h_crit;
    out.h_low = f.half_step->h_low;
    out.converged = f.half_step->converged;
    out.method = "damped, dashpot at (x_n - x_{n-1})/h: first h where 4M - 2hC - h^2 K is singular (exact)";
    out.h_safe = (std::sqrt(c * c + 4.0 * k) - c) / k;
    out.h_safe_method = "root of 4 - 2hc - h^2 k, c and k Gershgorin bounds of C~ and K~";
    return out;
  }
  if (dashpot == DashpotVelocity::central_difference) {
    out.h_crit = 2.0 / f.omega_max;
    out.h_low = out.h_crit / std::sqrt(1.0 + f.omega_residual);
    out.method = "damped, dashpot at v_{n+1}: first h where 4M - h^2 K is singular, 2 / omega_max (exact)";
    out.h_safe = 2.0 / std::sqrt(k);
    out.h_safe_method = "2 / sqrt(Gershgorin bound of omega_max^2)";
    return out;
  }
  if (f.dofs <= opts.amplification_dofs) return std::nullopt;  // the amplification matrix of the whole system
  if (integrator_info(spec).first_order_system) {
    if (f.whole_system && first_order_from_eigenvalues(spec, f.dofs, opts)) return std::nullopt;  // A's eigenvalues
    if (region_applies(spec, true, true, f.semidefinite))
      return region_only_row(
          spec, f.dofs, k, c,
          f.whole_system ? fmt::format("the eigenvalues of the first-order system are computed up to {} dofs only "
                                       "(Arnoldi on larger packings takes minutes)",
                                       first_order_arnoldi_dofs)
                         : std::string("the distributed analysis does not compute the eigenvalues of the first-order "
                                       "system"));
  }
  std::string why =
      integrator_info(spec).first_order_system
          ? fmt::format("its limit needs the eigenvalues of the first-order system (computed up to {} dofs) or, for a "
                        "safe step, K and C positive semi-definite by construction",
                        first_order_arnoldi_dofs)
          : std::string("no -1 line of its own gives its limit");
  if (const auto& limited = integrator_info(spec).locus_limited_line) {
    if (f.semidefinite) return locus_limited_row(spec, f, *limited, k, c);
    why = "its -1 line " + minus_one_line_text(limited->line) + " decides only when K and C are positive "
          "semi-definite, which this packing's contacts do not guarantee";
  }
  if (const auto line = integrator_info(spec).minus_one_line) {
    const double d = line->dashpot, s = line->stiffness;
    const std::string matrix = minus_one_line_text(*line);
    // Every eigenvalue of the one-step map, with eigenvector v, is a root of the scalar oscillator
    // with c = v*Cv / v*Mv and k = v*Kv / v*Mv (the characteristic matrix polynomial is a(l) M +
    // h b(l) C + h^2 c(l) K); with c, k >= 0 that oscillator has no root outside the unit circle
    // unless 4 - d hc - s h^2 k <= 0. So the map is stable while the -1 line's matrix is positive
    // definite, and has the eigenvalue -1 where it turns singular (packing/README.md).
    const std::string premise = fmt::format(
        "damped, {} dofs, K and C positive semi-definite: the scheme's characteristic polynomial is "
        "a(l)M + h b(l)C + h^2 c(l)K and its damped oscillators leave the unit circle only at -1, so ",
        f.dofs);
    if (!f.semidefinite) {
      why = "its -1 line " + matrix + " gives the limit only when K and C are positive semi-definite, "
                     "which this packing's contacts do not guarantee";
    } else if (d <= 0.0 && s <= 0.0) {
      out.stability = Stability::unconditional;
      out.h_crit = kNaN;
      out.method = premise + matrix + " stays positive definite at every step: stable at every step (exact)";
      out.line = line;
      return out;
    } else if (s > 0.0 && d == 0.0) {
      out.h_crit = 2.0 / (std::sqrt(s) * f.omega_max);
      out.h_low = out.h_crit / std::sqrt(1.0 + f.omega_residual);
      out.method = premise + fmt::format("the limit is the first h where {} is singular, 2 / (sqrt({:.6g}) omega_max) "
                                         "(exact)", matrix, s);
      out.h_safe = 2.0 / std::sqrt(s * k);
      out.h_safe_method = fmt::format("2 / sqrt({:.6g} x Gershgorin bound of omega_max^2)", s);
      out.line = line;
      return out;
    } else if (s > 0.0) {
      // 4M - d hC - s h^2 K = 4M - 2f uC - u^2 K with u = sqrt(s) h, f = d / (2 sqrt(s)); d < 0:
      // dashpots that stabilise (Newmark with gamma > 1/2 and 2 beta < gamma), f < 0 in the same root.
      const double factor = d / (2.0 * std::sqrt(s));
      std::optional<DampedLimit> root = factor == 1.0 ? f.half_step : std::nullopt;
      if (!root && f.scaled_half_step) root = f.scaled_half_step(factor);
      if (!root) return std::nullopt;  // this path cannot find the root
      out.h_crit = root->h_crit / std::sqrt(s);
      out.h_low = root->h_low / std::sqrt(s);
      out.converged = root->converged;
      out.method = premise + fmt::format("the limit is the first h where {} is singular (exact)", matrix);
      if (d > 0.0) {
        out.h_safe = (std::sqrt(d * d * c * c + 16.0 * s * k) - d * c) / (2.0 * s * k);
        out.h_safe_method = fmt::format("root of 4 - {:.6g} hc - {:.6g} h^2 k, c and k Gershgorin bounds of C~ and K~", d, s);
      } else {  // dashpots that stabilise: 4M - s h^2 K is a lower bound of the line's matrix
        out.h_safe = 2.0 / std::sqrt(s * k);
        out.h_safe_method = fmt::format("2 / sqrt({:.6g} x Gershgorin bound of omega_max^2), the dashpots left out", s);
      }
      out.line = line;
      return out;
    } else if (s == 0.0 && d > 0.0) {
      // 4M - d hC loses definiteness at h = 4 / (d lambda_max(C~)) (variational_2's line).
      std::optional<TopAtStep> top = f.damping_top ? f.damping_top(0.25 * opts.rtol) : std::nullopt;
      if (!top) return std::nullopt;  // this path cannot find lambda_max(C~)
      const double theta = top->lambda, upper = top->lambda + std::max(top->residual, 0.0);
      // A Ritz value never exceeds lambda_max: h_crit is an upper end; h_low holds if it is the top.
      out.h_crit = theta > 0.0 ? 4.0 / (d * theta) : kNaN;
      out.h_low = upper > 0.0 ? 4.0 / (d * upper) : kNaN;
      out.converged = std::isfinite(out.h_crit) && std::isfinite(out.h_low) &&
                      out.h_crit - out.h_low <= opts.rtol * out.h_crit;
      if (!out.converged) out.h_crit = out.h_low = kNaN;
      out.method = premise + fmt::format("the limit is the first h where {} is singular, 4 / ({:.6g} lambda_max("
                                         "M^-1/2 C M^-1/2)) (exact)", matrix, d);
      out.h_safe = 4.0 / (d * c);
      out.h_safe_method = fmt::format("4 / ({:.6g} x Gershgorin bound of lambda_max(C~))", d);
      out.line = line;
      return out;
    } else {
      why = "its -1 line " + matrix + " is reached through the dashpots alone: its root is not computed";
    }
  }
  // No criterion: the scheme's own amplification matrix, scanned at steps where the caller has the
  // whole system (packing_integrator_limit: scanned_row).
  if (f.whole_system && f.dofs <= opts.scan_dofs) {
    if (scan_why) *scan_why = why;
    return std::nullopt;
  }
  return undecided_row(spec, f.dofs, f.whole_system, fmt::format("damped, {} dofs", f.dofs), why, opts);
}

PackingIntegratorLimit packing_integrator_limit(const std::string& spec, const GlobalSystem& sys, double omega_max,
                                                double zeta, const PackingAnalysisOptions& opts,
                                                std::optional<DampedLimit> half_step_limit, double omega_residual) {
  const bool backward = sys.damped() && dashpots_read_backward_difference(spec);
  if (backward && !half_step_limit)
    half_step_limit = half_step_damped_limit(sys, omega_max, opts.eigen, zeta, opts.rtol);
  const auto line = integrator_info(spec).minus_one_line;
  SpectrumFacts f;
  f.damped = sys.damped();
  f.dofs = sys.dofs();
  f.omega_max = omega_max;
  f.omega_residual = omega_residual;
  f.top_mode_zeta = zeta;
  f.gershgorin_k = sys.gershgorin_bound(1.0, 0.0);
  const bool first_order = integrator_info(spec).first_order_system;
  const bool limited = integrator_info(spec).locus_limited_line.has_value();
  f.gershgorin_c = f.damped && (backward || (line && line->dashpot > 0.0) || limited || first_order)
                       ? sys.gershgorin_bound(0.0, 1.0)
                       : 0.0;
  f.half_step = half_step_limit;
  // (a -1 line's premise, and the region's of first-order rows)
  f.semidefinite = f.damped && (line || limited || first_order) && sys.stiffness_semidefinite() &&
                   sys.damping_semidefinite();
  if (f.damped && limited) f.damping_over_stiffness = sys.damping_over_stiffness();
  f.scaled_half_step = [&](double factor) -> std::optional<DampedLimit> {
    return half_step_damped_limit(sys, omega_max, opts.eigen, zeta, opts.rtol, factor);
  };
  f.damping_top = [&](double tolerance) -> std::optional<TopAtStep> {
    return top_eigenvalue(sys, 0.0, 1.0, opts.eigen, tolerance);
  };
  if (f.damped && first_order_from_eigenvalues(spec, f.dofs, opts)) {  // (analyse_packing solves once for all such rows)
    std::string why;
    const std::optional<Spectrum> sp = first_order_eigenvalues_for_rows(sys, omega_max, opts, {}, why);
    return sp ? first_order_row(spec, sys, *sp, physical_stability(*sp, true)) : first_order_row_not_converged(spec, sys, why);
  }
  std::string scan_why;
  if (auto l = limit_from_spectrum(spec, f, opts, &scan_why)) return *l;
  if (!scan_why.empty())  // no criterion decides: the scan (limit_from_spectrum)
    return scanned_row(spec, sys, omega_max, 0.0, fmt::format("damped, {} dofs", f.dofs), scan_why, opts);
  LinearSystem ls = sys.linear_system();
  const CriticalStep c = critical_step(spec, ls, omega_max);
  PackingIntegratorLimit out{spec, c.stability, c.stability == Stability::conditional ? c.h_crit : kNaN, "", true, true};
  out.free_modes = c.free_modes;
  out.crossing_certified = c.crossing_certified;
  out.method = "damped: amplification matrix of the integrator on LinearSystem(M, K, C) (exact); " + c.method;
  if (c.free_modes > 0)
    out.method += fmt::format("; {} free modes (common null space of K and C: drift, not instability) set aside", c.free_modes);
  return out;
}

PackingIntegratorLimit nonsymmetric_integrator_limit(const std::string& spec, const GlobalSystem& sys,
                                                     const Spectrum& sp, const PhysicalStability& phys,
                                                     const PackingAnalysisOptions& opts, const CrossingFinder& crossing,
                                                     const CrossingChecker& check) {
  PackingIntegratorLimit out{spec, Stability::conditional, kNaN, "", true, true};
  double mu_max = 0.0;
  for (auto m : sp.mu) mu_max = std::max(mu_max, std::abs(m));
  const double omega_ref = std::sqrt(mu_max);
  const double sigma = phys.unstable ? phys.growth_rate : 0.0;
  if (!sys.damped()) {
    // Modes decouple exactly; only the largest real positive mu can set the limit among the real
    // ones (the scalar limit scales as 1/sqrt(mu)); every complex pair and the most negative real
    // mode get their own 2-dof system.
    const double tol = phys.tolerance * mu_max;
    std::vector<std::complex<double>> own;
    std::complex<double> most_negative(0.0, 0.0);
    double top_real = 0.0;
    std::size_t complex_modes = 0;
    constexpr std::size_t max_complex = 16;
    for (auto m : sp.mu) {
      if (std::abs(m.imag()) > tol) {
        if (m.imag() > 0.0 && ++complex_modes <= max_complex) own.push_back(m);
      } else if (m.real() > tol) {
        top_real = std::max(top_real, m.real());
      } else if (m.real() < most_negative.real()) {
        most_negative = {m.real(), 0.0};
      }
    }
    if (most_negative.real() < -tol) own.push_back(most_negative);
    std::vector<CriticalStep> limits;
    if (top_real > 0.0) {
      CriticalStep c = scalar_limit(spec, 0.0);
      if (c.stability == Stability::conditional) c.h_crit /= std::sqrt(top_real);
      limits.push_back(c);
    }
    for (auto m : own) limits.push_back(mode_limit(spec, m));
    CriticalStep least{Stability::unconditional, kNaN};
    for (const auto& c : limits) fold_least_limit(least, c);
    out.stability = least.stability;
    out.h_crit = least.h_crit;
    // Exact unless a mode not computed sets a lower limit: a real mu cannot (the largest were
    // computed), a complex or negative one (flutter, divergence) can.
    const bool every_mode = sp.complete && complex_modes <= max_complex;
    label_modes_computed(out, every_mode,
                         fmt::format("a mode of M^-1 K outside the {} of largest magnitude computed is complex or "
                                     "negative (flutter, divergence) and sets a lower limit",
                                     sp.mu.size()),
                         "every mode");
    out.method = fmt::format(
        "undamped, non-symmetric: modes of M^-1 K, each mode's first h where the scheme's growth per step exceeds "
        "exp(2 sigma h) ({}{})",
        sp.complete ? "every eigenvalue" : "only the largest eigenvalues",
        every_mode ? ", exact" : ": an upper bound of the limit");
    return out;
  }
  if (sys.dofs() <= opts.amplification_dofs) {
    LinearSystem ls = sys.linear_system();
    const CriticalStep c = growth_limit(spec, ls, sigma, omega_ref);
    out.stability = c.stability;
    out.h_crit = c.h_crit;
    out.method = fmt::format(
        "damped, non-symmetric: first h where the amplification matrix of the integrator on LinearSystem(M, K, C) "
        "grows faster than exp(2 sigma h), sigma = {:.6g} 1/s (exact)",
        sigma);
    return out;
  }
  const IntegratorInfo& info = integrator_info(spec);
  // The trapezoidal rule is R(hA) too, with R A-stable: a growing packing's rates set its limit (the
  // oscillators of first_order_row, on the scheme's code); a stable one's is none, whichever s were
  // computed.
  if ((info.first_order_system || (info.trapezoidal_rule && phys.unstable)) && !sp.s.empty())
    return first_order_row(spec, sys, sp, phys);
  if (info.first_order_system && !sp.first_order_failure.empty())
    return first_order_row_not_converged(spec, sys, sp.first_order_failure);
  if (info.trapezoidal_rule) {
    out.stability = Stability::unconditional;
    out.method = fmt::format(
        "damped, non-symmetric, {} dofs: the trapezoidal rule on y' = Ay, so each eigenvalue of its one-step map is "
        "(1 + hs/2) / (1 - hs/2) for an eigenvalue s of the first-order system, inside the unit circle at every h "
        "where Re s < 0 (A-stable): stable at every step wherever the packing is physically stable (exact; a mode "
        "growing at the rate sigma grows per step by less than exp(2 sigma h) up to h = 1.9 / sigma)",
        sys.dofs());
    return out;
  }
  // gear5's line too: past its first root a real eigenvalue lies below -1, whatever the locus.
  std::optional<MinusOneLine> line = damped_minus_one_line(spec);
  if (!line && info.locus_limited_line) line = info.locus_limited_line->line;
  if (line && (line->stiffness > 0.0 || (line->stiffness == 0.0 && line->dashpot > 0.0))) {
    // The first -1 crossing of the one-step map: 4M - d hC - s h^2 K singular (nonsymmetric.hpp).
    const MinusOneCrossing x =
        crossing ? crossing(*line) : minus_one_crossing(sys, line->dashpot, {}, false, line->stiffness);
    const std::string matrix = minus_one_line_text(*line);
    if (!x.found) {
      // No real root among those computed: neither a limit nor its absence is shown (Arnoldi sees
      // only the roots of largest real part, and complex crossings were not looked for).
      out.h_crit = kNaN;
      out.converged = false;
      out.method = fmt::format("damped, non-symmetric, {} dofs: no real root of det({}) = 0 among {}: no limit found",
                               sys.dofs(), matrix, x.method);
      return out;
    }
    out.h_crit = x.h;
    const std::string crossing_text = fmt::format(
        "damped, non-symmetric, {} dofs: first h where {} is singular (the -1 crossing: unstable above it; {}{})",
        sys.dofs(), matrix, x.method,
        std::isfinite(x.residual) ? fmt::format(", relative residual {:.2g}", x.residual) : "");
    if (sys.dofs() > opts.crossing_check_dofs) {
      out.upper_bound = true;
      out.method = fmt::format("{}; complex eigenvalues of the one-step map leaving the unit circle below it are "
                               "checked up to --crossing-check-dofs = {} only: an upper bound of the limit",
                               crossing_text, opts.crossing_check_dofs);
      // What the check would cost here, so that a user can tell minutes from days.
      out.bound.decide_cost = dense_solves_cost(spec, sys.dofs(), 4);
      return out;
    }
    // The integrator's own amplification matrix below the crossing, where complex pairs could leave
    // the unit circle first (the discrete growth of a circulatory coupling is amplified by
    // 1 / sqrt(1 - (h omega / 2)^2), largest near the crossing).
    const auto compute = [&] {
      LinearSystem ls = sys.linear_system();
      return check_below_crossing(spec, ls, x.h, sigma, {0.5, 0.9, 0.99, 1.0 - 1e-6}, opts.progress);
    };
    const CrossingCheck below = check ? check(spec, x.h, compute) : compute();
    if (std::isnan(below.first_unstable)) {
      out.method = fmt::format("{}; no complex crossing found below it: the spectral radius of {} is at most 1 + 1e-6 "
                               "at 0.5, 0.9, 0.99 and 1 - 1e-6 of it (checked at these four steps only; "
                               "--crossing-check-dofs = {})",
                               crossing_text, below.matrix, opts.crossing_check_dofs);
      return out;
    }
    out.h_crit = below.limit;
    out.method = fmt::format(
        "damped, non-symmetric, {} dofs: a complex pair leaves the unit circle at {:.6g} s, before the -1 crossing at "
        "{:.6g} s ({}: its spectral radius passes 1 + 1e-6 at {:.6g} s, bisected between the last of the checked "
        "steps found stable and the first found unstable; the limit is {})",
        sys.dofs(), below.limit, x.h, below.matrix, below.first_unstable, below.located);
    return out;
  }
  // No criterion: the scheme's own amplification matrix, scanned at steps.
  const std::string context = fmt::format("damped, non-symmetric, {} dofs", sys.dofs());
  const std::string why =
      line ? fmt::format("its -1 line {} is never reached (stable at every step on symmetric packings), but here a "
                         "complex pair of eigenvalues can leave the unit circle",
                         minus_one_line_text(*line))
           : std::string("no -1 line of its own gives its limit");
  if (sys.dofs() > opts.scan_dofs) return undecided_row(spec, sys.dofs(), true, context, why, opts);
  return scanned_row(spec, sys, omega_ref, sigma, context, why, opts);
}

namespace {

// The non-symmetric path of analyse_packing: omega_max, physical stability and every limit from
// the eigenvalues of M^-1 K and of the first-order system.
void analyse_nonsymmetric(const GlobalSystem& sys, const PackingAnalysisOptions& opts, PackingReport& r,
                          const std::function<void(std::string_view)>& say) {
  auto t0 = std::chrono::steady_clock::now();
  SpectrumOptions so;
  so.dense_below = opts.eigen.method == EigenMethod::dense ? std::numeric_limits<Index>::max() : opts.eigen.dense_below;
  // The non-symmetric rows carry no bracket (rtol does not reach them): Arnoldi keeps the residual
  // tolerance of before rtol, 1e-8, or a tighter one asked for.
  so.tolerance = std::min(opts.eigen.tolerance, 1e-8);
  so.first_order_max_restarts = opts.first_order_max_restarts;
  const bool arnoldi = opts.eigen.method == EigenMethod::lanczos || opts.eigen.method == EigenMethod::spectra;
  auto last_report = std::chrono::steady_clock::now();
  if (opts.progress)
    so.progress = [&](Index applications) {  // at most every 5 s
      if (seconds_since(last_report) < 5.0) return;
      last_report = std::chrono::steady_clock::now();
      say(fmt::format("  Arnoldi: {} operator applications in this run ({:.0f} s in this stage)", applications,
                      seconds_since(t0)));
    };
  say(fmt::format("non-symmetric K ({} contacts with full blocks, {} with torque arms r - delta/2): eigenvalues of M^-1 K{}",
                  sys.general_contacts(), sys.torque_arm_contacts(),
                  r.damped ? " and of the first-order system" : ""));
  const Spectrum sp = nonsymmetric_spectrum(sys, so, arnoldi && sys.dofs() > 2 * so.nev + 2);
  r.physical = physical_stability(sp, r.damped);
  r.omega_max = std::sqrt(std::abs(sp.mu.front()));
  r.eigen_method = sp.method;
  r.eigen_operations = sp.operations;
  if (sp.operations > 0) {
    r.eigen_operations_by_run.emplace_back("M^-1 K", sp.operations - sp.first_order_operations);
    if (r.damped) r.eigen_operations_by_run.emplace_back("first-order system", sp.first_order_operations);
  }
  r.eigen_tolerance = so.tolerance;
  r.eigen_residual = kNaN;  // not a Lanczos residual: the solvers' own convergence test holds (they throw otherwise)
  if (r.damped && !sp.s.empty()) r.top_mode_zeta = std::max(0.0, -sp.s.front().real() / std::abs(sp.s.front()));
  r.timings.emplace_back("eigenvalues", seconds_since(t0));
  t0 = std::chrono::steady_clock::now();
  say("integrator limits (numerical)");
  // The -1 crossing of each line, once: the rows of one kind share it.
  std::map<std::pair<double, double>, MinusOneCrossing> crossings;
  const CrossingFinder crossing = [&](const MinusOneLine& line) {
    const std::pair key{line.dashpot, line.stiffness};
    auto it = crossings.find(key);
    if (it == crossings.end()) {
      say(fmt::format("the -1 crossing: first h where {} is singular", minus_one_line_text(line)));
      it = crossings
               .emplace(key, minus_one_crossing(sys, line.dashpot, so, arnoldi && sys.dofs() > 2 * so.nev + 2,
                                                line.stiffness))
               .first;
      r.eigen_operations += it->second.operations;
      if (it->second.operations > 0)
        r.eigen_operations_by_run.emplace_back("-1 crossing: " + minus_one_line_text(line), it->second.operations);
    }
    return it->second;
  };
  // The check below each crossing, once per dashpot family: its rows have one spectral radius.
  std::map<std::pair<DashpotVelocity, double>, CrossingCheck> checks;
  const CrossingChecker check = [&](const std::string& spec, double h1, const std::function<CrossingCheck()>& compute) {
    const DashpotVelocity family = integrator_info(spec).dashpot_velocity;
    if (family == DashpotVelocity::other) return compute();
    auto it = checks.find({family, h1});
    if (it == checks.end()) it = checks.emplace(std::pair{family, h1}, compute()).first;
    return it->second;
  };
  const PackingIntegratorLimit reference =
      nonsymmetric_integrator_limit("velocity_verlet", sys, sp, r.physical, opts, crossing, check);
  r.h_exact = reference.h_crit;
  r.h_exact_converged = std::isfinite(reference.h_crit);
  r.h_exact_upper_bound = reference.upper_bound;
  for (const auto& spec : opts.integrators)
    r.integrators.push_back(spec == "velocity_verlet"
                                ? reference
                                : nonsymmetric_integrator_limit(spec, sys, sp, r.physical, opts, crossing, check));
  r.timings.emplace_back("integrator limits", seconds_since(t0));
}

}  // namespace

void add_packing_estimates(PackingReport& r, const EstimateInputs& in, const PackingAnalysisOptions& opts) {
  auto add = [&](std::string name, double seconds, std::string description) {
    r.estimates.push_back({std::move(name), seconds, seconds / r.h_exact, std::move(description)});
  };
  add("two_over_omega_max", 2.0 / r.omega_max,
      "2 / omega_max: exact undamped limit of velocity Verlet, leapfrog and central difference");
  add("gershgorin", 2.0 / std::sqrt(in.gershgorin_omega2),
      "2 / sqrt(max Gershgorin row sum of M^-1/2 K M^-1/2): a guaranteed-safe undamped step");
  // Yade's rule is defined for spheres and clumps of spheres (the member radii), not for other networks.
  if (!in.bodies)
    add("yade_global_stiffness", in.yade_step,
        "Yade GlobalStiffnessTimeStepper as its code computes it: 1.41044 * 0.8 * sqrt(min over bodies of "
        "min(m / max_i K_ii, I / K^rot_ii)) (Yade's comment calls 1.41044 sqrt 2; 0.8 is its default safety)");
  else if (std::isfinite(in.yade_step))
    add("yade_global_stiffness", in.yade_step,
        "Yade GlobalStiffnessTimeStepper's clump rule as its code computes it: each clump sums its members' "
        "stiffness (rotational about each member's own centre, radius R: the arm from the clump's centre is not "
        "read), then 1.41044 * 0.8 * sqrt(min(m / max_i K_ii, I_i / K^rot_ii)), I_i the clump's principal moments");
  add("single_contact", 2.0 / in.single_contact_omega,
      in.bodies ? "2 / omega_max of the stiffest single contact on its own (the contact-point model of its two "
                  "bodies with their arms and inertia tensors, undamped)"
                : "2 / omega_max of the stiffest single contact on its own (two-body contact-point model, undamped)");
  add("sqrt_m_over_k", std::sqrt(in.m_min / in.k_max), "sqrt(m / k): smallest particle mass, largest contact stiffness");
  if (opts.material) add_material_estimates(r, *opts.material, in.smallest_radius, in.smallest_mass);
}

void add_material_estimates(PackingReport& r, const PackingMaterial& material, double R, double m) {
  const double rho = m / contact::sphere_volume(R);
  const Material mat = validated(Material{material.youngs_modulus, material.poisson_ratio, rho, R, 0.0});
  for (const auto& e : material_estimates(mat))
    r.estimates.push_back({e.name, e.seconds, e.seconds / r.h_exact,
                           e.description + fmt::format(" (smallest particle: R = {:.6g} m, rho = {:.6g} kg/m^3)", R, rho)});
}

PackingReport analyse_packing(const Packing& p, const GlobalSystem& sys, const PackingAnalysisOptions& opts) {
  PackingAnalysisOptions o = opts;
  o.material.reset();
  PackingReport r = analyse_system(p.source, sys, o);
  if (opts.material) {
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t smallest = 0;
    for (std::size_t i = 1; i < p.radius.size(); ++i)
      if (p.radius[i] < p.radius[smallest]) smallest = i;
    add_material_estimates(r, *opts.material, p.radius[smallest], p.mass[smallest]);
    r.timings.back().second += seconds_since(t0);
  }
  return r;
}

bool has_history_springs(const std::vector<contact::ContactLaw>& laws) {
  return std::any_of(laws.begin(), laws.end(), [](const contact::ContactLaw& law) {
    return (law.tangential != contact::TangentialModel::linear_nohistory && law.kt > 0.0) ||
           law.rolling != contact::RollingModel::none || law.twisting != contact::TwistingModel::none;
  });
}

bool limit_holds_for_both_updates(const PackingReport& r, const std::string& integrator) {
  return !r.history_springs || dashpots_read_backward_difference(integrator);
}

PackingReport analyse_system(const std::string& source, const GlobalSystem& sys, const PackingAnalysisOptions& opts) {
  if (opts.material) fail("analyse_system: the material heuristics need the particles' radii (analyse_packing)");
  auto say = [&](std::string_view what) {
    if (opts.progress) opts.progress(what);
  };
  PackingReport r;
  r.source = source;
  r.dim = sys.dim();
  r.rotation = sys.rotation();
  r.damped = sys.damped();
  r.symmetric = sys.symmetric();
  r.general_contacts = static_cast<Index>(sys.general_contacts());
  r.torque_arm_contacts = static_cast<Index>(sys.torque_arm_contacts());
  r.history_springs = has_history_springs(sys.contacts().laws);
  r.particles = sys.particles();
  r.dofs = sys.dofs();
  r.pair_contacts = sys.contacts().pair_contacts;
  r.wall_contacts = sys.contacts().wall_contacts;
  {
    const auto z = sys.contacts().coordination(sys.particles());
    double sum = 0.0;
    for (auto k : z) {
      sum += k;
      if (k < r.dim + 1) ++r.rattlers;
    }
    r.mean_coordination = sum / static_cast<double>(std::max<Index>(1, r.particles));
    r.open_cohesive_contacts = sys.contacts().held_open_count();
  }
  if (r.pair_contacts + r.wall_contacts == 0)
    fail("the packing has no contacts: nothing limits the time step (check radii, compression, --gap-tolerance)");

  auto t0 = std::chrono::steady_clock::now();
  if (!r.symmetric) {
    analyse_nonsymmetric(sys, opts, r, say);
  } else {
  say(fmt::format("omega_max: largest eigenvalue of M^-1/2 K M^-1/2 ({} dofs, {} contacts)", r.dofs,
                  r.pair_contacts + r.wall_contacts));
  EigenOptions eigen = opts.eigen;
  eigen.want_vector = r.damped;  // the top mode's damping ratio needs it; the undamped answer does not
  auto last_report = std::chrono::steady_clock::now();
  if (opts.progress)
    eigen.progress = [&](Index steps, double residual) {  // at most every 2 s
      if (seconds_since(last_report) < 2.0) return;
      last_report = std::chrono::steady_clock::now();
      say(fmt::format("  Lanczos step {}: relative residual {:.2g} (tolerance {:.2g})", steps, residual,
                      eigen.tolerance));
    };
  const ExtremeEigen top = largest_eigen(sys, 1.0, 0.0, eigen);
  r.omega_max = std::sqrt(top.lambda);
  r.eigen_residual = top.residual / top.lambda;
  // With the eigenvector the residual is the true |K~ v - lambda v|, checked against the
  // tolerance here: loss of orthogonality can make the three-term estimate optimistic.
  r.eigen_residual_is_true = top.vector.size() > 0;
  r.eigen_tolerance = eigen.tolerance;
  r.rtol = opts.rtol;
  if (top.method != "dense") r.eigen_converged = std::isfinite(r.eigen_residual) && r.eigen_residual <= eigen.tolerance;
  if (!std::isfinite(r.omega_max)) r.eigen_converged = false;
  r.eigen_method = top.method;
  r.eigen_operations = top.operations;
  if (r.damped) {
    Vector w(sys.dofs());
    sys.apply_scaled(0.0, 1.0, top.vector.data(), w.data());
    r.top_mode_zeta = top.vector.dot(w) / (2.0 * r.omega_max);
  }
  r.timings.emplace_back("omega_max", seconds_since(t0));

  // The Gershgorin bounds behind h_safe, timed on their own (the limits below read them remembered):
  // at 10^7 spheres they take more than a minute, which would otherwise show as the limits' time.
  t0 = std::chrono::steady_clock::now();
  say("Gershgorin bounds (h_safe)");
  sys.gershgorin_bound(1.0, 0.0);
  const bool backward_row = std::any_of(opts.integrators.begin(), opts.integrators.end(),
                                       [](const std::string& spec) { return dashpots_read_backward_difference(spec); });
  if (r.damped && backward_row) sys.gershgorin_bound(0.0, 1.0);
  r.timings.emplace_back("gershgorin bounds", seconds_since(t0));

  t0 = std::chrono::steady_clock::now();
  say("integrator limits");
  // The reference: the exact velocity_verlet step (LAMMPS' scheme), also the leapfrog limit.
  const DampedLimit reference = half_step_damped_limit(sys, r.omega_max, opts.eigen, r.top_mode_zeta, opts.rtol);
  r.damped_solves = reference.iterations;
  r.damped_operations = reference.operations;
  r.h_exact = reference.h_crit;
  r.h_exact_converged = reference.converged;
  const auto limits_start = std::chrono::steady_clock::now();
  // Damped rows of first-order-system schemes (explicit Euler, RK4) above --amplification-dofs: from
  // the eigenvalues of A, once for all such rows: every one up to 600 dofs (dense, exact), the largest
  // in magnitude above (Arnoldi: an upper bound of the limit, with the region's safe step below it).
  std::optional<Spectrum> first_order_eigenvalues;
  bool first_order_searched = false;
  std::string first_order_failure;
  for (std::size_t i = 0; i < opts.integrators.size(); ++i) {
    const std::size_t n = opts.integrators.size();
    // The time left assumes the mean cost so far: amplification matrices cost more than closed forms.
    const double spent = seconds_since(limits_start);
    say(fmt::format("  {} ({}/{}{})", opts.integrators[i], i + 1, n,
                    i == 0 ? "" : fmt::format(", about {:.0f} s left", spent / i * (n - i))));
    if (r.damped && first_order_from_eigenvalues(opts.integrators[i], sys.dofs(), opts)) {
      if (!first_order_searched) {
        first_order_searched = true;
        const auto start = std::chrono::steady_clock::now();
        auto last = start;
        say(fmt::format("  eigenvalues of the first-order system (order {})", 2 * sys.dofs()));
        std::function<void(Index)> progress;
        if (opts.progress)
          progress = [&](Index applications) {  // at most every 5 s
            if (seconds_since(last) < 5.0) return;
            last = std::chrono::steady_clock::now();
            say(fmt::format("    Arnoldi: {} operator applications ({:.0f} s)", applications, seconds_since(start)));
          };
        first_order_eigenvalues = first_order_eigenvalues_for_rows(sys, r.omega_max, opts, progress, first_order_failure);
      }
      r.integrators.push_back(first_order_eigenvalues
                                  ? first_order_row(opts.integrators[i], sys, *first_order_eigenvalues,
                                                    physical_stability(*first_order_eigenvalues, true))
                                  : first_order_row_not_converged(opts.integrators[i], sys, first_order_failure));
    } else {
      r.integrators.push_back(packing_integrator_limit(opts.integrators[i], sys, r.omega_max, r.top_mode_zeta, opts,
                                                       reference, r.eigen_residual));
    }
    if (!r.eigen_converged) {  // every limit scales with omega_max: none is trustworthy
      r.integrators.back().converged = false;
      r.integrators.back().h_crit = kNaN;
    }
  }
  r.timings.emplace_back("integrator limits", seconds_since(t0));
  if (r.eigen_converged && r.dofs <= opts.certify_dofs) {
    t0 = std::chrono::steady_clock::now();
    say("certificates: Cholesky factorisations of the criteria just beyond the limits");
    certify_limits(sys, r, opts.eigen);
    r.timings.emplace_back("certificates", seconds_since(t0));
  }
  }

  t0 = std::chrono::steady_clock::now();
  say("bounds");
  EstimateInputs in;
  in.bodies = sys.bodies();
  in.gershgorin_omega2 = sys.gershgorin_omega2();
  in.yade_step = sys.yade_global_stiffness_step(0.8);
  in.single_contact_omega = sys.single_contact_omega_max();
  for (double m : sys.particle_masses()) in.m_min = std::min(in.m_min, m);
  for (std::size_t k = 0; k < sys.contacts().contacts.size(); ++k) {
    const auto q = sys.stored_coefficients(k);
    in.k_max = std::max({in.k_max, q.kn, q.kt});
  }
  add_packing_estimates(r, in, opts);
  r.timings.emplace_back("bounds", seconds_since(t0));
  return r;
}

namespace {
nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json to_json(const PackingReport& r) {
  nlohmann::json j;
  j["units"] = r.units.summary();
  j["packing"] = {{"source", r.source},
                  {"dimension", r.dim},
                  {"rotation", r.rotation},
                  {"damped", r.damped},
                  {"particles", r.particles},
                  {"dofs", r.dofs},
                  {"pair_contacts", r.pair_contacts},
                  {"wall_contacts", r.wall_contacts},
                  {"mean_coordination", r.mean_coordination},
                  {"rattlers", r.rattlers},
                  {"open_cohesive_contacts", r.open_cohesive_contacts},
                  {"rattler_definition", fmt::format("fewer than d + 1 = {} contacts (pairs and walls)", r.dim + 1)}};
  for (const auto& in : r.inputs)
    j["packing"]["inputs"][in.name] = {{"value", in.value}, {"unit", in.unit}, {"default", in.is_default}};
  j["omega_max"] = r.omega_max;
  nlohmann::json by_run = nlohmann::json::array();
  for (const auto& [run, applications] : r.eigen_operations_by_run)
    by_run.push_back({{"run", run}, {"applications", applications}});
  j["eigen"] = {{"method", r.eigen_method},
                {"relative_residual", r.eigen_residual},
                {"residual_is_true", r.eigen_residual_is_true},
                {"tolerance", r.eigen_tolerance},
                {"rtol", r.rtol},
                {"damped_solves", r.damped_solves},
                {"damped_operator_applications", r.damped_operations},
                {"converged", r.eigen_converged},
                {"operator_applications", r.eigen_operations},
                {"operator_applications_by_run", by_run},
                {"top_mode_zeta", r.top_mode_zeta}};
  j["symmetric"] = r.symmetric;
  if (r.physical.assessed)
    j["physical_stability"] = {{"unstable", r.physical.unstable},
                               {"kind", r.physical.kind},
                               {"growth_rate_per_s", r.physical.growth_rate},
                               {"efolding_time_s", number_or_null(r.physical.efolding_time)},
                               {"max_imag_mu_relative", r.physical.max_imag_relative},
                               {"min_real_mu_relative", r.physical.min_real_relative},
                               {"rounding_tolerance_relative", r.physical.tolerance},
                               {"all_eigenvalues_checked", r.physical.complete},
                               {"not_judged", r.physical.not_judged.empty() ? nlohmann::json(nullptr)
                                                                            : nlohmann::json(r.physical.not_judged)},
                               {"contacts_with_full_blocks", r.general_contacts},
                               {"contacts_with_torque_arms", r.torque_arm_contacts}};
  j["h_exact_velocity_verlet"] = number_or_null(r.h_exact);
  j["h_exact_converged"] = r.h_exact_converged;
  j["h_exact_upper_bound"] = r.h_exact_upper_bound;
  j["estimates"] = nlohmann::json::object();
  for (const auto& e : r.estimates)
    j["estimates"][e.name] = {{"seconds", number_or_null(e.seconds)},
                              {"ratio_to_exact", number_or_null(e.ratio)},
                              {"description", e.description}};
  j["integrators"] = nlohmann::json::object();
  for (const auto& i : r.integrators)
    j["integrators"][i.name] = {
        {"h_crit", number_or_null(i.h_crit)}, {"h_low", number_or_null(i.h_low)},
        {"stability", i.computed ? std::string(stability_keyword(i.stability)) : std::string("not computed")}, {"exact", i.exact},
        {"converged", i.converged},           {"computed", i.computed}, {"method", i.method}, {"free_modes", i.free_modes},
        {"upper_bound", i.upper_bound},
        {"h_safe", number_or_null(i.h_safe)}, {"h_safe_method", i.h_safe_method}, {"certified", i.certified},
        {"checked_omega_min", checked_omega_min}, {"checked_omega_max", checked_omega_max},
        // the histories' update the limit holds for ("both" when the springs are not in histories or
        // the scheme advances a traditional history by its own displacement)
        {"tangential_update", limit_holds_for_both_updates(r, i.name) ? "both" : "consistent"}};
  j["timings_s"] = nlohmann::json::object();
  for (const auto& [stage, s] : r.timings) j["timings_s"][stage] = s;
  return j;
}

std::string format_packing_table(const PackingReport& r) {
  const std::string& time = r.units.time;
  std::string out;
  out += fmt::format("packing: {}\n", r.source);
  if (!r.inputs.empty()) {
    std::string line;
    for (const auto& in : r.inputs)
      line += fmt::format("{}{} = {:g}{}{}", line.empty() ? "" : ", ", in.name, in.value, in.unit.empty() ? "" : " " + in.unit,
                          in.is_default ? " (default)" : "");
    out += "  " + line + "\n";
  }
  out += fmt::format("  {}D, {} particles, {} dofs ({}), {} pair + {} wall contacts, mean coordination {:.4g}\n",
                     r.dim, r.particles, r.dofs, r.rotation ? "with rotation" : "translations only", r.pair_contacts,
                     r.wall_contacts, r.mean_coordination);
  out += fmt::format("  {} rattlers (particles with fewer than d + 1 = {} contacts, pairs and walls counted: not held "
                     "in every direction by compressive normal forces)\n",
                     r.rattlers, r.dim + 1);
  if (r.open_cohesive_contacts > 0)
    out += fmt::format("  {} jkr contacts held open within their pull-off distance (overlap <= 0) are analysed as "
                       "touching, as they are in the running simulation; LAMMPS started from a data file sees them "
                       "apart (it keeps no touch flag there) and runs a softer packing\n",
                       r.open_cohesive_contacts);
  if (r.symmetric) {
    out += fmt::format("  omega_max = {} rad/{} ({}, relative residual {:.2g}{}){}\n", format_number(r.omega_max), time,
                       r.eigen_method, r.eigen_residual, r.eigen_residual_is_true ? "" : " (Lanczos estimate)",
                       r.damped ? fmt::format(", top-mode damping ratio {:.4g}", r.top_mode_zeta) : "");
  } else {
    out += fmt::format("  K not symmetric ({} contacts with histories, sliding or granular torque arms): "
                       "omega_max = sqrt(max |mu|) = {} rad/{}, mu the eigenvalues of M^-1 K ({})\n",
                       r.general_contacts + r.torque_arm_contacts, format_number(r.omega_max), time, r.eigen_method);
    const auto& ph = r.physical;
    if (!ph.not_judged.empty())
      out += fmt::format("  physical stability not judged: the eigenvalues of the first-order system were not "
                         "computed ({}); a growing mode is not excluded\n",
                         ph.not_judged);
    else if (ph.unstable)
      out += fmt::format("  PHYSICALLY UNSTABLE: {}, growth rate sigma = max Re s = {} 1/{} (e-folding time {} {}): the "
                         "packing grows at any time step; the limits below are numerical\n",
                         ph.kind, format_number(ph.growth_rate), time, format_number(ph.efolding_time), time);
    else {
      const std::string criterion =
          r.damped ? fmt::format("no eigenvalue s of the first-order system with Re s above {:.0e} of the largest |s|",
                                 ph.tolerance)
                   : fmt::format("no eigenvalue mu of M^-1 K with |Im mu| or -Re mu above {:.0e} of the largest",
                                 ph.tolerance);
      // Arnoldi computes the eigenvalues of largest magnitude: a slower mode that grows (flutter is
      // typically low in frequency) is not among them, so stability is not established.
      out += ph.complete ? fmt::format("  physically stable: {}\n", criterion)
                         : fmt::format("  physical stability not established: {} among the eigenvalues of largest "
                                       "magnitude computed (the others were not: a slower growing mode is not "
                                       "excluded)\n",
                                       criterion);
    }
    out += "  numerical limit: the first h at which the scheme's growth per step exceeds exp(2 sigma h), sigma = max(0, "
           "max Re s)\n";
  }
  if (!r.eigen_converged)
    out += fmt::format("  NOT CONVERGED: the eigensolver's residual {:.2g} is above its tolerance {:.2g}; no limit is "
                       "reported\n",
                       r.eigen_residual, r.eigen_tolerance);
  if (!r.h_exact_converged) out += "  NOT CONVERGED: the damped velocity_verlet limit (root of lambda_max = 4)\n";
  out += "\n";
  // h_safe <= true limit <= h_crit (h_crit from the Lanczos omega_max, a lower bound of the true one).
  TextTable t({"integrator", "h_safe [" + time + "]", "h_crit [" + time + "]", "stability", "method"});
  for (const auto& i : r.integrators)
    t.add_row({i.name, format_number(i.h_safe), format_number(i.h_crit),
               i.computed ? std::string(stability_label(i.stability)) : std::string("-"),
               !i.computed                                      ? "not computed"
               : !i.converged                                   ? "not converged"
               : !i.exact                                       ? "estimate"
               : i.upper_bound && std::isnan(i.h_crit)          ? "proven safe step only (limit not computed)"
               : i.upper_bound                                  ? "upper bound (" + i.bound.what + ")"
               : i.certified                                    ? "exact, certified"
               : i.crossing_certified                           ? "certified"
                                                                : "exact"});
  out += t.to_text();
  // Why a row has no limit: not computed on this path, or only its proven safe step.
  for (const auto& i : r.integrators)
    if (!i.computed || (i.upper_bound && std::isnan(i.h_crit))) out += fmt::format("{}: {}\n", i.name, i.method);
  // The springs held in histories are linearised as functions of the positions (the consistent
  // update). Rows whose dashpots read (x_n - x_{n-1}) / h advance a traditional history by exactly
  // that displacement, so their limit holds for both updates; the others step differently under
  // the traditional one (lib/dtcrit/sweep/README.md: RK4 1.7 times lower, central difference up to
  // 1.7 times higher on the spinning disc).
  std::string differ;
  for (const auto& i : r.integrators)
    if (!limit_holds_for_both_updates(r, i.name)) differ += (differ.empty() ? "" : ", ") + i.name;
  if (!differ.empty())
    out += fmt::format("note: {}: limits of the consistent tangential update (springs from the positions); under the "
                       "traditional update\n  (histories advanced by the velocity handed to the force, as LAMMPS) "
                       "these schemes step differently and their limits can differ\n  (dtcrit sweep --tangential "
                       "traditional measures them on single contacts)\n",
                       differ);
  out += "\n";
  TextTable e({"bound / estimate", "step [" + time + "]", r.h_exact_upper_bound ? "ratio to h_crit" : "ratio to exact"});
  for (const auto& s : r.estimates) e.add_row({s.name, format_number(s.seconds), fmt::format("{:.4f}", s.ratio)});
  out += e.to_text();
  bool certified = false, gershgorin = false;
  for (const auto& i : r.integrators) {
    certified = certified || i.certified;
    gershgorin = gershgorin || (!i.certified && std::isfinite(i.h_safe));
  }
  if (certified)
    out += fmt::format("\nh_safe: a proven safe step; certified rows: h_low less {:g}, proven by a Cholesky "
                       "factorisation of its\ncriterion there (positive definite: no mode reaches the limit below "
                       "it).\n",
                       certificate_margin);
  if (gershgorin)
    out += "\nh_safe: a proven safe step from Gershgorin upper bounds of omega_max^2 and of the damping; the true "
           "limit\nlies in [h_safe, h_crit] (h_crit from the Lanczos omega_max, a lower bound of the true omega_max).\n";
  // The precision of the exact rows, shown on the reference row (velocity_verlet) or the first bracketed one.
  const PackingIntegratorLimit* bracketed = nullptr;
  for (const auto& i : r.integrators)
    if (std::isfinite(i.h_low) && std::isfinite(i.h_crit) && (!bracketed || i.name == "velocity_verlet")) bracketed = &i;
  if (bracketed && r.rtol > 0.0) {
    const int digits = std::clamp(static_cast<int>(std::ceil(-std::log10(r.rtol))) + 2, 6, 17);
    out += fmt::format(
        "\nprecision (rtol {:g}): {}'s limit lies in [{:.{}g}, {:.{}g}] {}; every exact row's h_crit is within rtol of "
        "its\nbracket's lower end h_low (JSON). h_crit is never below the limit (Ritz values are never above the "
        "eigenvalues);\nh_low is below it if the eigensolver's Ritz value belongs to the top eigenvalue, which no Krylov "
        "solver certifies.\n",
        r.rtol, bracketed->name, bracketed->h_low, digits, bracketed->h_crit, digits, time);
  }
  if (r.h_exact_upper_bound)
    out += fmt::format("\nratio: step / velocity_verlet's h_crit {} {}, an upper bound of its limit (damped, half-step "
                       "dashpots as LAMMPS;\n  the exact limit is not known at this size: ratios below 1 are not "
                       "proven safe).\n",
                       format_number(r.h_exact), time);
  else
    out += fmt::format("\nratio: step / exact velocity_verlet step {} {} ({}).\n", format_number(r.h_exact), time,
                       r.damped ? "damped, half-step dashpots as LAMMPS" : "undamped");
  return out;
}

}  // namespace dtcrit::packing
