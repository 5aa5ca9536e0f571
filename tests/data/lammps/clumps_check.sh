#!/usr/bin/env bash
# CTest `lammps_clumps_live`: dtcrit packing --clumps molecule predicts the critical step of LAMMPS'
# fix rigid/small molecule (the registry row rigid_small) and LAMMPS itself (Debian's lmp) confirms it.
# The packing: 54 rigid dimers, the basis sites 0-1 and 2-3 of each cell of a periodic FCC lattice
# (3 cells per side, r = 1 mm, rho = 2500 kg/m^3, nearest distance 2 r (1 - 2e-3)), written as
# write_data writes atom_style hybrid sphere molecular; gran/hooke/history kn = 1e5 N/m, kt = 3e4 N/m,
# undamped; the dimers' own contacts excluded (neigh_modify exclude molecule/intra, as rigid bodies
# need). Equal radii: every body is in equilibrium. Random velocities of ~1e-5 m/s (amplitudes ~1e-10 m,
# far below the 4e-6 m overlaps: the contacts stay closed and sticking) are run 1000 steps at 0.99 and
# 1.01 h_crit: the square root of the kinetic energy's largest ratio to its start (from LAMMPS' thermo
# output) stays below 10 at 0.99 and exceeds 1e3 at 1.01. Exit 77 (skipped) without lmp.
# Usage: clumps_check.sh DTCRIT. FACTORS (default "0.99 1.01") and STEPS (default 1000) bracket the limit
# more finely: the first factor must stay bounded, the last must grow (FACTORS="0.9995 1.001" STEPS=4000
# passes on Debian's LAMMPS 29 Sep 2021).
set -euo pipefail
dtcrit="$1"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; echo "work: $work"
/usr/bin/python3 - "$work/dimers.data" <<'PY'
import math, sys
r, rho, n = 1e-3, 2500.0, 3
a = 2 * r * (1 - 2e-3) * math.sqrt(2)  # FCC cube edge for the nearest distance 2 r (1 - 2e-3)
basis = [(0, 0, 0), (0.5, 0.5, 0), (0.5, 0, 0.5), (0, 0.5, 0.5)]
rows, atom = [], 0
for k in range(n):
    for j in range(n):
        for i in range(n):
            for b, (bx, by, bz) in enumerate(basis):
                atom += 1
                mol = (atom - 1) // 2 + 1  # sites 0-1 and 2-3 of a cell: nearest neighbours
                rows.append(f"{atom} 1 {(i + bx) * a:.17g} {(j + by) * a:.17g} {(k + bz) * a:.17g} {2 * r:.17g} {rho:.17g} {mol} 0 0 0")
with open(sys.argv[1], "w") as f:
    f.write(f"dimers of an FCC lattice (atom_style hybrid sphere molecular)\n\n{len(rows)} atoms\n1 atom types\n\n")
    for ax in "xyz":
        f.write(f"0 {n * a:.17g} {ax}lo {ax}hi\n")
    f.write("\nAtoms # hybrid\n\n" + "\n".join(rows) + "\n")
PY
"$dtcrit" packing --lammps-data "$work/dimers.data" --periodic x,y,z --kn 1e5 --kt 3e4 --clumps molecule \
  --integrator rigid_small --json > "$work/report.json"
h=$(/usr/bin/python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["integrators"]["rigid_small"]["h_crit"]))' "$work/report.json")
factors="${FACTORS:-0.99 1.01}"
steps="${STEPS:-1000}"
for f in $factors; do
  dt=$(/usr/bin/python3 -c "print(repr($f * $h))")
  cat > "$work/in.clumps_$f" <<EOF
units si
atom_style hybrid sphere molecular
atom_modify map array
boundary p p p
comm_modify vel yes
read_data $work/dimers.data
pair_style gran/hooke/history 1e5 3e4 0 0 0.5 0
pair_coeff * *
neighbor 2e-4 bin
neigh_modify delay 0 every 1 check yes exclude molecule/intra all
velocity all create 2.5e7 4928459 dist gaussian
fix rb all rigid/small molecule
timestep $dt
compute kin all ke
thermo_style custom step c_kin
thermo_modify lost ignore flush yes
thermo 5
run $steps
EOF
  (cd "$work" && OMP_NUM_THREADS=1 lmp -in "in.clumps_$f" -log "log_$f" -screen none) || true
done
/usr/bin/python3 - "$work" "$h" "$factors" <<'PY'
import math, sys
work, h, factors = sys.argv[1], float(sys.argv[2]), sys.argv[3].split()

def kinetic(path):
    """The thermo column c_kin (compute ke: the atoms' translational kinetic energy) of the run, until the end or the first non-finite value."""
    ke, on = [], False
    for line in open(path):
        w = line.split()
        if w[:2] == ["Step", "c_kin"]:
            on = True
            continue
        if on:
            if not w or not w[0].isdigit():
                break
            ke.append(float(w[1]))
    return ke

growth = {}
for f in factors:
    ke = kinetic(f"{work}/log_{f}")
    assert len(ke) > 10 and ke[0] > 0.0, (f, ke[:3])
    finite = [e for e in ke if math.isfinite(e)]
    growth[f] = math.sqrt(max(finite) / ke[0]) if len(finite) == len(ke) else math.inf
print(f"54 rigid dimers, fix rigid/small: h_crit = {h:.6g} s (rigid_small); sqrt(max KE / KE0) "
      + ", ".join(f"at {f} h_crit: {growth[f]:.3g}" for f in factors))
assert growth[factors[0]] <= 10.0, growth
assert growth[factors[-1]] > 1e3, growth
PY
