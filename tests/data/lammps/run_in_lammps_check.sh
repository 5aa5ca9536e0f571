#!/usr/bin/env bash
# CTest `lammps_run_in_lammps`: a script that makes its particles itself, answered with
# --run-in-lammps. LAMMPS' own examples/pour/in.pour (Debian's lammps-examples), copied unchanged into
# a folder of its own, is run to its end by the installed lmp; the answer must equal the one from the
# state and contact dump make_examples.sh wrote with the same LAMMPS (examples/pour.data,
# examples/pour_contacts.dump), nothing may appear beside the script or stay in TMPDIR, and a script
# LAMMPS rejects, a missing lmp and a state given twice are errors that say so.
# Exit 77 (skipped) without lmp or lammps-examples.
# Usage: run_in_lammps_check.sh DTCRIT
set -euo pipefail
dtcrit="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
example=/usr/share/lammps/examples/pour/in.pour
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
[ -f "$example" ] || { echo "$example not installed (Debian's lammps-examples): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/script" "$work/tmp"
cp "$example" "$work/script/in.pour"
export TMPDIR="$work/tmp"
field() { /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(repr(eval("d" + sys.argv[1])))' "$1"; }
before=$(ls -lA --time-style=full-iso "$work/script")
"$dtcrit" packing --lammps-input "$work/script/in.pour" --run-in-lammps --integrator velocity_verlet --json \
  > "$work/run.json" 2> "$work/run.err"
"$dtcrit" packing --lammps-input "$work/script/in.pour" --lammps-data "$here/examples/pour.data" \
  --lammps-contacts "$here/examples/pour_contacts.dump" --integrator velocity_verlet --json > "$work/files.json"
h_run=$(field '["integrators"]["velocity_verlet"]["h_crit"]' < "$work/run.json")
h_files=$(field '["integrators"]["velocity_verlet"]["h_crit"]' < "$work/files.json")
histories=$(field '["contact_histories"]["summary"]' < "$work/run.json")
echo "h_crit, run in lmp: $h_run; from make_examples.sh's state and dump: $h_files"
echo "histories: $histories"
[ "$h_run" = "$h_files" ] || { echo "FAIL: --run-in-lammps gives another h_crit"; exit 1; }
case "$histories" in *"LAMMPS dumped"*"3055 pair"*) ;; *) echo "FAIL: the contact histories were not read"; exit 1;; esac
if grep -q "dtcrit-run" "$work/run.json"; then echo "FAIL: the answer names a removed temporary file"; exit 1; fi
[ "$(ls -lA --time-style=full-iso "$work/script")" = "$before" ] || { echo "FAIL: files written beside the script"; exit 1; }
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || { echo "FAIL: left behind in TMPDIR: $left"; exit 1; }
# Errors: non-zero, named, nothing left behind.
expect_error() {  # expect_error WHAT PATTERN COMMAND...
  local what="$1" pattern="$2" message status
  shift 2
  set +e
  message=$("$@" 2>&1 >/dev/null)
  status=$?
  set -e
  echo "$what: exit $status: $(head -c 400 <<<"$message")"
  [ "$status" -ne 0 ] || { echo "FAIL: $what: exit 0"; exit 1; }
  case "$message" in $pattern) ;; *) echo "FAIL: $what: the message does not say what went wrong"; exit 1;; esac
  left=$(ls -A "$TMPDIR")
  [ -z "$left" ] || { echo "FAIL: $what: left behind in TMPDIR: $left"; exit 1; }
}
cp "$example" "$work/script/in.broken"
echo "pair_coeff 1 1 not_a_law" >> "$work/script/in.broken"
expect_error "a script LAMMPS rejects" "*in.broken*failed*ERROR*" \
  "$dtcrit" packing --lammps-input "$work/script/in.broken" --run-in-lammps
expect_error "without lmp" "*in.pour*--run-in-lammps*not installed*--lammps-data*" \
  env PATH=/nonexistent "$dtcrit" packing --lammps-input "$work/script/in.pour" --run-in-lammps
expect_error "a state given twice" "*--run-in-lammps*--lammps-data*" \
  "$dtcrit" packing --lammps-input "$work/script/in.pour" --run-in-lammps --lammps-data "$here/examples/pour.data"
echo "ok"
