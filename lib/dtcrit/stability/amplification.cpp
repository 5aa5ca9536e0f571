#include "dtcrit/stability/amplification.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <boost/math/tools/toms748_solve.hpp>

#include <Eigen/LU>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"
#include "dtcrit/dynamics/linear_history_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit {

namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

// Parlett-Reinsch balancing with powers of two (exact, no rounding): a diagonal similarity that
// makes row and column norms comparable, so that states in very different units (x in m, v in
// m/s, a in m/s^2 with omega ~ 1e5 1/s) do not inflate the eigenvalue errors.
Matrix balanced(Matrix B) {
  const Index n = B.rows();
  bool done = false;
  for (int sweep = 0; !done && sweep < 100; ++sweep) {
    done = true;
    for (Index i = 0; i < n; ++i) {
      double c = 0.0, r = 0.0;
      for (Index j = 0; j < n; ++j) {
        if (j == i) continue;
        c += std::abs(B(j, i));
        r += std::abs(B(i, j));
      }
      if (c == 0.0 || r == 0.0) continue;
      const double s = c + r;
      double f = 1.0, g = r / 2.0;
      while (c < g) { f *= 2.0; c *= 4.0; }
      g = r * 2.0;
      while (c > g) { f /= 2.0; c /= 4.0; }
      if ((c + r) / f < 0.95 * s) {
        done = false;
        B.row(i) /= f;
        B.col(i) *= f;
      }
    }
  }
  return B;
}

}  // namespace

// Columns (step(s e_j) - step(0)) / s: for s = 1 the amplification matrix; another s gives the
// same matrix with different rounding, which measures the rounding error of its entries.
Matrix amplification_matrix_scaled(Integrator& integrator, MechanicalSystem& sys, double h, double s) {
  require_positive("time step h", h);
  const Index n = sys.dofs();
  const Vector zero = Vector::Zero(n);
  integrator.start(sys, 0.0, zero, zero, h);
  const Index ns = integrator.state().size();
  const Index nh = sys.history().size();
  const Index N = ns + nh;
  Vector z = Vector::Zero(N);
  auto run = [&](Vector& out) {
    integrator.set_state(z.head(ns));
    if (nh > 0) sys.set_history(z.tail(nh));
    integrator.step(sys);
    out.resize(N);
    out.head(ns) = integrator.state();
    if (nh > 0) out.tail(nh) = sys.history();
  };
  Vector base, col;
  run(base);
  Matrix A(N, N);
  for (Index j = 0; j < N; ++j) {
    z.setZero();
    z[j] = s;
    run(col);
    A.col(j) = (col - base) / s;
  }
  return A;
}

// Outcome of the eigenvalue test at one step size.
struct Verdict {
  bool unstable;
  double excess;  // |lambda| - 1 of the worst eigenvalue that counts as outside, else rho - 1
};

// The condition-aware test of exceeds_unit_circle on a balanced matrix B.
Verdict assess(const Matrix& B) {
  const double norm = B.norm();
  const double floor = 64.0 * eps * norm;
  const std::optional<Eigen::VectorXcd> quick = linalg::general_eigenvalues(B);
  if (!quick) fail("critical_step: eigenvalue iteration did not converge");
  const double rho = quick->cwiseAbs().maxCoeff();
  if (rho <= 1.0 + floor) return {false, rho - 1.0};  // kappa >= 1: stable
  // Far outside: no rounding explains it (a split Jordan block of size 3 at +1 would need
  // |B| ~ 1e4 to reach this), so skip the eigenvectors.
  if (rho - 1.0 > 1e-4) return {true, rho - 1.0};
  const linalg::GeneralEigen es = linalg::eigen_solver(B, true);
  const Eigen::MatrixXcd& V = es.vectors;
  const Eigen::MatrixXcd W = V.inverse();  // rows: left eigenvectors, scaled so that W V = I
  const double kappa_max = std::pow(eps, -2.0 / 3.0);
  double worst = -1.0;  // largest |lambda| - 1 among eigenvalues outside by more than their error
  for (Index i = 0; i < B.rows(); ++i) {
    const double modulus = std::abs(es.values[i]);
    if (modulus <= 1.0 + floor) continue;
    double kappa = V.col(i).norm() * W.row(i).norm();
    if (!(kappa <= kappa_max)) kappa = kappa_max;  // (near-)defective: cap, NaN included
    if (modulus - 1.0 > floor * kappa) worst = std::max(worst, modulus - 1.0);
  }
  // excess: of the eigenvalues that count, else of the largest (e.g. a split Jordan block at +1)
  return worst >= 0.0 ? Verdict{true, worst} : Verdict{false, rho - 1.0};
}

