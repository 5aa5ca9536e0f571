#pragma once
// Rigid clumps of spheres in the reference stepper (issue 14): each body's member spheres move with
// it, and the forces and torques of their contacts — a ParticleSystem of the members, so every law of
// contact/law.hpp with LAMMPS' history rules; pairs within one body excluded, the laws' effective
// masses from the bodies — are summed onto the body, as LAMMPS' fix rigid/small does.
//
// State per body: (X, psi), X the centre of mass and psi the rotation about the body's principal axes
// at the start (phi = A psi in world axes, A the axes' columns); mass() block (M, M, M, I1, I2, I3).
// A member sits at X + R(phi) d, R(phi) = exp([phi]x) the rotation by the rotation vector phi, and
// moves at V + omega x R d with omega = A dpsi/dt. omega = dphi/dt holds to first order in the rotation
// (exactly for a rotation about a fixed axis), and the inertia is taken in the start axes: this is
// the rigid body's motion with its rotational kinematics linearised about the start orientation and
// the contacts' physics in full. --confirm measures the growth of small perturbations, for which
// the difference from fix rigid/small's quaternion update is of second order; under the registry row
// rigid_small (velocity Verlet in body momentum) it is that update to this order.
#include <memory>
#include <vector>

#include "dtcrit/dynamics/system.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace dtcrit::stepper {

struct RigidBodyInit {
  double mass = 0.0;
  Vec3 centre = Vec3::Zero();      // centre of mass [m]
  Vec3 moments = Vec3::Zero();     // principal moments [kg m^2], > 0
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // principal axes (columns, world), a rotation
};

class RigidClumpSystem final : public MechanicalSystem {
 public:
  // members: the member spheres (3D, walls added; particle s is member s); body_of[s] its body;
  // offset[s] its centre minus its body's centre of mass at the start. Excludes the pairs within
  // each body and sets each member's contact mass to its body's mass.
  RigidClumpSystem(std::unique_ptr<ParticleSystem> members, std::vector<Index> body_of, std::vector<Vec3> offset,
                   const std::vector<RigidBodyInit>& bodies);

  Index bodies() const { return static_cast<Index>(centre0_.size()); }
  ParticleSystem& members() { return *members_; }
  // The start: every centre of mass where it was given, psi = 0.
  Vector start_position() const;
  // The members' generalised positions and velocities (ParticleSystem layout) of a body state.
  void member_state(const Vector& x, const Vector& v, Vector& xs, Vector& vs) const;

  Index dofs() const override { return 6 * bodies(); }
  const Vector& mass() const override { return mass_; }
  void force(double t, const Vector& x, const Vector& v, Vector& f) override;
  // T^T K_s T and T^T C_s T with T the members' rigid map at x (the derivative of T, the turning of
  // the arms under load, is left out: a symmetric approximation the implicit solves allow).
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override;
  void accept_step() override { members_->accept_step(); }
  Vector history() const override { return members_->history(); }
  void set_history(const Vector& h) override { members_->set_history(h); }

 private:
  Eigen::Matrix3d rotation(const Vector& x, Index b) const;  // R(phi) of body b
  std::unique_ptr<ParticleSystem> members_;
  std::vector<Index> body_of_;
  std::vector<Vec3> offset_;
  std::vector<Vec3> centre0_;
  std::vector<Eigen::Matrix3d> axes_;
  Vector mass_;
  Vector xs_, vs_, fs_;  // member buffers
};

}  // namespace dtcrit::stepper
