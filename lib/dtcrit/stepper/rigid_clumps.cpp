#include "dtcrit/stepper/rigid_clumps.hpp"

#include <limits>

#include <Eigen/Geometry>
#include <fmt/format.h>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit::stepper {

RigidClumpSystem::RigidClumpSystem(std::unique_ptr<ParticleSystem> members, std::vector<Index> body_of,
                                   std::vector<Vec3> offset, const std::vector<RigidBodyInit>& bodies)
    : members_(std::move(members)), body_of_(std::move(body_of)), offset_(std::move(offset)) {
  const Index n = members_->particle_count();
  if (members_->dim() != 3) fail("rigid clumps: the member spheres must be 3D");
  if (static_cast<Index>(body_of_.size()) != n || static_cast<Index>(offset_.size()) != n)
    fail(fmt::format("rigid clumps: {} body indices and {} offsets for {} members", body_of_.size(), offset_.size(), n));
  const auto nb = static_cast<Index>(bodies.size());
  mass_.resize(6 * nb);
  for (Index b = 0; b < nb; ++b) {
    const RigidBodyInit& body = bodies[static_cast<std::size_t>(b)];
    require_positive("body mass", body.mass);
    for (int d = 0; d < 3; ++d) {
      mass_[6 * b + d] = body.mass;
      mass_[6 * b + 3 + d] = require_positive("body principal moment", body.moments[d]);
    }
    centre0_.push_back(body.centre);
    axes_.push_back(body.axes);
  }
  std::vector<std::vector<Index>> members_of(static_cast<std::size_t>(nb));
  for (Index s = 0; s < n; ++s) {
    const Index b = body_of_[static_cast<std::size_t>(s)];
    if (b < 0 || b >= nb) fail(fmt::format("rigid clumps: member {} names body {} of {}", s, b, nb));
    members_of[static_cast<std::size_t>(b)].push_back(s);
    members_->set_contact_mass(s, bodies[static_cast<std::size_t>(b)].mass);
  }
  for (const auto& ms : members_of)
    for (std::size_t a = 0; a < ms.size(); ++a)
      for (std::size_t c = a + 1; c < ms.size(); ++c) members_->exclude_pair(ms[a], ms[c]);
  xs_ = Vector::Zero(members_->dofs());
  vs_ = Vector::Zero(members_->dofs());
}

Vector RigidClumpSystem::start_position() const {
  Vector x = Vector::Zero(dofs());
  for (Index b = 0; b < bodies(); ++b) x.segment<3>(6 * b) = centre0_[static_cast<std::size_t>(b)];
  return x;
}

Eigen::Matrix3d RigidClumpSystem::rotation(const Vector& x, Index b) const {
  const Vec3 phi = axes_[static_cast<std::size_t>(b)] * Vec3(x.segment<3>(6 * b + 3));
  const double angle = phi.norm();
  if (angle == 0.0) return Eigen::Matrix3d::Identity();
  return Eigen::AngleAxisd(angle, phi / angle).toRotationMatrix();
}

void RigidClumpSystem::member_state(const Vector& x, const Vector& v, Vector& xs, Vector& vs) const {
  const Index n = members_->particle_count();
  xs.resize(members_->dofs());
  vs.resize(members_->dofs());
  std::vector<Eigen::Matrix3d> R(static_cast<std::size_t>(bodies()));
  for (Index b = 0; b < bodies(); ++b) R[static_cast<std::size_t>(b)] = rotation(x, b);
  for (Index s = 0; s < n; ++s) {
    const Index b = body_of_[static_cast<std::size_t>(s)];
    const auto ub = static_cast<std::size_t>(b);
    const Vec3 arm = R[ub] * offset_[static_cast<std::size_t>(s)];
    const Vec3 omega = axes_[ub] * Vec3(v.segment<3>(6 * b + 3));
    xs.segment<3>(6 * s) = x.segment<3>(6 * b) + arm;
    xs.segment<3>(6 * s + 3) = axes_[ub] * Vec3(x.segment<3>(6 * b + 3));  // the members turn with the body
    vs.segment<3>(6 * s) = v.segment<3>(6 * b) + omega.cross(arm);
    vs.segment<3>(6 * s + 3) = omega;
  }
}

void RigidClumpSystem::force(double t, const Vector& x, const Vector& v, Vector& f) {
  member_state(x, v, xs_, vs_);
  members_->force(t, xs_, vs_, fs_);
  f = Vector::Zero(dofs());
  if (!fs_.allFinite()) {
    f.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  for (Index s = 0; s < members_->particle_count(); ++s) {
    const Index b = body_of_[static_cast<std::size_t>(s)];
    const Vec3 arm = xs_.segment<3>(6 * s) - x.segment<3>(6 * b);
    const Vec3 fs = fs_.segment<3>(6 * s);
    f.segment<3>(6 * b) += fs;
    // Torque about the centre of mass, in the principal axes of the start.
    f.segment<3>(6 * b + 3) += axes_[static_cast<std::size_t>(b)].transpose() * (arm.cross(fs) + Vec3(fs_.segment<3>(6 * s + 3)));
  }
}

void RigidClumpSystem::tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) {
  member_state(x, v, xs_, vs_);
  SparseMatrix Ks, Cs;
  members_->tangent(t, xs_, vs_, Ks, Cs);
  // T: member dofs (6 per sphere) from body dofs (6 per body): u_s = U_b - [arm]x A psi_b, phi_s = A psi_b.
  std::vector<Eigen::Triplet<double>> tr;
  tr.reserve(static_cast<std::size_t>(members_->particle_count()) * 21);
  for (Index s = 0; s < members_->particle_count(); ++s) {
    const Index b = body_of_[static_cast<std::size_t>(s)];
    const Eigen::Matrix3d& A = axes_[static_cast<std::size_t>(b)];
    const Eigen::Matrix3d arm_A = -contact::cross_matrix(xs_.segment<3>(6 * s) - x.segment<3>(6 * b)) * A;
    for (int r = 0; r < 3; ++r) {
      tr.emplace_back(6 * s + r, 6 * b + r, 1.0);
      for (int c = 0; c < 3; ++c) {
        tr.emplace_back(6 * s + r, 6 * b + 3 + c, arm_A(r, c));
        tr.emplace_back(6 * s + 3 + r, 6 * b + 3 + c, A(r, c));
      }
    }
  }
  SparseMatrix T(members_->dofs(), dofs());
  T.setFromTriplets(tr.begin(), tr.end());
  K = SparseMatrix(T.transpose() * Ks * T);
  C = SparseMatrix(T.transpose() * Cs * T);
}

}  // namespace dtcrit::stepper
