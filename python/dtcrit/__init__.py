"""dtcrit: critical time-steps and integrator stability for DEM simulations.

Every quantity is SI (kg, m, s, N/m, N s/m). The functions return what the command line prints with
--json, as Python objects:

    dtcrit.pair(body1={...}, body2={...}, kn=..., ...)      # == `dtcrit pair ... --json`
    dtcrit.packing(positions, radii, masses, kn=..., ...)    # == `dtcrit packing ... --json`
    dtcrit.packing_from_lammps("in.file", ...)               # --lammps-input / -data / -dump / -restart
    dtcrit.packing_from_lattice("fcc", 4, kn=..., ...)       # --lattice fcc --n 4
    dtcrit.packing_from_network("bodies.json", ...)          # --bodies
    dtcrit.critical_step("velocity_verlet", M, K, C)         # any linear system: dense or scipy.sparse
    dtcrit.integrators(), dtcrit.sweep(case, integrators, **params), dtcrit.sweep_cases()

Bad input raises ValueError with the command line's message, which names the parameter and value.
See python/README.md.
"""
from ._dtcrit import critical_step, integrators, packing, packing_from_lattice, packing_from_network, pair, sweep
from ._dtcrit import sweep_cases
from ._dtcrit import lammps_format as _lammps_format
from ._dtcrit import packing_from_lammps as _packing_from_lammps

__all__ = ["critical_step", "integrators", "packing", "packing_from_lammps", "packing_from_lattice",
           "packing_from_network", "pair", "sweep", "sweep_cases", "lammps_format"]


def lammps_format(path):
    """The kind of LAMMPS file at path: "dump" (starts with ITEM:), "input" (has a read_data or
    create_box command line) or "data" (anything else: a write_data file). The path is checked as every input
    is: a folder, a device such as /dev/zero or a FIFO is a ValueError naming it."""
    return _lammps_format(str(path))


def packing_from_lammps(path, *, format=None, **keywords):
    """Critical time-steps of the packing of a LAMMPS file: the content of `dtcrit packing --json`
    with --lammps-input (format "input": your input script; answers whether its timestep is safe),
    --lammps-data ("data"), --lammps-dump ("dump") or --lammps-restart ("restart", a binary restart
    converted by the installed lmp). format=None: chosen by lammps_format(path) (never "restart").

    contacts: contact and wall-contact dumps (--lammps-contacts); dimension, disc, density, run
    (--lammps-run), clumps ("molecule"), run_in_lammps (--run-in-lammps: the installed lmp runs the
    script to its end and that state is analysed): as the CLI's options; the other keywords are
    those of dtcrit.packing (law, walls, integrators, confirm, ...)."""
    return _packing_from_lammps(str(path), format=format or lammps_format(path), **keywords)


