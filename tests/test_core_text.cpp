// core/numbers.hpp and core/key_values.hpp: the one way text becomes numbers and key=value lists
// (command-line values, body specs, integrator specs, LAMMPS files): the whole text or an error that
// names the field and the value; integers are never narrowed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/integrators/registry.hpp"

using Catch::Matchers::Contains;
using namespace dtcrit;

namespace {

template <class F>
std::string message(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace

TEST_CASE("numbers: the whole text, a leading '+', no NaN", "[core]") {
  CHECK(read_number("1.5e-3") == 1.5e-3);
  CHECK(read_number("-2") == -2.0);
  CHECK(read_number("+0.25") == 0.25);  // LAMMPS and strtod read it
  CHECK(read_number("inf") == std::numeric_limits<double>::infinity());  // callers range-check
  for (const char* bad : {"", " 1", "1 ", "1x", "1,5", "nan", "+", "+-1", "++1", "0x10", "1e999"}) {
    CAPTURE(bad);
    CHECK(!read_number(bad));
  }
  CHECK(message([] { parse_number("--body1 m", "3kg"); }) == "--body1 m = '3kg' is not a number");
}

TEST_CASE("integers: range-checked, never truncated", "[core]") {
  CHECK(read_integer<int>("42") == 42);
  CHECK(read_integer<int>("+7") == 7);
  CHECK(read_integer<int>("-2147483648") == std::numeric_limits<int>::min());
  CHECK(read_integer<std::int64_t>("9223372036854775807") == std::numeric_limits<std::int64_t>::max());
  for (const char* bad : {"", "1.0", "1e3", "3x", " 3", "2147483648", "-", "0x1"}) {
    CAPTURE(bad);
    CHECK(!read_integer<int>(bad));
  }
  CHECK(!read_integer<unsigned>("-1"));
  CHECK(message([] { parse_integer<int>("--type-law type", "1.5"); }) == "--type-law type = '1.5' is not an integer");
  CHECK(message([] { parse_integer<int>("--type-law type", "3000000000"); }) ==
        "--type-law type = '3000000000' is not an integer from -2147483648 to 2147483647");
}

TEST_CASE("key=value lists: white space around keys and values, empty items, errors that name the list",
          "[core]") {
  const KeyValues kv(" shape = disc, r=5e-4 ,, m=0.003", "--body1");
  CHECK(kv.keys() == std::vector<std::string>{"m", "r", "shape"});
  CHECK(kv.text("shape") == "disc");
  CHECK(kv.number("r") == 5e-4);
  CHECK(kv.required_number("m") == 0.003);
  CHECK_THAT(message([] { KeyValues("r=1,r=2", "--body1"); }), Contains("--body1") && Contains("'r' given twice"));
  CHECK_THAT(message([] { KeyValues("r", "--body1"); }), Contains("'r' is not of the form key=value"));
  CHECK_THAT(message([] { KeyValues(" =1", "--body1"); }), Contains("'=1' is not of the form key=value"));
  const KeyValues unused("r=1,q=2", "--body1");
  (void)unused.number("r");
  CHECK_THAT(message([&] { unused.reject_unused({"r"}); }), Contains("key 'q' (= 2) is not used here"));
  CHECK_THAT(message([] { (void)KeyValues("r=abc", "--body1").number("r"); }),
             Contains("--body1 r = 'abc' is not a number"));
  CHECK(trim(" \t a b \r\n") == "a b");
}

TEST_CASE("integrator specs read their parameters as key=value lists", "[core][integrators]") {
  CHECK(canonical_integrator_spec("newmark: gamma = 0.6 , beta=+0.3") == "newmark:beta=0.3,gamma=0.6");
  CHECK_THAT(message([] { canonical_integrator_spec("hht:alpha=-0.1x"); }),
             Contains("integrator 'hht' alpha = '-0.1x' is not a number"));
  CHECK_THAT(message([] { canonical_integrator_spec("hht:alpha=inf"); }), Contains("alpha") && Contains("inf"));
}
