#pragma once
// The time a long computation has left, in words, from its mean pace so far: for the progress
// messages of the library's long stages (confirmation runs) and of the command line's bars.
#include <cstddef>
#include <string>

namespace dtcrit {

// "about 1 min 20 s left" from the time spent on `done` of `total` items ("" before the first).
std::string time_left(double elapsed_seconds, std::size_t done, std::size_t total);

}  // namespace dtcrit
