#include "dtcrit/lammps/lammps_run.hpp"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
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

namespace {

// Runs the installed LAMMPS `exe` in `folder` on one thread with `arguments` (shell words, quoted by
// the caller), each line it prints handed to `line` (may be empty). Returns "" when it exits with
// status 0, else how it ended followed by its last lines: the end of an error message.
std::string run_lmp(const std::string& exe, const fs::path& folder, const std::string& arguments,
                    const std::function<void(std::string_view)>& line) {
  const std::string command =
      fmt::format("cd {} && OMP_NUM_THREADS=1 {} {} 2>&1", shell_quoted(folder.string()), shell_quoted(exe), arguments);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "could not be started";
  std::deque<std::string> last;
  char buffer[4096];
  std::string text;
  while (std::fgets(buffer, sizeof buffer, pipe)) {
    text += buffer;
    if (text.back() != '\n') continue;  // the rest of a long line follows
    text.pop_back();
    if (line) line(text);
    last.push_back(std::move(text));
    if (last.size() > 4) last.pop_front();
    text.clear();
  }
  const int status = pclose(pipe);
  std::string how;
  if (status == -1) how = "could not be waited for";
  else if (WIFSIGNALED(status)) how = fmt::format("was killed by signal {}", WTERMSIG(status));
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) how = fmt::format("failed (exit status {})", WEXITSTATUS(status));
  else return "";
  for (const auto& l : last) how += "\n  " + l;
  return how;
}

}  // namespace

void restart_to_data(const std::string& restart, const std::string& data_file, const std::string& lmp) {
  // The restart is an input like any other: a readable regular file, not an output (io/input_file.hpp).
  check_input_file(restart, "LAMMPS restart file");
  const std::string what = fmt::format("{} -restart2data {} {}", lmp, restart, data_file);
  const std::string exe = find_executable(lmp);
  if (exe.empty())
    fail(fmt::format("{}: a LAMMPS binary restart is read by LAMMPS only, and '{}' is not installed; convert it "
                     "where LAMMPS is ('lmp -restart2data {} state.data') and give state.data as --lammps-data",
                     restart, lmp, restart));
  const std::string failure =
      run_lmp(exe, fs::path(data_file).parent_path(),
              fmt::format("-log none -restart2data {} {}", shell_quoted(fs::absolute(restart).string()),
                          shell_quoted(fs::path(data_file).filename().string())),
              {});
  if (!failure.empty() || !fs::exists(data_file))
    fail(fmt::format("{}: '{}' {}", restart, what, failure.empty() ? "wrote no data file" : failure));
}

namespace {

// The files of `from` (and of its subfolders, one level down) copied into `to`, within the limits of
// run_script_to_state; the paths left out are returned.
std::vector<std::string> copy_script_folder(const fs::path& from, const fs::path& to) {
  constexpr std::uintmax_t per_file = 64u << 20, in_all = 256u << 20;
  constexpr int max_entries = 10000;
  std::vector<std::string> left_out;
  std::uintmax_t total = 0;
  int entries = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(from, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++entries > max_entries) {
      left_out.push_back(fmt::format("{} (past its first {} entries)", from.string(), max_entries));
      break;
    }
    if (it->is_directory()) {
      // One level down only, and never `to` itself (the script may lie in the temporary folder).
      std::error_code same;
      if (it.depth() >= 1 || fs::equivalent(it->path(), to, same)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    const std::uintmax_t size = it->file_size();
    if (size > per_file || total + size > in_all) {
      left_out.push_back(it->path().string());
      continue;
    }
    const fs::path target = to / fs::relative(it->path(), from);
    fs::create_directories(target.parent_path());
    fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing);
    total += size;
  }
  if (ec) fail(fmt::format("cannot list the folder {} of the LAMMPS script: {}", from.string(), ec.message()));
  return left_out;
}

// The style of the last pair_style line of a script's text (not of the files it includes).
std::string pair_style_of(const std::string& text) {
  std::istringstream in(text);
  std::string style;
  for (std::string line; std::getline(in, line);) {
    const auto words = split_words(line.substr(0, line.find('#')));
    if (words.size() >= 2 && words[0] == "pair_style") style = words[1];
  }
  return style;
}

}  // namespace

