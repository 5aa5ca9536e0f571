#include "dtcrit/lammps/lammps_run.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/io/input_file.hpp"

namespace dtcrit::packing {

namespace fs = std::filesystem;

ScratchFolder::ScratchFolder(const std::string& prefix, const std::string& keep) : keep_(!keep.empty()) {
  if (keep_) {
    path_ = keep;
    fs::create_directories(path_);
    return;
  }
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) fail(fmt::format("cannot create a temporary folder {}", pattern));
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  std::error_code ec;
  if (!keep_) fs::remove_all(path_, ec);
}

std::string find_executable(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  for (const auto& dir : split(path ? path : "", ':')) {
    const fs::path candidate = fs::path(dir) / name;
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate.string();
  }
  return "";
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void restart_to_data(const std::string& restart, const std::string& data_file, const std::string& lmp) {
  // The restart is an input like any other: a readable regular file, not an output (io/input_file.hpp).
  check_input_file(restart, "LAMMPS restart file");
  const std::string what = fmt::format("{} -restart2data {} {}", lmp, restart, data_file);
  const std::string exe = find_executable(lmp);
  if (exe.empty())
    fail(fmt::format("{}: a LAMMPS binary restart is read by LAMMPS only, and '{}' is not installed; convert it "
                     "where LAMMPS is ('lmp -restart2data {} state.data') and give state.data as --lammps-data",
                     restart, lmp, restart));
  const fs::path log = fs::path(data_file).parent_path() / "restart2data.log";
  const std::string command = fmt::format("cd {} && OMP_NUM_THREADS=1 {} -log none -screen none -restart2data {} {} > {} 2>&1",
                                          shell_quoted(fs::path(data_file).parent_path().string()), shell_quoted(exe),
                                          shell_quoted(fs::absolute(restart).string()),
                                          shell_quoted(fs::path(data_file).filename().string()),
                                          shell_quoted(log.string()));
  const int status = std::system(command.c_str());
  if (status != 0 || !fs::exists(data_file)) {
    std::ifstream in(log);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::string tail;
    for (std::size_t k = lines.size() > 3 ? lines.size() - 3 : 0; k < lines.size(); ++k) tail += "\n  " + lines[k];
    fail(fmt::format("{}: '{}' failed (status {}){}", restart, what, status, tail));
  }
}

}  // namespace dtcrit::packing
