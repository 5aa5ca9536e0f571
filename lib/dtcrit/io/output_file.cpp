#include "dtcrit/io/output_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "dtcrit/io/plot.hpp"

namespace dtcrit {

namespace fs = std::filesystem;

OutputFiles::~OutputFiles() {
  if (committed_) return;
  std::error_code ec;
  for (const auto& e : entries_)
    if (!e.staged.empty()) fs::remove(e.staged, ec);
}

void OutputFiles::declare(std::string_view option, const std::string& path, OutputFormat format) {
  if (path.empty()) return;
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument(fmt::format("{} '{}': {}", option, path, why));
  };
  const fs::path target(path);
  if (!target.has_filename() || fs::is_directory(target)) bad("is a folder, not a file");
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(folder)) bad(fmt::format("folder '{}' does not exist", folder.string()));
  if (access(folder.c_str(), W_OK) != 0) bad(fmt::format("folder '{}' is not writable", folder.string()));
  if (fs::exists(target) && access(target.c_str(), W_OK) != 0) bad("the file exists and is not writable");
  if (format == OutputFormat::plot) {
    try {
      plot_terminal(path);
    } catch (const std::invalid_argument&) {
      bad("a plot must end in .png or .svg");
    }
  }
  for (const auto& e : entries_) {
    std::error_code ec;
    if (e.path == path || (fs::exists(target) && fs::equivalent(e.path, target, ec)))
      bad(fmt::format("is also the file of {}", e.option));
  }
  entries_.push_back({std::string(option), path, "", format});
}

OutputFiles::Entry& OutputFiles::entry(const std::string& path) {
  for (auto& e : entries_)
    if (e.path == path) return e;
  throw std::logic_error(fmt::format("output '{}' was not declared before the computation", path));
}

void OutputFiles::write(const std::string& path, const std::function<void(std::ostream&)>& write) {
  Entry& e = entry(path);
  e.staged = path + ".partial";
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
  e.staged = path + ".partial";
  draw_plot(path, e.staged, spec);
}

void OutputFiles::commit() {
  for (const auto& e : entries_)
    if (e.staged.empty()) throw std::logic_error(fmt::format("{} '{}' was declared but never written", e.option, e.path));
  for (const auto& e : entries_) fs::rename(e.staged, e.path);
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  OutputFiles files;
  files.declare("output", path);
  files.write(path, write);
  files.commit();
}

}  // namespace dtcrit
