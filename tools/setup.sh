#!/usr/bin/env bash
# Install the Debian packages dtcrit needs (only those missing), then configure and build
# with the CMake preset given as $1 (default: "default"); $2, if given, builds only that target
# (tools/run.sh builds dtcrit_cli first).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
target="${2:-}"

# clang: the compiler CMakeLists.txt picks when it is there (0.78 of g++'s CPU for the command's build).
# liblapack-dev: dgeev for large dense eigenvalue problems; libopenblas0-pthread runs it (and the BLAS
# under it) blocked and threaded, 7-15x faster than the reference build at order 1200-2400.
# libsuitesparse-dev: CHOLMOD's supernodal Cholesky for the certificates of symmetric packings.
packages=(cmake clang g++ make libeigen3-dev libspectra-dev libboost-math-dev libboost-iostreams-dev
          libboost-filesystem-dev libfmt-dev catch2 libgnuplot-iostream-dev gnuplot-nox
          libcli11-dev nlohmann-json3-dev ccache liblapack-dev libopenblas0-pthread libsuitesparse-dev)
[ "$preset" = full ] && packages+=(libbenchmark-dev)
# The fuzz targets need clang's libFuzzer and sanitizer runtimes (Debian: libclang-rt-14-dev for the
# default clang 14).
[ "$preset" = fuzz ] && packages+=(libclang-rt-14-dev)
# The distributed build: PETSc and SLEPc (Debian's libslepc-real-dev brings PETSc and Open MPI's
# headers), found through pkg-config; openmpi-bin for mpirun.
[ "$preset" = distributed ] && packages+=(libslepc-real-dev pkg-config openmpi-bin)
# DTCRIT_WITH_LAMMPS=1 (set by tools/test.sh) adds Debian's LAMMPS (binary `lmp`) and its example scripts
# (lammps-examples: the scripts users start from, read unchanged by the tests), the peer the test
# suite regenerates tests/data/lammps/ with; the build and tools/run.sh do not need it.
[ "${DTCRIT_WITH_LAMMPS:-0}" = 1 ] && packages+=(lammps lammps-examples)
# DTCRIT_WITH_PYTHON=1 (set by tools/test.sh) adds what the Python module (python/) is built and
# tested with: pybind11, numpy, scipy and pytest for Debian's python3, and python3-lammps for the
# example in examples/lammps_python. Without them the build leaves the module out.
[ "${DTCRIT_WITH_PYTHON:-0}" = 1 ] && packages+=(python3-dev pybind11-dev python3-pybind11 python3-numpy python3-scipy
                                                 python3-pytest python3-lammps)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "dtcrit: missing Debian packages: ${missing[*]}" >&2
      echo "dtcrit: not root and no sudo here; as root, run:" >&2
      echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
      echo "then run $0 again." >&2
      exit 1
    fi
    sudo="sudo"
  fi
  echo "dtcrit: installing missing Debian packages: ${missing[*]}"
  $sudo apt-get update -q
  # apt's own lines (Get:, Unpacking, Setting up) show its progress, one line per step.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" ${target:+--target "$target"}
