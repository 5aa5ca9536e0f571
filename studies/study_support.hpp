#pragma once
// What the study programs share: their command line, the two-decimal numbers of their order
// tables, and writing one output text whole (io/output_file.hpp: all of it or nothing).
#include <cmath>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>

#include <fmt/format.h>

#include "dtcrit/io/output_file.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace dtcrit::study {

struct Args {
  bool quick = false;  // the short run ctest makes (study_NAME_quick), with its checks
  std::string dir;     // where the outputs go
};

// study_NAME [--quick] [--out DIR]. Anything else prints the usage and gives nothing: the
// program then exits with status 2.
inline std::optional<Args> parse_args(int argc, char** argv, const std::string& program, std::string default_dir) {
  Args a{false, std::move(default_dir)};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") a.quick = true;
    else if (arg == "--out" && i + 1 < argc) a.dir = argv[++i];
    else {
      std::cerr << "usage: " << program << " [--quick] [--out DIR]\n";
      return std::nullopt;
    }
  }
  return a;
}

// DIR/NAME holding `text`.
inline void write_text(const std::string& dir, const std::string& name, const std::string& text) {
  write_file_atomically(dir + "/" + name, [&](std::ostream& o) { o << text; });
}

// A fitted order as the tables print it: two decimals, "-" where there is none.
inline std::string num(double x) { return std::isfinite(x) ? fmt::format("{:.2f}", x) : std::string("-"); }

// The fitted order of one channel of a sweep (NaN where it was not fitted).
inline double order_of(const sweep::IntegratorSweep& s, const std::string& channel) {
  const auto it = s.order.find(channel);
  return it == s.order.end() ? std::nan("") : it->second.order;
}

}  // namespace dtcrit::study
