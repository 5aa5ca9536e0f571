#include "dtcrit/core/time_left.hpp"

#include <cmath>

#include <fmt/format.h>

namespace dtcrit {

std::string time_left(double elapsed_seconds, std::size_t done, std::size_t total) {
  if (done == 0 || done >= total) return "";
  const double left = elapsed_seconds / static_cast<double>(done) * static_cast<double>(total - done);
  if (left < 60.0) return fmt::format("about {:.0f} s left", std::ceil(left));
  const long s = std::lround(left);
  if (left < 3600.0) return fmt::format("about {} min {} s left", s / 60, s % 60);
  return fmt::format("about {} h {} min left", s / 3600, (s % 3600) / 60);
}

}  // namespace dtcrit
