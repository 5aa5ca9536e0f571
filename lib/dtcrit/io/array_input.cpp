#include "dtcrit/io/array_input.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

SparseMatrix sparse_from_triplets(std::string_view name, std::int64_t rows, std::int64_t cols,
                                  std::span<const std::int64_t> row, std::span<const std::int64_t> col,
                                  std::span<const double> value) {
  constexpr std::int64_t max_index = std::numeric_limits<SparseMatrix::StorageIndex>::max();
  if (rows < 0 || cols < 0 || rows > max_index || cols > max_index)
    fail(fmt::format("{} has the shape ({}, {}): expected sizes from 0 to {}", name, rows, cols, max_index));
  if (row.size() != col.size() || row.size() != value.size())
    fail(fmt::format("{}: the sparse triplets differ in length: {} rows, {} columns, {} values", name, row.size(),
                     col.size(), value.size()));
  if (value.size() > static_cast<std::size_t>(max_index))
    fail(fmt::format("{} has {} stored entries: at most {}", name, value.size(), max_index));
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(value.size());
  for (std::size_t k = 0; k < value.size(); ++k) {
    if (row[k] < 0 || row[k] >= rows || col[k] < 0 || col[k] >= cols)
      fail(fmt::format("{}: entry {} at ({}, {}) lies outside the shape ({}, {})", name, k, row[k], col[k], rows, cols));
    triplets.emplace_back(static_cast<Index>(row[k]), static_cast<Index>(col[k]), value[k]);
  }
  SparseMatrix S(static_cast<Index>(rows), static_cast<Index>(cols));
  S.setFromTriplets(triplets.begin(), triplets.end());  // duplicates summed
  return S;
}

std::vector<int> int_values(std::string_view name, std::span<const double> values) {
  std::vector<int> out;
  out.reserve(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double v = values[k];
    if (!(v == std::floor(v) && v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()))
      fail(fmt::format("{}[{}] = {} is not an integer from {} to {}", name, k, v, std::numeric_limits<int>::min(),
                       std::numeric_limits<int>::max()));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace dtcrit
