#include "dtcrit/dynamics/linear_system.hpp"

#include <limits>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

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

LinearSystem scalar_oscillator(double omega, double zeta) {
  require_positive("omega", omega);
  require_non_negative("zeta", zeta);
  Matrix K(1, 1), C(1, 1);
  K(0, 0) = omega * omega;
  C(0, 0) = 2.0 * zeta * omega;
  return LinearSystem(Vector::Ones(1), K, C);
}

}  // namespace dtcrit
