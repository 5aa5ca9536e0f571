#!/usr/bin/python3
"""A research prototype, not part of dtcrit's analysis: the spectral radius of velocity Verlet's
recurrence on a large damped non-symmetric packing without a dense eigenvalue solve.

The recurrence of velocity Verlet's dashpot family (lib/dtcrit/system/nonsymmetric.hpp,
family_recurrence_matrix) is  M x+ = A1 x - A0 x-,  A1 = 2M - hC - h^2 K,  A0 = M - hC;  its
eigenvalues lam are the roots of Q(lam) = lam^2 M - lam A1 + A0.  Every lightly damped mode sits just
inside the unit circle, so the eigenvalues of largest magnitude do not separate (Arnoldi on the map
itself does not converge).  This prototype splits the question in two:

1. A norm bound: rho <= |S|_P = 1 + w, P the discrete modified energy of the state
   ((x + x-)/2, (x - x-)/h) with the symmetric parts of K and C (K_s + 1e-6 omega_max^2 M and
   M - hC_s/2 - h^2 K_s/4 + delta M: near the -1 crossing this kinetic part turns singular, so the
   smallest bound over delta = 1e-6, 1e-4, 1e-3, 3e-3, 1e-2 with P positive definite); its largest
   generalised eigenvalue by Lanczos (scipy eigsh).  Eigenvalues beyond 1 + w cannot exist.
2. The band 1 < |lam| <= 1 + w: covered by discs.  At a shift sigma on the unit circle the nev
   eigenvalues nearest sigma (ARPACK on (S - sigma I)^-1, one sparse complex LU of Q(sigma) per shift)
   leave the disc of radius r (the farthest of them) free of others; the shifts walk the upper half
   circle (the spectrum is symmetric about the real axis) until the discs cover the band.  The first
   shift sits at 1 + 1e-3: a periodic packing's rigid translations put eigenvalues at exactly 1.

Both parts are Krylov results (a converged Ritz value is trusted to be the eigenvalue nearest its
shift, as dtcrit trusts Arnoldi's -1 crossing); the norm bound could be proven by a Cholesky
factorisation of (1 + w)^2 P - S^T P S, as certificate.hpp proves a symmetric limit.

Usage: dtcrit packing ... --write-matrices DIR, then
  tools/recurrence_cover.py DIR H [H ...] [--nev 40] [--dense]
H: steps [s] (e.g. fractions of the -1 crossing dtcrit printed).  --dense: also the spectral radius
of the dense companion matrix (numpy), to compare.  Prints one line per step.
"""
import argparse
import sys
import time

import numpy as np
import scipy.io as sio
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def norm_bound(M, K, C, h, omega_max2, delta):
    """1 + w >= |S|_P >= rho(S), w from Lanczos on (S^T P S, P)."""
    n = M.shape[0]
    I = sp.identity(n, format="csc")
    Ks = ((K + K.T) / 2).tocsc()
    Cs = ((C + C.T) / 2).tocsc()
    Mi = sp.diags(1.0 / M.diagonal())
    S = sp.bmat([[Mi @ (2 * M - h * C - h * h * K), -Mi @ (M - h * C)], [I, None]]).tocsc()
    T = sp.bmat([[I / 2, I / 2], [I / h, -I / h]]).tocsc()  # (x, x-) -> (mean, difference / h)
    kinetic = M - h * Cs / 2 - h * h * Ks / 4 + delta * M
    Q = sp.bmat([[Ks + 1e-6 * omega_max2 * M, None], [None, kinetic]]).tocsc()
    P = T.T @ Q @ T
    P = ((P + P.T) / 2).tocsc()
    # P must be positive definite for |S|_P to bound rho: the signs of an unpivoted LU's pivots.
    pivots = sla.splu(P, diag_pivot_thresh=0.0, options=dict(SymmetricMode=True)).U.diagonal()
    if not np.all(pivots > 0):
        return np.inf, S
    SPS = S.T @ P @ S
    SPS = ((SPS + SPS.T) / 2).tocsc()
    g = sla.eigsh(SPS, k=1, M=P, which="LA", return_eigenvectors=False, tol=1e-8)[0]
    return np.sqrt(g) - 1.0, S


