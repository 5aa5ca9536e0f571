"""dtcrit.packing and dtcrit.packing_from_lammps against `dtcrit packing --json` on the same packing."""
import math
import os
import re
import shutil

import numpy as np
import pytest

import dtcrit
from conftest import LAMMPS_DATA, SOURCE_DIR, assert_close, cli_error, cli_json, without_timings

HERTZ = "gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1"
INTEGRATORS = ["velocity_verlet", "central_difference", "rk4"]


@pytest.fixture(autouse=True)
def at_the_source_dir(monkeypatch):
    # The CLI runs there too: relative paths, echoed in the answers, read the same.
    monkeypatch.chdir(SOURCE_DIR)


def read_data_file(path):
    """positions, radii, masses, box of a LAMMPS write_data file (atom_style sphere: id type diameter
    density x y z), in atom-id order; read here independently of dtcrit's reader."""
    lines = open(path).read().splitlines()
    box = np.zeros((2, 3))
    for line in lines:
        w = line.split()
        for d, name in enumerate(["xlo", "ylo", "zlo"]):
            if len(w) == 4 and w[2] == name:
                box[0, d], box[1, d] = float(w[0]), float(w[1])
    start = next(i for i, l in enumerate(lines) if l.startswith("Atoms")) + 2
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append([float(x) for x in line.split()[:7]])
    rows = np.array(sorted(rows))
    r = rows[:, 2] / 2
    return rows[:, 4:7], r, rows[:, 3] * 4 / 3 * math.pi * r**3, box


def test_lammps_input_script_equals_the_cli():
    script = "tests/data/lammps/in.hertz"
    got = dtcrit.packing_from_lammps(script, integrators=INTEGRATORS)
    want = cli_json("packing", "--lammps-input", script, *sum((["--integrator", i] for i in INTEGRATORS), []))
    assert without_timings(got) == without_timings(want)
    assert got["timestep_check"]["verdict"] == "SAFE"
    assert dtcrit.lammps_format(script) == "input"


@pytest.mark.skipif(os.environ.get("DTCRIT_SLOW_TESTS") != "1",
                    reason="slow (a non-symmetric packing): the full preset runs it (DTCRIT_SLOW_TESTS)")
def test_lammps_input_script_with_contact_histories_equals_the_cli():
    script = "tests/data/lammps/in.hertz"
    contacts = ["tests/data/lammps/contacts_hertz.dump", "tests/data/lammps/wall_hertz.dump"]
    got = dtcrit.packing_from_lammps(script, contacts=contacts, integrators=["velocity_verlet"])
    want = cli_json("packing", "--lammps-input", script, "--lammps-contacts", contacts[0], "--lammps-contacts",
                    contacts[1], "--integrator", "velocity_verlet")
    assert without_timings(got) == without_timings(want)
    assert got["contact_histories"]["pairs_read"] == 209


POUR_2D = "/usr/share/lammps/examples/pour/in.pour.2d"


@pytest.mark.skipif(not (shutil.which("lmp") and os.path.exists(POUR_2D)),
                    reason="needs the installed lmp and Debian's lammps-examples")
def test_script_run_in_lammps_equals_the_cli():
    # LAMMPS' own 2D pour makes its particles itself (create_box, fix pour): lmp runs it to its end.
    assert dtcrit.lammps_format(POUR_2D) == "input"
    got = dtcrit.packing_from_lammps(POUR_2D, run_in_lammps=True, integrators=["velocity_verlet"])
    want = cli_json("packing", "--lammps-input", POUR_2D, "--run-in-lammps", "--integrator", "velocity_verlet")
    assert without_timings(got) == without_timings(want)
    assert got["lammps_input"]["state"] == "--run-in-lammps"
    assert got["contact_histories"]["pairs_read"] > 0


def test_data_file_equals_the_cli():
    data = "tests/data/lammps/settled_hertz.data"
    got = dtcrit.packing_from_lammps(data, law=HERTZ, walls=["z=0"], integrators=INTEGRATORS)
    want = cli_json("packing", "--lammps-data", data, "--lammps-pair", HERTZ, "--wall", "z=0",
                    *sum((["--integrator", i] for i in INTEGRATORS), []))
    assert without_timings(got) == without_timings(want)
    assert dtcrit.lammps_format(data) == "data"


def test_arrays_give_the_answer_of_the_same_packing_read_from_its_data_file():
    data = LAMMPS_DATA / "settled_hertz.data"
    x, r, m, box = read_data_file(data)
    got = dtcrit.packing(x, r, m, box=box, law=HERTZ, walls=["z=0"], integrators=INTEGRATORS)
    want = cli_json("packing", "--lammps-data", data, "--lammps-pair", HERTZ, "--wall", "z=0",
                    *sum((["--integrator", i] for i in INTEGRATORS), []))
    for key in ["omega_max", "integrators", "estimates", "h_exact_velocity_verlet", "recommended_step"]:
        assert_close(got[key], want[key], 1e-12, key)
    for key in ["particles", "dofs", "pair_contacts", "wall_contacts", "rattlers", "damped"]:
        assert got["packing"][key] == want["packing"][key], key
    assert got["inputs"]["law"] == want["inputs"]["law"]
    assert "no periodic axis (none given)" in got["inputs"]["defaults_applied"]