ScriptState run_script_to_state(const std::string& script, const fs::path& folder,
                                const std::function<void(std::string_view)>& progress, const std::string& lmp) {
  std::string body = read_input_file(script, "LAMMPS input script");
  if (!body.empty() && body.back() != '\n') body += '\n';
  const std::string exe = find_executable(lmp);
  if (exe.empty())
    fail(fmt::format("{}: --run-in-lammps runs the script in the installed LAMMPS, and '{}' is not installed "
                     "(DTCRIT_WITH_LAMMPS=1 tools/setup.sh installs Debian's); or add 'write_data state.data' at the "
                     "moment of interest to the script and give state.data as --lammps-data",
                     script, lmp));
  ScriptState state;
  state.not_copied = copy_script_folder(fs::absolute(script).parent_path(), folder);
  state.data_file = (folder / "dtcrit_state.data").string();
  state.contacts_file = (folder / "dtcrit_contacts.dump").string();
  const std::string input = "dtcrit_input.lmp";
  const std::string style = pair_style_of(body);
  // LAMMPS 29 Sep 2021 crashes in PairHybrid::copy_svector when compute pair/local meets a hybrid
  // style (its examples/granregion/in.granregion.box): no contact dump there.
  const bool dump_contacts = !style.starts_with("hybrid");
  if (!dump_contacts) state.contacts_file.clear();
  {
    const bool granular = style == "granular";  // the rolling force too: p5 p6 p7
    std::ofstream out(folder / input);
    out << body << "# added by dtcrit --run-in-lammps: the state at the end of the script, with its pair contacts\n"
        << "write_data dtcrit_state.data nocoeff\n";
    if (dump_contacts)
      out << "compute dtcrit_pl all property/local patom1 patom2\n"
          << "compute dtcrit_pf all pair/local dist force p1 p2 p3" << (granular ? " p5 p6 p7" : "") << "\n"
          << "dump dtcrit_dc all local 1 dtcrit_contacts.dump index c_dtcrit_pl[1] c_dtcrit_pl[2] c_dtcrit_pf[1] "
             "c_dtcrit_pf[2] c_dtcrit_pf[3] c_dtcrit_pf[4] c_dtcrit_pf[5]"
          << (granular ? " c_dtcrit_pf[6] c_dtcrit_pf[7] c_dtcrit_pf[8]" : "") << "\n"
          << "dump_modify dtcrit_dc format float %.17g\n"
          << "run 0\n";
    if (!out) fail(fmt::format("cannot write the LAMMPS input {}", (folder / input).string()));
  }
  const std::string what = fmt::format("{} -in {} (a copy of {} with write_data and a contact dump after it, run in a "
                                       "temporary folder, removed)",
                                       lmp, input, script);
  // LAMMPS' thermo lines (they start with the step number) are the progress.
  auto thermo = [&](std::string_view line) {
    const auto first = line.find_first_not_of(' ');
    if (progress && first != std::string_view::npos && std::isdigit(static_cast<unsigned char>(line[first])))
      progress("lmp: " + std::string(line.substr(first)));
  };
  const std::string failure = run_lmp(exe, folder, "-in " + input + " -log log.dtcrit", thermo);
  if (!failure.empty() || !fs::exists(state.data_file) || (dump_contacts && !fs::exists(state.contacts_file))) {
    std::string missing;
    for (const auto& m : state.not_copied) missing += "\n  not copied: " + m;
    fail(fmt::format("{}: '{}' {}{}", script, what, failure.empty() ? "wrote no state" : failure, missing));
  }
  return state;
}

}  // namespace dtcrit::packing
