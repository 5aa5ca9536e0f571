#!/usr/bin/env bash
# CTest `lammps_check_live`: dtcrit lammps-check predicts the critical step of LAMMPS' fix nve/sphere
# and LAMMPS itself (Debian's lmp) confirms it: on 27 spheres of a compressed simple cubic lattice
# between six walls (in equilibrium), undamped (--lattice ... --kn --kt) and damped (in.box_hooke,
# gran/hooke/history with gamma_n = 1e5 1/s), and the same box settled by LAMMPS itself with friction
# under a tilted gravity (in.settle_box_friction, then in.box_friction: read_data resets the contact
# histories; run here without the probe's settling steps, which would rebuild them). The separation of the perturbed run from the run
# from rest, sqrt of the kinetic energy of their velocity difference, stays bounded at 0.99 h_crit (<= 10)
# and grows by more than 1e3 at 1.01 h_crit. It is computed here from LAMMPS' own dumps (--keep-probe),
# not from dtcrit's report; its value at step 0 (after settling and the kick) is dtcrit's S(0). 2D: 16 spheres and 16 discs of a compressed square lattice between four walls
# (dimension 2, fix enforce2d; discs with fix nve/sphere disc and the mass LAMMPS reads from the data
# file). On the friction case the old measure (the perturbed run's own kinetic
# energy) is shown to fail at 0.99. Exit 77 (skipped) without lmp.
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
# 2D (dimension 2, fix enforce2d): 16 spheres, then 16 discs (fix nve/sphere disc), of a square lattice
# compressed by 1e-3 between four walls.
for body in sphere disc; do
  "$dtcrit" lammps-check --lattice square --n 4 --periodic none --box-walls --compression 1e-3 --kn 1e5 --kt 5e4 \
    $([ $body = disc ] && echo --disc) --steps 1000 --keep-probe "$work/2d_$body" --json > "$work/2d_$body.json"
done
# A packing settled with friction by LAMMPS (27 spheres, well under a second).
mkdir "$work/settle"
cp "$here/box_sc.data" "$here/in.settle_box_friction" "$here/in.box_friction" "$work/settle/"
(cd "$work/settle" && OMP_NUM_THREADS=1 lmp -in in.settle_box_friction -log none -screen none)
# Without the probe's settling steps (--settle-steps 0): the packing relaxes in both runs alike, which the
# separation cancels and the perturbed run's own kinetic energy does not.
"$dtcrit" lammps-check --lammps-input "$work/settle/in.box_friction" --steps 1000 --settle-steps 0 --keep-probe "$work/friction" --json \
  > "$work/friction.json"
# A pile poured by LAMMPS that gains contacts while it settles in the probe: dtcrit analyses the state
# LAMMPS settled to and names it as the reason LAMMPS grows at 0.99.
mkdir "$work/pile"
cp "$here/in.settle_pile_friction" "$here/in.pile_friction" "$work/pile/"
(cd "$work/pile" && OMP_NUM_THREADS=1 lmp -in in.settle_pile_friction -log none -screen none)
"$dtcrit" lammps-check --lammps-input "$work/pile/in.pile_friction" --keep-probe "$work/pile/probe" --json > "$work/pile.json"
# ... and on that state, as the message advises, LAMMPS confirms the limit.
"$dtcrit" lammps-check --lammps-input "$work/pile/in.pile_friction" --lammps-data "$work/pile/probe/settled_rest_0.50.data" --json \
  > "$work/pile_settled.json"
/usr/bin/python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]

def frames(path):
    """(step, {id: (mass, radius, vx, vy, vz, wx, wy, wz)}) per frame of a dump custom file."""
    lines = open(path).read().split("\n")
    k, out = 0, []
    while k < len(lines) and lines[k].startswith("ITEM: TIMESTEP"):
        step, n = int(lines[k + 1]), int(lines[k + 3])
        cols = lines[k + 8].split()[2:]
        atoms = {}
        for row in lines[k + 9:k + 9 + n]:
            v = dict(zip(cols, map(float, row.split())))
            atoms[int(v["id"])] = [v[c] for c in ("mass", "radius", "vx", "vy", "vz", "omegax", "omegay", "omegaz")]
        out.append((step, atoms))
        k += 9 + n
    return out