Matrix amplification_matrix(Integrator& integrator, MechanicalSystem& sys, double h) {
  return amplification_matrix_scaled(integrator, sys, h, 1.0);
}

double spectral_radius(const Matrix& A) {
  if (A.rows() != A.cols()) fail(fmt::format("spectral_radius: matrix is {}x{}, not square", A.rows(), A.cols()));
  if (A.size() == 0) return 0.0;
  if (!A.allFinite()) return std::numeric_limits<double>::infinity();
  const std::optional<Eigen::VectorXcd> ev = linalg::general_eigenvalues(balanced(A));
  if (!ev) fail("spectral_radius: eigenvalue iteration did not converge");
  return ev->cwiseAbs().maxCoeff();
}

bool exceeds_unit_circle(const Matrix& A) {
  if (A.size() == 0) return false;
  if (!A.allFinite()) return true;
  return assess(balanced(A)).unstable;
}

std::string_view stability_keyword(Stability s) { return name_of(s, stability_keywords); }

// The texts quote checked_omega_min / checked_omega_max (static_asserted below).
static_assert(checked_omega_min == 1e-6 && checked_omega_max == 1e4);

std::string_view stability_label(Stability s) { return name_of(s, stability_labels); }

std::string_view to_string(Stability s) {
  return s == Stability::conditional ? "conditionally stable" : stability_label(s);
}

