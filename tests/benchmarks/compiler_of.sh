#!/usr/bin/env bash
# The first line of `--version` of the C++ compiler a build directory was configured with (the
# compiler CMake identified, CMakeFiles/<version>/CMakeCXXCompiler.cmake): CMakeLists.txt picks
# clang++ when it is there, so `c++ --version` would name g++.
#   tests/benchmarks/compiler_of.sh build-bench
set -euo pipefail
dir="${1:?usage: compiler_of.sh BUILD_DIR}"
compiler="$(sed -n 's/^set(CMAKE_CXX_COMPILER "\(.*\)")$/\1/p' "$dir"/CMakeFiles/*/CMakeCXXCompiler.cmake 2>/dev/null | head -1 || true)"
[ -n "$compiler" ] || { echo "compiler_of.sh: no compiler identified in $dir/CMakeFiles" >&2; exit 1; }
"$compiler" --version | head -1
