#include "dtcrit/dynamics/linear_history_system.hpp"

#include <cmath>

#include <Eigen/SVD>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

LinearHistorySystem::LinearHistorySystem(Vector mass, Matrix K, Matrix C, Matrix P, Matrix R)
    : mass_(std::move(mass)), K_(std::move(K)), C_(std::move(C)), P_(std::move(P)), R_(std::move(R)) {
  const Index n = mass_.size();
  for (Index i = 0; i < n; ++i) require_positive(fmt::format("mass[{}]", i), mass_[i]);
  auto check = [](const char* what, const Matrix& A, Index rows, Index cols) {
    if (A.rows() != rows || A.cols() != cols)
      fail(fmt::format("{} is {}x{}, expected {}x{}", what, A.rows(), A.cols(), rows, cols));
  };
  check("stiffness matrix", K_, n, n);
  check("damping matrix", C_, n, n);
  check("history force matrix P", P_, n, P_.cols());
  check("history rate matrix R", R_, P_.cols(), n);
  s_ = s_trial_ = Vector::Zero(P_.cols());
  PR_ = P_ * R_;
}

double LinearHistorySystem::dt(double t) const { return std::isnan(t_ref_) ? 0.0 : t - t_ref_; }

void LinearHistorySystem::force(double t, const Vector& x, const Vector& v, Vector& f) {
  s_trial_ = s_ + dt(t) * (R_ * v);
  t_trial_ = t;
  have_trial_ = true;
  f = -(K_ * x) - C_ * v - P_ * s_trial_;
}

void LinearHistorySystem::tangent(double t, const Vector&, const Vector&, SparseMatrix& K, SparseMatrix& C) {
  K = K_.sparseView();
  C = Matrix(C_ + dt(t) * PR_).sparseView();
}

void LinearHistorySystem::accept_step() {
  if (!have_trial_) return;
  s_ = s_trial_;
  t_ref_ = t_trial_;
  have_trial_ = false;
}

void LinearHistorySystem::set_history(const Vector& h) {
  if (h.size() != s_.size()) fail(fmt::format("history has {} entries, expected {}", h.size(), s_.size()));
  s_ = h;
  have_trial_ = false;
}

std::unique_ptr<MechanicalSystem> traditional_linear_system(const Vector& mass, const Matrix& K_direct, const Matrix& C,
                                                            const Matrix& K_history) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Index n = mass.size();
  if (K_history.rows() != n || K_history.cols() != n)
    fail(fmt::format("history stiffness is {}x{}, expected {}x{}", K_history.rows(), K_history.cols(), n, n));
  Index rank = 0;
  Matrix P, R;
  if (n > 0 && K_history.cwiseAbs().maxCoeff() > 0.0) {
    const Eigen::JacobiSVD<Matrix> svd(K_history, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Vector& sigma = svd.singularValues();
    const double tol = 64.0 * static_cast<double>(n) * eps * sigma[0];
    while (rank < n && sigma[rank] > tol) ++rank;
    // K_history = (U sqrt(S)) (sqrt(S) Vᵀ): the history s = sqrt(S) Vᵀ x in the consistent state.
    const Vector root = sigma.head(rank).cwiseSqrt();
    P = svd.matrixU().leftCols(rank) * root.asDiagonal();
    R = root.asDiagonal() * svd.matrixV().leftCols(rank).transpose();
  }
  if (rank == 0) return std::make_unique<LinearSystem>(mass, K_direct, C);
  return std::make_unique<LinearHistorySystem>(mass, K_direct, C, std::move(P), std::move(R));
}

// The consistent system's free modes N (K_c = K + P R, C; free_mode_split) are free here too
// when P R vanishes on them from both sides (P R N = 0, Lᵀ P R = 0): then R N = 0 (P has full
// column rank), so the histories never see the free motion, and Lᵀ P = 0 (R has full row rank),
// so they push nothing along it.
MovingHistoryPart without_free_modes(const LinearHistorySystem& sys, double omega_scale) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Matrix& K = sys.stiffness();
  const Matrix& P = sys.history_force();
  const Matrix& R = sys.history_rate();
  const auto split = free_mode_split(sys.mass(), K + P * R, sys.damping(), omega_scale);
  if (!split) return {};
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  const Matrix Ps = s.asDiagonal() * P, Rs = R * s.asDiagonal();
  const double scale = Ps.norm() * Rs.norm(), tol = 64.0 * static_cast<double>(sys.dofs()) * eps;
  if ((Ps * (Rs * split->N)).norm() > tol * scale || ((split->L.transpose() * Ps) * Rs).norm() > tol * scale) return {};
  const Matrix& V = split->V;
  const Matrix& left = split->left;
  const Index n = sys.dofs(), m = V.cols();
  MovingHistoryPart out;
  out.free_modes = n - m;
  out.system = std::make_unique<LinearHistorySystem>(Vector::Ones(m), left.transpose() * (s.asDiagonal() * K * s.asDiagonal()) * V,
                                                     left.transpose() * (s.asDiagonal() * sys.damping() * s.asDiagonal()) * V,
                                                     left.transpose() * Ps, Rs * V);
  return out;
}

}  // namespace dtcrit
