#!/usr/bin/env bash
# CTest `lammps_live_two_spheres`: a fresh run of in.two_spheres with the installed `lmp` must write
# the checked-in trajectory byte for byte (Debian's LAMMPS 29 Sep 2021 - Update 2; another build may
# differ in the last digits). Exit 77 (skipped) when lmp is not installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/in.two_spheres" "$work/"
(cd "$work" && OMP_NUM_THREADS=1 lmp -in in.two_spheres -log none -screen none)
cmp "$work/two_spheres.dump" "$here/two_spheres.dump"
echo "fresh LAMMPS run = checked-in two_spheres.dump"