namespace {

// Crossing functions of the amplification matrix: each vanishes exactly where an eigenvalue
// reaches the unit circle in one way, so a sign change across a bracket certifies that crossing
// without any threshold on |lambda| - 1.
enum class Crossing { minus_one, plus_one, complex_pair };

std::string_view crossing_text(Crossing c) {
  switch (c) {
    case Crossing::minus_one: return "det(A + I) changes sign: a real eigenvalue through -1";
    case Crossing::plus_one: return "det(A - I) changes sign: a real eigenvalue through +1";
    case Crossing::complex_pair: return "det(A (x) A - I) changes sign: a complex pair through the unit circle";
  }
  return "?";
}

// The second compound (bialternate product A (x) A): entry ((p,q),(r,s)), p > q, r > s, is the 2x2
// minor a_pr a_qs - a_ps a_qr; its eigenvalues are lambda_i lambda_j, i < j. So
// det(A (x) A - I) = prod_{i<j} (lambda_i lambda_j - 1) vanishes when a complex pair has |lambda| = 1.
Matrix second_compound(const Matrix& A) {
  const Index n = A.rows(), m = n * (n - 1) / 2;
  Matrix B(m, m);
  Index row = 0;
  for (Index p = 1; p < n; ++p)
    for (Index q = 0; q < p; ++q, ++row) {
      Index col = 0;
      for (Index r = 1; r < n; ++r)
        for (Index s = 0; s < r; ++s, ++col) B(row, col) = A(p, r) * A(q, s) - A(p, s) * A(q, r);
    }
  return B;
}

SignedLog crossing_value(const Matrix& A, Crossing c) {
  switch (c) {
    case Crossing::minus_one: return signed_log_det(A + Matrix::Identity(A.rows(), A.cols()));
    case Crossing::plus_one: return signed_log_det(A - Matrix::Identity(A.rows(), A.cols()));
    case Crossing::complex_pair: {
      const Matrix B = second_compound(A);
      return signed_log_det(B - Matrix::Identity(B.rows(), B.cols()));
    }
  }
  return {0.0, 0.0};
}

// Largest states the certificate is tried on (a 48-dof packing's reach 240; the bialternate
// product of an N x N matrix is N(N-1)/2 square, so only for small states: the pair model's).
constexpr Index certify_max_state = 256, bialternate_max_state = 16;

// A dense check below the answer for systems up to this many dofs (a packing's amplification
// route): 200 points for small states (the pair model, ~5 us a point), 50 above (a 48-dof
// packing's states reach 240, ~15 ms a point).
constexpr Index dense_check_max_dofs = 48;
int dense_check_points(Index state) { return state <= 64 ? 200 : 50; }

CriticalStep scan_critical_step(Integrator& integrator, MechanicalSystem& sys, double omega_max) {
  constexpr double Omega_min = checked_omega_min, Omega_max = checked_omega_max, rel_tol = 1e-13;
  constexpr double second_opinion = 1e-6;  // rho - 1 above this needs no rounding estimate
  constexpr double certify_width = 1e-6;   // bracket width (relative) where the crossing functions are tried
  constexpr int max_refinements = 6;
  const double fine = std::pow(2.0, 0.25);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto matrix = [&](double Omega) { return amplification_matrix_scaled(integrator, sys, Omega / omega_max, 1.0); };
  auto probe = [&](double Omega) -> Verdict {
    const double h = Omega / omega_max;
    const Matrix A = amplification_matrix_scaled(integrator, sys, h, 1.0);
    if (!A.allFinite()) return {true, std::numeric_limits<double>::infinity()};
    const Verdict v = assess(balanced(A));
    if (!v.unstable || v.excess > second_opinion) return v;
    // Marginal: the entries of A may carry more rounding than eps |A| (cancellation inside the
    // step, e.g. implicit schemes at large Omega or an entry that vanishes at the critical step).
    // Second opinion: recompute A with a non-dyadic scaling of the unit states (same matrix,
    // different rounding) and require both to be unstable with an excess well above their
    // disagreement.
    const Matrix A2 = amplification_matrix_scaled(integrator, sys, h, 0.7390851332151607);
    const Verdict v2 = assess(balanced(A2));
    const double noise = std::abs(v.excess - v2.excess);
    return {v2.unstable && std::min(v.excess, v2.excess) > 16.0 * noise, std::min(v.excess, v2.excess)};
  };
  if (probe(Omega_min).unstable) return {Stability::unstable, nan, 0, "unstable at the smallest Omega checked"};

  // 1. Geometric scan: coarse (x2) where limits are not expected, fine (x2^(1/4)) over [1/16, 64].
  std::vector<double> grid{Omega_min};  // probed and stable, ascending
  double lo = Omega_min, hi = nan;
  Verdict at_hi{};
  while (lo < Omega_max) {
    const double next = std::min(Omega_max, lo * ((lo >= 1.0 / 16.0 && lo < 64.0) ? fine : 2.0));
    at_hi = probe(next);
    if (at_hi.unstable) {
      hi = next;
      break;
    }
    grid.push_back(next);
    lo = next;
  }
  if (std::isnan(hi)) return {Stability::unconditional, nan, 0, "stable at every Omega of the scan"};

  // 2. The 19 % grid must not have stepped over an unstable window: halve its ratio (geometric
  // midpoints of consecutive stable points of the fine range) until a refined scan agrees on the
  // first bracket. (Below 1/16 the x2 grid stays: no registry row has a window there; the dense
  // check below covers uncertified answers of small systems.)
  int refinements = 0;
  for (bool agreed = false; !agreed && refinements < max_refinements; ++refinements) {
    agreed = true;
    std::vector<double> refined{grid.front()};
    for (std::size_t k = 1; k < grid.size(); ++k) {
      if (grid[k - 1] < 1.0 / 16.0) {
        refined.push_back(grid[k]);
        continue;
      }
      const double mid = std::sqrt(grid[k - 1] * grid[k]);
      const Verdict v = probe(mid);
      if (v.unstable) {  // an earlier bracket: refine again below it
        lo = grid[k - 1];
        hi = mid;
        at_hi = v;
        agreed = false;
        break;
      }
      refined.push_back(mid);
      refined.push_back(grid[k]);
    }
    grid = std::move(refined);
  }

  // 3. Locate the first loss of stability in [lo, hi]: bisection to certify_width, then the
  // crossing functions as a certificate (a sign change across the bracket proves an eigenvalue
  // reaches the unit circle there, and toms748 finds where without any threshold); otherwise
  // bisection to rel_tol on the condition-aware verdicts.
  std::string method;
  bool certified = false;  // by a crossing function's sign change
  auto locate = [&](double a, double b) -> std::optional<double> {
    const double a0 = a;  // stable, far (up to 19 %) below the crossing
    auto bisect_to = [&](double tol) {
      auto unstable = [&](double mid) {
        const Verdict v = probe(mid);
        if (v.unstable) at_hi = v;
        return v.unstable;
      };
      const Bracket br = bisect(unstable, a, b, [&](double x0, double x1) { return x1 - x0 > tol * x0; });
      a = br.lo;
      b = br.hi;
    };
    bisect_to(certify_width);
    const Matrix Aa = matrix(a), Ab = matrix(b);
    if (Aa.rows() <= certify_max_state && Ab.allFinite()) {
      double best = nan;
      for (Crossing c : {Crossing::minus_one, Crossing::plus_one, Crossing::complex_pair}) {
        if (c == Crossing::complex_pair) {
          // Only where the real crossings say nothing, and only for dissipative A: a conservative
          // scheme keeps every stable pair on the circle, lambda conj(lambda) - 1 = 0 up to
          // rounding, and the sign of the bialternate determinant is noise. So A far below the
          // crossing must have every eigenvalue strictly inside (by more than 1e-6).
          if (!std::isnan(best) || Aa.rows() > bialternate_max_state) continue;
          if (!(spectral_radius(matrix(a0)) < 1.0 - 1e-6)) continue;
          if (crossing_value(matrix(a0), c).sign != crossing_value(Aa, c).sign) continue;
        }
        const SignedLog la = crossing_value(Aa, c), lb = crossing_value(Ab, c);
        if (!(la.sign * lb.sign < 0.0)) continue;
        // the end on the stable side of the crossing
        const double Omega =
            sign_change_root([&](double x) { return crossing_value(matrix(x), c); }, a, b, la, lb);
        if (!(Omega >= best)) {
          best = Omega;
          method = fmt::format("certified: {}", crossing_text(c));
          certified = true;
        }
      }
      if (!std::isnan(best)) return best;
    }
    bisect_to(rel_tol);
    const double Omega_c = 0.5 * (a + b);
    // Weak instability at every h: rho - 1 = c Omega^p > 0 for all Omega, first resolved above
    // round-off at Omega_c. Recognised when rho - 1 at 2 and 4 Omega_c follows a power law that,
    // extrapolated back, lands on the round-off level found at Omega_c (a genuine crossing
    // extrapolates to far more than that, since rho - 1 starts from zero at Omega_c).
    const double g2 = probe(2.0 * Omega_c).excess, g4 = probe(4.0 * Omega_c).excess;
    if (g2 > 0.0 && g4 > g2 && std::isfinite(g4)) {
      const double p = std::log2(g4 / g2);
      if (p >= 1.0 && g2 / std::exp2(p) <= 1e3 * std::max(at_hi.excess, eps)) return std::nullopt;
    }
    method = "exact (scan): bisection of the eigenvalue verdicts, no crossing function changes sign";
    certified = false;
    return Omega_c;
  };
  std::optional<double> Omega_c = locate(lo, hi);
  if (!Omega_c) return {Stability::unstable, nan, 0, "weakly unstable: rho - 1 follows a power law of Omega down to round-off"};

  // 4. Small systems whose answer the crossing functions did not certify: a dense check below
  // it (uniform in Omega, where windows would matter), rho <= 1 at every point; a point found
  // unstable starts the location again. (A certified answer skips it: dtcrit table's time.)
  int dense = 0;
  if (sys.dofs() <= dense_check_max_dofs && !certified) {
    const double top = *Omega_c;
    const int points = dense_check_points(matrix(top).rows());
    double below = Omega_min;
    for (int k = 1; k <= points; ++k) {
      const double Omega = top * k / (points + 1.0);
      if (Omega <= Omega_min) continue;
      ++dense;
      if (!probe(Omega).unstable) {
        below = Omega;
        continue;
      }
      Omega_c = locate(below, Omega);
      if (!Omega_c) return {Stability::unstable, nan, 0, "weakly unstable: rho - 1 follows a power law of Omega down to round-off"};
      break;
    }
  }
  method += fmt::format("; scan ratio refined {} time{}", refinements, refinements == 1 ? "" : "s");
  if (dense > 0) method += fmt::format(", {}-point check below the limit", dense);
  return {Stability::conditional, *Omega_c / omega_max, 0, method, certified};
}

// An undamped LinearSystem (C = 0, K symmetric, no free mode left) decouples exactly into its
// modes: with Φ the M-orthonormal eigenvectors of K φ = ω² M φ, every scheme's step is a linear
// map built from M^-1 K alone, so A(h) is similar to the direct sum of the scalar oscillators'
// A(h ω_i), and the system is stable at h iff each mode is. The top mode's scan of its own step
// (ω = ω_top) finds no instability for h ω below its answer, and every lower mode has h ω_i < h
// ω_top there, so its verdict is the system's. This avoids judging the whole state's matrix, whose
// eigenvalue pairs crowd at -1 for implicit schemes at large Ω (variational_2 on a 46-dof packing
// above Ω ≈ 300), where rounding alone moves them off the circle.
// nullopt when the conditions do not hold (then the whole state is scanned).
std::optional<CriticalStep> modal_critical_step(Integrator& integrator, const LinearSystem& sys, double omega_max) {
  const Index n = sys.dofs();
  if (n < 2 || Matrix(sys.damping()).cwiseAbs().maxCoeff() > 0.0) return std::nullopt;  // one dof: nothing to decouple
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  const Matrix K = s.asDiagonal() * Matrix(sys.stiffness()) * s.asDiagonal();
  const double scale = K.cwiseAbs().maxCoeff();
  if (!(scale > 0.0) || (K - K.transpose()).cwiseAbs().maxCoeff() > 1e-13 * scale) return std::nullopt;
  const linalg::SymmetricEigen eig = linalg::symmetric_eigen(0.5 * (K + K.transpose()), false);
  if (!eig.converged || !(eig.values(0) > 0.0)) return std::nullopt;
  // The top mode in its own time unit 1/ω_top (A(h) of the oscillator ω is similar to A(h ω) of
  // the unit one): its matrix then carries no rounding from the scale of ω².
  const double omega_top = std::sqrt(eig.values(n - 1));
  LinearSystem unit = scalar_oscillator(1.0, 0.0);
  CriticalStep c = scan_critical_step(integrator, unit, omega_max / omega_top);
  c.h_crit /= omega_top;
  c.method += fmt::format("; on the top mode of {} decoupled undamped modes (ω_top = {:.12g} rad/s)", n, omega_top);
  return c;
}

}  // namespace

