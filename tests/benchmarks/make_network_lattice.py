#!/usr/bin/python3
"""A simple cubic lattice of rigid bodies with rotated, non-isotropic inertia tensors as a contact-network
file (lib/dtcrit/network/README.md), for timing `dtcrit packing --bodies` against the sphere lattice
`dtcrit packing --lattice sc` of the same size.

usage: make_network_lattice.py N OUT.json   (N^3 bodies, spacing 2 r (1 - c), r = 1 mm, c = 1e-3,
       m = 1.047e-5 kg, principal moments (1, 1.2, 1.4) x 2/5 m r^2, random orientations (seed 1),
       hooke k_n = 1e5, k_t = 3e4 N/m, each body's own surface point per contact, as LAMMPS' spheres)
"""
import json
import math
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
r, c = 1e-3, 1e-3
a = 2 * r * (1 - c)
m = 4 / 3 * math.pi * r**3 * 2500
I0 = 0.4 * m * r * r
rng = random.Random(1)


def rotation(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


bodies, contacts = [], []
idx = lambda i, j, k: (i * n + j) * n + k
for i in range(n):
    for j in range(n):
        for k in range(n):
            q = [rng.gauss(0, 1) for _ in range(4)]
            s = math.sqrt(sum(v * v for v in q))
            bodies.append({"id": idx(i, j, k), "mass": m, "centre": [i * a, j * a, k * a],
                           "inertia": [I0, 1.2 * I0, 1.4 * I0], "orientation": [v / s for v in q]})
for i in range(n):
    for j in range(n):
        for k in range(n):
            for d, (di, dj, dk) in enumerate([(1, 0, 0), (0, 1, 0), (0, 0, 1)]):
                if i + di >= n or j + dj >= n or k + dk >= n:
                    continue
                x = [i * a, j * a, k * a]
                nrm = [di, dj, dk]
                contacts.append({"bodies": [idx(i, j, k), idx(i + di, j + dj, k + dk)],
                                 "points": [[x[e] + r * nrm[e] for e in range(3)],
                                            [x[e] + a * nrm[e] - r * nrm[e] for e in range(3)]],
                                 "normal": nrm, "law": "gran/hooke/history 1e5 3e4 0 0 0.5 0",
                                 "overlap": 2 * r - a})
with open(out, "w") as f:
    json.dump({"dimension": 3, "bodies": bodies, "contacts": contacts}, f)
