#!/usr/bin/env python3
"""LAMMPS' own granular example scripts (Debian's lammps-examples), read unchanged by
`dtcrit packing --lammps-input`: each gets a verdict on its own timestep, with the state that
make_examples.sh wrote beside it, or a FILE:LINE refusal that names what dtcrit does not model.

The expected verdicts are LAMMPS' own where it gives one: an example that runs to its end at its
timestep in LAMMPS (make_examples.sh ran them) is SAFE, and dtcrit must agree and say by how much.

  examples_check.py DTCRIT_CLI        (exit 77: lammps-examples is not installed)"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lammps_examples import EXAMPLES, skip_unless_installed  # noqa: E402

# (example, state beside it [+ its contact dump], units, expected verdict, expected regime). Every example
# runs to its end at its own timestep in LAMMPS (make_examples.sh ran them): where dtcrit says SAFE, it
# agrees; where it says UNSAFE (the rolling dashpots of flatwall and drum: above the limit of their
# contacts as they are, sticking), the regime must be "friction wrong" - below h_diverge, the step
# with every contact sliding - since LAMMPS does not blow up there; where the limit is known only as an
# upper bound (the -1 crossing of a non-symmetric damped packing above --crossing-check-dofs: in.pour
# with its contact dump, the funnel), a timestep below it is UNKNOWN, not SAFE.
VERDICTS = [
    ("pour/in.pour", "pour.data", "lj", "SAFE", "below h_crit"),
    ("pour/in.pour", "pour.data+pour_contacts.dump", "lj", "UNKNOWN", "below h_crit"),
    ("pour/in.pour.2d", "pour_2d.data", "lj", "SAFE", "below h_crit"),
    ("granregion/in.granregion.box", "granregion_box.data", "lj", "SAFE", "below h_crit"),
    ("granregion/in.granregion.funnel", "granregion_funnel.data", "si", "UNKNOWN", "below h_crit"),
    ("granregion/in.granregion.mixer", "granregion_mixer.data", "lj", "SAFE", "below h_crit"),
    ("granular/in.pour.flatwall", "pour_flatwall.data", "lj", "UNSAFE", "friction wrong"),
    ("granular/in.pour.drum", "pour_drum.data", "lj", "UNSAFE", "friction wrong"),
    ("rigid/in.rigid.gravity", "rigid_gravity.data", "si", "SAFE", "below h_crit"),
]
# (example, what the refusal must name) - dtcrit does not model these.
REFUSALS = [
    ("pour/in.pour.2d.molecule", "fix rigid/small in 2D"),
    ("multi/in.granular", "fix nph/sphere"),  # a barostat integrates the particles: another scheme
    ("multi/in.powerlaw", "fix deform"),      # the box deforms with the particles in it
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    skip_unless_installed(need_lmp=False)
    cli = sys.argv[1]
    failures = 0
    for example, state, units, expected, regime in VERDICTS:
        script = os.path.join(EXAMPLES, example)
        data, _, contacts = state.partition("+")
        command = [cli, "packing", "--lammps-input", script, "--lammps-data", os.path.join(HERE, "examples", data),
                   "--integrator", "velocity_verlet", "--json"]
        if contacts:
            command += ["--lammps-contacts", os.path.join(HERE, "examples", contacts)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(f"FAIL {example}: exit {run.returncode}: {run.stderr.strip()}")
            failures += 1
            continue
        j = json.loads(run.stdout)
        check = j["timestep_check"]
        verdict = check["verdict"]
        ok = verdict == expected and check.get("regime") == regime and \
            j["lammps_input"]["units"] == units and (check["ratio"] < 1) == (verdict != "UNSAFE") and \
            (verdict == "UNKNOWN") == (check["ratio"] < 1 and check["h_crit_upper_bound"])
        diverge = f", h_diverge {check['h_diverge']:.6g}" if check.get("h_diverge") else ""
        print(f"{'ok  ' if ok else 'FAIL'} {example}{' with ' + contacts if contacts else ''}: {check['verdict']} "
              f"({check.get('regime')}), timestep {check['timestep']} {check['timestep_unit']} = {check['ratio']:.4g} of "
              f"h_crit {check['h_crit']:.6g}{diverge} ({j['lammps_input']['physics_of']})")
        failures += not ok
    # Every integrator of the default list on the non-symmetric pour (3055 contacts, 1010 sliding): each
    # row answers (before, variational_2's -1 crossing ran Arnoldi on a companion operator with a zero
    # K block, whose Schur step failed, and took the whole command down).
    command = [cli, "packing", "--lammps-input", os.path.join(EXAMPLES, "pour/in.pour"), "--lammps-data",
               os.path.join(HERE, "examples", "pour.data"), "--lammps-contacts",
               os.path.join(HERE, "examples", "pour_contacts.dump"), "--json"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        print(f"FAIL pour/in.pour with pour_contacts.dump, every integrator: exit {run.returncode}: {run.stderr.strip()}")
        failures += 1
    else:
        rows = json.loads(run.stdout)["integrators"]
        v2 = rows.get("variational_2", {})
        # The rows no criterion decides (HHT, generalised-alpha, GS4 on a non-symmetric damped packing)
        # are not computed above --scan-dofs, saying so; no row is an estimate.
        undecided = sorted(name for name, r in rows.items() if not r["computed"])
        ok = (len(rows) >= 19 and undecided == ["generalized_alpha", "gs4_u0", "gs4_v0", "hht"] and
              all("--scan-dofs" in rows[name]["method"] for name in undecided) and
              all(r["exact"] for r in rows.values()) and v2.get("h_crit") is not None)
        print(f"{'ok  ' if ok else 'FAIL'} pour/in.pour with pour_contacts.dump: {len(rows)} integrators, not computed "
              f"(above --scan-dofs) {', '.join(undecided)}, variational_2 h_crit {v2.get('h_crit')} "
              f"({v2.get('method', '')[:80]})")
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
