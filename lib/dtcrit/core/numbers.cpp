#include "dtcrit/core/numbers.hpp"

#include <cmath>

namespace dtcrit {

std::optional<double> read_number(std::string_view text) {
  const std::string_view t = detail::without_plus(text);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || std::isnan(value)) return std::nullopt;
  return value;
}

double parse_number(std::string_view what, std::string_view text) {
  if (const auto v = read_number(text)) return *v;
  // NaN spelled out is named without quotes ("body1 m = nan is not a number"), anything else quoted.
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool nan = !text.empty() && ec == std::errc() && end == text.data() + text.size() && std::isnan(value);
  fail(nan ? fmt::format("{} = {} is not a number", what, text) : fmt::format("{} = '{}' is not a number", what, text));
}

}  // namespace dtcrit
