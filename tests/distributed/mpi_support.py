"""What the MPI comparison scripts (compare_serial.py, compare_table.py, compare_sweep.py) share: their
command line, the environment Open MPI needs here, and the check that a command fails on every rank
together."""
import argparse
import os
import subprocess
import sys


def comparison_args(add_options=None):
    """The scripts' command line: --dtcrit, --mpiexec, --ranks, --expect-error, the script's own options
    (add_options(parser)) and the dtcrit arguments after them. Returns (options, dtcrit arguments)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtcrit", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--expect-error", help="the command must fail on every rank with this message, printed once")
    if add_options:
        add_options(ap)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    return o, [a for a in o.args if a != "--"]


def mpi_env():
    """The caller's environment plus what Open MPI needs in these tests: root allowed, more ranks than
    cores (4 ranks on 2), no cross-memory attach (containers without CMA)."""
    env = dict(os.environ)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    return env


def expect_failure(cmd, message, ranks, env, out_dir=None, timeout=120):
    """cmd (an mpirun command) must exit != 0 with `message` in one 'dtcrit: error:' line, and, when
    out_dir is given, leave no file there. Exits the script with FAIL otherwise."""
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    said = p.stderr.count("dtcrit: error: ")
    left = os.listdir(out_dir) if out_dir else []
    if p.returncode == 0 or message not in p.stderr or said != 1 or left:
        sys.exit(f"FAIL: expected exit != 0, '{message}' once and no file; got exit {p.returncode}, "
                 f"{said} error lines, files {left}:\n{p.stderr}")
    print(f"ok: {ranks} ranks fail together with: {message}")
