#!/usr/bin/env bash
# CTest `lammps_live_two_spheres`: fresh runs of in.two_spheres and in.chung_ooi_* with the
# installed `lmp` must write the checked-in trajectories byte for byte (Debian's LAMMPS 29 Sep 2021 -
# Update 2; another build may differ in the last digits). Exit 77 (skipped) when lmp is not installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for name in two_spheres chung_ooi_1 chung_ooi_2 chung_ooi_3 chung_ooi_4 chung_ooi_6 chung_ooi_8 chung_ooi_3_two_runs; do
  cp "$here/in.$name" "$work/"
  (cd "$work" && OMP_NUM_THREADS=1 lmp -in "in.$name" -log none -screen none)
  cmp "$work/$name.dump" "$here/$name.dump"
  echo "fresh LAMMPS run = checked-in $name.dump"
done
