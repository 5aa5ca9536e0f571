#pragma once
// A table of strings rendered as aligned text, CSV or Markdown.
#include <string>
#include <vector>

namespace dtcrit {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row);
  std::string to_text() const;      // aligned columns, first column left, others right
  std::string to_csv() const;       // RFC 4180 quoting where needed
  std::string to_markdown() const;
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Formats a time or number for humans: 6 significant digits, "-" for NaN.
std::string format_number(double value);
// Full precision (round-trip) for machine-readable files.
std::string format_exact(double value);

}  // namespace dtcrit
