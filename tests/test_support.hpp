#pragma once
// Small helpers shared by several test files (one definition each: the test program is compiled in
// unity batches, where two files' private copies would collide).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

// |a - b| / |b|.
inline double rel(double a, double b) { return std::abs(a - b) / std::abs(b); }

// A whole file, byte for byte ("" when it cannot be read).
inline std::string contents(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The LAMMPS fixtures (tests/data/lammps/), with a trailing slash.
inline const std::string lammps_data_dir = std::string(DTCRIT_SOURCE_DIR) + "/tests/data/lammps/";
