#!/usr/bin/python3
"""mpirun -np P dtcrit sweep ARGS against the same command in one process (the same binary, without
mpirun): the JSON reports must be equal in every field but the wall times (TIMINGS),
and the text tables line for line (integrators dealt round-robin over the ranks, gathered and written
once by rank 0). With --expect-error: every rank fails, one message, no file."""
import json
import subprocess
import sys
import tempfile

from mpi_support import comparison_args, expect_failure, mpi_env


TIMINGS = ("seconds", "seconds_by_part", "reference_seconds")  # wall times: they differ from run to run


def without_seconds(j):
    if isinstance(j, dict):
        return {k: without_seconds(v) for k, v in j.items() if k not in TIMINGS}
    if isinstance(j, list):
        return [without_seconds(v) for v in j]
    return j


def main():
    o, args = comparison_args()
    env = mpi_env()
    with tempfile.TemporaryDirectory() as tmp:
        def files(tag):
            return ["--json-file", f"{tmp}/{tag}.json", "-o", f"{tmp}/{tag}.txt"]
        if o.expect_error:
            expect_failure([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "sweep", *args, *files("m")], o.expect_error,
                           o.ranks, env, out_dir=tmp, timeout=300)
            return
        for cmd in ([o.dtcrit, "sweep", *args, *files("s")],
                    [o.mpiexec, "-n", str(o.ranks), o.dtcrit, "sweep", *args, *files("m")]):
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
            if p.returncode != 0:
                sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
        s = json.load(open(f"{tmp}/s.json"))
        m = json.load(open(f"{tmp}/m.json"))
        n = len(s["integrators"])
        if n < o.ranks:
            sys.exit(f"FAIL: {n} integrators on {o.ranks} ranks leaves a rank idle; the test wants every rank busy")
        s, m = without_seconds(s), without_seconds(m)
        if s != m:
            for a, b in zip(s["integrators"], m["integrators"]):
                if a != b:
                    sys.exit(f"FAIL: integrator {a.get('spec')} differs:\n serial {json.dumps(a)[:2000]}\n mpi    {json.dumps(b)[:2000]}")
            sys.exit("FAIL: the reports differ outside the integrators")
        # The text table carries no wall times: equal line for line.
        st, mt = open(f"{tmp}/s.txt").read(), open(f"{tmp}/m.txt").read()
        if st != mt:
            sys.exit(f"FAIL: the text reports differ:\n--- serial\n{st}\n--- mpi\n{mt}")
        print(f"ok: {n} integrators on {o.ranks} ranks: the serial report (JSON without wall times, and the table)")


if __name__ == "__main__":
    main()
