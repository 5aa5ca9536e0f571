#!/usr/bin/python3
"""mpirun -np P dtcrit table ARGS against the same command in one process (the same binary, without
mpirun): the CSV and Markdown files must be equal byte for byte (rows dealt over the ranks in blocks,
gathered and written once by rank 0). With --expect-error: every rank fails, one message, no file."""
import argparse
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtcrit", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--expect-error")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    args = [a for a in o.args if a != "--"]
    env = dict(os.environ)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    with tempfile.TemporaryDirectory() as tmp:
        def files(tag):
            return [f"--csv", f"{tmp}/{tag}.csv", "--markdown", f"{tmp}/{tag}.md"]
        if o.expect_error:
            p = subprocess.run([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "table", *args, *files("m")],
                               capture_output=True, text=True, env=env, timeout=120)
            said = p.stderr.count("dtcrit: error: ")
            left = os.listdir(tmp)
            if p.returncode == 0 or o.expect_error not in p.stderr or said != 1 or left:
                sys.exit(f"FAIL: expected exit != 0, '{o.expect_error}' once and no file; got exit {p.returncode}, "
                         f"{said} error lines, files {left}:\n{p.stderr}")
            print(f"ok: {o.ranks} ranks fail together with: {o.expect_error}")
            return
        for cmd in ([o.dtcrit, "table", *args, *files("s"), "--threads", "2"],
                    [o.mpiexec, "-n", str(o.ranks), o.dtcrit, "table", *args, *files("m"), "--threads", "1"]):
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=280)
            if p.returncode != 0:
                sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stderr}")
        for ext in ("csv", "md"):
            a, b = open(f"{tmp}/s.{ext}").read(), open(f"{tmp}/m.{ext}").read()
            if a != b:
                sys.exit(f"FAIL: the {ext} of {o.ranks} ranks differs from the serial one")
        rows = open(f"{tmp}/s.csv").read().count("\n") - 1
        print(f"ok: {o.ranks} ranks wrote the serial table's {rows} rows, CSV and Markdown byte for byte")


if __name__ == "__main__":
    main()
