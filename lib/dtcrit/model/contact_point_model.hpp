#pragma once
// The linearised contact-point model of Burns & Hanley (2016), Sections 3-4.
//
// Two planar rigid bodies H, H' touch at P. In the contact frame (t, n) each body's contact-point
// mobility is z^-1 = J M^-1 J^T with J = [[1, 0, -r_n], [0, 1, r_t]], M = diag(m, m, I):
//   A = 1/m + r_n^2/I,  B = -r_t r_n / I,  D = 1/m + r_t^2/I.
// The pair's mobility is zhat = z^-1 + z'^-1, and the relative contact-point motion obeys
//   x'' = -zhat (Kc x + Cc x'),  Kc = diag(kt, kn),  Cc = diag(ct, cn).
#include <array>
#include <optional>
#include <string>

#include "dtcrit/bodies/planar_body.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/contact/operating_point.hpp"
#include "dtcrit/dynamics/linear_system.hpp"

namespace dtcrit {

using Matrix4 = Eigen::Matrix4d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// One body's contact-point mobility z^-1 (symmetric 2x2: [[A, B], [B, D]]).
Matrix2 contact_point_mobility(const PlanarBody& body);

// Where the linear springs of a model came from when the user gave a state-dependent contact law
// (dtcrit pair --lammps-pair): the law as dtcrit holds it and the point it was linearised at.
struct LawOrigin {
  std::string law;  // contact::describe()
  contact::ContactLaw contact_law;  // the law itself (its own collision: dtcrit pair --accuracy)
  contact::OperatingPoint point;
  double r_eff = 0.0;
  double e_star = 0.0;  // hertz/material: E*, for the closed-form Hertz collision time (else 0)
};

class ContactPointModel {
 public:
  ContactPointModel(PlanarBody body1, PlanarBody body2, LinearContactLaw law);

  const PlanarBody& body1() const { return body1_; }
  const PlanarBody& body2() const { return body2_; }
  const LinearContactLaw& law() const { return law_; }

  // zhat = z^-1 + z'^-1 = [[Ahat, Bhat], [Bhat, Dhat]].
  const Matrix2& zhat() const { return zhat_; }
  Matrix2 stiffness() const;  // Kc = diag(kt, kn)
  Matrix2 damping() const;    // Cc = diag(ct, cn)

  // Q of eq. (15), with the paper's sign convention (+k, +c), state (x_t, x_t', x_n, x_n').
  // Eq. (15) prints -k2 Bhat, -c2 Bhat, -k1 Bhat, -c1 Bhat where eq. (13) gives +: the two differ by
  // the similarity diag(1, 1, -1, -1) and have the same eigenvalues.
  Matrix4 paper_system_matrix() const;
  // The physical first-order system of x'' = -zhat (Kc x + Cc x'), state (x_t, x_n, x_t', x_n').
  Matrix4 first_order_system() const;
  // Undamped angular frequencies: square roots of the eigenvalues of zhat Kc, ascending [rad/s].
  Vector2 undamped_frequencies() const;
  double omega_max() const { return undamped_frequencies()[1]; }
  // max |lambda(Q)| of eq. (15): the rate Burns & Hanley put in pi / (2 max|lambda|).
  double paper_spectral_abscissa() const;

  // The full generalised system of the coordinates (x, y, theta, x', y', theta') in the contact
  // frame: M = diag(m, m, I, m', m', I'), K = G^T Kc G, C = G^T Cc G, G = [-J, J'].
  Eigen::Matrix<double, 6, 1> full_mass() const;
  Matrix6 full_stiffness() const;
  Matrix6 full_damping() const;
  Eigen::Matrix<double, 2, 6> full_jacobian() const;  // G

  // The same dynamics reduced to the two contact-point coordinates and made unit-mass:
  // with zhat = L L^T (Cholesky) and x = L y, y'' + L^T Cc L y' + L^T Kc L y = 0.
  // Every integrator in dtcrit is invariant under this congruence, so its amplification matrix on
  // this 2-DOF system has the spectrum of the full system less the rigid-body modes.
  LinearSystem reduced_system() const;

  // Effective masses used by the conversions: translational m m'/(m + m') (LAMMPS' m_eff) and the
  // contact-point normal mass 1/Dhat (equal to m_eff for collinear discs).
  double translational_effective_mass() const;
  double normal_effective_mass() const { return 1.0 / zhat_(1, 1); }

  const std::optional<LawOrigin>& origin() const { return origin_; }
  void set_origin(LawOrigin o) { origin_ = std::move(o); }

 private:
  PlanarBody body1_, body2_;
  LinearContactLaw law_;
  Matrix2 zhat_;
  std::optional<LawOrigin> origin_;
};

}  // namespace dtcrit
