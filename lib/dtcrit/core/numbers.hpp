#pragma once
// Numbers read from text (command-line values, key=value lists, LAMMPS files): the whole text or
// nothing. A number may carry a leading '+' (as LAMMPS and strtod read it); leading white space,
// trailing characters, NaN and values outside the type's range are refused, never truncated.
#include <charconv>
#include <concepts>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

namespace detail {
// from_chars reads no sign '+': drop one leading '+' ("+-1" and "++1" stay malformed).
inline std::string_view without_plus(std::string_view text) {
  return text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+' ? text.substr(1) : text;
}
}  // namespace detail

// The number `text` spells, or nullopt. +-inf is returned (callers range-check it); NaN is not.
std::optional<double> read_number(std::string_view text);

// The integer `text` spells in type T, or nullopt (also when it lies outside T's range).
template <std::integral T>
std::optional<T> read_integer(std::string_view text) {
  const std::string_view t = detail::without_plus(text);
  T value{};
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return value;
}

// read_number, throwing std::invalid_argument that names `what` and the text:
// "body1 m = 'abc' is not a number".
double parse_number(std::string_view what, std::string_view text);

// read_integer, throwing: "--type-law type = '1.5' is not an integer", "... = '3000000000' is not an
// integer from -2147483648 to 2147483647".
template <std::integral T>
T parse_integer(std::string_view what, std::string_view text) {
  if (const auto v = read_integer<T>(text)) return *v;
  const std::string_view digits = detail::without_plus(text);
  const std::size_t first = !digits.empty() && digits[0] == '-' ? 1 : 0;
  if (digits.size() > first && digits.find_first_not_of("0123456789", first) == std::string_view::npos)
    fail(fmt::format("{} = '{}' is not an integer from {} to {}", what, text, std::numeric_limits<T>::min(),
                     std::numeric_limits<T>::max()));
  fail(fmt::format("{} = '{}' is not an integer", what, text));
}

}  // namespace dtcrit
