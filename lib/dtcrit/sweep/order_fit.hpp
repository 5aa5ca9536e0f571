#pragma once
// Observed order of convergence from errors on an h grid: consecutive slopes
// s_k = ln(e_k / e_{k+1}) / ln(h_k / h_{k+1}), and a least-squares fit of ln e against ln h over
// the longest run of consecutive slopes that agree (max - min <= agreement), preferring the
// finest such run on a tie. Points with a non-finite, non-positive or round-off error (below
// `floor`) are left out of the fit, and a run never crosses them.
#include <vector>

namespace dtcrit::sweep {

struct OrderFit {
  double order;                 // fitted slope; NaN if fewer than two usable points
  std::vector<double> slopes;   // consecutive slopes between grid neighbours (NaN where unusable)
  int first = -1, last = -1;    // grid indices of the points used (inclusive)
  double h_hi = 0.0, h_lo = 0.0;  // the h range used
};

// h: step sizes (any order, normally h0 / 2^k); e: errors of the same length.
OrderFit fit_order(const std::vector<double>& h, const std::vector<double>& e, double agreement = 0.3,
                   double floor = 1e-13);

}  // namespace dtcrit::sweep
