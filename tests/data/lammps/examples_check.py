#!/usr/bin/env python3
"""LAMMPS' own granular example scripts (Debian's lammps-examples), read unchanged by
`dtcrit packing --lammps-input`: each gets a verdict on its own timestep, with the state that
make_examples.sh wrote beside it, or a FILE:LINE refusal that names what dtcrit does not model.

The expected verdicts are LAMMPS' own: every example runs to its end at its timestep in LAMMPS
(make_examples.sh ran them), so each is SAFE; dtcrit must agree and say by how much.

  examples_check.py DTCRIT_CLI        (exit 77: lammps-examples is not installed)"""
import json
import os
import re
import subprocess
import sys

EXAMPLES = "/usr/share/lammps/examples"
HERE = os.path.dirname(os.path.abspath(__file__))

# (example, state beside it, expected units) - a verdict each.
VERDICTS = [
    ("pour/in.pour", "pour.data", "lj"),
    ("pour/in.pour.2d", "pour_2d.data", "lj"),
]
# (example, what the refusal must name) - dtcrit does not model these yet.
REFUSALS = [
    ("pour/in.pour.2d.molecule", "fix rigid/small"),
    ("granular/in.pour.flatwall", "jkr"),
    ("granregion/in.granregion.box", "wall/gran/region"),
    ("granregion/in.granregion.funnel", "wall/gran/region"),
    ("granregion/in.granregion.mixer", "wall/gran/region"),
    ("granular/in.pour.drum", "wall/gran/region"),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not os.path.isdir(EXAMPLES):
        print(f"skipped: {EXAMPLES} not found (Debian package lammps-examples)")
        sys.exit(77)
    cli = sys.argv[1]
    failures = 0
    for example, state, units in VERDICTS:
        script = os.path.join(EXAMPLES, example)
        run = subprocess.run([cli, "packing", "--lammps-input", script, "--lammps-data",
                              os.path.join(HERE, "examples", state), "--integrator", "velocity_verlet", "--json"],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(f"FAIL {example}: exit {run.returncode}: {run.stderr.strip()}")
            failures += 1
            continue
        j = json.loads(run.stdout)
        check = j["timestep_check"]
        ok = check["verdict"] == "SAFE" and 0 < check["ratio"] < 1 and j["lammps_input"]["units"] == units
        print(f"{'ok  ' if ok else 'FAIL'} {example}: {check['verdict']}, timestep {check['timestep']} "
              f"{check['timestep_unit']} = {check['ratio']:.4g} of h_crit {check['h_crit']:.6g} "
              f"({j['lammps_input']['physics_of']})")
        failures += not ok
    for example, feature in REFUSALS:
        script = os.path.join(EXAMPLES, example)
        # Any state will do: the script is refused before the state matters.
        run = subprocess.run([cli, "packing", "--lammps-input", script, "--lammps-data",
                              os.path.join(HERE, "examples", "pour.data"), "--integrator", "velocity_verlet"],
                             capture_output=True, text=True, timeout=600)
        message = (run.stdout + run.stderr).strip()
        located = re.search(re.escape(script) + r":\d+: ", message) is not None
        ok = run.returncode != 0 and located and feature in message
        print(f"{'ok  ' if ok else 'FAIL'} {example}: refused: {message[:300]}")
        failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
