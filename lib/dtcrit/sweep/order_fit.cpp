#include "dtcrit/sweep/order_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dtcrit/core/check.hpp"

namespace dtcrit::sweep {

OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& e, double agreement, double floor) {
  if (h.size() != e.size()) fail(fmt::format("fit_order: {} step sizes but {} errors", h.size(), e.size()));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int n = static_cast<int>(h.size());
  OrderFit fit{nan, {}, -1, -1, 0.0, 0.0};
  auto usable = [&](int k) { return std::isfinite(e[k]) && e[k] > floor && h[k] > 0.0; };
  for (int k = 0; k + 1 < n; ++k)
    fit.slopes.push_back(usable(k) && usable(k + 1) ? std::log(e[k] / e[k + 1]) / std::log(h[k] / h[k + 1]) : nan);
  // Longest run of consecutive finite slopes with max - min <= agreement; ties: the finest.
  int best_a = -1, best_b = -1;  // slope indices, inclusive
  for (int a = 0; a < static_cast<int>(fit.slopes.size()); ++a) {
    if (!std::isfinite(fit.slopes[a])) continue;
    double lo = fit.slopes[a], hi = fit.slopes[a];
    int b = a;
    while (b + 1 < static_cast<int>(fit.slopes.size()) && std::isfinite(fit.slopes[b + 1])) {
      const double s = fit.slopes[b + 1];
      if (std::max(hi, s) - std::min(lo, s) > agreement) break;
      lo = std::min(lo, s);
      hi = std::max(hi, s);
      ++b;
    }
    // h is normally decreasing with k: a later run is finer, so ">=" prefers it on a tie.
    if (best_a < 0 || b - a >= best_b - best_a) {
      best_a = a;
      best_b = b;
    }
  }
  if (best_a < 0) return fit;
  fit.first = best_a;
  fit.last = best_b + 1;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const int m = fit.last - fit.first + 1;
  for (int k = fit.first; k <= fit.last; ++k) {
    const double x = std::log(h[k]), y = std::log(e[k]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  fit.order = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  fit.h_hi = std::max(h[fit.first], h[fit.last]);
  fit.h_lo = std::min(h[fit.first], h[fit.last]);
  return fit;
}

}  // namespace dtcrit::sweep
