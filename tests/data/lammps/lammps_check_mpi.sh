#!/usr/bin/env bash
# CTest `lammps_check_mpi`: dtcrit lammps-check --mpi 2 runs LAMMPS as `mpirun -np 2 lmp` (Debian's
# OpenMPI; CTest sets OMPI_ALLOW_RUN_AS_ROOT, ..._CONFIRM and oversubscription, so that it also runs as
# root and on one core) on the 27 spheres of a compressed simple cubic lattice between six walls: every
# LAMMPS log says 2 MPI tasks, the verdict is CONFIRMED, and the growths in dtcrit's JSON are those of
# the separation recomputed here from LAMMPS' dumps (written across the two processes, sorted by id).
# Exit 77 (skipped) without lmp or mpirun.
# Usage: lammps_check_mpi.sh DTCRIT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
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
/usr/bin/python3 - "$work" "$here" <<'PY'
import json, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from probe_dumps import separation_growth
report = json.load(open(f"{work}/report.json"))
assert report["probe"]["mpi_processes"] == 2, report["probe"]
assert " -np 2 " in report["probe"]["launcher"], report["probe"]["launcher"]

for run in report["runs"]:
    tag = f"{run['factor']:.2f}"
    g = separation_growth(f"{work}/probe", tag)
    print(f"mpirun -np 2: factor {tag}: separation growth {g:.4g} (dtcrit: {run['growth']:.4g})")
    assert abs(g - run["growth"]) <= 1e-9 * g, (g, run)
assert report["verdict"] == "CONFIRMED", report["message"]
PY
