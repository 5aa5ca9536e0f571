#!/usr/bin/env bash
# CTest `lammps_check_live`: dtcrit lammps-check predicts the critical step of LAMMPS' fix nve/sphere
# and LAMMPS itself (Debian's lmp) confirms it: on 27 spheres of a compressed simple cubic lattice
# between six walls (in equilibrium), undamped (--lattice ... --kn --kt) and damped (in.box_hooke,
# gran/hooke/history with gamma_n = 1e5 1/s), the kinetic energy LAMMPS writes stays bounded at 0.99
# h_crit (max KE / E0 <= 100) and grows by more than 1e6 at 1.01 h_crit. The energies are read here
# from LAMMPS' own files (--keep-probe), not from dtcrit's report. Exit 77 (skipped) without lmp.
# Usage: lammps_check.sh DTCRIT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dtcrit="$1"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$dtcrit" lammps-check --lattice sc --n 3 --periodic none --box-walls --compression 1e-3 --kn 1e5 --kt 5e4 \
  --steps 1000 --keep-probe "$work/undamped" --json > "$work/undamped.json"
"$dtcrit" lammps-check --lammps-input "$here/in.box_hooke" --steps 1000 --keep-probe "$work/damped" --json \
  > "$work/damped.json"
/usr/bin/python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]
for case, damped in (("undamped", False), ("damped", True)):
    report = json.load(open(f"{work}/{case}.json"))
    assert report["prediction"]["damped"] == damped, case
    e0 = report["probe"]["initial_kinetic_energy"]
    growth = {}
    for tag in ("0.99", "1.01"):
        rows = [l.split() for l in open(f"{work}/{case}/energy_{tag}.txt") if not l.startswith("#")]
        energies = [float(ke) + float(er) for _, ke, er in rows]
        # LAMMPS' first record is the data file's velocities: E0 as dtcrit computed it.
        assert abs(energies[0] - e0) <= 1e-9 * e0, (case, energies[0], e0)
        growth[tag] = max(energies) / e0
    print(f"{case}: h_crit = {report['prediction']['h_crit']:.6g} s; LAMMPS max KE / E0 at 0.99: {growth['0.99']:.3g}, "
          f"at 1.01: {growth['1.01']:.3g}; dtcrit: {report['verdict']}")
    assert growth["0.99"] <= 100.0, (case, growth)
    assert growth["1.01"] > 1e6, (case, growth)
    assert report["verdict"] == "CONFIRMED", report["message"]
PY
