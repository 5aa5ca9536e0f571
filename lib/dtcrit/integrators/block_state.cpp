#include "dtcrit/integrators/block_state.hpp"

#include "dtcrit/core/check.hpp"

namespace dtcrit {

BlockStateIntegrator::BlockStateIntegrator(std::string scheme, std::initializer_list<Vector*> blocks)
    : scheme_(std::move(scheme)), blocks_(blocks) {}

void BlockStateIntegrator::begin(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  require_positive("time step h", h);
  require_finite("start time t0", t0);
  dofs_ = sys.dofs();
  if (x0.size() != dofs_ || v0.size() != dofs_)
    fail(fmt::format("{}: initial position has {} and velocity {} entries, the system has {} degrees of freedom",
                     scheme_, x0.size(), v0.size(), dofs_));
  mass_ = sys.mass();
  if (mass_.size() != dofs_) fail(fmt::format("{}: system mass has {} entries, expected {}", scheme_, mass_.size(), dofs_));
  for (Index i = 0; i < dofs_; ++i) require_positive(fmt::format("mass[{}]", i), mass_[i]);
  minv_ = mass_.cwiseInverse();
  for (Vector* b : blocks_) b->setZero(dofs_);
  x_ = x0;
  v_ = v0;
  f_.setZero(dofs_);
  reset_clock(t0, h);
  // Commit the system's history at the initial state, so that a contact already closed at t0
  // takes its tangential-history origin at x0 and its first increment spans the whole first step,
  // whatever the scheme's first force call (position Verlet evaluates at x0 + h/2 v0, the
  // variational integrator at q_alpha). Idempotent: force at t0 again (dt = 0) changes nothing.
  sys.force(t0, x0, v0, f_);
  sys.accept_step();
  f_.setZero(dofs_);
}

Vector BlockStateIntegrator::state() const {
  Vector z(static_cast<Index>(blocks_.size()) * dofs_);
  for (std::size_t k = 0; k < blocks_.size(); ++k) z.segment(static_cast<Index>(k) * dofs_, dofs_) = *blocks_[k];
  return z;
}

void BlockStateIntegrator::set_state(const Vector& z) {
  const Index expected = static_cast<Index>(blocks_.size()) * dofs_;
  if (z.size() != expected)
    fail(fmt::format("{}: state has {} entries, expected {} ({} blocks of {})", scheme_, z.size(), expected,
                     blocks_.size(), dofs_));
  for (std::size_t k = 0; k < blocks_.size(); ++k) *blocks_[k] = z.segment(static_cast<Index>(k) * dofs_, dofs_);
}

}  // namespace dtcrit
