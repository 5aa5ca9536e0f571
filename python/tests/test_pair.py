"""dtcrit.pair against `dtcrit pair --json` on the same input: the same content, and the same error
messages as ValueError."""
import re

import pytest

import dtcrit
from conftest import cli_error, cli_json

DISC = {"shape": "disc", "r": 5e-4, "m": 0.003}
RECT = {"shape": "rect", "a": 1e-3, "b": 7.5e-4, "m": 0.003, "e": 2e-4}
DISC_SPEC = "shape=disc,r=0.0005,m=0.003"
RECT_SPEC = "shape=rect,a=0.001,b=0.00075,m=0.003,e=0.0002"


def test_disc_rect_with_restitution_equals_the_cli():
    got = dtcrit.pair(body1=DISC, body2=RECT, kn=8e7, kt_ratio=0.5, restitution=0.7)
    want = cli_json("pair", "--body1", DISC_SPEC, "--body2", RECT_SPEC, "--kn", 8e7, "--kt-ratio", 0.5,
                    "--restitution", 0.7)
    assert got == want
    # Every registry integrator is there, and the CLI's default: velocity Verlet's limit x 0.8.
    assert set(got["integrators"]) >= {row["name"] for row in dtcrit.integrators()} - {"newmark", "variational"}
    assert got["recommended_step"]["integrator"] == "velocity_verlet"


def test_body_strings_equal_body_dicts():
    assert dtcrit.pair(DISC, RECT, kn=8e7, kt=4e7) == dtcrit.pair(DISC_SPEC, RECT_SPEC, kn=8e7, kt=4e7)


def test_lammps_law_at_an_impact_velocity_equals_the_cli():
    sphere = {"shape": "sphere", "r": 5e-4, "rho": 2500}
    law = "granular hertz/material 5e10 0.5 0.22 damping tsuji tangential mindlin NULL 1.0 0.5"
    got = dtcrit.pair(sphere, sphere, law=law, impact_velocity=1.0, integrators=["velocity_verlet"], margin=0.5)
    want = cli_json("pair", "--body1", "shape=sphere,r=5e-4,rho=2500", "--body2", "shape=sphere,r=5e-4,rho=2500",
                    "--lammps-pair", law, "--impact-velocity", 1, "--integrator", "velocity_verlet", "--margin", 0.5)
    assert got == want
    assert got["operating_point"]["impact_velocity"] == 1.0


def test_accuracy_bound_equals_the_cli():
    got = dtcrit.pair(DISC, DISC, kn=1e5, kt=8e4, restitution=0.5, integrators=["velocity_verlet"],
                      accuracy="restitution=1%")
    want = cli_json("pair", "--body1", DISC_SPEC, "--body2", DISC_SPEC, "--kn", 1e5, "--kt", 8e4, "--restitution", 0.5,
                    "--integrator", "velocity_verlet", "--accuracy", "restitution=1%")
    assert got == want
    assert got["recommended_step"]["accuracy"].startswith("restitution within 1%")


def test_oblique_accuracy_bound_equals_the_cli():
    sphere = {"shape": "sphere", "r": 5e-4, "rho": 2500}
    got = dtcrit.pair(sphere, sphere, hertz_mindlin="E=63e9,nu=0.22,e=0.5,mu=0.3", impact_velocity=2.0,
                      integrators=["velocity_verlet"], accuracy="spin=1%", impact_angle=60)
    want = cli_json("pair", "--body1", "shape=sphere,r=5e-4,rho=2500", "--body2", "shape=sphere,r=5e-4,rho=2500",
                    "--hertz-mindlin", "E=63e9,nu=0.22,e=0.5,mu=0.3", "--impact-velocity", 2, "--integrator",
                    "velocity_verlet", "--accuracy", "spin=1%", "--impact-angle", 60)
    assert got == want
    assert "60 deg" in got["recommended_step"]["accuracy"]
    with pytest.raises(ValueError, match="needs --impact-angle"):
        dtcrit.pair(sphere, sphere, hertz_mindlin="E=63e9,nu=0.22,e=0.5,mu=0.3", impact_velocity=2.0,
                    accuracy="spin=1%")


def test_material_heuristics_equal_the_cli():
    got = dtcrit.pair(DISC, DISC, kn=1e5, kt=8e4, youngs=7e10, poisson=0.25, density=2500, radius=5e-4,
                      impact_velocity=1.0, integrators=["none"])
    want = cli_json("pair", "--body1", DISC_SPEC, "--body2", DISC_SPEC, "--kn", 1e5, "--kt", 8e4, "--youngs", 7e10,
                    "--poisson", 0.25, "--density", 2500, "--radius", 5e-4, "--impact-velocity", 1,
                    "--integrator", "none")
    assert got == want
    assert got["integrators"] == {}


@pytest.mark.parametrize("kwargs, args, parameter", [
    ({"kn": -1e5, "kt": 1e4}, ["--kn", "-1e5", "--kt", "1e4"], "kn"),
    ({"kn": 1e5, "kt": 1e4, "restitution": 1.5}, ["--kn", "1e5", "--kt", "1e4", "--restitution", "1.5"],
     "restitution"),
    ({"kn": 1e5, "kt": 1e4, "integrators": ["verlett"]}, ["--kn", "1e5", "--kt", "1e4", "--integrator", "verlett"],
     "verlett"),
    ({"kn": 1e5, "kt": 1e4, "youngs": 7e10}, ["--kn", "1e5", "--kt", "1e4", "--youngs", "7e10"], "youngs="),
])
def test_bad_input_is_a_value_error_with_the_cli_message(kwargs, args, parameter):
    # The CLI's message, its options named as the keywords (issue 35: --youngs is youngs= here).
    want = cli_error("pair", "--body1", DISC_SPEC, "--body2", DISC_SPEC, *args)
    for option, keyword in [("--youngs", "youngs="), ("--poisson", "poisson="), ("--density", "density="),
                            ("--radius", "radius=")]:
        want = want.replace(option, keyword)
    with pytest.raises(ValueError, match=re.escape(want)):
        dtcrit.pair(DISC, DISC, **kwargs)
    assert parameter in want


def test_bad_body_names_the_key():
    with pytest.raises(ValueError, match="r"):
        dtcrit.pair({"shape": "disc", "r": -5e-4, "m": 0.003}, DISC, kn=1e5, kt=1e4)
    with pytest.raises(ValueError, match="body1"):
        dtcrit.pair(3.0, DISC, kn=1e5, kt=1e4)


@pytest.mark.parametrize("key, value, shown", [("r", "5e-4", "'5e-4'"), ("rho", "2500", "'2500'"), ("m", True, "True")])
def test_a_body_number_given_as_a_string_is_refused(key, value, shown):
    # Issue 35: {"r": "5e-4"} was read as the number.
    body = {"shape": "sphere", "r": 5e-4, "rho": 2500}
    if key == "m":
        del body["rho"]
    body[key] = value
    with pytest.raises(ValueError, match=re.escape(f"body1['{key}'] = {shown} is not a number")):
        dtcrit.pair(body, {"shape": "sphere", "r": 5e-4, "rho": 2500}, kn=1e5, kt_ratio=0.8)
