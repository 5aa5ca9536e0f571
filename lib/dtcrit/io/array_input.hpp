#pragma once
// The checked conversions of raw arrays the Python module receives (python/bindings.cpp): in the
// library, so that a fuzz target (tests/fuzz) reaches them without an interpreter. Errors are
// std::invalid_argument (ValueError in Python) naming the argument, the entry and the value.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dtcrit/core/types.hpp"

namespace dtcrit {

// A rows x cols sparse matrix from triplets (scipy's coo_matrix: row, col, data), duplicates
// summed as scipy sums them. Refuses a negative shape or one beyond Eigen's int indices, arrays of
// different lengths, and an index outside the shape (Eigen would write out of bounds).
SparseMatrix sparse_from_triplets(std::string_view name, std::int64_t rows, std::int64_t cols,
                                  std::span<const std::int64_t> row, std::span<const std::int64_t> col,
                                  std::span<const double> value);

// Integers given as numbers (numpy converts a list to float64 or int64; both arrive here as
// doubles): each must be a whole number within int, so 1.7 or 2^33 + 1 is an error, not 1.
std::vector<int> int_values(std::string_view name, std::span<const double> values);

}  // namespace dtcrit
