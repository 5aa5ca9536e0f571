#pragma once
// One table of names per enum, read in both directions: printing (name_of), parsing (value_named)
// and the list of valid names in an error (names_list). A new value is one row of its table; an
// enum printed two ways (a keyword and a label) has two tables.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dtcrit {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

// The name of `value` in `table`; "?" for a value the table lacks (tests/test_enum_names.cpp checks
// that every table names each of its enum's values once).
template <class E, std::size_t N>
constexpr std::string_view name_of(E value, const EnumName<E> (&table)[N]) {
  for (const auto& row : table)
    if (row.value == value) return row.name;
  return "?";
}

// The value `table` names `name`, if any.
template <class E, std::size_t N>
constexpr std::optional<E> value_named(std::string_view name, const EnumName<E> (&table)[N]) {
  for (const auto& row : table)
    if (row.name == name) return row.value;
  return std::nullopt;
}

// "a, b or c": the names in the table's order.
template <class E, std::size_t N>
std::string names_list(const EnumName<E> (&table)[N]) {
  std::string out;
  for (std::size_t k = 0; k < N; ++k)
    out += std::string(k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(table[k].name);
  return out;
}

}  // namespace dtcrit
