#!/usr/bin/env bash
# Install the Debian packages dtcrit needs (only those missing), then configure and build
# with the CMake preset given as $1 (default: "default").
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"

packages=(cmake g++ make libeigen3-dev libspectra-dev libboost-math-dev libboost-iostreams-dev
          libboost-filesystem-dev libfmt-dev catch2 libgnuplot-iostream-dev gnuplot-nox
          libcli11-dev nlohmann-json3-dev)
[ "$preset" = full ] && packages+=(libbenchmark-dev)
# The fuzz targets need clang with its libFuzzer and sanitizer runtimes (Debian: libclang-rt-14-dev
# for the default clang 14).
[ "$preset" = fuzz ] && packages+=(clang libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "dtcrit: installing missing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
