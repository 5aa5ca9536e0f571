#include "dtcrit/dynamics/linear_system.hpp"

#include <limits>

#include <Eigen/LU>
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

// Free motion decouples exactly. With u = M^1/2 x the system is u'' + C~ u' + K~ u = 0. Let N be
// an orthonormal basis of ker K~ ∩ ker C~ (the free directions: K~ N = C~ N = 0) and L one of the
// left null space (Lᵀ K~ = Lᵀ C~ = 0: the free directions' equations receive no force), of equal
// dimension with Lᵀ N nonsingular. Split u = V y + N alpha, V an orthonormal basis of L's
// orthogonal complement. Projected with Lᵀ the equation is Lᵀ N alpha'' = 0: free drift
// alpha0 + t alpha0', exact polynomial motion. Projected with Wᵀ, W an orthonormal basis of N's
// complement (Wᵀ N = 0), it is Wᵀ V y'' + Wᵀ C~ V y' + Wᵀ K~ V y = 0 with no alpha in it, i.e.
// y'' + G Wᵀ C~ V y' + G Wᵀ K~ V y = 0, G = (Wᵀ V)^-1. Symmetric K and C (the usual case) have
// L = N, and then W = V = Q and G = I: the reduced system is Qᵀ K~ Q, Qᵀ C~ Q.
// For stability: every registry scheme is equivariant under a linear change of coordinates
// x = T w (its stages form M^-1 f and linear combinations of state vectors, or solve with a
// combination of M, C and K), so with T = M^-1/2 [V N] its amplification matrix is similar to
// blockdiag(A(reduced system), A(free part)); the free part's is the scheme's at Omega = 0 in
// each free direction: the double root 1 of consistency (a Jordan block: the drift, not an
// instability) and the spurious roots, inside the unit circle for a zero-stable scheme.
std::optional<FreeModeSplit> free_mode_split(const Vector& mass, const Matrix& K_, const Matrix& C_, double omega_scale) {
  require_positive("omega_scale", omega_scale);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Index n = mass.size();
  if (n == 0) return std::nullopt;
  const Vector s = mass.cwiseSqrt().cwiseInverse();
  const Matrix K = s.asDiagonal() * K_ * s.asDiagonal();
  const Matrix C = s.asDiagonal() * C_ * s.asDiagonal();
  // Null spaces from one SVD of the stacked, dimensionless [K~ / w²; C~ / w] (right) or of its
  // transposes (left): a numerical rank decision at the rounding level of the matrices (64 n eps
  // of the largest singular value).
  auto null_split = [&](const Matrix& A, const Matrix& B) {
    Matrix S(2 * n, n);
    S.topRows(n) = A / (omega_scale * omega_scale);
    S.bottomRows(n) = B / omega_scale;
    Eigen::JacobiSVD<Matrix> svd(S, Eigen::ComputeFullV);
    const Vector& sigma = svd.singularValues();  // descending
    const double tol = 64.0 * static_cast<double>(n) * eps * sigma[0];
    Index rank = 0;
    while (rank < n && sigma[rank] > tol) ++rank;
    return std::pair<Matrix, Index>(svd.matrixV(), rank);
  };
  auto symmetric = [&](const Matrix& A) { return (A - A.transpose()).norm() <= 64.0 * eps * A.norm(); };
  const auto [right, rank] = null_split(K, C);
  if (rank == n) return std::nullopt;
  FreeModeSplit out;
  out.N = right.rightCols(n - rank);
  if (symmetric(K) && symmetric(C)) {
    out.L = out.N;
    out.V = right.leftCols(rank);
    out.left = out.V;
    out.symmetric = true;
    return out;
  }
  const auto [left_svd, left_rank] = null_split(Matrix(K.transpose()), Matrix(C.transpose()));
  if (left_rank != rank) return std::nullopt;  // the free motion does not decouple
  out.L = left_svd.rightCols(n - rank);
  out.V = left_svd.leftCols(rank);
  const Matrix W = right.leftCols(rank);
  const Eigen::FullPivLU<Matrix> lu(W.transpose() * out.V);
  // L and N nearly orthogonal: u = V y + N alpha is no honest coordinate system.
  if (!lu.isInvertible() || lu.rcond() < 1e-8) return std::nullopt;
  out.left = W * Matrix(lu.inverse()).transpose();
  return out;
}

MovingPart without_free_modes(const LinearSystem& sys, double omega_scale) {
  const auto split = free_mode_split(sys.mass(), Matrix(sys.stiffness()), Matrix(sys.damping()), omega_scale);
  if (!split) return {};
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  const Matrix K = s.asDiagonal() * Matrix(sys.stiffness()) * s.asDiagonal();
  const Matrix C = s.asDiagonal() * Matrix(sys.damping()) * s.asDiagonal();
  Matrix Kr = split->left.transpose() * K * split->V, Cr = split->left.transpose() * C * split->V;
  if (split->symmetric) {
    Kr = 0.5 * (Kr + Kr.transpose()).eval();
    Cr = 0.5 * (Cr + Cr.transpose()).eval();
  }
  const Index rank = split->V.cols();
  return {LinearSystem(Vector::Ones(rank), Kr, Cr), sys.dofs() - rank};
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
