#include "dtcrit/io/output_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace dtcrit {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.has_parent_path() && !fs::is_directory(target.parent_path()))
    throw std::runtime_error(fmt::format("cannot write '{}': folder '{}' does not exist", path, target.parent_path().string()));
  const fs::path tmp = target.string() + ".partial";
  try {
    {
      std::ofstream out(tmp, std::ios::binary);
      if (!out) throw std::runtime_error(fmt::format("cannot open '{}' for writing", tmp.string()));
      write(out);
      out.flush();
      if (!out) throw std::runtime_error(fmt::format("error while writing '{}'", tmp.string()));
    }
    fs::rename(tmp, target);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

}  // namespace dtcrit
