#pragma once
// One engine for Newmark-β, HHT-α, generalised-α, central difference and the GS4 (GSSSS) family
// of Zhou & Tamma (2004) / Tamma, Zhou & Sha: the single-solve form with weights Λ1W1..Λ6W1, W1
// and update coefficients λ1..λ5. Unknown Δa = a+ - a, one solve per step on linear problems:
//
//   M ã = f(t + W1 h, x̃, ṽ)  with
//     ã = a + Λ6W1 Δa
//     ṽ = v + Λ4W1 h a + Λ5W2 h Δa
//     x̃ = x + Λ1W1 h v + Λ2W2 h² a + Λ3W3 h² Δa
//   x+ = x + λ1 h v + λ2 h² a + λ3 h² Δa;   v+ = v + λ4 h a + λ5 h Δa;   a+ = a + Δa.
//
// For f = F(t) - K x - C v this is exactly the GS4 update of Zhou & Tamma (2004),
//   M[a + Λ6W1 Δa] + C[v + ...] + K[x + ...] = (1 - W1) F_n + W1 F_{n+1}   (F linear in t);
// for nonlinear forces f is evaluated at the weighted state (x̃, ṽ), as the paper prescribes.
// Newton on Δa with J = Λ6W1 M + Λ5W2 h C + Λ3W3 h² K (K, C: MechanicalSystem::tangent at the
// weighted state); on a linear system the first iteration is exact (one solve) and the second
// residual only confirms it. Rows with Λ3W3 = Λ5W2 = 0 are fully explicit: one force call.
// State (x, v, a); start() sets a0 = M^{-1} f(t0, x0, v0).
#include <string>

#include "dtcrit/integrators/block_state.hpp"
#include "dtcrit/integrators/detail/solve.hpp"

namespace dtcrit {

struct GS4Coefficients {
  std::string name;
  double L1W1, L2W2, L3W3, L4W1, L5W2, L6W1, W1;
  double l1, l2, l3, l4, l5;
};

// Newmark-β: x̃ = x+, ṽ = v+, ã = a+ (equilibrium at t_{n+1}). λ = (1, ½, β, 1, γ).
GS4Coefficients newmark_coefficients(double beta, double gamma);
// Central difference = Newmark β = 0, γ = ½: Λ = (1, ½, 0, 1, ½, 1), λ = (1, ½, 0, 1, ½), W1 = 1.
// With C != 0 the dashpot is evaluated at v_{n+1} (a diagonal solve for diagonal C).
GS4Coefficients central_difference_coefficients();
// HHT-α (Hilber, Hughes & Taylor 1977), α in [-1/3, 0]: stiffness and damping at
// (1+α) level, inertia at n+1; γ = (1-2α)/2, β = (1-α)²/4.
GS4Coefficients hht_coefficients(double alpha);
// Generalised-α (Chung & Hulbert 1993): α_m = (2ρ∞-1)/(ρ∞+1), α_f = ρ∞/(ρ∞+1),
// γ = ½ - α_m + α_f, β = ¼(1 - α_m + α_f)²; inertia at 1-α_m, the rest at 1-α_f.
GS4Coefficients generalized_alpha_coefficients(double rho_inf);
// GS4 U0 and V0 families (Zhou & Tamma 2004; cross-checked against two independent implementations,
// see integrators/README.md). rho: principal root at h -> infinity; rho_s, rho_ss: spurious roots.
GS4Coefficients gs4_u0_coefficients(double rho, double rho_s, double rho_ss);
GS4Coefficients gs4_v0_coefficients(double rho, double rho_s, double rho_ss);

class GS4Integrator final : public BlockStateIntegrator {
 public:
  explicit GS4Integrator(GS4Coefficients c);
  void start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) override;
  void step(MechanicalSystem& sys) override;
  const GS4Coefficients& coefficients() const { return c_; }

 private:
  GS4Coefficients c_;
  Vector a_, da_, xt_, vt_, at_, r_, d_, terms_;
  SparseMatrix K_, C_;
  detail::TangentSolver solver_;
};

}  // namespace dtcrit
