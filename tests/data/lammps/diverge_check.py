#!/usr/bin/env python3
"""The diverging step of a frictional packing against LAMMPS' own divergence. LAMMPS' example
pour/in.pour (Debian's lammps-examples, unchanged, physics of run 1) on its settled state
(examples/pour_settled.data): dtcrit gives h_crit (contacts as they are, sticking) and h_diverge
(every contact sliding: normal springs and dashpots only). Above h_crit LAMMPS' runs separate and
saturate as contacts slide; above h_diverge its run from rest heats up by itself. `dtcrit
lammps-check` runs LAMMPS (Debian's lmp) at 0.90 ... 1.10 of h_diverge (0.94, not 0.95: that is
0.994 h_crit, whose tag 0.99 the default probe takes). A step *diverges* when the run from rest's
largest kinetic energy exceeds HEATING times that of the run at the reference step 0.5 h_crit.
Must hold: no step at or below 0.94 h_diverge diverges, every step at or above 1.05 h_diverge
does. Prints the bracket LAMMPS' divergence lies in, as a ratio to h_diverge.

  diverge_check.py DTCRIT_CLI        (exit 77: lmp or lammps-examples is not installed)"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lammps_examples import EXAMPLES, skip_unless_installed  # noqa: E402

HEATING = 10.0
OF_H_DIVERGE = [0.90, 0.94, 0.97, 0.99, 1.01, 1.03, 1.05, 1.10]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    skip_unless_installed()
    state = ["--lammps-input", os.path.join(EXAMPLES, "pour/in.pour"), "--lammps-data",
             os.path.join(HERE, "examples", "pour_settled.data"), "--lammps-run", "1"]
    packing = json.loads(subprocess.run([sys.argv[1], "packing", *state, "--json"], capture_output=True, text=True,
                                        check=True, timeout=300).stdout)
    check = packing["timestep_check"]
    h_crit, h_diverge = check["h_crit"], check["h_diverge"]
    print(f"dtcrit: h_crit {h_crit:.6g}, h_diverge {h_diverge:.6g} = {h_diverge / h_crit:.4f} h_crit "
          f"({check['timestep_unit']})")
    # lammps-check takes its factors as multiples of h_crit.
    factors = [f * h_diverge / h_crit for f in OF_H_DIVERGE]
    run = subprocess.run([sys.argv[1], "lammps-check", *state, "--factors", ",".join(f"{f:.6f}" for f in factors),
                          "--json"], capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        print(f"FAIL: lammps-check exit {run.returncode}: {run.stderr.strip()[:500]}")
        sys.exit(1)
    j = json.loads(run.stdout)
    if abs(j["prediction"]["h_diverge"] - h_diverge) > 1e-12 * h_diverge:
        print(f"FAIL: lammps-check's h_diverge {j['prediction']['h_diverge']} differs from packing's {h_diverge}")
        sys.exit(1)
    reference = next(r for r in j["runs"] if r["reference"])
    calm = reference["max_rest_run_kinetic_energy"]
    print(f"reference step 0.5 h_crit: the run from rest's largest kinetic energy {calm:.3g} {reference['energy_unit']}")
    ok = True
    last_calm, first_heated = None, None
    for r in sorted(j["runs"], key=lambda r: r["h"]):
        if r["reference"]:
            continue
        ratio = r["h"] / h_diverge
        heat = r["max_rest_run_kinetic_energy"] / calm
        diverges = heat > HEATING
        print(f"  {ratio:.3f} h_diverge ({r['factor']:.4f} h_crit): run from rest heats {heat:.3g}x, separation "
              f"{r['growth']:.3g}x ({r['course']}): {'diverges' if diverges else 'does not diverge'}")
        if diverges and first_heated is None:
            first_heated = ratio
        if not diverges:
            last_calm = ratio
            if first_heated is not None:
                print("    (calm again above a step that diverged)")
        if ratio <= 0.94 + 1e-9 and diverges:
            ok = False
        if ratio >= 1.05 - 1e-9 and not diverges:
            ok = False
    if last_calm is not None and first_heated is not None:
        print(f"LAMMPS diverges between {last_calm:.3f} and {first_heated:.3f} of dtcrit's h_diverge (measured ratio)")
    else:
        print(f"LAMMPS' divergence is not bracketed by the steps run: last calm {last_calm}, first diverging "
              f"{first_heated} (of h_diverge)")
    print("PASS" if ok else "FAIL: expected calm at or below 0.94 h_diverge and divergence at or above 1.05")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
