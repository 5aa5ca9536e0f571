#!/usr/bin/env bash
# The first line of `--version` of the C++ compiler a build directory was configured with (its
# CMakeCache.txt): CMakeLists.txt picks clang++ when it is there, so `c++ --version` would name g++.
#   tests/benchmarks/compiler_of.sh build-bench
set -euo pipefail
cache="${1:?usage: compiler_of.sh BUILD_DIR}/CMakeCache.txt"
compiler="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")"
[ -n "$compiler" ] || { echo "compiler_of.sh: no CMAKE_CXX_COMPILER in $cache" >&2; exit 1; }
"$compiler" --version | head -1
