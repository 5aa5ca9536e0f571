# Type stub of the dtcrit package (python/README.md documents the API). SI units throughout.
from typing import Any, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
Json = dict[str, Any]
Body = Union[str, Mapping[str, Union[str, float]]]

def integrators() -> list[Json]: ...
def critical_step(integrator: str, M: Any, K: Any, C: Any = None) -> Json: ...
def pair(body1: Body, body2: Body, *, kn: Optional[float] = None, kt: Optional[float] = None,
         kt_ratio: Optional[float] = None, cn: Optional[float] = None, ct: Optional[float] = None,
         ct_ratio: Optional[float] = None, gamma_n: Optional[float] = None, gamma_t: Optional[float] = None,
         restitution: Optional[float] = None, law: str = "", hertz_mindlin: str = "",
         overlap: Optional[float] = None, normal_force: Optional[float] = None, r_eff: Optional[float] = None,
         impact_velocity: Optional[float] = None, youngs: Optional[float] = None, poisson: Optional[float] = None,
         density: Optional[float] = None, radius: Optional[float] = None, integrators: Sequence[str] = ("all",),
         margin: float = 0.8, accuracy: str = "") -> Json: ...
def packing(positions: ArrayLike, radii: ArrayLike, masses: ArrayLike, *, inertia: Optional[ArrayLike] = None,
            types: Optional[ArrayLike] = None, box: Optional[ArrayLike] = None, disc: bool = False,
            kn: Optional[float] = None, kt: Optional[float] = None, kt_ratio: Optional[float] = None,
            gamma_n: Optional[float] = None, gamma_t: Optional[float] = None, law: str = "", hertz_mindlin: str = "",
            type_laws: Sequence[str] = (), periodic: Union[None, str, Sequence[str]] = None,
            walls: Sequence[str] = (), gap_tolerance: Optional[float] = None, rotation: bool = True,
            geometric_stiffness: bool = False, integrators: Sequence[str] = ("all",), margin: float = 0.8,
            youngs: Optional[float] = None, poisson: Optional[float] = None, eigensolver: str = "auto",
            lanczos_tol: Optional[float] = None, ncv: Optional[int] = None, amplification_dofs: int = 48,
            crossing_check_dofs: int = 600, certify_dofs: int = 50000, confirm: int = 0) -> Json: ...
def lammps_format(path: str) -> str: ...
def packing_from_lammps(path: str, *, format: Optional[str] = None, contacts: Sequence[str] = (),
                        dimension: Optional[int] = None, disc: bool = False, density: Optional[float] = None,
                        kn: Optional[float] = None, kt: Optional[float] = None, kt_ratio: Optional[float] = None,
                        gamma_n: Optional[float] = None, gamma_t: Optional[float] = None, law: str = "", hertz_mindlin: str = "",
                        type_laws: Sequence[str] = (), periodic: Union[None, str, Sequence[str]] = None,
                        walls: Sequence[str] = (), gap_tolerance: Optional[float] = None, rotation: bool = True,
                        geometric_stiffness: bool = False, integrators: Sequence[str] = ("all",),
                        margin: float = 0.8, youngs: Optional[float] = None, poisson: Optional[float] = None,
                        eigensolver: str = "auto", lanczos_tol: Optional[float] = None, ncv: Optional[int] = None,
                        amplification_dofs: int = 48, crossing_check_dofs: int = 600, certify_dofs: int = 50000,
                        confirm: int = 0, run: Optional[int] = None, clumps: str = "",
                        run_in_lammps: bool = False) -> Json: ...
def packing_from_lattice(kind: str, n: int, *, radius: float = 1e-3, density: float = 2500.0,
                         compression: float = 0.0, radius_spread: float = 0.0, seed: int = 1, disc: bool = False,
                         box_walls: bool = False, kn: Optional[float] = None, kt: Optional[float] = None,
                         kt_ratio: Optional[float] = None, gamma_n: Optional[float] = None,
                         gamma_t: Optional[float] = None, law: str = "", hertz_mindlin: str = "",
                         type_laws: Sequence[str] = (), periodic: Union[None, str, Sequence[str]] = None,
                         walls: Sequence[str] = (), gap_tolerance: Optional[float] = None, rotation: bool = True,
                         geometric_stiffness: bool = False, integrators: Sequence[str] = ("all",),
                         margin: float = 0.8, youngs: Optional[float] = None, poisson: Optional[float] = None,
                         eigensolver: str = "auto", lanczos_tol: Optional[float] = None, ncv: Optional[int] = None,
                         amplification_dofs: int = 48, crossing_check_dofs: int = 600, certify_dofs: int = 50000,
                         confirm: int = 0) -> Json: ...
def packing_from_network(path: str, *, rotation: bool = True, integrators: Sequence[str] = ("all",),
                         margin: float = 0.8, eigensolver: str = "auto", lanczos_tol: Optional[float] = None,
                         ncv: Optional[int] = None, amplification_dofs: int = 48, crossing_check_dofs: int = 600,
                         certify_dofs: int = 50000, confirm: int = 0) -> Json: ...
def sweep(case: str, integrators: Sequence[str] = ("all",), *, tangential: str = "traditional", quick: bool = False,
          levels: int = 0, phases: int = 0, h0: float = 0.0, reference: str = "", reference_refinement: int = -1,
          stability: Optional[bool] = None, stability_steps: int = 20000, growth: float = 1e4,
          accuracy: bool = True, accuracy_quantity: str = "", tolerance: float = 0.01, **params: float) -> Json: ...
def sweep_cases() -> list[Json]: ...
