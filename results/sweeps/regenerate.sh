#!/usr/bin/env bash
# Regenerates results/sweeps/: every sweep of issue 5 as a table (.txt), JSON (.json), tidy CSV (.csv)
# and a log-log error plot (.png).
# Each .txt starts with the command that produced it. Usage (from anywhere):
#   results/sweeps/regenerate.sh [path/to/dtcrit]        # default: build-sweep/dtcrit
set -euo pipefail
cd "$(dirname "$0")/../.."
dtcrit="${1:-build-sweep/dtcrit}"
out=results/sweeps

run() {  # run NAME PLOT_QUANTITY ARGS...
  local name=$1 quantity=$2
  shift 2
  local cmd="dtcrit sweep $*"
  echo "== $name: $cmd" >&2
  local start=$SECONDS
  "$dtcrit" sweep "$@" -o "$out/$name.tmp" --json-file "$out/$name.json" --csv-file "$out/$name.csv" \
    --plot "$out/$name.png" --plot-quantity "$quantity"
  { echo "# $cmd"; echo "# (results/sweeps/regenerate.sh; $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD))"; echo;
    cat "$out/$name.tmp"; } >"$out/$name.txt"
  rm -f "$out/$name.tmp"
  echo "   $((SECONDS - start)) s" >&2
}

run bonded-pair position --case bonded-pair --integrator all
run bonded-pair-damped velocity --case bonded-pair --integrator all --set gamma_n=100
run head-on-undamped position --case head-on --integrator all --set restitution=1 --phases 8 --no-stability
run head-on restitution --case head-on --integrator all --phases 8
run oblique-friction position --case oblique --integrator all --set mu=0.5 --no-stability
run wall-bounce energy --case wall-bounce --integrator all --levels 5 --no-stability
run spinning-disk-traditional position --case spinning-disk --integrator all --tangential traditional
run spinning-disk-consistent position --case spinning-disk --integrator all --tangential consistent
run falling-ball-traditional position --case falling-ball --integrator all --tangential traditional --no-stability
run falling-ball-consistent position --case falling-ball --integrator all --tangential consistent --no-stability
run bonded-impact position --case bonded-impact --integrator all
run box-settle kinetic_energy --case box-settle --integrator velocity_verlet --integrator velocity_verlet_implicit_damping \
    --integrator leapfrog --integrator central_difference --integrator rk4 --integrator variational_1 \
    --integrator variational_2 --tangential consistent --set t_end=3 --levels 2
run hertz-head-on restitution --case hertz-head-on --integrator all --phases 8
run rolling-resistance stopping_distance --case rolling-resistance --integrator all --tangential traditional
