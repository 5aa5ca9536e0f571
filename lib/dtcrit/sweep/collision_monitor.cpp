#include "dtcrit/sweep/collision_monitor.hpp"

#include <cmath>
#include <limits>

namespace dtcrit::sweep {

void CollisionMonitor::sample(double t, const Vector& x, double tv, const Vector& v) {
  if (done_) return;
  const Sample s{t, overlap_(x), tv, approach_(x, v)};
  samples_.push_back(s);
  const long i = static_cast<long>(samples_.size()) - 1;
  if (!in_contact_ && exit_index_ < 0 && s.overlap > 0.0) {
    in_contact_ = true;
    onset_index_ = i;
  } else if (in_contact_ && s.overlap <= 0.0) {
    in_contact_ = false;
    exit_index_ = i;
  } else if (exit_index_ >= 0 && ++after_exit_ >= 3) {
    done_ = true;
  }
}

std::map<std::string, double> CollisionMonitor::outcomes() const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::map<std::string, double> out{{"restitution", nan}, {"peak_overlap", nan}, {"contact_duration", nan}};
  if (onset_index_ < 1) return out;  // no contact, or in contact from the start
  // Zero crossing of the overlap between samples a and b (linear interpolation).
  auto crossing = [&](long b) {
    const Sample& p = samples_[b - 1];
    const Sample& q = samples_[b];
    return p.t + (q.t - p.t) * (0.0 - p.overlap) / (q.overlap - p.overlap);
  };
  // Peak: parabola through the largest sample and its neighbours.
  const long last = exit_index_ >= 0 ? exit_index_ : static_cast<long>(samples_.size()) - 1;
  long k = onset_index_;
  for (long i = onset_index_; i <= last; ++i)
    if (samples_[i].overlap > samples_[k].overlap) k = i;
  double peak = samples_[k].overlap;
  if (k > 0 && k + 1 < static_cast<long>(samples_.size())) {
    const double a = samples_[k - 1].overlap, b = samples_[k].overlap, c = samples_[k + 1].overlap;
    const double denom = a - 2.0 * b + c;
    if (denom < 0.0) peak = b - 0.125 * (c - a) * (c - a) / denom;
  }
  out["peak_overlap"] = peak;
  if (exit_index_ < 0) return out;
  const double t_on = crossing(onset_index_), t_off = crossing(exit_index_);
  out["contact_duration"] = t_off - t_on;
  // Approach speed at t_on from the two last free-flight samples with tv <= t_on (before onset),
  // and at t_off from the two first samples with tv >= t_off (after exit).
  auto extrapolate = [](const Sample& p, const Sample& q, double t) {
    if (q.tv == p.tv) return q.approach;
    return p.approach + (q.approach - p.approach) * (t - p.tv) / (q.tv - p.tv);
  };
  long b1 = -1;
  for (long i = 0; i < static_cast<long>(samples_.size()) && samples_[i].tv <= t_on && i < onset_index_; ++i) b1 = i;
  long a1 = -1;
  // A velocity sample may depend on the previous position too (velocity Verlet, leapfrog): use
  // only samples whose predecessor is already out of contact.
  for (long i = exit_index_ + 1; i < static_cast<long>(samples_.size()); ++i)
    if (samples_[i].tv >= t_off) {
      a1 = i;
      break;
    }
  if (b1 < 0 || a1 < 0) return out;
  const double s_in = b1 >= 1 ? extrapolate(samples_[b1 - 1], samples_[b1], t_on) : samples_[b1].approach;
  const double s_out = a1 + 1 < static_cast<long>(samples_.size()) ? extrapolate(samples_[a1], samples_[a1 + 1], t_off)
                                                                  : samples_[a1].approach;
  out["restitution"] = -s_out / s_in;
  return out;
}

}  // namespace dtcrit::sweep
