#include "dtcrit/linalg/lanczos.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"

namespace dtcrit::linalg {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Number of eigenvalues of T below x (Sturm count of the LDL^T pivots of T - x I).
Index count_below(const std::vector<double>& alpha, const std::vector<double>& beta, double x, double pivmin) {
  Index count = 0;
  double q = 0.0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    q = alpha[i] - x - (i > 0 ? beta[i - 1] * beta[i - 1] / q : 0.0);
    if (std::abs(q) < pivmin) q = -pivmin;
    if (q < 0.0) ++count;
  }
  return count;
}

// Solves (T - shift I) x = b in place by Gaussian elimination with partial pivoting (LAPACK's
// dgttrf/dgtts2 for a symmetric tridiagonal T); a zero pivot is replaced by `tiny`.
void tridiagonal_solve(const std::vector<double>& alpha, const std::vector<double>& beta, double shift, double tiny,
                       Vector& b) {
  const std::size_t k = alpha.size();
  std::vector<double> d(k), dl(beta), du(beta), du2(k, 0.0);
  std::vector<char> swapped(k, 0);
  for (std::size_t i = 0; i < k; ++i) d[i] = alpha[i] - shift;
  for (std::size_t i = 0; i + 1 < k; ++i) {
    if (std::abs(d[i]) >= std::abs(dl[i])) {
      if (d[i] == 0.0) d[i] = tiny;
      const double fact = dl[i] / d[i];
      dl[i] = fact;
      d[i + 1] -= fact * du[i];
    } else {
      const double fact = d[i] / dl[i];
      d[i] = dl[i];
      dl[i] = fact;
      const double temp = du[i];
      du[i] = d[i + 1];
      d[i + 1] = temp - fact * d[i + 1];
      if (i + 2 < k) {
        du2[i] = du[i + 1];
        du[i + 1] = -fact * du[i + 1];
      }
      swapped[i] = 1;
    }
  }
  if (d[k - 1] == 0.0) d[k - 1] = tiny;
  for (std::size_t i = 0; i + 1 < k; ++i) {  // L
    if (!swapped[i]) {
      b[static_cast<Index>(i + 1)] -= dl[i] * b[static_cast<Index>(i)];
    } else {
      const double temp = b[static_cast<Index>(i)];
      b[static_cast<Index>(i)] = b[static_cast<Index>(i + 1)];
      b[static_cast<Index>(i + 1)] = temp - dl[i] * b[static_cast<Index>(i)];
    }
  }
  for (std::size_t r = k; r-- > 0;) {  // U
    const auto i = static_cast<Index>(r);
    double s = b[i];
    if (r + 1 < k) s -= du[r] * b[i + 1];
    if (r + 2 < k) s -= du2[r] * b[i + 2];
    b[i] = s / d[r];
  }
}

}  // namespace

