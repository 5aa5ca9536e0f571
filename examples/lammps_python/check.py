"""CTest check of the example (examples/lammps_python): run in.ramp with LAMMPS and verify that the
run stopped where dtcrit predicts, independently of the example's own monitor.

Usage: check.py LMP DTCRIT_CLI   (PYTHONPATH must reach the built module). Exit 77 (CTest's skip)
when LAMMPS is not installed.
"""
import json
import math
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def script_value(text, name):
    return float(re.search(rf"^variable\s+{name}\s+equal\s+(\S+)", text, re.M).group(1))


def main():
    lmp, cli = sys.argv[1], sys.argv[2]
    if shutil.which(lmp) is None:
        print(f"SKIP: LAMMPS ({lmp}) is not installed; tools/test.sh installs Debian's lammps")
        return 77
    packages = subprocess.run([lmp, "-h"], capture_output=True, text=True).stdout
    if not re.search(r"^Installed packages:\s*\n\s*\n(.*\n)*?.*\bPYTHON\b", packages, re.M):
        print(f"SKIP: this LAMMPS ({lmp}) was built without its PYTHON package")
        return 77
    script = (HERE / "in.ramp").read_text()
    law = re.search(r'^variable\s+law\s+string\s+"([^"]+)"', script, re.M).group(1)
    dt0, growth = script_value(script, "dt0"), script_value(script, "growth")
    stage_steps, every = int(script_value(script, "stage_steps")), int(script_value(script, "check_every"))

    # The prediction: the same lattice built by dtcrit's own generator (not by LAMMPS), through the
    # command line: sc, 3 cells per side, r = 1 mm, rho = 2500, nearest neighbours 2 r (1 - 0.05).
    out = subprocess.run([cli, "packing", "--lattice", "sc", "--n", "3", "--radius", "1e-3", "--density", "2500",
                          "--compression", "0.05", "--lammps-pair", law, "--integrator", "velocity_verlet", "--json"],
                         capture_output=True, text=True, check=True).stdout
    h_crit = json.loads(out)["integrators"]["velocity_verlet"]["h_crit"]
    stage = 1 + math.floor(math.log(h_crit / dt0) / math.log(growth)) + 1  # first stage with dt > h_crit
    assert dt0 * growth ** (stage - 1) > h_crit >= dt0 * growth ** (stage - 2)
    predicted_step = (stage - 1) * stage_steps + every  # its first check
    print(f"predicted: h_crit = {h_crit:.6g} s, first exceeded at stage {stage} "
          f"(dt = {dt0 * growth ** (stage - 1):.6g} s), stop at step {predicted_step}")

    with tempfile.TemporaryDirectory() as work:
        for f in ["in.ramp", "monitor.py"]:
            shutil.copy(HERE / f, work)
        run = subprocess.run([lmp, "-in", "in.ramp", "-log", "log.lammps", "-screen", "none"], cwd=work,
                             capture_output=True, text=True, timeout=300)
        log = (pathlib.Path(work) / "log.lammps").read_text()
    output = run.stdout + log
    if run.returncode != 0:
        print(output[-3000:])
        print(f"FAIL: lmp exited with {run.returncode}: {run.stderr[-2000:]}")
        return 1
    message = re.search(r"dtcrit: step (\d+): timestep (\S+) s exceeds the critical step (\S+) s", output)
    if not message:
        print(output[-3000:])
        print("FAIL: the monitor never reported dt > dt_crit")
        return 1
    step, dt, h = int(message.group(1)), float(message.group(2)), float(message.group(3))
    print(message.group(0))
    ok = True
    if step != predicted_step:
        print(f"FAIL: stopped at step {step}, predicted {predicted_step}")
        ok = False
    if abs(h - h_crit) > 1e-5 * h_crit:  # the live packing has moved by ~1 nm: its limit is the lattice's
        print(f"FAIL: the live packing's h_crit {h} s differs from the lattice's {h_crit} s")
        ok = False
    if "Fix halt condition" not in output:
        print("FAIL: fix halt did not stop the run")
        ok = False
    runs = [int(n) for n in re.findall(r"^Loop time of \S+ on \d+ procs for (\d+) steps", log, re.M)]
    if sum(runs) != step:
        print(f"FAIL: LAMMPS ran {sum(runs)} steps in all, the stop was at step {step}")
        ok = False
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
