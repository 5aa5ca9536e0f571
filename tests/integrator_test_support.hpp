#pragma once
// Helpers shared by test_integrators.cpp and test_stability.cpp: the exact damped oscillator,
// an observed-order fit, a call-counting system wrapper and a coupled 2-DOF test system.
#include <cmath>
#include <string>
#include <vector>

#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit::test {

// x'' + 2 zeta x' + x = 0 (omega = 1, zeta < 1), x(0) = x0, x'(0) = v0.
struct ExactOscillator {
  double zeta, x0, v0;
  double wd() const { return std::sqrt(1.0 - zeta * zeta); }
  double x(double t) const {
    const double B = (v0 + zeta * x0) / wd();
    return std::exp(-zeta * t) * (x0 * std::cos(wd() * t) + B * std::sin(wd() * t));
  }
  double v(double t) const {
    const double B = (v0 + zeta * x0) / wd(), c = std::cos(wd() * t), s = std::sin(wd() * t);
    return std::exp(-zeta * t) * (-zeta * (x0 * c + B * s) + wd() * (B * c - x0 * s));
  }
};

// Global error at T = 3 of `spec` on the scalar oscillator with N steps: max of the position error
// at time() and the velocity error at time() + velocity_offset().
inline double oscillator_error(Integrator& integ, double zeta, int N) {
  auto sys = scalar_oscillator(1.0, zeta);
  const ExactOscillator ex{zeta, 1.0, 0.3};
  const double T = 3.0, h = T / N;
  Integrator* integrator = &integ;
  integrator->start(sys, 0.0, Vector::Constant(1, ex.x0), Vector::Constant(1, ex.v0), h);
  for (int n = 0; n < N; ++n) integrator->step(sys);
  const double t = integrator->time();
  return std::max(std::abs(integrator->position()[0] - ex.x(t)),
                  std::abs(integrator->velocity()[0] - ex.v(t + integrator->velocity_offset())));
}

// Least-squares slope of log(error) against log(h) over N = 60, 120, ..., 960 steps.
inline double observed_order(const std::string& spec, double zeta) {
  std::vector<double> lh, le;
  for (int k = 1; k <= 5; ++k) {
    const int N = 30 << k;
    lh.push_back(std::log(3.0 / N));
    le.push_back(std::log(oscillator_error(*make_integrator(spec), zeta, N)));
  }
  const double n = static_cast<double>(lh.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < lh.size(); ++i) {
    sx += lh[i];
    sy += le[i];
    sxx += lh[i] * lh[i];
    sxy += lh[i] * le[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Delegates to a LinearSystem and counts the calls the integrators make.
class CountingSystem final : public MechanicalSystem {
 public:
  explicit CountingSystem(LinearSystem inner) : inner_(std::move(inner)) {}
  Index dofs() const override { return inner_.dofs(); }
  const Vector& mass() const override { return inner_.mass(); }
  void force(double t, const Vector& x, const Vector& v, Vector& f) override { ++forces; inner_.force(t, x, v, f); }
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override {
    ++tangents;
    inner_.tangent(t, x, v, K, C);
  }
  void accept_step() override { ++accepts; }
  int forces = 0, tangents = 0, accepts = 0;

 private:
  LinearSystem inner_;
};

// Two coupled degrees of freedom with non-proportional damping.
inline LinearSystem coupled_two_dof(double damping_scale) {
  Matrix K(2, 2), C(2, 2);
  K << 2.0, -1.0, -1.0, 1.5;
  C << 0.1, -0.05, -0.05, 0.08;
  return LinearSystem((Vector(2) << 1.0, 2.0).finished(), K, damping_scale * C);
}

// Largest undamped angular frequency of M x'' + K x = 0.
inline double omega_max_of(const LinearSystem& sys) {
  return std::sqrt(linalg::generalized_symmetric_eigen(Matrix(sys.stiffness()), Matrix(sys.mass().asDiagonal()), true).values.maxCoeff());
}

}  // namespace dtcrit::test
