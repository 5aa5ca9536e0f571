#include "dtcrit/io/plot.hpp"

#include "dtcrit/io/output_file.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>
#include <gnuplot-iostream.h>

namespace dtcrit {

namespace {
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string plot_terminal(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".png") return "pngcairo size 900,650 enhanced font 'DejaVu Sans,11'";
  if (ext == ".svg") return "svg size 900,650 enhanced font 'DejaVu Sans,11'";
  throw std::invalid_argument(fmt::format("plot file '{}' must end in .png or .svg", path));
}

void write_plot(const std::string& path, const PlotSpec& spec) {
  OutputFiles files;
  files.declare("plot", path, OutputFormat::plot);
  files.plot(path, spec);
  files.commit();
}

void draw_plot(const std::string& path, const std::string& file, const PlotSpec& spec) {
  namespace fs = std::filesystem;
  const std::string terminal = plot_terminal(path);
  const fs::path tmp(file);
  {
    Gnuplot gp("gnuplot 2>/dev/null");
    gp << "set terminal " << terminal << "\n";
    gp << "set output " << quoted(tmp.string()) << "\n";
    gp << "set title " << quoted(spec.title) << " noenhanced\n";
    gp << "set xlabel " << quoted(spec.xlabel) << " noenhanced\nset ylabel " << quoted(spec.ylabel) << " noenhanced\n";
    gp << "set grid\nset key below noenhanced\nset format y '%.3g'\nset format x '%.3g'\n";
    if (spec.logx) gp << "set logscale x\n";
    if (spec.logy) gp << "set logscale y\n";
    std::vector<std::vector<std::pair<double, double>>> data;
    std::string plot = "plot ";
    for (std::size_t i = 0; i < spec.series.size(); ++i) {
      const auto& s = spec.series[i];
      std::vector<std::pair<double, double>> pts;
      for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k)
        if (std::isfinite(s.x[k]) && std::isfinite(s.y[k])) pts.emplace_back(s.x[k], s.y[k]);
      data.push_back(std::move(pts));
      plot += fmt::format("{}'-' with {} lw 2 dt {}{} title {}", i ? ", " : "",
                          s.markers_only ? "points pt 7 ps 1.5" : s.points ? "linespoints pt 7 ps 0.8" : "lines", s.dash,
                          s.color > 0 ? fmt::format(" lc {}", s.color) : "", quoted(s.label));
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
