#!/usr/bin/python3
"""CTest `recurrence_cover_prototype`: tools/recurrence_cover.py (the research prototype for large
damped non-symmetric packings: a norm bound plus shift-invert discs) against the dense spectral
radius of velocity Verlet's recurrence and against dtcrit's own check, on LAMMPS' in.granular with
its contact dumps (600 dofs, K not symmetric: torque arms r - delta/2 and histories).
At 0.5, 0.99 and 1 - 1e-6 of dtcrit's h_crit (the -1 crossing, with no complex crossing below it:
dtcrit's dense check) the largest |lambda| the discs find equals the dense one to 1e-9, and is
below 1 (stable, as dtcrit says); the norm bound lies above it.
Usage: recurrence_cover_check.py DTCRIT"""
import json
import os
import re
import subprocess
import sys
import tempfile

dtcrit = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
lammps = f"{here}/data/lammps"
tool = f"{here}/../tools/recurrence_cover.py"
with tempfile.TemporaryDirectory() as work:
    report = json.loads(subprocess.run(
        [dtcrit, "packing", "--lammps-input", f"{lammps}/in.granular", "--lammps-contacts",
         f"{lammps}/contacts_granular.dump", "--lammps-contacts", f"{lammps}/wall_granular.dump",
         "--integrator", "velocity_verlet", "--write-matrices", work, "--json"],
        check=True, capture_output=True, text=True).stdout)
    vv = report["integrators"]["velocity_verlet"]
    assert not vv["upper_bound"] and "no complex crossing found below it" in vv["method"], vv["method"]
    h_crit = vv["h_crit"]
    steps = [f * h_crit for f in (0.5, 0.99, 1 - 1e-6)]
    out = subprocess.run([tool, work] + [repr(h) for h in steps] + ["--dense"], check=True, capture_output=True,
                         text=True).stdout
    print(out)
    pattern = re.compile(r"norm bound 1 \+ (\S+) .* largest \|lambda\| found - 1 = (\S+); dense: (\S+)")
    lines = [pattern.search(line) for line in out.splitlines() if line.startswith("h = ")]
    assert len(lines) == len(steps) and all(lines), out
    for match in lines:
        bound, found, dense = (float(g) for g in match.groups())
        assert abs(found - dense) <= 1e-9, (found, dense)
        assert found < 0.0, found  # stable: every eigenvalue inside the unit circle
        assert bound >= found, (bound, found)
print("recurrence_cover_prototype: the discs find the dense spectral radius at 3 steps")
