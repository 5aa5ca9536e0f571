#include "dtcrit/io/vary_axis.hpp"

#include <cmath>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit {

VaryAxis parse_vary_axis(std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    fail(fmt::format("--vary '{}' is not of the form KEY=LIST or KEY=START:STOP:N", text));
  VaryAxis axis{std::string(text.substr(0, eq)), {}};
  const std::string_view spec = text.substr(eq + 1);
  const std::string what = "--vary " + axis.key;
  if (spec.find(':') != std::string_view::npos) {
    const auto parts = split(spec, ':');
    if (parts.size() != 3 && !(parts.size() == 4 && parts[3] == "log"))
      fail(fmt::format("{}: range '{}' must be START:STOP:N or START:STOP:N:log", what, spec));
    const double a = parse_number(what, parts[0]), b = parse_number(what, parts[1]);
    if (!std::isfinite(a) || !std::isfinite(b))
      fail(fmt::format("{}: range '{}' needs finite ends, got {} and {}", what, spec, a, b));
    const double n_real = parse_number(what, parts[2]);
    if (!(n_real >= 1 && n_real == std::floor(n_real) && n_real <= static_cast<double>(max_grid_points)))
      fail(fmt::format("{}: the number of points N = {} must be a whole number from 1 to {}", what, parts[2],
                       max_grid_points));
    const auto n = static_cast<long>(n_real);
    const bool log = parts.size() == 4;
    if (log && !(a > 0 && b > 0)) fail(fmt::format("{}: a log range needs positive ends, got {} and {}", what, a, b));
    axis.values.reserve(static_cast<std::size_t>(n));
    for (long i = 0; i < n; ++i) {
      const double s = n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(n - 1);
      axis.values.push_back(log ? a * std::pow(b / a, s) : a + (b - a) * s);
    }
  } else {
    for (const auto& v : split(spec, ',')) axis.values.push_back(parse_number(what, v));
  }
  if (axis.values.empty()) fail(fmt::format("{}: no values", what));
  return axis;
}

std::size_t grid_size(const std::vector<VaryAxis>& axes) {
  std::size_t total = 1;
  for (const auto& a : axes) {
    // total * size > max, checked without overflow (sizes are >= 1).
    if (a.values.size() > max_grid_points / total)
      fail(fmt::format("--vary: the grid has more than {} configurations (axis {} adds {} values)", max_grid_points,
                       a.key, a.values.size()));
    total *= a.values.size();
  }
  return total;
}

}  // namespace dtcrit
