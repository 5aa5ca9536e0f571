#include "dtcrit/io/output_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "dtcrit/io/plot.hpp"

namespace dtcrit {

namespace fs = std::filesystem;

namespace {

// The OutputFiles alive in this process (read_input_file() asks declared_output_option()).
struct Registry {
  std::mutex mutex;
  std::vector<const OutputFiles*> live;
};
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

OutputFiles::~OutputFiles() {
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.live.erase(std::remove(r.live.begin(), r.live.end(), this), r.live.end());
  }
  if (committed_) return;
  std::error_code ec;
  for (const auto& e : entries_)
    if (!e.staged.empty()) fs::remove(e.staged, ec);
}

std::string declared_output_option(const std::string& path) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  for (const OutputFiles* files : r.live)
    if (const std::string option = files->option_of(path); !option.empty()) return option;
  return "";
}

std::string OutputFiles::option_of(const std::string& path) const {
  for (const auto& e : entries_) {
    std::error_code ec;
    if (fs::equivalent(e.path, path, ec)) return e.option;
  }
  return "";
}

void OutputFiles::declare(std::string_view option, const std::string& path, OutputFormat format) {
  if (path.empty()) return;
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument(fmt::format("{} '{}': {}", option, path, why));
  };
  const fs::path target(path);
  if (!target.has_filename() || fs::is_directory(target)) bad("is a folder, not a file");
  Entry entry{std::string(option), path, "", format, path};
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);  // of what a symlink points to
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    entry.direct = true;  // a device or a FIFO: written into at commit(), never replaced
  } else if (fs::is_symlink(fs::symlink_status(target, ec))) {
    if (!fs::exists(status)) bad("is a symlink to nothing");
    entry.target = fs::canonical(target).string();  // the file is replaced, the link stays
  }
  if (!entry.direct) {
    const fs::path resolved(entry.target);
    const fs::path folder = resolved.has_parent_path() ? resolved.parent_path() : fs::path(".");
    if (!fs::is_directory(folder)) bad(fmt::format("folder '{}' does not exist", folder.string()));
    if (access(folder.c_str(), W_OK) != 0) bad(fmt::format("folder '{}' is not writable", folder.string()));
  }
  if (fs::exists(status) && access(target.c_str(), W_OK) != 0) bad("the file exists and is not writable");
  if (format == OutputFormat::plot) {
    try {
      plot_terminal(path);
    } catch (const std::invalid_argument&) {
      bad("a plot must end in .png or .svg");
    }
  }
  for (const auto& e : entries_)
    if (e.path == path || fs::equivalent(e.path, target, ec)) bad(fmt::format("is also the file of {}", e.option));
  if (entries_.empty()) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.live.push_back(this);
  }
  entries_.push_back(std::move(entry));
}

// Beside the target (the rename stays on one file system), or in the temporary folder for a
// target written directly (/dev has no room for it).
std::string OutputFiles::stage_path(const Entry& e) {
  if (!e.direct) return e.target + ".partial";
  std::string name = (fs::temp_directory_path() / "dtcrit-output-XXXXXX").string();
  const int fd = mkstemp(name.data());
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create a temporary file {}", name));
  close(fd);
  return name;
}

OutputFiles::Entry& OutputFiles::entry(const std::string& path) {
  for (auto& e : entries_)
    if (e.path == path) return e;
  throw std::logic_error(fmt::format("output '{}' was not declared before the computation", path));
}

void OutputFiles::write(const std::string& path, const std::function<void(std::ostream&)>& write) {
  Entry& e = entry(path);
  e.staged = stage_path(e);
  std::ofstream out(e.staged, std::ios::binary);
  if (!out) throw std::runtime_error(fmt::format("cannot open '{}' for writing", e.staged));
  write(out);
  out.flush();
  if (!out) throw std::runtime_error(fmt::format("error while writing '{}'", e.staged));
}

void OutputFiles::write_text(const std::string& path, const std::string& text) {
  write(path, [&](std::ostream& out) { out << text; });
}

void OutputFiles::plot(const std::string& path, const PlotSpec& spec) {
  Entry& e = entry(path);
  e.staged = stage_path(e);
  draw_plot(path, e.staged, spec);
}

void OutputFiles::commit() {
  for (const auto& e : entries_)
    if (e.staged.empty()) throw std::logic_error(fmt::format("{} '{}' was declared but never written", e.option, e.path));
  for (const auto& e : entries_) {
    if (!e.direct) {
      fs::rename(e.staged, e.target);
      continue;
    }
    {
      std::ifstream in(e.staged, std::ios::binary);
      const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      std::ofstream out(e.path, std::ios::binary);
      if (!in || !out || !out.write(content.data(), static_cast<std::streamsize>(content.size())) || !out.flush())
        throw std::runtime_error(fmt::format("{} '{}': error while writing", e.option, e.path));
    }
    std::error_code ec;
    fs::remove(e.staged, ec);
  }
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  OutputFiles files;
  files.declare("output", path);
  files.write(path, write);
  files.commit();
}

}  // namespace dtcrit
