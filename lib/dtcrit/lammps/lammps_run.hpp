#pragma once
// Running the installed LAMMPS (`lmp`) on the user's behalf: finding it, quoting for the shell, and
// turning a binary restart - which only the LAMMPS that wrote it can read - into a data file with
// LAMMPS' own `-restart2data`.
#include <filesystem>
#include <string>

namespace dtcrit::packing {

// The folder LAMMPS runs in: a new private folder under the system's temporary folder
// ("PREFIX-XXXXXX"), removed with everything in it; or, when `keep` names a folder, that one
// (created if needed) and kept.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& prefix, const std::string& keep = "");
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  bool kept() const { return keep_; }

 private:
  bool keep_;
  std::filesystem::path path_;
};

// The executable `name` (a name on PATH, or a path); "" when not found or not executable.
std::string find_executable(const std::string& name);
// `s` as one shell word ('...', with ' escaped).
std::string shell_quoted(const std::string& s);

// Converts the binary restart `restart` into the data file `data_file` with `lmp -restart2data`
// (LAMMPS 29 Sep 2021: `-restart2data RESTART DATA`). Contact histories are not in a data file;
// give them as contact dumps. Throws std::invalid_argument naming the restart and the exact command
// when `lmp` is missing or fails (its last output lines quoted).
void restart_to_data(const std::string& restart, const std::string& data_file, const std::string& lmp = "lmp");

}  // namespace dtcrit::packing
