#include "dtcrit/io/text_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

void TextTable::add_row(std::vector<std::string> row) {
  if (row.size() != header_.size())
    fail(fmt::format("table row has {} cells, the header {}", row.size(), header_.size()));
  rows_.push_back(std::move(row));
}

namespace {
std::size_t display_width(const std::string& s) {
  // Count UTF-8 code points, not bytes, so that "ω" or "–" align.
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string TextTable::to_text() const {
  std::vector<std::size_t> width(header_.size());
  for (std::size_t j = 0; j < header_.size(); ++j) {
    width[j] = display_width(header_[j]);
    for (const auto& r : rows_) width[j] = std::max(width[j], display_width(r[j]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      const std::string pad(width[j] - display_width(cells[j]), ' ');
      out += j == 0 ? cells[j] + pad : "  " + pad + cells[j];
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_);
  std::size_t total = 0;
  for (auto w : width) total += w + 2;
  out += std::string(total - 2, '-') + "\n";
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string TextTable::to_csv() const {
  auto line = [](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      if (j) out += ',';
      out += csv_cell(cells[j]);
    }
    return out + "\n";
  };
  std::string out = line(header_);
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string TextTable::to_markdown() const {
  auto line = [](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const auto& c : cells) out += " " + c + " |";
    return out + "\n";
  };
  std::string out = line(header_) + "|";
  for (std::size_t j = 0; j < header_.size(); ++j) out += j == 0 ? " --- |" : " ---: |";
  out += "\n";
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", value);
}

std::string format_exact(double value) {
  if (std::isnan(value)) return "";
  return fmt::format("{}", value);
}

}  // namespace dtcrit
