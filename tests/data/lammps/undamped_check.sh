#!/usr/bin/env bash
# CTest `lammps_undamped_live`: undamped limits set by rolling and by twisting resistance, confirmed by
# LAMMPS (Debian's lmp). 32 equal spheres (r = 1 mm, 2500 kg/m^3) on a periodic FCC lattice compressed
# by 0.2 % (LAMMPS' own lattice fcc and create_atoms), `granular hooke 1e4 0` with linear_history
# 2857.14 and nothing damped; the torque arm r - delta/2 makes K non-symmetric. Three laws:
#   plain     no rolling or twisting resistance: the translational contacts set the limit;
#   rolling   rolling sds 1e5 0 0.3 twisting marshall: the rolling springs set it (2.6x below plain);
#   twisting  twisting sds 10 0 0.3: the twisting springs set it (42x below plain).
# For rolling and twisting `dtcrit lammps-check` must say CONFIRMED (LAMMPS bounded at 0.99, growing
# more than 100x at 1.01) and the limit must lie below plain's by the factors above (to 1 %), so the
# check is of the rolling and twisting linearisation, not of the normal contacts. The lattice is at
# rest in its own model: a settled pile rings for ever without damping and LAMMPS' runs separate at
# every step there (results/lammps_examples/README.md), which says nothing about the limit.
# Exit 77 (skipped) without lmp. Usage: undamped_check.sh DTCRIT
set -euo pipefail
dtcrit="$(readlink -f "$1")"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; echo "work: $work"
cd "$work"
law="hooke 1e4 0 damping mass_velocity tangential linear_history 2857.14 0 0.5"
# Nearest-neighbour distance 2 r (1 - 0.002): lattice constant sqrt(2) times that.
cat > in.make <<EOF
units si
atom_style sphere
boundary p p p
lattice fcc 0.002822770270
region box block 0 2 0 2 0 2
create_box 1 box
create_atoms 1 box
set type 1 diameter 0.002
set type 1 density 2500
write_data fcc.data
EOF
lmp -in in.make -log none -screen none >/dev/null
script() {  # NAME EXTRA: the user's script for the lattice with law + EXTRA
  cat > "in.$1" <<EOF
units si
atom_style sphere
boundary p p p
newton off
comm_modify vel yes
read_data fcc.data
pair_style granular
pair_coeff * * $law $2
fix integ all nve/sphere
neighbor 2e-4 bin
timestep 1e-7
run 0
EOF
}
script plain ""
script rolling "rolling sds 1e5 0 0.3 twisting marshall"
script twisting "twisting sds 10 0 0.3"
"$dtcrit" packing --lammps-input in.plain --json > plain.json
for v in rolling twisting; do
  "$dtcrit" lammps-check --lammps-input "in.$v" --json > "$v.json"
done
/usr/bin/python3 - <<'PY'
import json, sys
plain = json.load(open("plain.json"))
h_plain = plain["h_exact_velocity_verlet"]
print(f"plain: h_crit = {h_plain:.6g} s")
ok = True
for name, below in (("rolling", 2.613), ("twisting", 41.88)):
    c = json.load(open(f"{name}.json"))
    h = c["prediction"]["h_crit"]
    runs = {f"{r['factor']:.2f}": r for r in c["runs"]}
    e99, e101 = runs["0.99"]["excess"], runs["1.01"]["excess"]
    ratio = h_plain / h
    good = (c["verdict"] == "CONFIRMED" and e99 <= 10 and e101 > 100 and abs(ratio / below - 1) < 0.01)
    print(f"{name}: h_crit = {h:.6g} s = plain / {ratio:.4g} (expected / {below}); LAMMPS' excess separation "
          f"{e99:.3g} at 0.99, {e101:.3g} at 1.01; dtcrit: {c['verdict']} -> {'ok' if good else 'WRONG'}")
    ok = ok and good
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
