#pragma once
// The linear system  M a + C v + K x = 0  (plus an optional constant load), the test bed on which
// every integrator's amplification matrix is measured.
#include <optional>

#include "dtcrit/dynamics/system.hpp"

namespace dtcrit {

class LinearSystem final : public MechanicalSystem {
 public:
  // mass: diagonal of M (all entries positive); K and C square of the same size.
  LinearSystem(Vector mass, SparseMatrix K, SparseMatrix C);
  LinearSystem(Vector mass, const Matrix& K, const Matrix& C);

  Index dofs() const override { return mass_.size(); }
  const Vector& mass() const override { return mass_; }
  void force(double t, const Vector& x, const Vector& v, Vector& f) override;
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override;
  double energy(const Vector& x, const Vector& v) const override;

  const SparseMatrix& stiffness() const { return K_; }
  const SparseMatrix& damping() const { return C_; }
  using MechanicalSystem::damping;  // the virtual damping(t, x, v, C) stays visible beside the accessor
  // A constant external load added to the force (gravity-like); zero by default.
  void set_load(Vector load);

 private:
  Vector mass_;
  SparseMatrix K_, C_;
  Vector load_;
};

// The part of M a + C v + K x = 0 that moves, separated from its free (zero-frequency, undamped)
// modes N = ker K ∩ ker C (see the derivation in linear_system.cpp): unit masses, K_r = leftᵀ K~ V,
// C_r = leftᵀ C~ V (K~ = M^-1/2 K M^-1/2, C~ likewise; for symmetric K and C, left = V = Q, an
// orthonormal basis of the orthogonal complement of M^1/2 N). nullopt when nothing is removed: no
// free mode, or K and C not symmetric and their left null space (the directions no force acts
// along) not of the same dimension or too close to orthogonal to the right one (then the free
// motion does not decouple).
// omega_scale [rad/s] makes K and C comparable: a direction counts as free when
// |K~ q| / omega_scale² and |C~ q| / omega_scale are both at the rounding level of the matrices.
struct MovingPart {
  std::optional<LinearSystem> system;
  Index free_modes = 0;
};
MovingPart without_free_modes(const LinearSystem& sys, double omega_scale);
// The split above, in mass-weighted coordinates u = M^1/2 x = V y + N alpha, for the system
// (mass, K, C): a reduced operator is leftᵀ A~ V.
struct FreeModeSplit {
  Matrix N, L;     // right and left null bases of [K~; C~] (n x k, orthonormal)
  Matrix V;        // the moving coordinates (n x (n - k), orthonormal, orthogonal to L)
  Matrix left;     // W (Wᵀ V)^-ᵀ, W an orthonormal basis of N's complement; V when symmetric
  bool symmetric = false;  // K and C symmetric: L = N, left = V
};
std::optional<FreeModeSplit> free_mode_split(const Vector& mass, const Matrix& K, const Matrix& C, double omega_scale);

// The scalar oscillator m = 1, k = omega^2, c = 2 zeta omega.
LinearSystem scalar_oscillator(double omega, double zeta);

}  // namespace dtcrit