CriticalStep critical_step(Integrator& integrator, MechanicalSystem& sys, double omega_max) {
  require_positive("omega_max", omega_max);
  if (auto* linear = dynamic_cast<LinearSystem*>(&sys)) {
    MovingPart moving = without_free_modes(*linear, omega_max);
    if (moving.system && moving.system->dofs() == 0)
      return {Stability::unconditional, std::numeric_limits<double>::quiet_NaN(), moving.free_modes,
              "nothing moves: every mode is free"};
    LinearSystem& judged = moving.system ? *moving.system : *linear;
    auto c = modal_critical_step(integrator, judged, omega_max);
    if (!c) c = scan_critical_step(integrator, judged, omega_max);
    c->free_modes = moving.free_modes;
    return *c;
  }
  if (auto* history = dynamic_cast<LinearHistorySystem*>(&sys)) {
    MovingHistoryPart moving = without_free_modes(*history, omega_max);
    if (moving.system && moving.system->dofs() == 0)
      return {Stability::unconditional, std::numeric_limits<double>::quiet_NaN(), moving.free_modes,
              "nothing moves: every mode is free"};
    CriticalStep c = scan_critical_step(integrator, moving.system ? *moving.system : sys, omega_max);
    c.free_modes = moving.free_modes;
    c.method += "; histories advanced by the velocities (traditional update) in the state";
    return c;
  }
  return scan_critical_step(integrator, sys, omega_max);
}