def cover_band(M, K, C, h, w, nev):
    """Largest |lam| among the eigenvalues found by shift-invert discs covering 1 < |lam| <= 1 + w."""
    n = M.shape[0]
    A1 = (2 * M - h * C - h * h * K).tocsc()
    A0 = (M - h * C).tocsc()
    Mc, A1c = M.astype(complex), A1.astype(complex)
    R = 1.0 + w
    covered_to, alpha, shifts, applications, largest = 0.0, 0.01, 0, 0, 0.0
    while covered_to < np.pi:
        theta = 0.0 if shifts == 0 else covered_to + 0.9 * alpha
        sigma = (1.0 + 1e-3) if shifts == 0 else np.exp(1j * theta)
        lu = sla.splu((sigma * sigma * M - sigma * A1 + A0).astype(complex).tocsc())
        count = [0]

        def shift_invert(z, lu=lu, sigma=sigma, count=count):
            # (S - sigma I)(u, v) = (f, g): v = Q(sigma)^-1 ((A1 - sigma M) g - M f), u = g + sigma v
            count[0] += 1
            f, g = z[:n], z[n:]
            v = lu.solve(A1c @ g - sigma * (Mc @ g) - Mc @ f)
            return np.concatenate([g + sigma * v, v])

        op = sla.LinearOperator((2 * n, 2 * n), matvec=shift_invert, dtype=complex)
        nu = sla.eigs(op, k=nev, which="LM", ncv=min(2 * n - 1, 2 * nev + 1), tol=1e-10, return_eigenvectors=False)
        shifts += 1
        applications += count[0]
        lam = sigma + 1.0 / nu
        largest = max(largest, np.abs(lam).max())
        r = np.abs(lam - sigma).max() * (1 - 1e-9)
        # Half-width of the angles at which the band's outer edge R e^{i(theta +- a)} lies in the disc.
        s0 = abs(sigma)
        cos_a = (R * R + s0 * s0 - r * r) / (2 * R * s0)
        if r <= R - s0 or cos_a >= 1.0:
            sys.exit(f"disc radius {r:.3g} at angle {theta:.4f} does not reach the band's edge 1 + {w:.3g}: "
                     "raise --nev")
        a = np.arccos(max(-1.0, cos_a))
        if theta - a > covered_to:  # the guess overshot: a gap is left; step back from where it starts
            alpha = a
            continue
        covered_to, alpha = theta + a, a
    return largest, shifts, applications


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("matrices", help="folder written by dtcrit packing --write-matrices")
    parser.add_argument("steps", nargs="+", type=float, help="steps h [s]")
    parser.add_argument("--nev", type=int, default=40, help="eigenvalues per shift (default 40)")
    parser.add_argument("--dense", action="store_true", help="compare with the dense spectral radius")
    args = parser.parse_args()
    M = sio.mmread(f"{args.matrices}/M.mtx").tocsc()
    K = sio.mmread(f"{args.matrices}/K.mtx").tocsc()
    C = sio.mmread(f"{args.matrices}/C.mtx").tocsc()
    n = M.shape[0]
    omega_max2 = abs(sla.eigs(sp.diags(1.0 / M.diagonal()) @ K, k=1, which="LM", return_eigenvectors=False)[0])
    print(f"{args.matrices}: {n} dofs, omega_max = {np.sqrt(omega_max2):.6g} rad/s, nev = {args.nev}")
    for h in args.steps:
        t0 = time.time()
        w, S = min((norm_bound(M, K, C, h, omega_max2, delta) for delta in (1e-6, 1e-4, 1e-3, 3e-3, 1e-2)),
                   key=lambda bound: bound[0])
        if not np.isfinite(w):
            sys.exit(f"h = {h:.9g} s: the energy P is not positive definite for any delta")
        t1 = time.time()
        largest, shifts, applications = cover_band(M, K, C, h, w, args.nev)
        t2 = time.time()
        line = (f"h = {h:.9g} s: norm bound 1 + {w:.3e} ({t1 - t0:.1f} s); {shifts} shifts, {applications} "
                f"applications ({t2 - t1:.1f} s); largest |lambda| found - 1 = {largest - 1:.6e}")
        if args.dense:
            line += f"; dense: {np.abs(np.linalg.eigvals(S.toarray())).max() - 1:.6e}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
