#pragma once
// Explicit one-force-evaluation schemes (integrators/README.md lists them with their orders and
// sources); a(x, v*) = M^{-1} f(t, x, v*), and v* (the velocity the dashpots see) is stated for each
// scheme because it sets both the order and the damped stability limit.
#include "dtcrit/integrators/block_state.hpp"
#include "dtcrit/integrators/detail/solve.hpp"

namespace dtcrit {

// x+ = x + h v;  v+ = v + h a(x, v).  State (x, v).
class ExplicitEuler final : public BlockStateIntegrator {
 public:
  ExplicitEuler() : BlockStateIntegrator("explicit_euler", {&x_, &v_}) {}
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;
};

// The kick-drift step, v += h a(t, x, v);  x += h v: symplectic Euler and leapfrog differ only in
// start() and in the level of v, not in the step.
class KickDrift : public BlockStateIntegrator {
 public:
  void step(MechanicalSystem& sys) final;

 protected:
  explicit KickDrift(std::string scheme) : BlockStateIntegrator(std::move(scheme), {&x_, &v_}) {}
};

// Kick-drift: v+ = v + h a(x, v);  x+ = x + h v+.  State (x, v).
class SymplecticEuler final : public KickDrift {
 public:
  SymplecticEuler() : KickDrift("symplectic_euler") {}
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
};

// Velocity Verlet. v½ = v + (h/2) a;  x+ = x + h v½;  a+ = a(x+, v*);  v+ = v½ + (h/2) a+.
//  - DampingVelocity::half_step: v* = v½, as LAMMPS fix nve/sphere (the force routine runs while
//    the velocity arrays hold v½). Explicit; first order as soon as forces depend on v.
//  - DampingVelocity::end_of_step: v* = v+, solved by Newton with J = M + (h/2) C (one iteration
//    for forces linear in v). Second order.
// State (x, v, a): a is the acceleration of the last force evaluation, a(x_n, v*_n), which for
// half_step is not a function of (x_n, v_n). start() sets a0 = a(x0, v0).
class VelocityVerlet final : public BlockStateIntegrator {
 public:
  enum class DampingVelocity { half_step, end_of_step };
  explicit VelocityVerlet(DampingVelocity level);
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;

 private:
  DampingVelocity level_;
  Vector a_, vhalf_, w_, r_, d_, terms_;
  SparseMatrix K_, C_;
  detail::TangentSolver solver_;
};

// Leapfrog, Cundall form: v_{n+½} = v_{n-½} + h a(x_n, v_{n-½});  x_{n+1} = x_n + h v_{n+½}.
// Dashpots see the lagged half-step velocity (Cundall-Strack's incremental contact dashpot).
// Convention: after step n (time() = t_n) position() = x_n and velocity() = v_{n-½}, i.e.
// velocity_offset() = -h/2. start() builds v_{-½} = v0 - (h/2) a(x0, v0) (second-order start).
// State (x_n, v_{n-½}).
class Leapfrog final : public KickDrift {
 public:
  Leapfrog() : KickDrift("leapfrog") {}
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  double velocity_offset() const override { return -0.5 * step_size(); }
};

// Position Verlet (drift-kick-drift): x½ = x + (h/2) v;  v+ = v + h a(x½, v);  x+ = x½ + (h/2) v+.
// Dashpots see the start-of-step velocity v_n (explicit; first order when damped). Force at t + h/2.
// State (x, v).
class PositionVerlet final : public BlockStateIntegrator {
 public:
  PositionVerlet() : BlockStateIntegrator("position_verlet", {&x_, &v_}) {}
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;

 private:
  Vector xh_;
};

// LAMMPS fix rigid/small (src/RIGID/fix_rigid_small.cpp), linearised about the current
// orientation. The body state is momentum: p = M v per dof (vcm m, and angmom, whose principal
// components are I omega). initial_integrate: p½ = p + (h/2) F; v½ = M^{-1} p½ (angmom_to_omega);
// x+ = x + h v½ (xcm drift; MathExtra::richardson turns the quaternion by h omega½ up to terms of
// second order in the perturbation, since omega½ is itself first order). set_xv then gives the
// member atoms v½ before the pair style runs, so the dashpots see v½ as under fix nve/sphere;
// final_integrate: p+ = p½ + (h/2) F+. The same map as velocity Verlet (half_step) in other
// variables, which the registry test and the packing confirmation check to rounding.
// State (x, p, F): F is the force of the last evaluation, F(x_n, v½).
class RigidSmall final : public BlockStateIntegrator {
 public:
  RigidSmall() : BlockStateIntegrator("rigid_small", {&x_, &p_, &force_}) {}
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;
  Vector velocity() const override { return minv_.cwiseProduct(p_); }

 private:
  Vector p_, force_;
};

}  // namespace dtcrit
