// Writes the FCC lattice of the packing benchmarks (4 n^3 spheres, compression 2e-3, radii spread by
// SPREAD) as a LAMMPS data file, the input of the largest runs (record_ten_million.sh): a data file
// is what a user hands dtcrit, so those runs time the reader as well as the analysis.
// Usage: write_lattice_data N SPREAD FILE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/lammps/lammps_io.hpp"

int main(int argc, char** argv) {
  using namespace dtcrit::packing;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s N SPREAD FILE\n", argv[0]);
    return 2;
  }
  try {
    LatticeSpec spec;
    spec.kind = LatticeKind::fcc;
    spec.n = std::atoi(argv[1]);
    spec.compression = 2e-3;
    spec.radius_spread = std::atof(argv[2]);
    const auto t0 = std::chrono::steady_clock::now();
    const Packing p = make_lattice(spec);
    write_lammps_data(argv[3], p);
    std::printf("wrote %s: %lld spheres in %.1f s\n", argv[3], static_cast<long long>(p.size()),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "write_lattice_data: %s\n", e.what());
    return 1;
  }
  return 0;
}
