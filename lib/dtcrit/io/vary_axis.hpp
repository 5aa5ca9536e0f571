#pragma once
// The axes of `dtcrit table --vary`: KEY=a,b,c  or  KEY=START:STOP:N  or  KEY=START:STOP:N:log.
// The key is not checked here (PairInput::set does); a bad list, range or count throws
// std::invalid_argument naming the option and the value.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dtcrit {

struct VaryAxis {
  std::string key;
  std::vector<double> values;
};

// A grid holds at most this many configurations (each is a pair analysis and a row of ~40 numbers):
// larger requests are an error before anything is allocated.
inline constexpr std::size_t max_grid_points = 10'000'000;

VaryAxis parse_vary_axis(std::string_view text);

// The number of configurations of the grid (the product of the axis sizes); throws if it exceeds
// max_grid_points.
std::size_t grid_size(const std::vector<VaryAxis>& axes);

}  // namespace dtcrit
