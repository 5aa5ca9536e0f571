#pragma once
// The one bisection of a yes/no test (stable or not, positive definite or not, past a target or
// not), and monotone_root (Boost.Math's toms748_solve) for the root of a monotone function: a
// verdict has no value to interpolate, so it is bisected.
//
// Each caller keeps its own end criterion (a width, a number of halvings, or both): the limits
// the tests compare to 1e-12, and some bit for bit, depend on exactly where a bisection stops.
#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/math/tools/toms748_solve.hpp>

namespace dtcrit {

struct Bracket {
  double lo = 0.0, hi = 0.0;  // above(lo) is false, above(hi) true (as far as tested)
  double mid() const { return 0.5 * (lo + hi); }
};

enum class Midpoint { arithmetic, geometric };  // geometric: sqrt(lo hi), for 0 < lo < hi a decade apart

// keep_going for a bisection bounded by its number of halvings alone.
inline constexpr auto any_width = [](double, double) { return true; };

// Halves [lo, hi] on above(mid): true moves hi down to mid, false moves lo up. Repeats while
// keep_going(lo, hi) holds, at most max_halvings times, and stops early when the midpoint is no
// longer strictly inside (lo and hi are neighbouring doubles: a further halving changes nothing).
template <class Above, class KeepGoing>
Bracket bisect(Above&& above, double lo, double hi, KeepGoing&& keep_going,
               int max_halvings = std::numeric_limits<int>::max(), Midpoint midpoint = Midpoint::arithmetic) {
  for (int k = 0; k < max_halvings && keep_going(lo, hi); ++k) {
    const double mid = midpoint == Midpoint::arithmetic ? 0.5 * (lo + hi) : std::sqrt(lo * hi);
    if (!(lo < mid && mid < hi)) break;
    (above(mid) ? hi : lo) = mid;
  }
  return {lo, hi};
}

// The root of f where f rises or falls monotonically across [lo, hi] (f(lo) and f(hi) of opposite
// signs, or one of them zero): Boost.Math's toms748_solve until the bracket is about 4 ulp wide
// (eps_tolerance of `bits`), or after max_iterations. Returns the final bracket.
template <class F>
Bracket monotone_root(F&& f, double lo, double hi, int bits = std::numeric_limits<double>::digits,
                      std::uintmax_t max_iterations = 100) {
  const auto r = boost::math::tools::toms748_solve(f, lo, hi, boost::math::tools::eps_tolerance<double>(bits),
                                                   max_iterations);
  return {r.first, r.second};
}

}  // namespace dtcrit
