#!/usr/bin/env python3
"""What LAMMPS' trajectories of Chung & Ooi's (2011) benchmark Tests 1-4, 6 and 8 show (chung_ooi_N.dump
of in.chung_ooi_N, make_fixtures.sh), read from the dumps alone, independently of dtcrit: the steps in
contact, the rebound, LAMMPS' effective modulus of a fix wall/gran contact (Test 2) and the
tangential-to-normal impulse of the oblique and spinning impacts (Tests 4, 6, 8).

Usage: /usr/bin/python3 tests/data/lammps/chung_ooi_summary.py [FOLDER]   (default: this folder)
"""
import math
import sys

from probe_dumps import frames  # {id: [x, y, z, vx, vy, vz, wx, wy, wz]} per frame


def contact_steps(fr, touching):
    steps = [n for n, f in enumerate(fr) if touching(f)]
    return (steps[0], steps[-1]) if steps else (None, None)


def main(folder):
    # Test 1: pairs (1, 2) glass and (3, 4) limestone, r = 0.01 m, +-10 m/s along x.
    fr = frames(f"{folder}/chung_ooi_1.dump")
    for name, (i, j) in (("glass", (1, 2)), ("limestone", (3, 4))):
        first, last = contact_steps(fr, lambda f: math.dist(f[i][:3], f[j][:3]) < 0.02)
        print(f"Test 1 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 5e-7 s), "
              f"rebound speed / impact speed {-fr[-1][j][3] / fr[0][j][3]:.9f}")
    # Test 2: atom 1 aluminium alloy, atom 2 magnesium alloy, r = 0.1 m, 0.2 m/s onto z = 0.
    # fix nve/sphere: z_{n+1} = z_n + h v_n + h^2/2 a_n, so a_n = 2 (z_{n+1} - z_n - h v_n)/h^2; an
    # undamped Hertz contact on a plane gives E* = 3 m a / (4 sqrt(r) delta^1.5).
    fr, h, r = frames(f"{folder}/chung_ooi_2.dump"), 1e-5, 0.1
    for name, i, E, nu, rho in (("aluminium alloy", 1, 7.0e10, 0.30, 2699.0), ("magnesium alloy", 2, 4.0e10, 0.35, 1800.0)):
        m = 4.0 * math.pi / 3.0 * r ** 3 * rho
        first, last = contact_steps(fr, lambda f: f[i][2] < r)
        dmax = max(r - f[i][2] for f in fr)
        est = [3 * m * 2 * (b[i][2] - a[i][2] - h * a[i][5]) / h ** 2 / (4 * math.sqrt(r) * (r - a[i][2]) ** 1.5)
               for a, b in zip(fr, fr[1:]) if r - a[i][2] > 0.1 * dmax]
        print(f"Test 2 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 1e-5 s), largest overlap "
              f"{dmax:.4g} m, rebound {fr[-1][i][5] / -fr[0][i][5]:.9f}; E* from the dump {min(est):.10g} .. {max(est):.10g} Pa over "
              f"{len(est)} steps; E/(2(1-nu)) = {E / (2 * (1 - nu)):.10g}, rigid plane E/(1-nu^2) = "
              f"{E / (1 - nu * nu):.10g}, own material E/(2(1-nu^2)) = {E / (2 * (1 - nu * nu)):.10g}")
    # Test 3: r = 2.5 mm at 3.9 m/s, damping tsuji.
    fr, r = frames(f"{folder}/chung_ooi_3.dump"), 2.5e-3
    for name, i in (("aluminium oxide e = 0.2", 1), ("aluminium oxide e = 0.5", 2), ("cast iron e = 0.5", 3)):
        first, last = contact_steps(fr, lambda f: f[i][2] < r)
        print(f"Test 3 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 1e-7 s), "
              f"rebound speed / impact speed {fr[-1][i][5] / -fr[0][i][5]:.6f}")
    # Test 4: 10 and 45 degrees, mu = 0.092.
    fr = frames(f"{folder}/chung_ooi_4.dump")
    for name, i in (("10 degrees", 1), ("45 degrees", 2)):
        first, last = contact_steps(fr, lambda f: f[i][2] < r)
        a, b = fr[0][i], fr[-1][i]
        print(f"Test 4 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 1e-7 s), tangential / normal "
              f"impulse {abs(b[3] - a[3]) / abs(b[5] - a[5]):.12f} (mu = 0.092), normal rebound "
              f"{b[5] / -a[5]:.6f}, tangential velocity {a[3]:.6f} -> {b[3]:.6f} m/s, spin {b[7]:.6f} rad/s")
    # Tests 6 and 8: a spinning sphere (r = 0.1 m, 0.2 m/s, mu = 0.4, tsuji e = 0.5) on fix wall/gran
    # (atoms 1, 2) and on a sphere r = 0.5 m at rest (pairs 1-2, 3-4), the contact point slipping at
    # 0.2 tan(angle); the tangential impulse over mu times the normal one (1 while every contact step is
    # on the Coulomb cap with a repulsive normal force).
    fr, r = frames(f"{folder}/chung_ooi_6.dump"), 0.1
    for name, i in (("80 degrees", 1), ("30 degrees", 2)):
        first, last = contact_steps(fr, lambda f: f[i][2] < r)
        a, b = fr[0][i], fr[-1][i]
        print(f"Test 6 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 1e-5 s), tangential impulse / "
              f"(mu normal impulse) {abs(b[3] - a[3]) / abs(b[5] - a[5]) / 0.4:.6f}, normal rebound {b[5] / -a[5]:.6f}, "
              f"contact point slip {a[3] - r * a[7]:.6f} -> {b[3] - r * b[7]:.6f} m/s")
    fr = frames(f"{folder}/chung_ooi_8.dump")
    for name, (i, j) in (("80 degrees", (1, 2)), ("30 degrees", (3, 4))):
        first, last = contact_steps(fr, lambda f: math.dist(f[i][:3], f[j][:3]) < 0.6)
        a, b = fr[0][i], fr[-1][i]
        print(f"Test 8 {name}: contact steps {first}-{last} of {len(fr) - 1} (h = 1e-5 s), tangential impulse / "
              f"(mu normal impulse) {abs(b[4] - a[4]) / abs(b[3] - a[3]) / 0.4:.6f}, normal rebound "
              f"{(fr[-1][j][3] - b[3]) / (a[3] - fr[0][j][3]):.6f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else __import__("os").path.dirname(__file__) or ".")
