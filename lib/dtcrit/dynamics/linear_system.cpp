#include "dtcrit/dynamics/linear_system.hpp"

#include <limits>

#include <Eigen/SVD>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

void MechanicalSystem::damping(double t, const Vector& x, const Vector& v, SparseMatrix& C) {
  SparseMatrix K;
  tangent(t, x, v, K, C);
}

double MechanicalSystem::energy(const Vector&, const Vector&) const { return std::numeric_limits<double>::quiet_NaN(); }

LinearSystem::LinearSystem(Vector mass, SparseMatrix K, SparseMatrix C)
    : mass_(std::move(mass)), K_(std::move(K)), C_(std::move(C)), load_(Vector::Zero(mass_.size())) {
  for (Index i = 0; i < mass_.size(); ++i) require_positive(fmt::format("mass[{}]", i), mass_[i]);
  const Index n = mass_.size();
  if (K_.rows() != n || K_.cols() != n)
    fail(fmt::format("stiffness matrix is {}x{}, expected {}x{}", K_.rows(), K_.cols(), n, n));
  if (C_.rows() != n || C_.cols() != n)
    fail(fmt::format("damping matrix is {}x{}, expected {}x{}", C_.rows(), C_.cols(), n, n));
  K_.makeCompressed();
  C_.makeCompressed();
}

LinearSystem::LinearSystem(Vector mass, const Matrix& K, const Matrix& C)
    : LinearSystem(std::move(mass), SparseMatrix(K.sparseView()), SparseMatrix(C.sparseView())) {}

void LinearSystem::force(double, const Vector& x, const Vector& v, Vector& f) { f = load_ - K_ * x - C_ * v; }

void LinearSystem::tangent(double, const Vector&, const Vector&, SparseMatrix& K, SparseMatrix& C) {
  K = K_;
  C = C_;
}

double LinearSystem::energy(const Vector& x, const Vector& v) const {
  return 0.5 * v.dot(mass_.cwiseProduct(v)) + 0.5 * x.dot(K_ * x) - load_.dot(x);
}

void LinearSystem::set_load(Vector load) {
  if (load.size() != mass_.size()) fail(fmt::format("load has {} entries, expected {}", load.size(), mass_.size()));
  load_ = std::move(load);
}

// Free motion decouples exactly. With u = M^1/2 x the system is u'' + C~ u' + K~ u = 0. Split
// u = Q y + Z alpha, Z an orthonormal basis of ker K~ ∩ ker C~ and Q of its orthogonal complement.
// K~ Z = C~ Z = 0 and, K~ and C~ being symmetric, Zᵀ K~ = Zᵀ C~ = 0. Projected on Z the equation
// is alpha'' = 0 (free drift alpha0 + t alpha0', exact polynomial motion), projected on Q it is
// y'' + Qᵀ C~ Q y' + Qᵀ K~ Q y = 0 with no alpha in it. In x the free directions are
// M^-1/2 Z = N and the moving ones their M-orthogonal complement M^-1/2 Q.
// For stability: every registry scheme is equivariant under a linear change of coordinates
// x = T w (its stages form M^-1 f and linear combinations of state vectors, or solve with a
// combination of M, C and K), so with T = M^-1/2 [Q Z] its amplification matrix is similar to
// blockdiag(A(reduced system), A(free part)); the free part's is the scheme's at Omega = 0 in
// each free direction: the double root 1 of consistency (a Jordan block: the drift, not an
// instability) and the spurious roots, inside the unit circle for a zero-stable scheme.
MovingPart without_free_modes(const LinearSystem& sys, double omega_scale) {
  require_positive("omega_scale", omega_scale);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Index n = sys.dofs();
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  const Matrix K = s.asDiagonal() * Matrix(sys.stiffness()) * s.asDiagonal();
  const Matrix C = s.asDiagonal() * Matrix(sys.damping()) * s.asDiagonal();
  // Not symmetric (beyond assembly rounding): Zᵀ K need not vanish, nothing is separated.
  auto symmetric = [&](const Matrix& A) { return (A - A.transpose()).norm() <= 64.0 * eps * A.norm(); };
  if (n == 0 || !symmetric(K) || !symmetric(C)) return {};
  // Common null space from one SVD of the stacked, dimensionless [K~ / w²; C~ / w]: a numerical
  // rank decision at the rounding level of the matrices (64 n eps of the largest singular value).
  Matrix S(2 * n, n);
  S.topRows(n) = K / (omega_scale * omega_scale);
  S.bottomRows(n) = C / omega_scale;
  const Eigen::JacobiSVD<Matrix> svd(S, Eigen::ComputeFullV);
  const Vector& sigma = svd.singularValues();  // descending
  const double tol = 64.0 * static_cast<double>(n) * eps * sigma[0];
  Index rank = 0;
  while (rank < n && sigma[rank] > tol) ++rank;
  if (rank == n) return {};
  const Matrix Q = svd.matrixV().leftCols(rank);
  Matrix Kr = Q.transpose() * K * Q, Cr = Q.transpose() * C * Q;
  Kr = 0.5 * (Kr + Kr.transpose()).eval();
  Cr = 0.5 * (Cr + Cr.transpose()).eval();
  return {LinearSystem(Vector::Ones(rank), Kr, Cr), n - rank};
}

LinearSystem scalar_oscillator(double omega, double zeta) {
  require_positive("omega", omega);
  require_non_negative("zeta", zeta);
  Matrix K(1, 1), C(1, 1);
  K(0, 0) = omega * omega;
  C(0, 0) = 2.0 * zeta * omega;
  return LinearSystem(Vector::Ones(1), K, C);
}

}  // namespace dtcrit
