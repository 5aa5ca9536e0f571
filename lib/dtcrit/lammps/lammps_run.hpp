#pragma once
// Running the installed LAMMPS (`lmp`) on the user's behalf: finding it, quoting for the shell,
// turning a binary restart - which only the LAMMPS that wrote it can read - into a data file with
// LAMMPS' own `-restart2data`, and running a script that makes its particles itself (create_box, fix
// pour) to the state at its end.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

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

// The state at the end of the user's script, made by the installed LAMMPS in `folder`: the files of
// the script's folder and of its subfolders, one level down, are copied there (files above 64 MB and
// anything past 256 MB in all are not, and are listed in `not_copied`), the script runs there as it
// is, and after its last command `write_data` writes the state and a `run 0` dumps its pair contacts
// (compute property/local patom1 patom2, compute pair/local dist force p1 p2 p3, and p5 p6 p7 when the
// script says `pair_style granular`: the layout read_lammps_contacts reads; none for a hybrid pair
// style, where LAMMPS 29 Sep 2021's compute pair/local crashes: `contacts_file` is then ""). Nothing
// is written beside the script. `progress` gets LAMMPS' thermo lines. Throws std::invalid_argument
// naming the script and the command when `lmp` is missing or fails (its last output lines quoted).
struct ScriptState {
  std::string data_file, contacts_file;
  std::vector<std::string> not_copied;
};
ScriptState run_script_to_state(const std::string& script, const std::filesystem::path& folder,
                                const std::function<void(std::string_view)>& progress,
                                const std::string& lmp = "lmp");

}  // namespace dtcrit::packing
