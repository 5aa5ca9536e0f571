#!/usr/bin/env bash
# CTest `lammps_restart`: a LAMMPS binary restart as the state (--lammps-restart). LAMMPS (Debian's
# lmp) writes a restart of the settled Hertz packing; dtcrit converts it with lmp -restart2data and
# must give the same h_crit as from the data file itself, leave no temporary file behind, and say
# what to do when lmp is not there. Exit 77 (skipped) without lmp.
# Usage: restart_check.sh DTCRIT
set -euo pipefail
dtcrit="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/in.write_restart" <<IN
units si
atom_style sphere
boundary p p f
comm_modify vel yes
read_data $here/settled_hertz.data
pair_style gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1
pair_coeff * *
write_restart settled.restart
IN
(cd "$work" && lmp -in in.write_restart -log none -screen none)
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
h() { /usr/bin/python3 -c 'import json,sys; print(repr(json.load(sys.stdin)["integrators"]["velocity_verlet"]["h_crit"]))'; }
from_data=$("$dtcrit" packing --lammps-input "$here/in.hertz" --lammps-data "$here/settled_hertz.data" --integrator velocity_verlet --json 2>/dev/null | h)
from_restart=$("$dtcrit" packing --lammps-input "$here/in.hertz" --lammps-restart "$work/settled.restart" --integrator velocity_verlet --json 2>/dev/null | h)
echo "h_crit from the data file: $from_data; from the restart: $from_restart"
[ "$from_data" = "$from_restart" ] || { echo "FAIL: the restart gives another h_crit"; exit 1; }
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || { echo "FAIL: left behind in TMPDIR: $left"; exit 1; }
# Without lmp: the error names the restart and the command to run instead.
set +e
message=$(PATH=/nonexistent "$dtcrit" packing --lammps-input "$here/in.hertz" --lammps-restart "$work/settled.restart" 2>&1)
status=$?
set -e
echo "without lmp: exit $status: $message"
[ "$status" -ne 0 ] || { echo "FAIL: exit 0 without lmp"; exit 1; }
case "$message" in *"settled.restart"*"-restart2data"*"--lammps-data"*) ;; *) echo "FAIL: the message does not say what to do"; exit 1;; esac
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || { echo "FAIL: left behind in TMPDIR after the error: $left"; exit 1; }
echo "ok"
