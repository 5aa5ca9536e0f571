#!/usr/bin/env bash
# Regenerates the LAMMPS reference files of this folder with Debian's `lammps` package (binary `lmp`;
# LAMMPS 29 Sep 2021 - Update 2, Debian 20220106.git7586adbb6a+ds1; `DTCRIT_WITH_LAMMPS=1
# tools/setup.sh` installs it). Usage: make_fixtures.sh [OUTDIR] (default: this folder).
#
#   in.pour_hertz     -> settled_hertz.data, contacts_hertz.dump, wall_hertz.dump
#                        (100 spheres poured onto a zplane wall, gran/hertz/history)
#   in.pour_granular  -> settled_granular.data, contacts_granular.dump, wall_granular.dump
#                        (the same with granular hertz/material + mindlin + rolling sds + twisting marshall)
#   in.pour_granular_hooke -> settled_granular_hooke.data, contacts_granular_hooke.dump, wall_granular_hooke.dump
#                        (the same with granular hooke + mass_velocity damping + linear_history + rolling sds
#                        + twisting marshall)
#   in.two_spheres    -> two_spheres.dump (an oblique gran/hooke/history collision, 100 steps)
#   in.chung_ooi_1 .. in.chung_ooi_4 -> chung_ooi_1.dump .. chung_ooi_4.dump: Chung & Ooi's (2011)
#                        single-particle benchmark Tests 1-4 under granular hertz/material + mindlin
#                        (1: two spheres head on; 2: a sphere on fix wall/gran, elastic; 3: the same with
#                        damping tsuji; 4: oblique impacts with friction, spins), every step dumped with
#                        %.17g: the trajectories tests/test_lammps_input.cpp "[chung-ooi]" follows with
#                        dtcrit's stepper step for step (chung_ooi_summary.py prints what they show)
#   in.chung_ooi_6, in.chung_ooi_8 -> chung_ooi_6.dump, chung_ooi_8.dump: Tests 6 and 8 (a spinning
#                        sphere on fix wall/gran, and on a larger sphere), damping tsuji, friction
#   in.chung_ooi_3_two_runs -> chung_ooi_3_two_runs.dump: Test 3 as two run commands (2 + 183 steps):
#                        fix wall/gran converts a tsuji restitution again at every run
#
# in.hertz is the user's script dtcrit reads with --lammps-input (it reads settled_hertz.data); it is
# not run here. One serial process, fixed seeds: the outputs are the same on every run of this build
# (tests/test_lammps_input.cpp "live" case compares a fresh run with the checked-in files).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
lmp="${LMP:-lmp}"
command -v "$lmp" >/dev/null || { echo "make_fixtures.sh: '$lmp' not found (DTCRIT_WITH_LAMMPS=1 tools/setup.sh)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for script in in.pour_hertz in.pour_granular in.pour_granular_hooke in.two_spheres \
              in.chung_ooi_1 in.chung_ooi_2 in.chung_ooi_3 in.chung_ooi_4 in.chung_ooi_6 in.chung_ooi_8 \
              in.chung_ooi_3_two_runs; do
  cp "$here/$script" "$work/"
  (cd "$work" && OMP_NUM_THREADS=1 "$lmp" -in "$script" -log none -screen none)
done
mkdir -p "$out"
cp "$work"/settled_hertz.data "$work"/contacts_hertz.dump "$work"/wall_hertz.dump \
   "$work"/settled_granular.data "$work"/contacts_granular.dump "$work"/wall_granular.dump \
   "$work"/settled_granular_hooke.data "$work"/contacts_granular_hooke.dump "$work"/wall_granular_hooke.dump \
   "$work"/two_spheres.dump "$work"/chung_ooi_1.dump "$work"/chung_ooi_2.dump "$work"/chung_ooi_3.dump \
   "$work"/chung_ooi_4.dump "$work"/chung_ooi_6.dump "$work"/chung_ooi_8.dump "$work"/chung_ooi_3_two_runs.dump \
   "$out/"