TridiagonalTop tridiagonal_largest(const std::vector<double>& alpha, const std::vector<double>& beta) {
  const std::size_t k = alpha.size();
  if (k == 0 || beta.size() + 1 != k) fail(fmt::format("tridiagonal_largest: {} diagonal and {} off-diagonal entries", k, beta.size()));
  TridiagonalTop out;
  if (k == 1) {
    out.theta = alpha[0];
    out.vector = Vector::Ones(1);
    return out;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, bmax = 0.0;
  for (std::size_t i = 0; i < k; ++i) {  // Gershgorin interval
    const double r = (i > 0 ? std::abs(beta[i - 1]) : 0.0) + (i + 1 < k ? std::abs(beta[i]) : 0.0);
    lo = std::min(lo, alpha[i] - r);
    hi = std::max(hi, alpha[i] + r);
    if (i + 1 < k) bmax = std::max(bmax, std::abs(beta[i]));
  }
  const double norm = std::max(std::abs(lo), std::abs(hi));
  const double pivmin = std::max(std::numeric_limits<double>::min(), kEps * kEps * bmax * bmax);
  hi += 2.0 * kEps * norm + pivmin;
  lo -= 2.0 * kEps * norm + pivmin;
  const auto all = static_cast<Index>(k);
  out.theta = bisect([&](double mid) { return count_below(alpha, beta, mid, pivmin) == all; }, lo, hi,
                     [&](double a, double b) { return b - a > 2.0 * kEps * std::max(std::abs(a), std::abs(b)) + pivmin; },
                     200)
                  .mid();
  // Inverse iteration: theta is accurate to rounding, so two solves give the vector to rounding.
  Vector s = Vector::Ones(all);
  const double tiny = kEps * std::max(norm, std::numeric_limits<double>::min());
  for (int it = 0; it < 3; ++it) {
    tridiagonal_solve(alpha, beta, out.theta, tiny, s);
    const double sn = s.norm();
    if (!(sn > 0.0) || !std::isfinite(sn)) fail("tridiagonal_largest: inverse iteration broke down");
    s /= sn;
  }
  out.vector = std::move(s);
  return out;
}

LanczosResult lanczos_largest(Index n, const SymmetricOperator& op, const LanczosOptions& opts) {
  const Index size = opts.sum_over_ranks && opts.global_size > 0 ? opts.global_size : n;
  if (size < 1 || n < 0) fail(fmt::format("lanczos_largest: operator size n = {} must be at least 1", size));
  require_positive("Lanczos tolerance", opts.tolerance);
  auto over_ranks = [&](double s) {  // a local sum's total over the processes
    if (opts.sum_over_ranks) opts.sum_over_ranks(&s, 1);
    return s;
  };
  Vector v(n), v_prev = Vector::Zero(n), w(n);
  if (opts.start && opts.start->size() == n && opts.start->norm() > 0.0) {
    v = *opts.start;
  } else {
    lanczos_start_entries(n, opts.seed, [&](Index i, double x) { v[i] = x; });
  }
  v /= std::sqrt(over_ranks(v.squaredNorm()));
  Vector v0;
  if (opts.want_vector) v0 = v;

  LanczosResult out;
  std::vector<double> alpha, beta;
  TridiagonalTop top;
  double beta_prev = 0.0;
  // The vector work over ranges [begin, end) of the entries: one range, or opts.parts of them.
  const int parts = opts.parts > 1 && opts.run_parts && n >= 2 * opts.parts ? opts.parts : 1;
  std::vector<double> partial(static_cast<std::size_t>(parts));
  auto over_ranges = [&](const auto& f) {  // f(range, begin, end)
    if (parts == 1) {
      f(0, Index{0}, n);
      return;
    }
    opts.run_parts(parts, [&](int t) { f(t, n * t / parts, n * (t + 1) / parts); });
  };
  auto summed = [&] {  // the ranges' partial sums, in range order
    double total = 0.0;
    for (double p : partial) total += p;
    return total;
  };
  for (Index step = 0; step < std::min(opts.max_steps, size); ++step) {
    op(v.data(), w.data());
    ++out.operations;
    double a = 0.0;
    if (parts == 1) {  // the whole vectors' dot, as before ranges existed (the same bits)
      a = w.dot(v);
    } else {
      over_ranges([&](int t, Index begin, Index end) {
        partial[static_cast<std::size_t>(t)] = w.segment(begin, end - begin).dot(v.segment(begin, end - begin));
      });
      a = summed();
    }
    a = over_ranks(a);
    // w -= a v + beta_prev v_prev and |w|^2 in one pass (the vectors are large)
    over_ranges([&](int t, Index begin, Index end) {
      double ss = 0.0;
      for (Index i = begin; i < end; ++i) {
        const double wi = w[i] - a * v[i] - beta_prev * v_prev[i];
        w[i] = wi;
        ss += wi * wi;
      }
      partial[static_cast<std::size_t>(t)] = ss;
    });
    const double ss = over_ranks(summed());
    const double b = std::sqrt(ss);
    alpha.push_back(a);
    out.steps = step + 1;
    const bool last = out.steps == std::min(opts.max_steps, size);
    // Check every step early on, then every ~2% of the steps: the check is O(steps).
    if (step < 100 || step % (step / 50) == 0 || last || !(b > 0.0)) {
      top = tridiagonal_largest(alpha, beta);
      out.lambda = top.theta;
      out.residual_estimate = b * std::abs(top.vector[step]);
      if (opts.progress) opts.progress(out.steps, out.residual_estimate / std::abs(top.theta));
      // Invariant Krylov space (b negligible) or the residual criterion.
      if (b <= 1e3 * kEps * std::abs(top.theta) || out.residual_estimate <= opts.tolerance * std::abs(top.theta)) {
        out.converged = true;
        break;
      }
    }
    if (last) break;
    beta.push_back(b);
    v_prev.swap(v);
    v.swap(w);
    over_ranges([&](int, Index begin, Index end) { v.segment(begin, end - begin) /= b; });
    beta_prev = b;
  }
  if (!opts.want_vector) return out;

  // Second pass: y = sum_j s_j v_j with the stored alpha, beta.
  const Index k = out.steps;
  Vector y = Vector::Zero(n);
  v = v0;
  v_prev.setZero();
  for (Index j = 0; j < k; ++j) {
    const double sj = top.vector[j];
    over_ranges([&](int, Index begin, Index end) { y.segment(begin, end - begin) += sj * v.segment(begin, end - begin); });
    if (j + 1 == k) break;
    op(v.data(), w.data());
    ++out.operations;
    const auto uj = static_cast<std::size_t>(j);
    const double aj = alpha[uj], bj = j > 0 ? beta[uj - 1] : 0.0, next = beta[uj];
    over_ranges([&](int, Index begin, Index end) {
      const Index len = end - begin;
      w.segment(begin, len) -= aj * v.segment(begin, len) + bj * v_prev.segment(begin, len);
      v_prev.segment(begin, len) = w.segment(begin, len) / next;  // the next v, swapped in below
    });
    v_prev.swap(v);
  }
  out.vector = y / std::sqrt(over_ranks(y.squaredNorm()));
  return out;
}

}  // namespace dtcrit::linalg
