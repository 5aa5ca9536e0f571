#!/usr/bin/env bash
# CTest `lammps_rolling_live`: a limit set by a rolling dashpot, confirmed by LAMMPS (Debian's lmp).
# Two equal spheres (d = 0.5, density 1, LJ units) held together by the type-2 law of LAMMPS' own
# examples/granular/in.pour.drum: `jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 0.5 rolling sds 1e3
# 1e3 0.1 twisting marshall damping tsuji`. LAMMPS brings the pair to its JKR equilibrium first (fix
# viscous, then write_data). Its velocity Verlet limit is set by the rolling dashpot on the relative
# rotation (about I / (gamma_roll R_eff^2) = 1.047e-4 tau; the elastic limit 2 / omega_max is 24x larger).
# `dtcrit lammps-check` must say CONFIRMED, with the growth of every step recomputed here from LAMMPS'
# dumps. The relative rotation is orthogonal to any kick of the two centres (by symmetry), so this
# also checks that the probe kicks the spins: a kick of the centres alone leaves it at growth 1.
# Exit 77 (skipped) without lmp. Usage: rolling_check.sh DTCRIT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dtcrit="$(readlink -f "$1")"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT; echo "work: $work"
cd "$work"
cat > start.data <<'EOF'
two equal spheres of in.pour.drum's cohesive type, just touching

2 atoms
2 atom types

-5 5 xlo xhi
-5 5 ylo yhi
-5 5 zlo zhi

Atoms # sphere

1 2 0.5 1 0 0 0
2 2 0.5 1 0.499 0 0
EOF
cat > in.pair <<'EOF'
units           lj
atom_style      sphere
boundary        f f f
read_data       pair.data
pair_style      granular
pair_coeff      1 * hertz/material 1e5 0.2 0.3 tangential mindlin NULL 1.0 0.5 damping tsuji
pair_coeff      2 2 jkr 1e5 0.1 0.3 50 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 1e3 0.1 twisting marshall damping tsuji
comm_modify     vel yes
fix             1 all nve/sphere
timestep        0.00001
run             1000
EOF
sed 's/^read_data       pair.data/read_data       start.data/; s/^run             1000/fix 2 all viscous 0.5\ntimestep 0.00002\nrun 40000\nwrite_data pair.data nocoeff/' \
  in.pair > in.settle
OMP_NUM_THREADS=1 lmp -in in.settle -log none -screen none
"$dtcrit" lammps-check --lammps-input in.pair --lammps-data pair.data --keep-probe probe --json > report.json
/usr/bin/python3 - "$here" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
from probe_dumps import frames, separation_growth
j = json.load(open("report.json"))
h = j["prediction"]["h_crit"]
ok = j["verdict"] == "CONFIRMED"
print(f"h_crit {h:.9g} tau: {j['message']}")
for r in j["runs"]:
    g = separation_growth("probe", f"{r['factor']:.2f}")
    same = abs(g - r["growth"]) <= 1e-9 * g
    ok = ok and same
    print(f"  at {r['factor']:.2f} h_crit: LAMMPS separation growth {g:.4g} (dtcrit {r['growth']:.4g}), {r['course']}")
# The kick reached the spins: at step 0 the perturbed run's relative rotation differs from the run from rest's.
rest, kicked = frames("probe/velocities_rest_1.01.dump")[0], frames("probe/velocities_perturbed_1.01.dump")[0]
spin = max(abs(kicked[i][k] - rest[i][k]) for i in (1, 2) for k in range(5, 8))
print(f"  largest spin kick at step 0: {spin:.3g} 1/tau")
ok = ok and spin > 0.0 and 0.9e-4 < h < 1.1e-4
sys.exit(0 if ok else 1)
PY
