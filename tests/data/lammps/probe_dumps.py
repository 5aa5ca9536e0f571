"""LAMMPS' dumps of a `dtcrit lammps-check` probe (dump custom id mass radius vx vy vz omegax omegay
omegaz, sorted by id), read independently of dtcrit by the live tests."""
import math


def frames_by_step(path):
    """{step: {id: [mass, radius, vx, vy, vz, wx, wy, wz]}} over the frames of a dump custom file."""
    lines = open(path).read().split("\n")
    k, out = 0, {}
    while k < len(lines) and lines[k].startswith("ITEM: TIMESTEP"):
        n = int(lines[k + 3])
        out[int(lines[k + 1])] = {int(r.split()[0]): list(map(float, r.split()[1:])) for r in lines[k + 9:k + 9 + n]}
        k += 9 + n
    return out


def frames(path):
    """One {id: [mass, radius, vx, vy, vz, wx, wy, wz]} per frame of a dump custom file."""
    return list(frames_by_step(path).values())


def separations(folder, tag, inertia=0.4):
    """S over the frames of the step TAG's two runs (up to the shorter), S the kinetic energy of their
    velocity difference (I = inertia x m r^2)."""
    rest = frames(f"{folder}/velocities_rest_{tag}.dump")
    pert = frames(f"{folder}/velocities_perturbed_{tag}.dump")
    s = []
    for a, b in zip(rest, pert):
        e = 0.0
        for i, (m, r, *v) in a.items():
            d = [y - x for x, y in zip(v, b[i][2:])]
            e += 0.5 * m * sum(x * x for x in d[:3]) + 0.5 * inertia * m * r * r * sum(x * x for x in d[3:])
        s.append(e)
    return s


def separation_growth(folder, tag, inertia=0.4):
    """sqrt(max S / S(0)) of separations()."""
    s = separations(folder, tag, inertia)
    return math.sqrt(max(s) / s[0])
