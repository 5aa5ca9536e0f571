#pragma once
// Precondition checks whose messages name the parameter and the value
// ("inertia I = -2e-08 must be positive"). Broken preconditions throw std::invalid_argument;
// tools catch it in main, print the one line and exit non-zero.
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace dtcrit {

[[noreturn]] inline void fail(const std::string& message) { throw std::invalid_argument(message); }

// value > 0 and finite.
inline double require_positive(std::string_view name, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) fail(fmt::format("{} = {} must be positive and finite", name, value));
  return value;
}

// value >= 0 and finite.
inline double require_non_negative(std::string_view name, double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    fail(fmt::format("{} = {} must be non-negative and finite", name, value));
  return value;
}

inline double require_finite(std::string_view name, double value) {
  if (!std::isfinite(value)) fail(fmt::format("{} = {} must be finite", name, value));
  return value;
}

// lo <= value <= hi.
inline double require_in_range(std::string_view name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) fail(fmt::format("{} = {} must lie in [{}, {}]", name, value, lo, hi));
  return value;
}

}  // namespace dtcrit
