#include "dtcrit/stability/eigenvalue_region.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include <fmt/format.h>

namespace dtcrit {

namespace {

using Complex = std::complex<double>;
constexpr double half_pi = 0.5 * std::numbers::pi;

Complex polynomial_at(const std::vector<double>& r, Complex z) {
  Complex v = 0.0;
  for (auto it = r.rbegin(); it != r.rend(); ++it) v = v * z + *it;
  return v;
}

double polynomial_at(const std::vector<double>& q, double y) {
  double v = 0.0;
  for (auto it = q.rbegin(); it != q.rend(); ++it) v = v * y + *it;
  return v;
}

// sum k |q_k| x^(k-1): a bound of |q'| on |z| <= x.
double polynomial_derivative_bound(const std::vector<double>& q, double x) {
  double bound = 0.0;
  for (std::size_t k = 1; k < q.size(); ++k) bound += static_cast<double>(k) * std::abs(q[k]) * std::pow(x, k - 1.0);
  return bound;
}

// The first r > 0 on the ray at angle theta where |R| exceeds 1 (scan and bisection); infinity when
// none below 1000.
double first_exit_radius(const std::vector<double>& r, double theta) {
  constexpr double dr = 1e-3, r_max = 1e3;
  const Complex direction = std::polar(1.0, theta);
  auto outside = [&](double x) { return std::abs(polynomial_at(r, x * direction)) > 1.0 + 1e-12; };
  for (double hi = dr; hi <= r_max; hi += dr) {
    if (!outside(hi)) continue;
    double lo = hi - dr;
    for (int i = 0; i < 60; ++i) {
      const double mid = 0.5 * (lo + hi);
      (outside(mid) ? hi : lo) = mid;
    }
    return lo;
  }
  return std::numeric_limits<double>::infinity();
}

// How far D(1) reaches along the ray at angle theta in [pi/2, pi].
double reach(double theta, double a) {
  const double c = -std::cos(theta);  // >= 0
  const double strip = c > 0.0 ? std::min(1.0, 0.5 * a / c) : 1.0;
  return theta >= std::numbers::pi ? std::max(strip, a) : strip;
}

// Whether |R| <= 1 on the curve point(u), u in [0, 1], of length at most `length`: on each piece
// max |R| at its ends + lipschitz x half its length, pieces halved where that exceeds 1 (near the
// imaginary axis |R| is within t^(p+2) of 1); `largest` gets the largest such bound.
template <class Point>
bool curve_proven(const std::vector<double>& r, Point point, double length, double lipschitz, double& largest) {
  constexpr int pieces = 2000, max_depth = 40;
  long budget = 2'000'000;  // evaluations: a piece that touches |R| = 1 would halve forever
  struct Piece {
    double u0, u1, m0, m1;
    int depth;
  };
  std::vector<Piece> stack;
  auto at = [&](double u) { return std::abs(polynomial_at(r, point(u))); };
  double m_prev = at(0.0);
  for (int i = 0; i < pieces; ++i) {
    const double u1 = double(i + 1) / pieces, m1 = at(u1);
    stack.push_back({double(i) / pieces, u1, m_prev, m1, 0});
    m_prev = m1;
  }
  while (!stack.empty()) {
    const Piece p = stack.back();
    stack.pop_back();
    const double bound = std::max(p.m0, p.m1) + lipschitz * 0.5 * length * (p.u1 - p.u0);
    if (bound <= 1.0) {
      largest = std::max(largest, bound);
      continue;
    }
    if (p.depth == max_depth || std::max(p.m0, p.m1) > 1.0 || --budget < 0) return false;
    const double um = 0.5 * (p.u0 + p.u1), mm = at(um);
    stack.push_back({p.u0, um, p.m0, mm, p.depth + 1});
    stack.push_back({um, p.u1, mm, p.m1, p.depth + 1});
  }
  return true;
}

}  // namespace

RegionStep region_step(const std::vector<double>& r, double a) {
  RegionStep out;
  if (r.size() < 2 || r[0] != 1.0) {
    out.method = "no stability polynomial with R(0) = 1";
    return out;
  }
  if (!(a >= 0.0) || !std::isfinite(a)) {
    out.method = fmt::format("the damping ratio of the bounds a = c_b / omega_b = {} is not finite and >= 0", a);
    return out;
  }
  // E(y) = |R(iy)|^2 - 1 = (sum r_k Re(i^k) y^k)^2 + (sum r_k Im(i^k) y^k)^2 - 1.
  std::vector<double> re(r.size(), 0.0), im(r.size(), 0.0);
  for (std::size_t k = 0; k < r.size(); ++k) (k % 2 == 0 ? re : im)[k] = (k % 4 < 2 ? 1.0 : -1.0) * r[k];
  std::vector<double> e(2 * r.size() - 1, 0.0);
  for (std::size_t i = 0; i < r.size(); ++i)
    for (std::size_t j = 0; j < r.size(); ++j) e[i + j] += re[i] * re[j] + im[i] * im[j];
  e[0] -= 1.0;
  double scale = 0.0;
  for (double c : e) scale = std::max(scale, std::abs(c));
  std::size_t m = 1;  // the lowest power of E not zero to rounding
  while (m < e.size() && std::abs(e[m]) <= 1e-12 * scale) ++m;
  if (m == e.size()) {
    out.method = "|R(iy)| = 1 on the whole imaginary axis: no step proven from the region";
    return out;
  }
  if (e[m] > 0.0) {
    out.method = fmt::format("|R(iy)| > 1 for every small y != 0 (|R(iy)|^2 = 1 + {:.6g} y^{} + ...), and eigenvalues "
                             "as close to the imaginary axis as the bounds allow are not excluded: no step proven",
                             e[m], m);
    return out;
  }
  const std::vector<double> q(e.begin() + static_cast<std::ptrdiff_t>(m), e.end());  // E = y^m Q(y)

  constexpr int rays = 2000, samples = 20000;
  double sampled = std::numeric_limits<double>::infinity();
  for (int j = 0; j <= rays; ++j) {
    const double theta = half_pi * (1.0 + static_cast<double>(j) / rays);
    sampled = std::min(sampled, first_exit_radius(r, theta) / reach(theta, a));
  }
  if (!std::isfinite(sampled)) {
    out.method = "no boundary of the stability region found in the left half-plane below |z| = 1000";
    return out;
  }
  // Real coefficients: |R(conj z)| = |R(z)|, so the upper half of the boundary is the proof.
  for (double t = 0.999 * sampled; t > 1e-3 * sampled; t *= 0.99) {
    const double dy = t / samples;
    double q_max = -std::numeric_limits<double>::infinity();
    for (int i = 0; i <= samples; ++i) q_max = std::max(q_max, polynomial_at(q, i * dy));
    if (!(q_max + polynomial_derivative_bound(q, t) * 0.5 * dy < 0.0)) continue;  // the imaginary axis
    const double x = std::min(1.0, 0.5 * a) * t;  // the strip's half-width, at most the radius
    const double theta_end = std::numbers::pi - std::acos(x / t);
    const double lipschitz = polynomial_derivative_bound(r, t);  // on |z| <= t
    double bound = 0.0;
    const bool arc = curve_proven(
        r, [&](double u) { return std::polar(t, half_pi + (theta_end - half_pi) * u); }, t * (theta_end - half_pi),
        lipschitz, bound);
    const double y_end = std::sqrt(std::max(0.0, t * t - x * x));  // the line Re z = -x up to the arc
    // (x = 0: the line is the imaginary axis, where |R(0)| = 1 and Q above is the proof)
    const bool line = x >= t || x == 0.0 || curve_proven(r, [&](double u) { return Complex(-x, y_end * u); }, y_end, lipschitz, bound);
    const bool real = a * t <= x || curve_proven(  // real roots beyond the strip: [-a t, -x]
                                        r, [&](double u) { return Complex(-x - (a * t - x) * u, 0.0); }, a * t - x,
                                        polynomial_derivative_bound(r, a * t), bound);
    if (!(arc && line && real)) continue;
    out.t = t;
    out.method = fmt::format(
        "|R| <= 1 on the region {{|z| <= t, -a t/2 <= Re z <= 0}} and [-a t, 0] where every h s lies, t = h omega_b = "
        "{:.6g}, a = c_b / omega_b = {:.4g} (0.999 of the first exit from the stability region found on {} rays, "
        "{:.6g}; proven by the maximum modulus principle on the region's boundary from samples and Lipschitz "
        "bounds, {} samples of the imaginary axis: |R| <= {:.9g})",
        t, a, rays + 1, sampled, samples + 1, bound);
    return out;
  }
  out.method = fmt::format("no step proven below the first exit from the stability region found, t = {:.6g}", sampled);
  return out;
}

}  // namespace dtcrit
