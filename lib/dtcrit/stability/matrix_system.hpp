#pragma once
// The exact critical step of an integrator on a linear system the user gives as matrices,
// M a + C v + K x = 0 (the Python module's dtcrit.critical_step): any small system, not only a
// contact or a packing.
#include <string>
#include <string_view>

#include "dtcrit/core/types.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit {

// M symmetric positive definite. A diagonal M is used as it is; any other is taken to unit mass by
// its Cholesky factor M = L Lᵀ (x = L⁻ᵀ w, K_w = L⁻¹ K L⁻ᵀ, C_w likewise): every registry scheme is
// equivariant under a linear change of coordinates (dynamics/linear_system.cpp), so its
// amplification matrix, and its limit, are unchanged. Errors name M, K or C and the entry.
LinearSystem matrix_system(const Matrix& M, const SparseMatrix& K, const SparseMatrix& C);

struct MatrixSystemLimit {
  CriticalStep step;
  // The scale the scan of Omega = h omega_max runs on: sqrt of the largest |eigenvalue| of M⁻¹K
  // (omega_max when K is symmetric), or, when K = 0, the largest |eigenvalue| of M⁻¹C [rad/s].
  double omega_max = 0.0;
  bool from_damping = false;  // omega_max came from C (K = 0)
};

// omega_max by a dense eigen-solve (small systems: the amplification matrix is dense anyway), then
// critical_step (amplification.hpp) on the system: the integrator's exact limit, free modes set aside.
MatrixSystemLimit matrix_critical_step(std::string_view integrator_spec, const LinearSystem& system);

}  // namespace dtcrit
