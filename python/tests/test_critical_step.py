"""dtcrit.critical_step on matrices built with numpy / scipy.sparse, against closed forms."""
import math
import re

import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp

import dtcrit


def chain(n, k, m):
    """n masses m in a line between two fixed walls, springs k: K = k tridiag(-1, 2, -1)."""
    K = sp.diags([-k * np.ones(n - 1), 2 * k * np.ones(n), -k * np.ones(n - 1)], [-1, 0, 1], format="csr")
    return sp.identity(n, format="csr") * m, K


def test_one_dof_undamped_velocity_verlet_is_two_over_omega():
    m, k = 0.003, 8e7
    r = dtcrit.critical_step("velocity_verlet", sp.csr_matrix([[m]]), sp.csr_matrix([[k]]))
    assert r["stability"] == "conditional"
    assert r["h_crit"] == pytest.approx(2 / math.sqrt(k / m), rel=1e-12)
    assert r["omega_max"] == pytest.approx(math.sqrt(k / m), rel=1e-14)


@pytest.mark.parametrize("integrator, Omega", [
    ("velocity_verlet", 2.0), ("central_difference", 2.0), ("leapfrog", 2.0),
    ("rk4", 2 * math.sqrt(2)),            # RK4's imaginary-axis limit
    ("newmark_linear", 2 * math.sqrt(3)),  # linear acceleration: Omega = sqrt(12)
])
def test_chain_limit_is_Omega_over_the_closed_form_omega_max(integrator, Omega):
    n, k, m = 12, 1e5, 2e-3
    M, K = chain(n, k, m)
    omega_max = 2 * math.sqrt(k / m) * math.sin(n * math.pi / (2 * (n + 1)))
    r = dtcrit.critical_step(integrator, M, K)
    assert r["omega_max"] == pytest.approx(omega_max, rel=1e-12)
    assert r["h_crit"] == pytest.approx(Omega / omega_max, rel=1e-10)


def test_unconditional_and_unstable_schemes():
    M, K = chain(4, 1e5, 2e-3)
    assert dtcrit.critical_step("newmark_average", M, K)["stability"] == "unconditional"
    assert dtcrit.critical_step("explicit_euler", M, K)["stability"] == "unstable"
    assert dtcrit.critical_step("newmark_average", M, K)["h_crit"] is None


def test_damped_single_dof_velocity_verlet_is_belytschkos_limit():
    # Dashpot at the half-step velocity: 4 - 4 zeta Omega - Omega^2 = 0, Omega = 2 (sqrt(1 + zeta^2) - zeta).
    m, k, zeta = 1.5, 4e4, 0.3
    omega = math.sqrt(k / m)
    c = 2 * zeta * omega * m
    r = dtcrit.critical_step("velocity_verlet", np.array([m]), np.array([[k]]), sp.csr_matrix([[c]]))
    assert r["h_crit"] == pytest.approx(2 * (math.sqrt(1 + zeta**2) - zeta) / omega, rel=1e-10)


def test_dense_sparse_and_vector_masses_agree():
    n, k, m = 6, 3e3, 0.1
    M, K = chain(n, k, m)
    a = dtcrit.critical_step("gear4", M, K)
    b = dtcrit.critical_step("gear4", M.toarray(), K.toarray())
    c = dtcrit.critical_step("gear4", M.diagonal(), K)
    assert a == b == c


def test_free_modes_are_set_aside():
    # Two masses and one spring, nothing fixed: the rigid translation is free drift, not a limit;
    # the other mode has omega^2 = 2 k / m.
    m, k = 2.0, 50.0
    K = sp.csr_matrix([[k, -k], [-k, k]])
    r = dtcrit.critical_step("velocity_verlet", np.array([m, m]), K)
    assert r["free_modes"] == 1
    assert r["h_crit"] == pytest.approx(2 / math.sqrt(2 * k / m), rel=1e-12)


def test_consistent_mass_matrix_uses_the_generalised_eigenproblem():
    # A non-diagonal SPD mass (a bar's consistent mass): velocity Verlet's limit is 2 / omega_max,
    # omega_max^2 the largest eigenvalue of K x = omega^2 M x (scipy's generalised solver).
    n, k, m = 5, 1e3, 0.2
    M = sp.diags([m / 6 * np.ones(n - 1), 4 * m / 6 * np.ones(n), m / 6 * np.ones(n - 1)], [-1, 0, 1]).toarray()
    _, K = chain(n, k, m)
    w2 = scipy.linalg.eigh(K.toarray(), M, eigvals_only=True).max()
    r = dtcrit.critical_step("velocity_verlet", M, K)
    assert r["h_crit"] == pytest.approx(2 / math.sqrt(w2), rel=1e-10)


@pytest.mark.parametrize("args, parameter", [
    ((np.array([1.0, 1.0]), np.eye(3)), "K is 3x3"),
    ((np.array([1.0, -1.0]), np.eye(2)), "M[1, 1]"),
    ((np.array([1.0, 1.0]), np.eye(2), np.ones((2, 3))), "C is 2x3"),
    ((np.array([[1.0, 0.5], [0.4, 1.0]]), np.eye(2)), "symmetric"),
    ((np.array([1.0]), np.array([[np.nan]])), "K[0, 0]"),
])
def test_bad_matrices_name_the_argument(args, parameter):
    with pytest.raises(ValueError, match=parameter.replace("[", r"\[").replace("]", r"\]")):
        dtcrit.critical_step("velocity_verlet", *args)


def test_unknown_integrator_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="verlett"):
        dtcrit.critical_step("verlett", np.array([1.0]), np.array([[1.0]]))


class _CorruptCoo:
    """What a corrupted scipy.sparse.coo_matrix hands over: tocoo() with indices beyond the shape."""

    def __init__(self, shape, row, col, data):
        self.shape, self.row, self.col, self.data = shape, np.array(row), np.array(col), np.array(data)

    def tocoo(self):
        return self


@pytest.mark.parametrize("K, message", [
    # Issue 33: indices outside the shape killed the interpreter.
    (_CorruptCoo((2, 2), [0, 5000000], [0, 1], [1.0, 1.0]), "K: entry 1 at (5000000, 1) lies outside the shape (2, 2)"),
    (_CorruptCoo((2, 2), [0, -1], [0, 0], [1.0, 1.0]), "K: entry 1 at (-1, 0) lies outside the shape (2, 2)"),
    # ... and a length mismatch raised IndexError.
    (_CorruptCoo((2, 2), [0, 1], [0, 1], [1.0]), "K: the sparse triplets differ in length: 2 rows, 2 columns, 1 values"),
    (_CorruptCoo((2, 2), [0.0, 1.5], [0, 1], [1.0, 1.0]), "K: tocoo().row holds float64 values; expected integer indices"),
])
def test_corrupt_sparse_matrix_is_a_value_error(K, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        dtcrit.critical_step("velocity_verlet", np.array([1.0, 1.0]), K)


def test_a_real_coo_matrix_with_indices_moved_outside_its_shape_is_a_value_error():
    K = sp.coo_matrix(np.eye(2))
    K.row[1] = 7  # scipy does not check after construction
    with pytest.raises(ValueError, match=re.escape("K: entry 1 at (7, 1) lies outside the shape (2, 2)")):
        dtcrit.critical_step("velocity_verlet", np.array([1.0, 1.0]), K)
