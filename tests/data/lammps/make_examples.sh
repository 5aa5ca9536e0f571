#!/usr/bin/env bash
# The states of LAMMPS' own granular examples (Debian package `lammps-examples`, under
# /usr/share/lammps/examples), made with Debian's `lmp` (LAMMPS 29 Sep 2021) for the tests that read
# the unchanged example scripts with `dtcrit packing --lammps-input SCRIPT --lammps-data STATE`.
# Usage: make_examples.sh [OUTDIR] (default: examples/ beside this script).
#
# Each example runs as shipped - same physics, same seeds - except that its `run` lengths are cut by
# the factor given below where the full run takes long, and `write_data` is appended: the state is
# the packing at the end of the (shortened) script, as a user would write it at the moment of interest.
#
#   pour/in.pour                 -> pour.data, pour_contacts.dump (3000 spheres poured, then the chute)
#   pour/in.pour.2d              -> pour_2d.data         (1000 discs poured between walls)
#   granular/in.pour.flatwall    -> pour_flatwall.data   (two types, jkr and hertz, on a flat wall)
#   granular/in.pour.drum        -> pour_drum.data       (two types in a rotating drum: region walls)
#   granregion/in.granregion.box    -> granregion_box.data    (100 spheres in a rotated box region)
#   granregion/in.granregion.funnel -> granregion_funnel.data (runs / 10: a cone and cylinder union)
#   granregion/in.granregion.mixer  -> granregion_mixer.data  (runs / 4: rotating blades in a drum)
#   rigid/in.rigid.gravity          -> rigid_gravity.data     (5 rigid clumps of 5 spheres on a wall)
#
# Settled states, for `dtcrit lammps-check` (a limit LAMMPS can confirm needs contacts that last):
# the example up to the end of its first run, then that run's physics for more steps, so the
# packing comes to rest; read with --lammps-run 1.
#   pour/in.pour                 -> pour_settled.data    (run 1 + 75000 steps: the heap at rest)
#   pour/in.pour.2d              -> pour_2d_settled.data (run 1 + 100000 steps)
#   granular/in.pour.drum        -> pour_drum_settled.data (run 1 + 20000 steps: the drum at rest)
#   granular/in.pour.flatwall    -> pour_flatwall_settled.data (run 1 + 30000 steps: the two piles at rest)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/examples}"
examples="${LAMMPS_EXAMPLES:-/usr/share/lammps/examples}"
lmp="${LMP:-lmp}"
command -v "$lmp" >/dev/null || { echo "make_examples.sh: '$lmp' not found (DTCRIT_WITH_LAMMPS=1 tools/setup.sh)" >&2; exit 1; }
[ -d "$examples" ] || { echo "make_examples.sh: $examples not found (Debian package lammps-examples)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# run EXAMPLE STATE CUT [CONTACTS]: EXAMPLE's runs divided by CUT (1: as shipped), then write_data
# STATE; with CONTACTS, also the pair contacts of that state as a local dump (the layout
# lib/dtcrit/packing/README.md documents; `run 0` moves nothing).
run() {
  local example="$1" state="$2" cut="$3" contacts="${4:-}" dir
  dir="$work/$(basename "$state" .data)"
  mkdir -p "$dir"
  cp "$examples/$(dirname "$example")"/* "$dir/"
  awk -v cut="$cut" '$1 == "run" && $2 ~ /^[0-9]+$/ { $2 = int($2 / cut) } { print }' \
    "$examples/$example" > "$dir/in.example"
  printf 'write_data %s nocoeff\n' "$state" >> "$dir/in.example"
  if [ -n "$contacts" ]; then
    cat >> "$dir/in.example" <<IN
compute dtcrit_pl all property/local patom1 patom2
compute dtcrit_pf all pair/local dist force p1 p2 p3
dump dtcrit_dc all local 1 $contacts index c_dtcrit_pl[1] c_dtcrit_pl[2] c_dtcrit_pf[1] c_dtcrit_pf[2] c_dtcrit_pf[3] c_dtcrit_pf[4] c_dtcrit_pf[5]
dump_modify dtcrit_dc format float %.17g
run 0
IN
  fi
  echo "make_examples.sh: $example (runs / $cut) -> $state" >&2
  (cd "$dir" && OMP_NUM_THREADS=1 "$lmp" -in in.example -log none -screen none)
  cp "$dir/$state" "$out/"
  [ -z "$contacts" ] || cp "$dir/$contacts" "$out/"
}

# settle EXAMPLE STATE STEPS: EXAMPLE up to the end of its first run, then `run STEPS` more, then
# write_data STATE.
settle() {
  local example="$1" state="$2" steps="$3" dir
  dir="$work/$(basename "$state" .data)"
  mkdir -p "$dir"
  cp "$examples/$(dirname "$example")"/* "$dir/"
  awk -v steps="$steps" '{ print } $1 == "run" { print "run " steps; exit }' "$examples/$example" > "$dir/in.example"
  printf 'write_data %s nocoeff\n' "$state" >> "$dir/in.example"
  echo "make_examples.sh: $example (first run + $steps steps) -> $state" >&2
  (cd "$dir" && OMP_NUM_THREADS=1 "$lmp" -in in.example -log none -screen none)
  cp "$dir/$state" "$out/"
}

if [ "${SETTLED_ONLY:-0}" != 1 ]; then
run pour/in.pour pour.data 1 pour_contacts.dump
run pour/in.pour.2d pour_2d.data 1
run granular/in.pour.flatwall pour_flatwall.data 1
run granular/in.pour.drum pour_drum.data 1
run granregion/in.granregion.box granregion_box.data 1
run granregion/in.granregion.funnel granregion_funnel.data 10
run granregion/in.granregion.mixer granregion_mixer.data 4
run rigid/in.rigid.gravity rigid_gravity.data 1
fi
settle pour/in.pour pour_settled.data 75000
settle pour/in.pour.2d pour_2d_settled.data 100000
settle granular/in.pour.drum pour_drum_settled.data 20000
settle granular/in.pour.flatwall pour_flatwall_settled.data 30000
