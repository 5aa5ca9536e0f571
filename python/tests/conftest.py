"""Shared helpers of the module's tests: the dtcrit command (DTCRIT_CLI, set by CTest) run with
--json, and the repository's test data (DTCRIT_SOURCE_DIR)."""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("DTCRIT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2])).resolve()
LAMMPS_DATA = SOURCE_DIR / "tests" / "data" / "lammps"


def cli_path():
    path = os.environ.get("DTCRIT_CLI")
    if not path:
        pytest.fail("DTCRIT_CLI is not set: run the tests through ctest (python_module)")
    return path


def run_cli(*args):
    """(exit status, stdout, stderr) of `dtcrit ARGS`."""
    p = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True, cwd=SOURCE_DIR)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    status, out, err = run_cli(*args, "--json")
    assert status == 0, err
    return json.loads(out)


def cli_error(*args):
    """The message `dtcrit ARGS` prints after 'dtcrit: error: ' (it must fail)."""
    status, _, err = run_cli(*args)
    assert status != 0
    prefix = "dtcrit: error: "
    line = [l for l in err.splitlines() if l.startswith(prefix)][0]
    return line[len(prefix):]


def without_timings(j):
    """A packing or sweep answer without its wall-clock times (timings_s; each sweep integrator's
    seconds and seconds_by_part, the sweep's reference_seconds), which differ from run to run."""
    if isinstance(j, dict):
        return {k: without_timings(v) for k, v in j.items()
                if k not in ("timings_s", "seconds", "seconds_by_part", "reference_seconds")}
    if isinstance(j, list):
        return [without_timings(v) for v in j]
    return j


def assert_close(got, want, rel, path=""):
    """got == want, floats within rel (relative), recursively through dicts and lists."""
    if isinstance(want, float) and isinstance(got, float):
        assert abs(got - want) <= rel * abs(want), f"{path}: {got} != {want}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: keys {set(got) ^ set(want)}"
        for k in want:
            assert_close(got[k], want[k], rel, f"{path}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_close(g, w, rel, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"
