#!/usr/bin/env bash
# README command 2: install what is missing, build, and run the whole default test suite, then the
# MPI tests of the distributed build (PETSc, SLEPc, Open MPI: 1, 2 and 4 ranks against the serial path).
# With an argument, use that preset instead ("full" adds the slow sweeps, "sanitize" runs under
# ASan/UBSan), without the MPI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
# LAMMPS as the peer: the live comparison against tests/data/lammps/ runs when `lmp` is installed;
# the Python module and its pytest suite (python/tests) with Debian's python3.
DTCRIT_WITH_LAMMPS=1 DTCRIT_WITH_PYTHON=1 tools/setup.sh "$preset"
ctest --preset "$preset"
if [ "$preset" = default ]; then
  tools/setup.sh distributed
  ctest --preset distributed
fi
