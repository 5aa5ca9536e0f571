#include "dtcrit/sweep/case_support.hpp"

#include <cmath>

#include "dtcrit/core/check.hpp"
#include "dtcrit/dynamics/linear_history_system.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit::sweep::detail {

Vector scaled_generalised(const stepper::ParticleSystem& sys, const Vector& q) {
  Vector out = q;
  const Index per = sys.dofs_per_particle(), dim = sys.dim();
  const Index rot = per - dim;
  for (Index i = 0; i < sys.particle_count(); ++i) out.segment(i * per + dim, rot) *= sys.radius(i);
  return out;
}

double kinetic(const Vector& mass, const Vector& v) { return 0.5 * v.dot(mass.cwiseProduct(v)); }

Observation observe_particles(const stepper::ParticleSystem& sys, const Vector& x, const Vector& v) {
  Observation o;
  o.channels.push_back(scaled_generalised(sys, x));
  o.channels.push_back(scaled_generalised(sys, v));
  o.channels.push_back(Vector::Constant(1, sys.energy(x, v)));
  o.kinetic = kinetic(sys.mass(), v);
  return o;
}

std::vector<Channel> standard_channels(double length, double speed, double energy) {
  return {{"position", Level::position, length}, {"velocity", Level::velocity, speed}, {"energy", Level::energy, energy}};
}

Linearisation linearise_particles(stepper::ParticleSystem& sys, const Vector& x, const Vector& v, std::string what) {
  // At the committed time (0 before the first commit): no history increment, dt = 0.
  const double t = std::isnan(sys.committed_time()) ? 0.0 : sys.committed_time();
  Vector f;
  sys.force(t, x, v, f);
  SparseMatrix K, C, K_history;
  sys.tangent(t, x, v, K, C);
  // Traditional mode: the history springs see the velocities, so tangent() at dt = 0 leaves them
  // out of K and they come as K_history; the stiffest mode is the consistent system's, K + K_history.
  const bool traditional = sys.history_mode() == stepper::TangentialHistory::traditional;
  if (traditional) sys.history_stiffness(t, x, v, K_history);
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  const Matrix Kc = traditional ? Matrix(K + K_history) : Matrix(K);
  const Matrix Kd = s.asDiagonal() * Kc * s.asDiagonal();
  const double lmax = linalg::symmetric_eigenvalues(0.5 * (Kd + Kd.transpose())).maxCoeff();
  if (!(lmax > 0.0)) fail(fmt::format("linearisation of '{}' has no positive stiffness", what));
  Linearisation lin;
  if (traditional)
    lin.system = traditional_linear_system(sys.mass(), Matrix(K), Matrix(C), Matrix(K_history));
  else
    lin.system = std::make_unique<LinearSystem>(sys.mass(), K, C);
  lin.omega_max = std::sqrt(lmax);
  lin.what = std::move(what);
  return lin;
}

}  // namespace dtcrit::sweep::detail
