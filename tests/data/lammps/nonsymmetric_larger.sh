#!/usr/bin/env bash
# The exact damped limit of a larger non-symmetric packing against LAMMPS (results/nonsymmetric_larger/).
# in.pour_granular's physics (granular hertz/material, Mindlin, rolling sds, twisting marshall, tsuji
# damping: torque arms r - delta/2, so K is not symmetric) poured with LAYERS x NX x NX spheres
# instead of 4 x 5 x 5, settled by Debian's lmp; then velocity Verlet's limit with its complex
# crossings checked (--crossing-check-dofs above the packing's dofs), and `dtcrit lammps-check` at
# 0.99 / 1.01 of it, as LAMMPS runs and with --lift-caps. Not in CTest (about 45 min at 500
# spheres on 2 cores); prints the timings, the separations and both verdicts.
#   tests/data/lammps/nonsymmetric_larger.sh build/dtcrit OUT_DIR [NX] [LAYERS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dtcrit="$(realpath "$1")"
out="$2"
nx="${3:-10}"
layers="${4:-5}"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh)"; exit 1; }
mkdir -p "$out"
[[ -z "$(ls -A "$out")" ]] || { echo "$out: not empty"; exit 1; }
cd "$out"
side=$(awk -v n="$nx" 'BEGIN {printf "%.4f", n * 0.0012}')
top=$(awk -v l="$layers" 'BEGIN {printf "%.4f", 0.0015 + l * 0.0012}')
height=$(awk -v l="$layers" 'BEGIN {printf "%.4f", 0.03 + l * 0.0012}')
# The pour: in.pour_granular with a wider box and more layers, no contact dumps (dtcrit reads the
# data file; lammps-check's settling rebuilds the histories in LAMMPS).
sed -e "s/^region          box block 0 0.006 0 0.006 0 0.03 units box/region          box block 0 $side 0 $side 0 $height units box/" \
    -e "s/^region          ins block 0 0.006 0 0.006 0.0015 0.0063 units box/region          ins block 0 $side 0 $side 0.0015 $top units box/" \
    -e '/^compute\|^dump/d' -e 's/^write_data      settled_granular.data/write_data      settled.data/' \
    "$here/in.pour_granular" > in.pour
grep -q "box block 0 $side" in.pour && grep -q "ins block 0 $side" in.pour || { echo "in.pour_granular changed: sed failed"; exit 1; }
sed -e 's/^read_data       settled_granular.data/read_data       settled.data/' "$here/in.granular" > in.granular
start=$(date +%s)
lmp -in in.pour -log pour.log > /dev/null
echo "pour: $(( $(date +%s) - start )) s, $(awk '/atoms$/ {print $1; exit}' settled.data) spheres"
dofs=$(( 6 * $(awk '/atoms$/ {print $1; exit}' settled.data) ))
start=$(date +%s)
"$dtcrit" packing --lammps-input in.granular --integrator velocity_verlet --crossing-check-dofs "$dofs" --json \
  > packing.json
echo "dtcrit packing: $(( $(date +%s) - start )) s"
# LAMMPS as it runs (friction, rolling and twisting capped), then with every contact sticking.
for variant in capped lifted; do
  start=$(date +%s)
  extra=(); [[ $variant == lifted ]] && extra=(--lift-caps)
  "$dtcrit" lammps-check --lammps-input in.granular --crossing-check-dofs "$dofs" --steps 2000 --json \
    --keep-probe "probe_$variant" "${extra[@]}" > "check_$variant.json" || true
  echo "dtcrit lammps-check ($variant): $(( $(date +%s) - start )) s"
done
/usr/bin/python3 - "$here" <<'PY'
import json, math, sys
sys.path.insert(0, sys.argv[1])
from probe_dumps import separations
p = json.load(open("packing.json"))
vv = p["integrators"]["velocity_verlet"]
print("h_crit", vv["h_crit"], "s, exact:", vv["exact"], "-", vv["method"])
print("timings [s]:", p["timings_s"])
for variant in ("capped", "lifted"):
    check = json.load(open(f"check_{variant}.json"))
    for f in ("0.50", "0.99", "1.01"):
        S = separations(f"probe_{variant}", f)
        print(f"{variant}, separation at {f} (amplitude, {len(S)} frames, every 20th):",
              " ".join(f"{math.sqrt(v / S[0]):.3g}" for v in S[::20]))
    print(f"lammps-check ({variant}):", check["verdict"], "-", check["message"])
PY
