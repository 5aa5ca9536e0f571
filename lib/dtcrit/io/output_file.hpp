#pragma once
// Result files are written whole or not at all, and a command writes all of its files or none.
//
// OutputFiles is the one mechanism every command uses: declare() each output before any
// computation (the folder exists and is writable, the path is not a folder, a plot's format is
// known, no two outputs share a path), stage each content into a temporary file beside its target
// as it is produced, and commit() renames them all once every one is complete. An OutputFiles
// destroyed without commit() (an exception on the way) removes what it staged: nothing is left.
//
// The renaming is for regular files and new paths only: an existing target that is not a regular
// file (/dev/null, /dev/stdout, a FIFO, or a symlink to one) is written directly at commit() from
// a temporary file in the system's temporary folder, so the device stays a device. A symlink to a
// regular file is followed: the file it points to is replaced, the link stays.
//
// While an OutputFiles is alive its declared paths are outputs of this process, and
// read_input_file() (io/input_file.hpp) refuses to read any of them: commands declare their outputs
// before they read an input, so a command never overwrites its own input.
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace dtcrit {

struct PlotSpec;

enum class OutputFormat { text, plot };  // plot: .png or .svg, drawn by gnuplot

class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();

  // Checks `path` (given by `option`, named in any error) before the computation. An empty path
  // (the option not given) is ignored. Throws std::invalid_argument naming the option and the path.
  void declare(std::string_view option, const std::string& path, OutputFormat format = OutputFormat::text);
  // Stages the content of a declared path (written to a temporary file now, renamed at commit()).
  void write(const std::string& path, const std::function<void(std::ostream&)>& write);
  void write_text(const std::string& path, const std::string& text);
  void plot(const std::string& path, const PlotSpec& spec);
  // Renames every staged file over its target. Every declared path must have been staged.
  void commit();

 private:
  struct Entry {
    std::string option, path, staged;
    OutputFormat format;
    std::string target;   // what commit() writes: `path`, or the regular file a symlink points to
    bool direct = false;  // not a regular file: written into, not renamed over
  };
  Entry& entry(const std::string& path);
  static std::string stage_path(const Entry& e);
  std::string option_of(const std::string& path) const;  // "" if `path` is none of the declared files
  friend std::string declared_output_option(const std::string& path);
  std::vector<Entry> entries_;
  bool committed_ = false;
};

// The option of a declared output of a live OutputFiles that is the same file as `path` (by
// std::filesystem::equivalent, through symlinks), or "" if there is none.
std::string declared_output_option(const std::string& path);

// One file on its own: calls write(stream) on a temporary file, then renames it to `path`. On any
// exception the temporary file is removed and the exception propagates; `path` is untouched.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace dtcrit
