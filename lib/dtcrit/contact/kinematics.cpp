#include "dtcrit/contact/kinematics.hpp"

#include <cmath>

#include <Eigen/Geometry>


namespace dtcrit::contact {

using Mat3 = Eigen::Matrix3d;

Mat3 cross_matrix(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

BodyJacobian body_jacobian(const Vec3& n, const Vec3& arm, double r_eff, bool first) {
  const double s = first ? 1.0 : -1.0;
  const Mat3 N = cross_matrix(n);  // N w = n x w
  BodyJacobian J = BodyJacobian::Zero();
  J.block<3, 3>(0, 0) = s * Mat3::Identity();
  J.block<3, 3>(0, 3) = -s * cross_matrix(arm);  // +-(w x a) = -+(a x w)
  J.block<3, 3>(3, 3) = -s * r_eff * N;          // R (w_i - w_j) x n
  J.block<1, 3>(6, 3) = s * n.transpose();       // (w_i - w_j) . n
  return J;
}

BodyJacobian body_jacobian(const Vec3& n, double arm, double r_eff, bool first) {
  // The contact point lies at -r_i n from i's centre (n points from j to i) and at r_j n from j's.
  return body_jacobian(n, Vec3((first ? -arm : arm) * n), r_eff, first);
}

ContactBlocks contact_blocks(const ContactLaw& law, const RoundContact& g, const ContactResponse& r,
                             bool geometric_stiffness) {
  const Vec3& n = g.normal;
  const Mat3 P = Mat3::Identity() - n * n.transpose();
  const Derivative& D = r.derivative;
  // How the tangential history moves with u: the displacement itself, or -k_t times it (force form).
  const bool force_form =
      law.tangential == TangentialModel::mindlin_force || law.tangential == TangentialModel::mindlin_rescale_force;
  const double h_t = force_form ? -r.tangential_stiffness : 1.0;
  ContactBlocks b;
  b.K_history.leftCols<3>() = -h_t * D.middleCols<3>(in::xi_t) * P;
  b.K_history.middleCols<3>(3) = -D.middleCols<3>(in::xi_r) * P;
  b.K_history.col(6) = -D.col(in::xi_tw);
  b.K = b.K_history;
  b.K.leftCols<3>() += D.col(in::overlap) * n.transpose();
  b.C.leftCols<3>() = -D.middleCols<3>(in::velocity);
  b.C.middleCols<3>(3) = -D.middleCols<3>(in::rolling_velocity) * P;  // d rho/dt = R (w_i - w_j) x n has no normal part
  b.C.col(6) = -D.col(in::twisting_rate);
  if (geometric_stiffness && !g.wall) {
    if (!(g.distance > 0.0)) fail(fmt::format("geometric stiffness needs the centre distance, got {}", g.distance));
    b.geometric = r.normal_force / g.distance;
  }
  return b;
}

ContactBlocks contact_damping_blocks(const ContactLaw& law, const RoundContact& g, const ContactResponse& r,
                                     bool history) {
  const Vec3& n = g.normal;
  const Mat3 P = Mat3::Identity() - n * n.transpose();
  const Derivative& D = r.derivative;
  ContactBlocks b;
  if (history) {  // as contact_blocks
    const bool force_form =
        law.tangential == TangentialModel::mindlin_force || law.tangential == TangentialModel::mindlin_rescale_force;
    const double h_t = force_form ? -r.tangential_stiffness : 1.0;
    b.K_history.leftCols<3>() = -h_t * D.middleCols<3>(in::xi_t) * P;
    b.K_history.middleCols<3>(3) = -D.middleCols<3>(in::xi_r) * P;
    b.K_history.col(6) = -D.col(in::xi_tw);
  }
  b.C.leftCols<3>() = -D.middleCols<3>(in::velocity);
  b.C.middleCols<3>(3) = -D.middleCols<3>(in::rolling_velocity) * P;
  b.C.col(6) = -D.col(in::twisting_rate);
  return b;
}

IsotropicBlocks isotropic_part(const ContactBlocks& b, const Vec3& n) {
  const Mat3 nn = n * n.transpose();
  const Mat3 P = Mat3::Identity() - nn;
  IsotropicBlocks out;
  out.geometric = b.geometric;
  double scale = 0.0, residual = 0.0;
  auto split = [&](const Block7& M, double& along, double& across) {
    const Mat3 B = M.block<3, 3>(0, 0);
    along = n.dot(B * n);
    across = 0.5 * (P * B * P).trace();
    residual = std::max(residual, (B - along * nn - across * P).cwiseAbs().maxCoeff());
    const Mat3 R = M.block<3, 3>(3, 3);
    double r_along = n.dot(R * n);
    residual = std::max(residual, std::abs(r_along));
    const double r_across = 0.5 * (P * R * P).trace();
    residual = std::max(residual, (R - r_across * P).cwiseAbs().maxCoeff());
    // Couplings between u, rho and theta must vanish.
    Block7 rest = M;
    rest.block<3, 3>(0, 0).setZero();
    rest.block<3, 3>(3, 3).setZero();
    rest(6, 6) = 0.0;
    residual = std::max(residual, rest.cwiseAbs().maxCoeff());
    scale = std::max(scale, M.cwiseAbs().maxCoeff());
    return std::pair{r_across, M(6, 6)};
  };
  std::tie(out.k_roll, out.k_twist) = split(b.K, out.kn, out.kt);
  std::tie(out.c_roll, out.c_twist) = split(b.C, out.cn, out.ct);
  // The law's derivative is exact arithmetic on the same branches: at rest, sticking and without
  // history every other term is an exact zero, so any residual at all means "not isotropic".
  out.exact = residual <= 1e-14 * scale;
  return out;
}

ContactArms round_arms(const ContactLaw& law, const RoundContact& g) {
  const Vec3& n = g.normal;
  ContactArms a;
  a.normal = n;
  a.r_eff = g.r_eff();
  a.wall = g.wall;
  a.velocity_i = -g.ri * n;
  a.torque_i = -torque_arm(law, g, true) * n;
  if (!g.wall) {
    a.velocity_j = g.rj * n;
    a.torque_j = torque_arm(law, g, false) * n;
  }
  return a;
}

BodyBlocks body_blocks(const ContactLaw& law, const RoundContact& g, const ContactBlocks& b) {
  return body_blocks(round_arms(law, g), b);
}

namespace {
// The arm Jacobians of body_blocks: velocity (J) and torque (A) rows over (q_i, q_j).
struct ArmJacobians {
  Eigen::Matrix<double, 7, 12> J, A;
};
ArmJacobians arm_jacobians(const ContactArms& arms) {
  const Vec3& n = arms.normal;
  const double R = arms.r_eff;
  ArmJacobians a{Eigen::Matrix<double, 7, 12>::Zero(), Eigen::Matrix<double, 7, 12>::Zero()};
  a.J.leftCols<6>() = body_jacobian(n, arms.velocity_i, R, true);
  a.A.leftCols<6>() = body_jacobian(n, arms.torque_i, R, true);
  if (!arms.wall) {
    a.J.rightCols<6>() = body_jacobian(n, arms.velocity_j, R, false);
    a.A.rightCols<6>() = body_jacobian(n, arms.torque_j, R, false);
  }
  return a;
}
// A^T B J for one 7 x 7 block B, symmetrised to the last bit when the arms are equal and B is
// symmetric (the two triangles are summed in different orders; symmetric solvers read one).
Eigen::Matrix<double, 12, 12> body_product(const ArmJacobians& a, const Block7& B) {
  Eigen::Matrix<double, 12, 12> out;
  // Without rolling or twisting terms only the three contact-point rows carry anything (the usual
  // case, and four times cheaper: packings assemble this per contact).
  // lazyProduct: coefficient-wise; Eigen would hand these small fixed sizes to its blocked GEMM.
  if (B.bottomRows<4>().isZero(0.0) && B.rightCols<4>().isZero(0.0))
    out = (a.A.topRows<3>().transpose() * B.topLeftCorner<3, 3>()).lazyProduct(a.J.topRows<3>());
  else
    out = (a.A.transpose() * B).lazyProduct(a.J);
  if (a.A == a.J && B == B.transpose()) out = 0.5 * (out + out.transpose()).eval();
  return out;
}
}  // namespace

BodyBlocks body_blocks(const ContactArms& arms, const ContactBlocks& b) {
  const Vec3& n = arms.normal;
  const ArmJacobians a = arm_jacobians(arms);
  BodyBlocks out;
  out.K = body_product(a, b.K);
  // An undamped contact's C is zero, and so is its product: skipped (a packing builds these blocks
  // per contact for its Gershgorin bound; at 10^7 spheres that pass takes minutes).
  out.C = b.C.isZero(0.0) ? Eigen::Matrix<double, 12, 12>::Zero().eval() : body_product(a, b.C);
  if (b.geometric != 0.0) {
    const Mat3 gP = b.geometric * (Mat3::Identity() - n * n.transpose());
    out.K.block<3, 3>(0, 0) -= gP;
    out.K.block<3, 3>(0, 6) += gP;
    out.K.block<3, 3>(6, 0) += gP;
    out.K.block<3, 3>(6, 6) -= gP;
  }
  return out;
}

Eigen::Matrix<double, 12, 12> body_damping(const ContactArms& arms, const ContactBlocks& b) {
  return body_product(arm_jacobians(arms), b.C);
}

Eigen::Matrix<double, 12, 12> body_damping(const ContactLaw& law, const RoundContact& g, const ContactBlocks& b) {
  return body_damping(round_arms(law, g), b);
}

}  // namespace dtcrit::contact
