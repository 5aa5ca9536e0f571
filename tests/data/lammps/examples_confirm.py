#!/usr/bin/env python3
"""LAMMPS confirms dtcrit's limit on LAMMPS' own pour examples (Debian's lammps-examples), read
unchanged with the settled states make_examples.sh wrote: `dtcrit lammps-check` runs Debian's lmp at
0.99 and 1.01 of the predicted step and at the reference step 0.5, each from rest and perturbed, after
settling in LAMMPS. The separation growth of each step is recomputed here from LAMMPS' dumps and
compared with dtcrit's; the verdict must be CONFIRMED on the settled 2D and 3D pours, and on the
settled drum and the settled flatwall with --lift-caps (the probe's law with every friction coefficient
at 1e4: the unchanged examples' Coulomb and rolling caps stop LAMMPS' growth above the limit, which is
not confirmed without it). The flatwall's jkr pairs held open within their pull-off distance must be
touched by the probe first (a data file carries no touch flag), or LAMMPS runs a softer packing. On the
flowing 3D pour (the chute, as the example ends) LAMMPS shows nothing beyond what the flow does by
itself, and dtcrit must say so rather than confirm.

  examples_confirm.py DTCRIT_CLI        (exit 77: lmp or lammps-examples is not installed)"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lammps_examples import EXAMPLES, skip_unless_installed  # noqa: E402
from probe_dumps import separation_growth  # noqa: E402

# (example, state, extra options, verdict, what the message must say)
CASES = [
    ("pour/in.pour.2d", "pour_2d_settled.data", [], "CONFIRMED", "CONFIRMED"),
    ("pour/in.pour", "pour_settled.data", ["--lammps-run", "1"], "CONFIRMED", "CONFIRMED"),
    ("pour/in.pour", "pour.data", [], "NOT CONFIRMED", "The packing is not at rest"),
    ("granular/in.pour.drum", "pour_drum_settled.data", ["--lammps-run", "1", "--lift-caps", "--steps", "3000"],
     "CONFIRMED", "CONFIRMED"),
    ("granular/in.pour.flatwall", "pour_flatwall_settled.data", ["--lammps-run", "1", "--lift-caps"],
     "CONFIRMED", "CONFIRMED"),
]
# What the probe must say it did, by example.
NOTES = {"granular/in.pour.flatwall": "so the probe touches them first"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    skip_unless_installed()
    failures = 0
    for example, state, extra, verdict, says in CASES:
        with tempfile.TemporaryDirectory() as work:
            folder = os.path.join(work, "probe")
            command = [sys.argv[1], "lammps-check", "--lammps-input", os.path.join(EXAMPLES, example), "--lammps-data",
                       os.path.join(HERE, "examples", state), "--keep-probe", folder, "--json"] + extra
            run = subprocess.run(command, capture_output=True, text=True, timeout=600)
            if run.returncode != 0:
                print(f"FAIL {example} with {state}: exit {run.returncode}: {run.stderr.strip()[:500]}")
                failures += 1
                continue
            j = json.loads(run.stdout)
            ok = j["verdict"] == verdict and says in j["message"]
            if example in NOTES and not any(NOTES[example] in n for n in j["notes"]):
                print(f"  {example}: no note says {NOTES[example]!r}: {j['notes']}")
                ok = False
            if not j["inputs"]["units"].startswith("lj:"):  # every example is `units lj`: the echo must say so
                print(f"  {example}: the inputs are echoed in {j['inputs']['units']!r}, not the script's lj units")
                ok = False
            inertia = 0.4  # every example integrates spheres (fix nve/sphere without disc, in.pour.2d too)
            for r in j["runs"]:
                g = separation_growth(folder, f"{r['factor']:.2f}", inertia)
                same = r["growth"] is not None and abs(g - r["growth"]) <= 1e-9 * g
                ok = ok and same
                print(f"  {example} {state} at {r['factor']:.2f} h_crit: LAMMPS separation growth {g:.4g} "
                      f"(dtcrit {r['growth']}), excess {r['excess']}, {r['course']}")
            print(f"{'ok  ' if ok else 'FAIL'} {example} with {state}: h_crit {j['prediction']['h_crit']:.6g} "
                  f"{j['prediction']['h_crit_unit']}: {j['message']}")
            failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
