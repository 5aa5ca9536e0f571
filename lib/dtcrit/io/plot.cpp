#include "dtcrit/io/plot.hpp"

#include "dtcrit/io/output_file.hpp"

#include <cmath>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <gnuplot-iostream.h>

namespace dtcrit {

namespace {
// s inside a gnuplot double-quoted string: its quotes and backslashes escaped.
std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out;
}
std::string quoted(const std::string& s) {
  std::string out(1, '"');  // not "\"" + escaped(s): GCC 12 warns (-Wrestrict) on that temporary when inlined
  out += escaped(s);
  out += '"';
  return out;
}
// A title of several lines (gnuplot's "\n" in a double-quoted string) broken at spaces, so that a long
// one is not cut at the picture's edge (900 px hold about 100 characters of the title font).
std::string wrapped_title(const std::string& title, std::size_t width = 95) {
  std::string out = "\"", line;
  auto flush = [&](bool last) {
    out += escaped(line);
    if (!last) out += "\\n";
    line.clear();
  };
  std::size_t start = 0;
  while (start <= title.size()) {
    const std::size_t end = std::min(title.find(' ', start), title.size());
    const std::string word = title.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) flush(false);
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  flush(true);
  return out + "\"";
}
}  // namespace

std::string plot_terminal(const std::string& path, std::size_t series) {
  // The key sits below the plot: grow the picture with it, so that many series keep the plot readable.
  const int height = 650 + 10 * static_cast<int>(series > 10 ? series - 10 : 0);
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".png") return fmt::format("pngcairo size 900,{} enhanced font 'DejaVu Sans,11'", height);
  if (ext == ".svg") return fmt::format("svg size 900,{} enhanced font 'DejaVu Sans,11'", height);
  throw std::invalid_argument(fmt::format("plot file '{}' must end in .png or .svg", path));
}

void distinct_style(PlotSeries& s, std::size_t index) {
  // Okabe-Ito's colour-blind-safe set, plus a grey and a brown.
  static const char* const colours[] = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#d55e00",
                                        "#0072b2", "#cc79a7", "#999999", "#8c510a"};
  static const int markers[] = {7, 5, 9, 11, 13, 1, 2, 3, 6, 4, 8, 10, 12, 14};
  constexpr std::size_t n_colours = std::size(colours);
  s.rgb = colours[index % n_colours];
  s.dash = 1 + static_cast<int>((index / n_colours) % 3);
  s.marker = markers[index % std::size(markers)];
}

void write_plot(const std::string& path, const PlotSpec& spec) {
  OutputFiles files;
  files.declare("plot", path, OutputFormat::plot);
  files.plot(path, spec);
  files.commit();
}

void draw_plot(const std::string& path, const std::string& file, const PlotSpec& spec) {
  namespace fs = std::filesystem;
  const std::string terminal = plot_terminal(path, spec.series.size());
  const fs::path tmp(file);
  {
    Gnuplot gp("gnuplot 2>/dev/null");
    gp << "set terminal " << terminal << "\n";
    gp << "set output " << quoted(tmp.string()) << "\n";
    gp << "set title " << wrapped_title(spec.title) << " noenhanced\n";
    gp << "set xlabel " << quoted(spec.xlabel) << " noenhanced\nset ylabel " << quoted(spec.ylabel) << " noenhanced\n";
    gp << "set grid\nset key below noenhanced\nset format y '%.3g'\nset format x '%.3g'\n";
    if (spec.logx) gp << "set logscale x\n";
    if (spec.logy) gp << "set logscale y\n";
    if (!spec.xtic_labels.empty()) {
      std::string tics;
      for (std::size_t i = 0; i < spec.xtic_labels.size(); ++i)
        tics += fmt::format("{}{} {}", i ? ", " : "", quoted(spec.xtic_labels[i]), i + 1);
      gp << "set xtics (" << tics << ") rotate by -35 noenhanced font ',9'\n";
      gp << "set bmargin 10\n";
    }
    std::vector<std::vector<std::pair<double, double>>> data;
    std::string plot = "plot ";
    for (std::size_t i = 0; i < spec.series.size(); ++i) {
      const auto& s = spec.series[i];
      std::vector<std::pair<double, double>> pts;
      for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k)
        if (std::isfinite(s.x[k]) && std::isfinite(s.y[k])) pts.emplace_back(s.x[k], s.y[k]);
      data.push_back(std::move(pts));
      const std::string style = s.markers_only ? fmt::format("points pt {} ps 1.5", s.marker)
                                : s.points      ? fmt::format("linespoints pt {} ps 0.9", s.marker)
                                                : std::string("lines");
      const std::string colour = !s.rgb.empty() ? fmt::format(" lc rgb '{}'", s.rgb)
                                 : s.color > 0  ? fmt::format(" lc {}", s.color)
                                                : std::string();
      plot += fmt::format("{}'-' with {} lw 2 dt {}{} title {}", i ? ", " : "", style, s.dash, colour, quoted(s.label));
    }
    gp << plot << "\n";
    for (const auto& d : data) gp.send1d(d);
    gp << "set output\n";
    gp.flush();
  }  // the destructor closes the pipe and waits for gnuplot
  std::error_code ec;
  if (!fs::exists(tmp) || fs::file_size(tmp, ec) == 0) {
    fs::remove(tmp, ec);
    throw std::runtime_error(fmt::format("gnuplot failed to draw '{}' (is gnuplot installed?)", path));
  }
}

}  // namespace dtcrit
