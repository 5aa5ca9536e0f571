#pragma once
// The outcomes of the first collision of a run, from its overlap and normal approach speed sampled
// at every step: onset and exit times (linear interpolation of the overlap at its zero crossings),
// contact_duration, peak_overlap (parabola through the three samples around the largest one) and
// restitution = -(approach speed at exit) / (approach speed at onset), each speed extrapolated
// linearly to the crossing time from the two free-flight samples nearest to it (exact for free
// flight at constant acceleration, whatever the velocity's time level).
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dtcrit/sweep/sweep_case.hpp"

namespace dtcrit::sweep {

class CollisionMonitor final : public Monitor {
 public:
  // overlap(x) > 0 in contact; approach(x, v) = d(overlap)/dt along the normal, > 0 when closing.
  CollisionMonitor(std::function<double(const Vector&)> overlap,
                   std::function<double(const Vector&, const Vector&)> approach)
      : overlap_(std::move(overlap)), approach_(std::move(approach)) {}

  void sample(double t, const Vector& x, double tv, const Vector& v) override;
  // restitution, peak_overlap, contact_duration (NaN while not determined, e.g. no exit yet).
  std::map<std::string, double> outcomes() const override;

 private:
  struct Sample {
    double t, overlap, tv, approach;
  };
  std::function<double(const Vector&)> overlap_;
  std::function<double(const Vector&, const Vector&)> approach_;
  std::vector<Sample> samples_;  // from the start to two samples after the first exit
  bool in_contact_ = false, done_ = false;
  long onset_index_ = -1, exit_index_ = -1, after_exit_ = 0;
};

}  // namespace dtcrit::sweep
