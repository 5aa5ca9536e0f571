// core/enum_names.hpp and every name table built on it: each table names each value of its enum
// once (values 0..N-1, no name twice), and reading a printed name gives the value back.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/assembly/region_wall.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/packing/lammps_probe.hpp"
#include "dtcrit/packing/packing_checks.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace {

using namespace dtcrit;

template <class E, std::size_t N>
void check_table(const EnumName<E> (&table)[N]) {
  std::set<int> values;
  std::set<std::string> names;
  for (const auto& row : table) {
    values.insert(static_cast<int>(row.value));
    names.insert(std::string(row.name));
    CHECK(name_of(row.value, table) == row.name);
    const auto back = value_named(row.name, table);
    REQUIRE(back.has_value());
    CHECK(*back == row.value);
  }
  CHECK(names.size() == N);
  REQUIRE(values.size() == N);
  CHECK(*values.begin() == 0);
  CHECK(*values.rbegin() == static_cast<int>(N) - 1);
}

}  // namespace

TEST_CASE("enum names: lookups both ways and the list of valid names", "[core]") {
  enum class Colour { red, green, blue };
  constexpr EnumName<Colour> colours[] = {{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}};
  CHECK(name_of(Colour::green, colours) == "green");
  CHECK(name_of(static_cast<Colour>(7), colours) == "?");
  CHECK(value_named("blue", colours) == Colour::blue);
  CHECK_FALSE(value_named("Blue", colours).has_value());
  CHECK(names_list(colours) == "red, green or blue");
  constexpr EnumName<Colour> one[] = {{Colour::red, "red"}};
  CHECK(names_list(one) == "red");
  static_assert(name_of(Colour::blue, colours) == "blue");  // usable at compile time
}

TEST_CASE("enum names: every table of the library names each value once", "[core]") {
  check_table(contact::style_names);
  check_table(contact::normal_names);
  check_table(contact::damping_names);
  check_table(contact::tangential_names);
  check_table(contact::rolling_names);
  check_table(contact::twisting_names);
  check_table(packing::lattice_names);
  check_table(packing::region_style_names);
  check_table(packing::probe_course_names);
  check_table(packing::timestep_verdict_names);
  check_table(packing::timestep_regime_names);
  check_table(stability_keywords);
  check_table(stability_labels);
  check_table(stepper::tangential_history_names);
  check_table(sweep::empirical_status_names);
  check_table(sweep::accuracy_status_names);
}
