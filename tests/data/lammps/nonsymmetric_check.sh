#!/usr/bin/env bash
# CTest `lammps_nonsymmetric_live`: the damped limit of a non-symmetric packing against LAMMPS. The
# packing is LAMMPS' own (in.granular: the 100 spheres in.pour_granular settles, granular
# hertz/material + Mindlin + rolling sds + twisting marshall + tsuji damping; torque arm r - delta/2,
# so K is not symmetric) and the limit is the -1 crossing of velocity Verlet's map (no complex
# crossing below it up to --crossing-check-dofs). LAMMPS (Debian's lmp) settles the packing (the
# probe's settling steps rebuild the contact histories a data file does not carry), then runs it at
# 0.99 and 1.01 of that step from rest and with a perturbation; the separation of the two runs
# (kinetic energy of their velocity difference, recomputed here from LAMMPS' dumps) must stay at or
# below its start at 0.99 and grow by more than 100 at 1.01, and dtcrit must say CONFIRMED. The
# growth at 1.01 starts after about 1000 steps (the mode grows slowly just past a damped crossing):
# hence 2000 steps. The same for in.granular_hooke (granular hooke, mass_velocity damping,
# linear_history, rolling sds, twisting marshall): CONFIRMED, judged from dtcrit's JSON.
# Exit 77 (skipped) without lmp. Usage: nonsymmetric_check.sh DTCRIT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dtcrit="$1"
command -v lmp >/dev/null || { echo "lmp not installed (DTCRIT_WITH_LAMMPS=1 tools/setup.sh): skipped"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The second non-symmetric packing: granular hooke, mass_velocity damping, linear_history, rolling sds,
# twisting marshall (in.granular_hooke, settled by in.pour_granular_hooke).
"$dtcrit" lammps-check --lammps-input "$here/in.granular_hooke" --steps 2000 --json > "$work/hooke.json"
"$dtcrit" lammps-check --lammps-input "$here/in.granular" --steps 2000 --keep-probe "$work/probe" --json \
  > "$work/check.json"
/usr/bin/python3 - "$work" "$here" <<'PY'
import json, math, sys
work, here = sys.argv[1], sys.argv[2]
check = json.load(open(f"{work}/check.json"))
print("prediction:", json.dumps(check["prediction"])[:400])

sys.path.insert(0, here)
from probe_dumps import separations

def growth(factor):
    S = separations(f"{work}/probe", factor)
    # The amplitude over time, every 160 frames: the README quotes it.
    print(f"separation at {factor} (amplitude, every 160 steps):",
          " ".join(f"{math.sqrt(v / S[0]):.3g}" for v in S[::160]))
    return math.sqrt(max(S) / S[0]), len(S)

g99, n99 = growth("0.99")
g101, n101 = growth("1.01")
print(f"LAMMPS separation growth (amplitude): {g99:.4g} at 0.99 over {n99} frames, {g101:.4g} at 1.01 over {n101}")
print("dtcrit:", check["message"])
hooke = json.load(open(f"{work}/hooke.json"))
print("in.granular_hooke: h_crit", hooke["prediction"]["h_crit"], "s; dtcrit:", hooke["message"])
runs = {f"{r['factor']:.2f}": r for r in hooke["runs"]}
hooke_ok = hooke["verdict"] == "CONFIRMED" and runs["0.99"]["excess"] <= 10 and runs["1.01"]["excess"] > 100
ok = g99 <= 1.0 + 1e-9 and g101 > 100.0 and n99 > 1900 and n101 > 1900 and check["verdict"] == "CONFIRMED" and hooke_ok
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
