"""dtcrit.integrators and dtcrit.sweep against the command line."""
import re

import pytest

import dtcrit
from conftest import cli_error, cli_json, run_cli, without_timings


def test_integrators_are_the_cli_registry():
    status, out, _ = run_cli("integrators")
    assert status == 0
    names = [line.split()[0] for line in out.splitlines()[2:] if line.strip()]
    rows = dtcrit.integrators()
    assert [r["name"] for r in rows] == names
    vv = next(r for r in rows if r["name"] == "velocity_verlet")
    assert vv["order"] == 2 and vv["explicit"]


def test_quick_sweep_equals_the_cli():
    got = dtcrit.sweep("head-on", ["velocity_verlet", "central_difference"], quick=True, restitution=0.5)
    want = cli_json("sweep", "--case", "head-on", "--integrator", "velocity_verlet", "--integrator",
                    "central_difference", "--quick", "--set", "restitution=0.5")
    assert without_timings(got) == without_timings(want)
    assert [i["integrator"] for i in got["integrators"]] == ["velocity_verlet", "central_difference"]


def test_sweep_cases_list_the_parameters():
    cases = {c["name"]: c for c in dtcrit.sweep_cases()}
    assert "head-on" in cases and "restitution" in cases["head-on"]["parameters"]


def test_unknown_case_parameter_is_the_cli_error():
    want = cli_error("sweep", "--case", "head-on", "--quick", "--set", "bogus=1")
    with pytest.raises(ValueError, match=re.escape(want)):
        dtcrit.sweep("head-on", ["velocity_verlet"], quick=True, bogus=1)
    assert "bogus" in want
