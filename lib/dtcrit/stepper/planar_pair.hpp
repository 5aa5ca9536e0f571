#pragma once
// Two planar rigid bodies joined at a contact point with a FIXED arm (Burns & Hanley 2016, their
// contact-point model: model/contact_point_model.hpp), integrated directly by the stepper's integrators.
//
// Coordinates q = (x, y, theta, x', y', theta'), work in the contact frame: x along t (index 1 of
// the paper), y along n (index 2). Each body has mass m, inertia I about its centre G and arm
// r = P - G = (r_t, r_n). The relative contact-point displacement is u = G q with
//   G = [-J, J'],  J = [[1, 0, -r_n], [0, 1, r_t]]   (J' with the primed arm),
// i.e. u = (u_t, u_n) is the motion of P' relative to P, linearised about q = 0 (the arms do not
// rotate). The contact law is a bilateral linear spring-dashpot in each direction:
//   consistent:  f = -G^T (K_c u + C_c du/dt),  K_c = diag(k_t, k_n), C_c = diag(c_t, c_n)
//                so that exactly  M a + C v + K x = 0  with K = G^T K_c G, C = G^T C_c G;
//   traditional: the tangential spring uses a history variable xi instead of u_t,
//                xi = xi_committed + (t - t_committed) du_t/dt at the velocities handed to force(),
//                committed by accept_step(); it starts at u_t(q0) on the first force() call (or at
//                whatever set_history() gave), so the two modes describe the same motion.
// No Coulomb cap and no contact loss: the model is linear by design.
#include "dtcrit/dynamics/system.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace dtcrit::stepper {

// One body of the pair: mass, inertia about its centre, contact arm in the contact frame.
struct ArmBody {
  double m = 1.0;
  double I = 1.0;
  double r_t = 0.0;
  double r_n = 0.0;
};

// Spring-dashpot joining the two contact points.
struct SpringDashpot {
  double kn = 0.0, kt = 0.0;  // [N/m]
  double cn = 0.0, ct = 0.0;  // [N s/m]
};

class PlanarContactPair final : public MechanicalSystem {
 public:
  PlanarContactPair(const ArmBody& a, const ArmBody& b, const SpringDashpot& s,
                    TangentialHistory mode = TangentialHistory::consistent);

  Index dofs() const override { return 6; }
  const Vector& mass() const override { return mass_; }  // (m, m, I, m', m', I')
  void force(double t, const Vector& x, const Vector& v, Vector& f) override;
  // consistent: K = G^T K_c G, C = G^T C_c G. traditional: K = G^T diag(0, k_n) G,
  // C = G^T diag(c_t + k_t (t - t_committed), c_n) G (xi depends on v, not on x).
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override;
  void accept_step() override;
  // traditional: (xi_committed), one entry; consistent: empty.
  Vector history() const override;
  void set_history(const Vector& h) override;
  // 1/2 v^T M v + 1/2 k_n u_n^2 + 1/2 k_t s^2, s = u_t (consistent) or xi_committed (traditional).
  double energy(const Vector& x, const Vector& v) const override;

  // The 2 x 6 contact Jacobian G (rows t, n).
  Eigen::Matrix<double, 2, 6> contact_jacobian() const { return G_; }
  Matrix stiffness() const;  // G^T diag(k_t, k_n) G
  Matrix damping() const;    // G^T diag(c_t, c_n) G
  using MechanicalSystem::damping;  // the virtual damping(t, x, v, C) stays visible beside the accessor
  TangentialHistory history_mode() const { return mode_; }
  // traditional: forget xi; the next force() call at t0 re-initialises it from the positions.
  void reset_history(double t0);

 private:
  SpringDashpot s_;
  TangentialHistory mode_;
  Vector mass_;
  Eigen::Matrix<double, 2, 6> G_;
  bool xi_set_ = false;
  double xi_ = 0.0, xi_trial_ = 0.0;
  double t_ref_ = 0.0, t_trial_ = 0.0;
  bool t_ref_set_ = false, have_trial_ = false;
};

}  // namespace dtcrit::stepper
