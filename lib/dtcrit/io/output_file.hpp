#pragma once
// Result files are written whole or not at all: content goes to a temporary file beside the
// target, which is renamed over it only once complete.
#include <functional>
#include <ostream>
#include <string>

namespace dtcrit {

// Calls write(stream) on a temporary file, then renames it to `path`. On any exception the
// temporary file is removed and the exception propagates; `path` is untouched.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace dtcrit
