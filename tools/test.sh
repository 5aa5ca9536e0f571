#!/usr/bin/env bash
# README command 2: install what is missing, build, and run the whole default test suite.
# With an argument, use that preset instead ("full" adds the slow sweeps, "sanitize" runs under ASan/UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
# LAMMPS as the peer: the live comparison against tests/data/lammps/ runs when `lmp` is installed;
# the Python module and its pytest suite (python/tests) with Debian's python3.
DTCRIT_WITH_LAMMPS=1 DTCRIT_WITH_PYTHON=1 tools/setup.sh "$preset"
ctest --preset "$preset"
