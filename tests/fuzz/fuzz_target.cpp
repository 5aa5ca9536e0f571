// One libFuzzer target: the entry point named by DTCRIT_FUZZ_TARGET (see entry_points.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "entry_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const dtcrit::fuzz::EntryPoint run = [] {
    auto f = dtcrit::fuzz::find_target(DTCRIT_FUZZ_TARGET);
    if (!f) {
      std::cerr << "unknown fuzz target " << DTCRIT_FUZZ_TARGET << "\n";
      std::abort();
    }
    return f;
  }();
  run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
