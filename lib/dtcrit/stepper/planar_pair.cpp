#include "dtcrit/stepper/planar_pair.hpp"

#include "dtcrit/core/check.hpp"

namespace dtcrit::stepper {

namespace {

// `prime` names the second body's values (m', I', r_t', r_n') in the messages.
void check_body(const ArmBody& body, std::string_view prime) {
  require_positive(fmt::format("mass m{}", prime), body.m);
  require_positive(fmt::format("inertia I{}", prime), body.I);
  require_finite(fmt::format("arm r_t{}", prime), body.r_t);
  require_finite(fmt::format("arm r_n{}", prime), body.r_n);
}

}  // namespace

PlanarContactPair::PlanarContactPair(const ArmBody& a, const ArmBody& b, const SpringDashpot& s,
                                     TangentialHistory mode)
    : s_(s), mode_(mode), mass_(6) {
  check_body(a, "");
  check_body(b, "'");
  require_non_negative("kn", s.kn);
  require_non_negative("kt", s.kt);
  require_non_negative("cn", s.cn);
  require_non_negative("ct", s.ct);
  mass_ << a.m, a.m, a.I, b.m, b.m, b.I;
  G_.setZero();
  // -J for the first body, +J' for the second.
  G_(0, 0) = -1.0;
  G_(0, 2) = a.r_n;
  G_(1, 1) = -1.0;
  G_(1, 2) = -a.r_t;
  G_(0, 3) = 1.0;
  G_(0, 5) = -b.r_n;
  G_(1, 4) = 1.0;
  G_(1, 5) = b.r_t;
}

void PlanarContactPair::force(double t, const Vector& x, const Vector& v, Vector& f) {
  if (x.size() != 6 || v.size() != 6)
    fail(fmt::format("force: x has {} and v has {} entries, expected 6", x.size(), v.size()));
  const Eigen::Vector2d u = G_ * x, du = G_ * v;
  double spring_t = u[0];
  if (mode_ == TangentialHistory::traditional) {
    if (!t_ref_set_) {
      t_ref_ = t;
      t_ref_set_ = true;
    }
    if (!xi_set_) {
      xi_ = u[0];
      xi_set_ = true;
    }
    xi_trial_ = xi_ + (t - t_ref_) * du[0];
    spring_t = xi_trial_;
    t_trial_ = t;
    have_trial_ = true;
  }
  const Eigen::Vector2d fc(s_.kt * spring_t + s_.ct * du[0], s_.kn * u[1] + s_.cn * du[1]);
  f = -G_.transpose() * fc;
}

void PlanarContactPair::tangent(double t, const Vector&, const Vector&, SparseMatrix& K, SparseMatrix& C) {
  Eigen::Matrix2d Kc = Eigen::Matrix2d::Zero(), Cc = Eigen::Matrix2d::Zero();
  Kc(1, 1) = s_.kn;
  Cc(1, 1) = s_.cn;
  if (mode_ == TangentialHistory::consistent) {
    Kc(0, 0) = s_.kt;
    Cc(0, 0) = s_.ct;
  } else {
    Cc(0, 0) = s_.ct + s_.kt * (t_ref_set_ ? t - t_ref_ : 0.0);
  }
  K = (G_.transpose() * Kc * G_).sparseView();
  C = (G_.transpose() * Cc * G_).sparseView();
}

void PlanarContactPair::accept_step() {
  if (!have_trial_) return;
  xi_ = xi_trial_;
  t_ref_ = t_trial_;
  have_trial_ = false;
}

Vector PlanarContactPair::history() const {
  if (mode_ == TangentialHistory::consistent) return {};
  Vector h(1);
  h[0] = xi_;
  return h;
}

void PlanarContactPair::set_history(const Vector& h) {
  const Index expected = mode_ == TangentialHistory::consistent ? 0 : 1;
  if (h.size() != expected) fail(fmt::format("history has {} entries, expected {}", h.size(), expected));
  if (expected == 1) {
    xi_ = h[0];
    xi_set_ = true;
  }
}

double PlanarContactPair::energy(const Vector& x, const Vector& v) const {
  const Eigen::Vector2d u = G_ * x;
  const double st = (mode_ == TangentialHistory::traditional && xi_set_) ? xi_ : u[0];
  return 0.5 * v.dot(mass_.cwiseProduct(v)) + 0.5 * s_.kn * u[1] * u[1] + 0.5 * s_.kt * st * st;
}

Matrix PlanarContactPair::stiffness() const {
  return G_.transpose() * Eigen::Vector2d(s_.kt, s_.kn).asDiagonal() * G_;
}

Matrix PlanarContactPair::damping() const {
  return G_.transpose() * Eigen::Vector2d(s_.ct, s_.cn).asDiagonal() * G_;
}

void PlanarContactPair::reset_history(double t0) {
  t_ref_ = require_finite("t0", t0);
  t_ref_set_ = true;
  xi_set_ = false;
  have_trial_ = false;
}

}  // namespace dtcrit::stepper
