#include "dtcrit/integrators/gear.hpp"

#include "dtcrit/core/check.hpp"

namespace dtcrit {

const GearCorrector& gear4_corrector() {
  static const GearCorrector c{"gear4", {1.0 / 6.0, 5.0 / 6.0, 1.0, 1.0 / 3.0}};
  return c;
}

const GearCorrector& gear5_corrector() {
  static const GearCorrector c{"gear5", {19.0 / 120.0, 3.0 / 4.0, 1.0, 1.0 / 2.0, 1.0 / 12.0}};
  return c;
}

const GearCorrector& gear5_velocity_corrector() {
  static const GearCorrector c{"gear5_c0_19/90", {19.0 / 90.0, 3.0 / 4.0, 1.0, 1.0 / 2.0, 1.0 / 12.0}};
  return c;
}

GearIntegrator::GearIntegrator(GearCorrector corrector) : BlockStateIntegrator(corrector.name, {}), corr_(std::move(corrector)) {
  const std::size_t q = corr_.c.size();
  if (q < 3 || q > 6) fail(fmt::format("Gear corrector '{}' has {} values; 3 to 6 are supported", corr_.name, q));
  if (corr_.c[2] != 1.0) fail(fmt::format("Gear corrector '{}': c2 = {} must be 1", corr_.name, corr_.c[2]));
  r_.resize(q);
  for (auto& r : r_) blocks_.push_back(&r);
  binom_.assign(q, std::vector<double>(q, 0.0));
  for (std::size_t j = 0; j < q; ++j) {
    binom_[j][0] = 1.0;
    for (std::size_t i = 1; i <= j; ++i) binom_[j][i] = binom_[j - 1][i - 1] + (i < j ? binom_[j - 1][i] : 0.0);
  }
}

void GearIntegrator::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
  const std::size_t q = r_.size();
  sys.force(t0, x0, v0, f_);
  const Vector a0 = accel(f_);
  r_[0] = x0;
  r_[1] = h * v0;
  r_[2] = 0.5 * h * h * a0;
  if (q > 3) {
    sys.tangent(t0, x0, v0, K_, C_);
    Vector prev = v0, cur = a0;  // derivatives x^(k-2), x^(k-1)
    double scale = 0.5 * h * h;
    for (std::size_t k = 3; k < q; ++k) {
      Vector next = -(K_ * prev);
      if (C_.nonZeros() > 0) next -= C_ * cur;
      next = accel(next);  // x^(k) = M^{-1}(-K x^(k-2) - C x^(k-1))
      scale *= h / static_cast<double>(k);
      r_[k] = scale * next;
      prev = std::move(cur);
      cur = std::move(next);
    }
  }
}

void GearIntegrator::step(MechanicalSystem& sys) {
  const double h = step_size();
  const std::size_t q = r_.size();
  // predict: r_i <- sum_{j >= i} C(j, i) r_j, in place from the top (row i uses the old r_j, j > i)
  for (std::size_t i = 0; i + 1 < q; ++i)
    for (std::size_t j = i + 1; j < q; ++j) r_[i] += binom_[j][i] * r_[j];
  // Note: r_i is updated with r_j (j > i) before those are themselves updated, i.e. with the old values.
  v_ = r_[1] / h;
  sys.force(time() + h, r_[0], v_, f_);
  delta_ = 0.5 * h * h * accel(f_) - r_[2];
  for (std::size_t i = 0; i < q; ++i) r_[i] += corr_.c[i] * delta_;
  tick();
  sys.accept_step();
}

}  // namespace dtcrit
