#pragma once
// Line plots drawn by gnuplot (through gnuplot-iostream) to PNG or SVG, chosen by the file name.
#include <string>
#include <vector>

namespace dtcrit {

struct PlotSeries {
  std::string label;
  std::vector<double> x{}, y{};
  bool points = false;  // markers instead of a line
  int color = 0;        // gnuplot line colour index; 0 lets gnuplot choose
  int dash = 1;         // gnuplot dash type: 1 solid, 2 dashed, 3 dotted, ...
  bool markers_only = false;  // with points: no connecting line (categories, not a curve)
  int marker = 7;             // gnuplot point type of the markers (7: filled circle)
  std::string rgb{};          // "#rrggbb" overrides `color` when not empty
};

// Gives series number `index` of a family its own colour x dash x marker (9 colours, then dashes),
// so that up to 27 curves stay distinguishable in print and for colour-blind readers.
void distinct_style(PlotSeries& s, std::size_t index);

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<PlotSeries> series;
  std::vector<std::string> xtic_labels{};  // category names at x = 1, 2, ... (rotated); empty: numbers
};

// The gnuplot terminal of a plot file, chosen by its extension (.png or .svg); throws
// std::invalid_argument naming the path otherwise.
std::string plot_terminal(const std::string& path, std::size_t series = 0);

// Draws `spec` into `file` in the format of `path`'s extension (file may be a temporary name);
// throws std::runtime_error if gnuplot is missing or fails (and removes `file`).
void draw_plot(const std::string& path, const std::string& file, const PlotSpec& spec);

// Writes `path` (.png or .svg) atomically (io/output_file.hpp; commands declare their plots in an
// OutputFiles instead, so that the format is checked before the computation).
void write_plot(const std::string& path, const PlotSpec& spec);

}  // namespace dtcrit
