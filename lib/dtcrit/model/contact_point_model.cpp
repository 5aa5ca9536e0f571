#include "dtcrit/model/contact_point_model.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit {

namespace {
Eigen::Matrix<double, 2, 3> jacobian(const PlanarBody& b) {
  Eigen::Matrix<double, 2, 3> J;
  J << 1.0, 0.0, -b.arm[1], 0.0, 1.0, b.arm[0];
  return J;
}
}  // namespace

Matrix2 contact_point_mobility(const PlanarBody& b) {
  const double rt = b.arm[0], rn = b.arm[1];
  Matrix2 z;
  z << 1.0 / b.mass + rn * rn / b.inertia, -rt * rn / b.inertia,  //
      -rt * rn / b.inertia, 1.0 / b.mass + rt * rt / b.inertia;
  return z;
}

ContactPointModel::ContactPointModel(PlanarBody body1, PlanarBody body2, LinearContactLaw law)
    : body1_(validated(std::move(body1), "body1")),
      body2_(validated(std::move(body2), "body2")),
      law_(validated(law)),
      zhat_(contact_point_mobility(body1_) + contact_point_mobility(body2_)) {
  // zhat is positive definite by construction for positive m and I; check anyway, since it is the
  // precondition of everything that follows.
  const double det = zhat_.determinant();
  if (!(zhat_(0, 0) > 0.0 && det > 0.0))
    fail(fmt::format("pair mobility zhat = [[{}, {}], [{}, {}]] is not positive definite", zhat_(0, 0), zhat_(0, 1),
                     zhat_(1, 0), zhat_(1, 1)));
}

Matrix2 ContactPointModel::stiffness() const { return Vector2(law_.kt, law_.kn).asDiagonal(); }
Matrix2 ContactPointModel::damping() const { return Vector2(law_.ct, law_.cn).asDiagonal(); }

Matrix4 ContactPointModel::paper_system_matrix() const {
  const double A = zhat_(0, 0), B = zhat_(0, 1), D = zhat_(1, 1);
  const double k1 = law_.kt, c1 = law_.ct, k2 = law_.kn, c2 = law_.cn;
  Matrix4 Q;
  Q << 0, 1, 0, 0,                          //
      k1 * A, c1 * A, -k2 * B, -c2 * B,    //
      0, 0, 0, 1,                          //
      -k1 * B, -c1 * B, k2 * D, c2 * D;
  return Q;
}

Matrix4 ContactPointModel::first_order_system() const {
  Matrix4 S = Matrix4::Zero();
  S.topRightCorner<2, 2>() = Matrix2::Identity();
  S.bottomLeftCorner<2, 2>() = -zhat_ * stiffness();
  S.bottomRightCorner<2, 2>() = -zhat_ * damping();
  return S;
}

Vector2 ContactPointModel::undamped_frequencies() const {
  // zhat Kc is similar to the symmetric Kc^1/2 zhat Kc^1/2 (kt may be 0): real, non-negative eigenvalues.
  const Vector2 s(std::sqrt(law_.kt), std::sqrt(law_.kn));
  const Matrix2 S = s.asDiagonal() * zhat_ * s.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Matrix2> es(S, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseMax(0.0).cwiseSqrt();
}

double ContactPointModel::paper_spectral_abscissa() const {
  // Q mixes entries of order 1 and k/m ~ omega^2: scale the velocities by s = omega_max so that
  // every entry of s^-1 D Q D^-1 (D = diag(1, 1/s, 1, 1/s)) is of order one, then scale back.
  const double s = omega_max();
  const Eigen::Vector4d d(1.0, 1.0 / s, 1.0, 1.0 / s);
  const Matrix4 balanced = d.asDiagonal() * paper_system_matrix() * d.cwiseInverse().asDiagonal() / s;
  return s * balanced.eigenvalues().cwiseAbs().maxCoeff();
}

Eigen::Matrix<double, 6, 1> ContactPointModel::full_mass() const {
  Eigen::Matrix<double, 6, 1> m;
  m << body1_.mass, body1_.mass, body1_.inertia, body2_.mass, body2_.mass, body2_.inertia;
  return m;
}

Eigen::Matrix<double, 2, 6> ContactPointModel::full_jacobian() const {
  Eigen::Matrix<double, 2, 6> G;
  G << -jacobian(body1_), jacobian(body2_);
  return G;
}

Matrix6 ContactPointModel::full_stiffness() const {
  const auto G = full_jacobian();
  return G.transpose() * stiffness() * G;
}

Matrix6 ContactPointModel::full_damping() const {
  const auto G = full_jacobian();
  return G.transpose() * damping() * G;
}

LinearSystem ContactPointModel::reduced_system() const {
  const Matrix2 L = zhat_.llt().matrixL();
  const Matrix K = L.transpose() * stiffness() * L;
  const Matrix C = L.transpose() * damping() * L;
  return LinearSystem(Vector::Ones(2), K, C);
}

double ContactPointModel::translational_effective_mass() const {
  return contact::effective_mass(body1_.mass, body2_.mass);
}

}  // namespace dtcrit
