#!/usr/bin/env bash
# CTest `lammps_check_mpi`: dtcrit lammps-check --mpi 2 runs LAMMPS as `mpirun -np 2 lmp` (Debian's
# OpenMPI; CTest sets OMPI_ALLOW_RUN_AS_ROOT, ..._CONFIRM and oversubscription, so that it also runs as
# root and on one core) on the 27 spheres of a compressed simple cubic lattice between six walls: every
# LAMMPS log says 2 MPI tasks, the verdict is CONFIRMED, and the growths in dtcrit's JSON are those of
# the separation recomputed here from LAMMPS' dumps (written across the two processes, sorted by id).
# Exit 77 (skipped) without lmp or mpirun.
# Usage: lammps_check_mpi.sh DTCRIT
set -euo pipefail
dtcrit="$1"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
command -v mpirun >/dev/null || { echo "mpirun not installed: skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$dtcrit" lammps-check --lattice sc --n 3 --periodic none --box-walls --compression 1e-3 --kn 1e5 --kt 5e4 \
  --mpi 2 --steps 1000 --keep-probe "$work/probe" --json > "$work/report.json"
for log in "$work"/probe/log_*.lammps; do
  grep -q "with 2 MPI tasks" "$log" || { echo "$log: not run on 2 MPI tasks" >&2; exit 1; }
done
/usr/bin/python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]
report = json.load(open(f"{work}/report.json"))
assert report["probe"]["mpi_processes"] == 2, report["probe"]
assert " -np 2 " in report["probe"]["launcher"], report["probe"]["launcher"]

def separation(tag):
    def frames(path):
        lines = open(path).read().split("\n")
        k, out = 0, []
        while k < len(lines) and lines[k].startswith("ITEM: TIMESTEP"):
            n = int(lines[k + 3])
            out.append({int(r.split()[0]): list(map(float, r.split()[1:])) for r in lines[k + 9:k + 9 + n]})
            k += 9 + n
        return out
    rest, pert = frames(f"{work}/probe/velocities_rest_{tag}.dump"), frames(f"{work}/probe/velocities_perturbed_{tag}.dump")
    s = []
    for a, b in zip(rest, pert):
        e = 0.0
        for i, (m, r, *v) in a.items():
            d = [y - x for x, y in zip(v, b[i][2:])]
            e += 0.5 * m * sum(x * x for x in d[:3]) + 0.5 * 0.4 * m * r * r * sum(x * x for x in d[3:])
        s.append(e)
    return math.sqrt(max(s) / s[0])

for run in report["runs"]:
    tag = f"{run['factor']:.2f}"
    g = separation(tag)
    print(f"mpirun -np 2: factor {tag}: separation growth {g:.4g} (dtcrit: {run['growth']:.4g})")
    assert abs(g - run["growth"]) <= 1e-9 * g, (g, run)
assert report["verdict"] == "CONFIRMED", report["message"]
PY