CriticalStep critical_step(std::string_view integrator_spec, MechanicalSystem& sys, double omega_max) {
  auto integrator = make_integrator(integrator_spec);
  return critical_step(*integrator, sys, omega_max);
}

SignedLog signed_log_det(const Matrix& B) {
  const Eigen::PartialPivLU<Matrix> lu(B);
  double sign = lu.permutationP().determinant(), log_abs = 0.0;
  for (Index i = 0; i < B.rows(); ++i) {
    const double u = lu.matrixLU()(i, i);
    if (u == 0.0) return {0.0, -std::numeric_limits<double>::infinity()};
    sign *= u < 0.0 ? -1.0 : 1.0;
    log_abs += std::log(std::abs(u));
  }
  return {sign, log_abs};
}

double sign_change_root(const std::function<SignedLog(double)>& d, double a, double b, SignedLog da, SignedLog db) {
  auto f = [&, ref = da.log_abs](double x) {
    const SignedLog l = d(x);
    return l.sign * std::exp(std::clamp(l.log_abs - ref, -700.0, 700.0));
  };
  const double fa = da.sign, fb = db.sign * std::exp(std::clamp(db.log_abs - da.log_abs, -700.0, 700.0));
  std::uintmax_t iterations = 60;
  return boost::math::tools::toms748_solve(f, a, b, fa, fb, boost::math::tools::eps_tolerance<double>(50), iterations)
      .first;
}

}  // namespace dtcrit