def test_two_discs_closed_form():
    # Two discs touching, translation only, undamped Hooke: omega_max^2 = 2 kn / m (normal mode),
    # velocity Verlet's limit 2 / omega_max.
    m, kn = 2e-3, 1e5
    got = dtcrit.packing([[0, 0], [1e-3, 0]], [5e-4, 5e-4], [m, m], kn=kn, kt=0.5 * kn, rotation=False,
                         gap_tolerance=1e-9, integrators=["velocity_verlet"])
    assert got["omega_max"] == pytest.approx(math.sqrt(2 * kn / m), rel=1e-12)
    assert got["integrators"]["velocity_verlet"]["h_crit"] == pytest.approx(2 / math.sqrt(2 * kn / m), rel=1e-10)


def test_script_options_conflict_as_in_the_cli():
    # The CLI's message, with the option named as the keyword the Python caller gave (issue 35).
    want = cli_error("packing", "--lammps-input", "tests/data/lammps/in.hertz", "--kn", "1e5")
    assert want.startswith("--kn conflicts with")
    with pytest.raises(ValueError, match=re.escape("kn=" + want[len("--kn"):])):
        dtcrit.packing_from_lammps("tests/data/lammps/in.hertz", kn=1e5)


@pytest.mark.parametrize("kwargs, message", [
    ({"kn": None}, "kn= (normal stiffness [N/m]) is required, or the law as law="),
    ({"kt": None}, "kt= (tangential stiffness [N/m]) or kt_ratio= (k_t / k_n) is required, or the law as law="),
    ({"kt_ratio": 0.3}, "give one of kt = 50000 and kt_ratio = 0.3"),
    ({"kt": None, "kt_ratio": -0.3}, "kt_ratio = -0.3 (k_t / k_n) must be non-negative and finite"),
    ({"law": "gran/hooke 1e5 5e4 0 0 0.5 0"}, "law= gives the whole law: drop kn=, kt=, kt_ratio=, gamma_n= and gamma_t="),
    ({"ncv": 30}, "ncv= is not read: it applies to eigensolver= spectra (it is Spectra's basis size)"),
])
def test_errors_name_the_python_keywords_not_the_cli_options(kwargs, message):
    # Issue 35: the library's messages spoke of --kn and --lammps-pair to Python callers.
    args = {"radii": [5e-4, 5e-4], "masses": [1e-3, 1e-3], "kn": 1e5, "kt": 5e4, **kwargs}
    with pytest.raises(ValueError) as raised:
        dtcrit.packing([[0, 0, 0], [1e-3, 0, 0]], **args)
    assert str(raised.value) == message
    assert "--" not in str(raised.value)


def test_kt_ratio_is_kt_over_kn_as_in_pair():
    common = dict(radii=[5e-4, 5e-4], masses=[1e-3, 1e-3], kn=1e5, gap_tolerance=1e-9, integrators=["velocity_verlet"])
    by_ratio = dtcrit.packing([[0, 0, 0], [1e-3, 0, 0]], kt_ratio=0.3, **common)
    by_value = dtcrit.packing([[0, 0, 0], [1e-3, 0, 0]], kt=3e4, **common)
    assert by_ratio["integrators"] == by_value["integrators"]
    assert by_ratio["inputs"]["law"] == by_value["inputs"]["law"]


@pytest.mark.parametrize("kwargs, parameter", [
    ({"radii": [1e-3]}, "radii"),
    ({"masses": [1e-3, -1.0]}, "mass"),
    ({"periodic": "x"}, "box"),
    ({"kn": None}, "kn="),
    ({"walls": ["q=0"]}, "q=0"),
    # Issue 33: types were narrowed to int silently (2**33 + 1 and 1.7 read as type 1).
    ({"types": [1, 2**33 + 1]}, "types[1] = 8589934593 is not an integer"),
    ({"types": [1.7, 1]}, "types[0] = 1.7 is not an integer"),
])
def test_bad_input_names_the_parameter(kwargs, parameter):
    args = {"radii": [5e-4, 5e-4], "masses": [1e-3, 1e-3], "kn": 1e5, "kt": 5e4, **kwargs}
    with pytest.raises(ValueError, match=re.escape(parameter)):
        dtcrit.packing([[0, 0, 0], [1e-3, 0, 0]], **args)


