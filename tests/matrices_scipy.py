#!/usr/bin/python3
"""CTest `packing_matrices_scipy`: the matrices of `dtcrit packing --write-matrices` read back with
scipy give the omega_max of `dtcrit packing --json` to 1e-9 (a dense generalised eigen-solve of
K x = w^2 M x, independent of dtcrit's solvers), C is symmetric with the damping's sign, dofs.json
describes the ordering, and the mode of `--write-mode` (damped: velocity Verlet's -1 crossing)
satisfies (4M - 2hC - h^2 K) x = 0 at the exact limit h of `--json`.
Usage: matrices_scipy.py DTCRIT"""
import json
import subprocess
import sys
import tempfile

import numpy as np
import scipy.io
import scipy.linalg

dtcrit = sys.argv[1]
with tempfile.TemporaryDirectory() as work:
    mode_file = f"{work}/mode.dump"
    out = subprocess.run([dtcrit, "packing", "--lattice", "sc", "--n", "3", "--periodic", "none", "--box-walls",
                          "--compression", "1e-3", "--radius-spread", "5e-4", "--kn", "1e5", "--kt", "5e4",
                          "--gamma-n", "100", "--integrator", "velocity_verlet", "--eigensolver", "dense",
                          "--write-matrices", work, "--write-mode", mode_file, "--json"],
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    M = scipy.io.mmread(f"{work}/M.mtx").toarray()
    K = scipy.io.mmread(f"{work}/K.mtx").toarray()
    C = scipy.io.mmread(f"{work}/C.mtx").toarray()
    dofs = json.load(open(f"{work}/dofs.json"))
    n = dofs["dofs"]
    assert M.shape == K.shape == C.shape == (n, n) == (27 * 6, 27 * 6)
    assert dofs["dof_kinds"] == ["x", "y", "z", "theta_x", "theta_y", "theta_z"]
    assert sorted(p["atom_id"] for p in dofs["particles"]) == list(range(1, 28))
    assert np.count_nonzero(M - np.diag(np.diag(M))) == 0
    assert np.abs(K - K.T).max() <= 1e-12 * np.abs(K).max()
    assert np.abs(C - C.T).max() <= 1e-12 * np.abs(C).max()
    w2 = scipy.linalg.eigh(K, M, eigvals_only=True)
    omega = np.sqrt(w2[-1])
    rel = abs(omega - report["omega_max"]) / report["omega_max"]
    print(f"omega_max: scipy {omega:.15g}, dtcrit {report['omega_max']:.15g} rad/s, relative difference {rel:.2e}")
    assert rel <= 1e-9, rel
    assert abs(dofs["omega_max"] - report["omega_max"]) <= 1e-15 * report["omega_max"]
    assert np.linalg.eigvalsh(C).min() >= -1e-9 * np.abs(C).max()  # dashpots dissipate

    # The mode: rows "id type x y z radius vx vy vz omegax omegay omegaz amplitude", atom-id order.
    lines = open(mode_file).read().splitlines()
    assert lines[8].split()[2:] == ["id", "type", "x", "y", "z", "radius", "vx", "vy", "vz", "omegax", "omegay",
                                    "omegaz", "amplitude"]
    rows = {int(l.split()[0]): [float(v) for v in l.split()[6:12]] for l in lines[9:]}
    x = np.zeros(n)
    for p in dofs["particles"]:
        x[p["first_dof"]:p["first_dof"] + 6] = rows[p["atom_id"]]
    # Damped, the limit is where 4M - 2hC - h^2 K turns singular: scipy finds that matrix's smallest
    # eigenvalue (relative to M) at zero there, and the mode is its null vector.
    limit = report["integrators"]["velocity_verlet"]
    assert "4M - 2hC - h^2 K is singular (exact)" in limit["method"], limit["method"]
    h = limit["h_crit"]
    assert report["mode"]["kind"] == "-1 crossing of velocity_verlet", report["mode"]
    assert abs(report["mode"]["h"] - h) <= 1e-9 * h, (report["mode"]["h"], h)
    A = 4 * M - 2 * h * C - h * h * K
    smallest = scipy.linalg.eigh(A, M, eigvals_only=True)[0]
    print(f"4M - 2hC - h^2 K at h_crit = {h!r} s: smallest eigenvalue relative to M {smallest:.2e}")
    assert abs(smallest) <= 1e-8 * 4, smallest
    residual = np.linalg.norm(A @ x) / (4 * np.linalg.norm(M @ x))
    print(f"mode: |(4M - 2hC - h^2 K) x| / |4 M x| = {residual:.2e}")
    assert residual <= 1e-8, residual
    assert abs(max(np.linalg.norm(v[:3]) for v in rows.values()) - 1.0) <= 1e-12  # normalised
