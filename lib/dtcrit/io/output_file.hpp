#pragma once
// Result files are written whole or not at all, and a command writes all of its files or none.
//
// OutputFiles is the one mechanism every command uses: declare() each output before any
// computation (the folder exists and is writable, the path is not a folder, a plot's format is
// known, no two outputs share a path), stage each content into a temporary file beside its target
// as it is produced, and commit() renames them all once every one is complete. An OutputFiles
// destroyed without commit() (an exception on the way) removes what it staged: nothing is left.
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
  };
  Entry& entry(const std::string& path);
  std::vector<Entry> entries_;
  bool committed_ = false;
};

// One file on its own: calls write(stream) on a temporary file, then renames it to `path`. On any
// exception the temporary file is removed and the exception propagates; `path` is untouched.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace dtcrit
