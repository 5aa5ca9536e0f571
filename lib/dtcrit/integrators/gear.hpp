#pragma once
// Gear predictor-corrector for M x'' = f(t, x, v) in Nordsieck form (Allen & Tildesley, Computer
// Simulation of Liquids, 1987, Sec. 3.2 and App. E), one force evaluation per step:
//   r_k = h^k / k! x^(k), k = 0..q-1
//   predict  r_i <- sum_{j>=i} C(j, i) r_j                       (Pascal matrix, Taylor series)
//   evaluate a = M^{-1} f(t+h, r_0, r_1 / h)                    (dashpots see the predicted velocity)
//   correct  D = (h^2/2) a - r_2;  r_i <- r_i + c_i D
// The method is data: a row of corrector coefficients c_0..c_{q-1}.
//
// Start-up from exact derivatives (never zeros):
//   a0 = M^{-1} f(t0, x0, v0),  j0 = x''' = M^{-1}(-K v0 - C a0),  s0 = x'''' = M^{-1}(-K a0 - C j0)
// with K = -df/dx, C = -df/dv from MechanicalSystem::tangent at (t0, x0, v0). This is the exact
// derivative of the force along the motion for forces linear in (x, v) with no explicit time
// dependence; otherwise it drops df/dt and the curvature terms (an O(h^3) error in r_3, O(h^4) in r_4).
#include <string>
#include <vector>

#include "dtcrit/integrators/block_state.hpp"

namespace dtcrit {

struct GearCorrector {
  std::string name;
  std::vector<double> c;  // q coefficients; c[2] must be 1
};

// Allen & Tildesley, Computer Simulation of Liquids, Table E.1 (second-order equations):
//   4 values: (1/6, 5/6, 1, 1/3);  5 values: (19/120, 3/4, 1, 1/2, 1/12).
const GearCorrector& gear4_corrector();
const GearCorrector& gear5_corrector();
// The 5-value row with c0 = 19/90, which A&T recommend when forces depend on velocities.
const GearCorrector& gear5_velocity_corrector();

class GearIntegrator final : public BlockStateIntegrator {
 public:
  explicit GearIntegrator(GearCorrector corrector);  // q = 3..6
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;
  const Vector& position() const override { return r_[0]; }
  Vector velocity() const override { return r_[1] / step_size(); }

 private:
  GearCorrector corr_;
  std::vector<Vector> r_;
  std::vector<std::vector<double>> binom_;
  Vector delta_;
  SparseMatrix K_, C_;
};

}  // namespace dtcrit
