#pragma once
// The linear model of contacts whose springs live in a history advanced by velocities (the
// "traditional" tangential update of LAMMPS and most DEM codes):
//
//   M a = -K x - C v - P s~,   s~ = s + (t - t_ref) R v,
//
// s the committed histories (the spring displacements), s~ the trial value a force call at time t
// sees, committed by accept_step() together with its time t_ref. K holds the springs that see the
// positions (normal springs, bonds), P R the history springs. With s = R x it is the consistent
// linear system M a + C v + (K + P R) x = 0; with the traditional update s moves with the
// velocities at the force calls' times, which schemes whose force calls are not at x_{n+1} with
// (x_{n+1} - x_n) / h (implicit, multi-stage) see differently: their amplification matrix on this
// system, measured by critical_step with s in the state, is the step map of the code that runs.
#include <limits>
#include <memory>
#include <optional>

#include "dtcrit/dynamics/linear_system.hpp"

namespace dtcrit {

class LinearHistorySystem final : public MechanicalSystem {
 public:
  // mass: diagonal of M (positive); K, C n x n; P n x r, R r x n.
  LinearHistorySystem(Vector mass, Matrix K, Matrix C, Matrix P, Matrix R);

  Index dofs() const override { return mass_.size(); }
  const Vector& mass() const override { return mass_; }
  void force(double t, const Vector& x, const Vector& v, Vector& f) override;
  // K and C + dt P R (dt = t - t_ref, 0 before the first commit).
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override;
  void accept_step() override;
  Vector history() const override { return s_; }
  void set_history(const Vector& h) override;

  const Matrix& stiffness() const { return K_; }
  const Matrix& damping() const { return C_; }
  using MechanicalSystem::damping;  // the virtual damping(t, x, v, C) stays visible beside the accessor
  const Matrix& history_force() const { return P_; }  // P
  const Matrix& history_rate() const { return R_; }   // R

 private:
  double dt(double t) const;

  Vector mass_;
  Matrix K_, C_, P_, R_, PR_;  // PR_ = P R, the history springs' stiffness
  Vector s_, s_trial_;
  double t_ref_ = std::numeric_limits<double>::quiet_NaN(), t_trial_ = 0.0;
  bool have_trial_ = false;
};

// The traditional model of a tangent split as ParticleSystem::history_stiffness() gives it:
// K_direct (the springs that see x), C, and K_history = P R (factored by an SVD, rank decided at
// 64 n eps of its largest singular value). A plain LinearSystem (K_direct, C) when K_history is zero.
std::unique_ptr<MechanicalSystem> traditional_linear_system(const Vector& mass, const Matrix& K_direct, const Matrix& C,
                                                            const Matrix& K_history);

// The moving part of a LinearHistorySystem (as without_free_modes for a LinearSystem): the free
// modes of the consistent system (K + P R, C), when K + P R and C are symmetric and P R vanishes on
// them and their mass-weighted complement, are polynomial drift that no history sees; what is left
// is returned with unit masses (nullopt when nothing is removed).
struct MovingHistoryPart {
  std::unique_ptr<MechanicalSystem> system;  // LinearHistorySystem, or LinearSystem without history
  Index free_modes = 0;
};
MovingHistoryPart without_free_modes(const LinearHistorySystem& sys, double omega_scale);

}  // namespace dtcrit