def energy(atoms, minus=None, inertia=0.4):
    e = 0.0
    for i, (m, r, *v) in atoms.items():
        d = [a - b for a, b in zip(v, minus[i][2:])] if minus else v
        e += 0.5 * m * sum(x * x for x in d[:3]) + 0.5 * inertia * m * r * r * sum(x * x for x in d[3:])
    return e

for case, damped in (("undamped", False), ("damped", True), ("friction", True), ("2d_sphere", False), ("2d_disc", False)):
    inertia = 0.5 if case == "2d_disc" else 0.4
    report = json.load(open(f"{work}/{case}.json"))
    assert report["prediction"]["damped"] == damped, case
    runs = {f"{r['factor']:.2f}": r for r in report["runs"]}
    growth, old = {}, {}
    for tag in ("0.99", "1.01"):
        rest = frames(f"{work}/{case}/velocities_rest_{tag}.dump")
        pert = frames(f"{work}/{case}/velocities_perturbed_{tag}.dump")
        # Step 0 is after settling and the kick: the kick's energy, as dtcrit read it, near its expected value.
        s0 = energy(pert[0][1], rest[0][1], inertia)
        assert abs(s0 - runs[tag]["initial_separation_energy"]) <= 1e-9 * s0, (case, s0, runs[tag])
        assert 0.2 < s0 / report["probe"]["expected_kick_energy"] < 5, (case, s0, report["probe"])
        if case.startswith("2d"):  # in the plane: LAMMPS' fix enforce2d keeps vz, omegax, omegay at zero
            assert all(v[4] == v[5] == v[6] == 0.0 for _, atoms in pert for v in atoms.values()), case
        s = [energy(b, a, inertia) for (_, a), (_, b) in zip(rest, pert)]
        growth[tag] = math.sqrt(max(s) / s[0])
        old[tag] = math.sqrt(max(energy(b, inertia=inertia) for _, b in pert) / s0)  # the perturbed run's own energy
    print(f"{case}: h_crit = {report['prediction']['h_crit']:.6g} s; separation growth at 0.99: {growth['0.99']:.3g}, "
          f"at 1.01: {growth['1.01']:.3g} (own kinetic energy, amplitude: {old['0.99']:.3g}, {old['1.01']:.3g}); "
          f"dtcrit: {report['verdict']}")
    assert growth["0.99"] <= 10.0, (case, growth)
    assert growth["1.01"] > 1e3, (case, growth)
    assert report["verdict"] == "CONFIRMED", report["message"]
    if case == "friction":  # relaxing in LAMMPS: the packing's own energy would have read as unstable at 0.99
        assert old["0.99"] > 1e3, old

pile = json.load(open(f"{work}/pile.json"))
settled = pile["settled"]
print(f"pile: h_crit = {pile['prediction']['h_crit']:.6g} s as written ({settled['analysed_pair_contacts']} pair contacts), "
      f"{settled['h_crit']:.6g} s as LAMMPS settled it ({settled['pair_contacts']}); dtcrit: {pile['message']}")
assert pile["verdict"] == "NOT CONFIRMED" and "not the one analysed" in pile["message"], pile["message"]
assert settled["pair_contacts"] > settled["analysed_pair_contacts"], settled
assert settled["h_crit"] < 0.99 * pile["prediction"]["h_crit"], settled
again = json.load(open(f"{work}/pile_settled.json"))
print(f"pile as LAMMPS settled it: h_crit = {again['prediction']['h_crit']:.6g} s; dtcrit: {again['message']}")
assert again["verdict"] == "CONFIRMED", again["message"]
assert abs(again["prediction"]["h_crit"] - settled["h_crit"]) <= 1e-12 * settled["h_crit"], (again["prediction"], settled)
PY
