#pragma once
// Progress of long commands on stderr, only when stderr is a terminal (never in files or pipes):
// a bar with the work done and an estimate of the time left from the mean pace so far.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "dtcrit/core/time_left.hpp"

namespace dtcrit::cli {

// Stage messages with the time since the call, on stderr when it is a terminal (nothing otherwise).
std::function<void(std::string_view)> terminal_progress();

class ProgressBar {
 public:
  explicit ProgressBar(std::string unit);  // what is counted: "configurations", "runs"
  bool enabled() const { return enabled_; }
  // Redraws the bar (at most five times a second, always at the end).
  void update(std::size_t done, std::size_t total);
  // Clears the bar's line.
  void finish();
  double elapsed() const;

 private:
  std::string unit_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

}  // namespace dtcrit::cli
