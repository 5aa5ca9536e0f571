#!/usr/bin/python3
"""mpirun -np P dtcrit table ARGS against the same command in one process (the same binary, without
mpirun): the CSV and Markdown files must be equal byte for byte (rows dealt over the ranks in blocks,
gathered and written once by rank 0). With --expect-error: every rank fails, one message, no file."""
import subprocess
import sys
import tempfile

from mpi_support import comparison_args, expect_failure, mpi_env


def main():
    o, args = comparison_args()
    env = mpi_env()
    with tempfile.TemporaryDirectory() as tmp:
        def files(tag):
            return [f"--csv", f"{tmp}/{tag}.csv", "--markdown", f"{tmp}/{tag}.md"]
        if o.expect_error:
            expect_failure([o.mpiexec, "-n", str(o.ranks), o.dtcrit, "table", *args, *files("m")], o.expect_error,
                           o.ranks, env, out_dir=tmp, timeout=120)
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
