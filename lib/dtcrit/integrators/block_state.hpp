#pragma once
// Common base of dtcrit's integrators: the state is a list of n-vectors ("blocks": x, v, a,
// Nordsieck terms, ...) that state()/set_state() concatenate in a fixed order, so that the
// amplification matrix of one step can be measured column by column.
#include <initializer_list>
#include <string>
#include <vector>

#include "dtcrit/integrators/integrator.hpp"

namespace dtcrit {

class BlockStateIntegrator : public Integrator {
 public:
  BlockStateIntegrator(const BlockStateIntegrator&) = delete;
  BlockStateIntegrator& operator=(const BlockStateIntegrator&) = delete;

  const Vector& position() const override { return x_; }
  Vector velocity() const override { return v_; }
  Vector state() const override;
  void set_state(const Vector& z) override;

 protected:
  // `names` documents the blocks in error messages, e.g. {"x", "v", "a"}.
  BlockStateIntegrator(std::string scheme, std::initializer_list<Vector*> blocks);
  // Checks the initial conditions and the step, sizes every block, stores 1/mass and the clock, and
  // commits the system's history at (t0, x0, v0) (one force call and accept_step()). Every
  // scheme's start() calls it first.
  void begin(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h);
  // Acceleration M^{-1} f.
  Vector accel(const Vector& f) const { return minv_.cwiseProduct(f); }

  std::string scheme_;
  std::vector<Vector*> blocks_;
  Vector x_, v_;     // position and velocity (whatever level the scheme keeps them at)
  Vector mass_, minv_;
  Vector f_;         // work vector for forces
  Index dofs_ = 0;
};

}  // namespace dtcrit
