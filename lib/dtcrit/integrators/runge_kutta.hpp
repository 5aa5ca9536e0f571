#pragma once
// Explicit Runge-Kutta methods as data: a Butcher tableau fed to one generic stepper
// (cf. Boost.Odeint's runge_kutta4 built on explicit_generic_rk).
//
// The system is first-order in y = (x, v): y' = (v, M^{-1} f(t, x, v)). Stage i:
//   X_i = x + h sum_j a_ij KX_j,  V_i = v + h sum_j a_ij KV_j,  KX_i = V_i,  KV_i = M^{-1} f(t + c_i h, X_i, V_i)
//   x+ = x + h sum_i b_i KX_i,    v+ = v + h sum_i b_i KV_i.
// For a system that carries history (MechanicalSystem::history() non-empty) one more force
// evaluation is made at (t+h, x+, v+) before accept_step(), so that the committed history belongs
// to the new state and not to the last stage.
#include <string>
#include <vector>

#include "dtcrit/integrators/block_state.hpp"

namespace dtcrit {

struct ButcherTableau {
  std::string name;
  std::vector<std::vector<double>> a;  // s x s, strictly lower triangular
  std::vector<double> b, c;            // weights and nodes
};

// Classical fourth-order Runge-Kutta (Kutta 1901): c = (0, ½, ½, 1), b = (1/6, 1/3, 1/3, 1/6).
const ButcherTableau& classical_rk4_tableau();

// The coefficients r_0, r_1, ... of the stability polynomial R(z) = 1 + z b^T (I - zA)^-1 1 of an
// explicit tableau (r_k = b^T A^(k-1) 1): on y' = Ay one step is R(hA) exactly.
std::vector<double> stability_polynomial(const ButcherTableau& tableau);

class ExplicitRungeKutta final : public BlockStateIntegrator {
 public:
  // Throws std::invalid_argument for an inconsistent or implicit tableau.
  explicit ExplicitRungeKutta(ButcherTableau tableau);
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;

 private:
  ButcherTableau tab_;
  std::vector<Vector> kx_, kv_;
  Vector xs_, vs_;
};

}  // namespace dtcrit