@pytest.mark.parametrize("path, message", [
    # Issue 33: lammps_format read /dev/zero until memory ran out; a folder was not named as one.
    ("/dev/zero", "LAMMPS file '/dev/zero': is not a regular file"),
    (str(LAMMPS_DATA), f"LAMMPS file '{LAMMPS_DATA}': is a folder, not a file"),
])
def test_a_path_that_cannot_be_an_input_is_named(path, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        dtcrit.packing_from_lammps(path, kn=1e5, kt=5e4)
    with pytest.raises(ValueError, match=re.escape(message.replace("LAMMPS file", "LAMMPS data file"))):
        dtcrit.packing_from_lammps(path, format="data", kn=1e5, kt=5e4)


# Issue 32: every source and check of `dtcrit packing` through the same request.
def test_lattice_equals_the_cli():
    got = dtcrit.packing_from_lattice("sc", 3, radius=5e-4, compression=1e-3, kn=1e5, kt=5e4, gamma_n=100.0,
                                      integrators=["velocity_verlet"])
    want = cli_json("packing", "--lattice", "sc", "--n", "3", "--radius", "5e-4", "--compression", "1e-3", "--kn",
                    "1e5", "--kt", "5e4", "--gamma-n", "100", "--integrator", "velocity_verlet")
    assert without_timings(got) == without_timings(want)
    # The defaults are marked as the CLI marks them: radius given, density not.
    marked = got["packing"]["inputs"]
    assert marked["radius"]["default"] is False and marked["density"]["default"] is True


def test_network_equals_the_cli():
    path = "tests/data/network/plate_plate.json"
    got = dtcrit.packing_from_network(path, integrators=["velocity_verlet"])
    want = cli_json("packing", "--bodies", path, "--integrator", "velocity_verlet")
    assert without_timings(got) == without_timings(want)
    # The plate-plate column of `dtcrit example` (tests/data/network/README.md).
    assert got["integrators"]["velocity_verlet"]["h_crit"] == pytest.approx(5.3272e-06, rel=1e-4)


def test_confirmation_equals_the_cli():
    # The stepper's runs at 0.99 and 1.01 of the limit, seeded: the same numbers as --confirm.
    got = dtcrit.packing_from_lattice("sc", 2, radius=5e-4, compression=1e-2, periodic="none", box_walls=True,
                                      kn=1e5, kt=5e4, integrators=["velocity_verlet"], confirm=300)
    want = cli_json("packing", "--lattice", "sc", "--n", "2", "--radius", "5e-4", "--compression", "1e-2",
                    "--periodic", "none", "--box-walls", "--kn", "1e5", "--kt", "5e4", "--integrator",
                    "velocity_verlet", "--confirm", "300")
    assert without_timings(got) == without_timings(want)
    assert [r["factor"] for r in got["confirmation"]] == [0.99, 1.01]
    assert got["confirmation"][1]["confirmed"] is True


def test_scan_dofs_is_the_cli_option():
    # HHT on a damped non-symmetric packing above amplification_dofs: its amplification matrix scanned up
    # to scan_dofs (48 dofs here), not computed above; the same answers as --scan-dofs.
    law = "granular hertz/material 7e10 0.4 0.3 tangential mindlin NULL 1 10"
    args = ("packing", "--lattice", "sc", "--n", "2", "--compression", "1e-3", "--periodic", "none", "--box-walls",
            "--lammps-pair", law, "--integrator", "hht", "--amplification-dofs", "0")
    for scan_dofs, computed in ((48, True), (47, False)):
        got = dtcrit.packing_from_lattice("sc", 2, compression=1e-3, periodic="none", box_walls=True, law=law,
                                          integrators=["hht"], amplification_dofs=0, scan_dofs=scan_dofs)
        assert got["integrators"]["hht"]["computed"] is computed
        assert without_timings(got) == without_timings(cli_json(*args, "--scan-dofs", str(scan_dofs)))
    assert "--scan-dofs = 47" in got["integrators"]["hht"]["method"]


def test_network_takes_no_particle_keywords():
    with pytest.raises(ValueError, match="kn= is not read with --bodies: it applies to a law given by kn= and kt="):
        dtcrit.packing_from_network("tests/data/network/plate_plate.json", kn=1e5)


def test_an_unknown_keyword_is_a_type_error_with_a_suggestion():
    with pytest.raises(TypeError, match="packing_from_lattice\\(\\) got an unexpected keyword argument 'radious'"):
        dtcrit.packing_from_lattice("sc", 2, radious=1e-3, kn=1e5, kt=5e4)
    with pytest.raises(TypeError, match="'contacts'"):  # a data file's keyword, not an array packing's
        dtcrit.packing([[0, 0, 0], [1e-3, 0, 0]], [5e-4, 5e-4], [1e-3, 1e-3], kn=1e5, kt=5e4, contacts=["x"])
