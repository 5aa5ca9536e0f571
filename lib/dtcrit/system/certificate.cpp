#include "dtcrit/system/certificate.hpp"

#include <chrono>
#include <cmath>

#include <Eigen/CholmodSupport>
#include <fmt/format.h>

#include "dtcrit/core/check.hpp"

namespace dtcrit::packing {

bool positive_definite(const GlobalSystem& sys, double a, double b, double c) {
  if (!sys.symmetric()) fail("positive_definite: the system is not symmetric");
  SparseMatrix A = c * sys.stiffness();
  if (b != 0.0) A += b * sys.damping();
  SparseMatrix M(sys.dofs(), sys.dofs());
  M.reserve(Eigen::VectorXi::Constant(sys.dofs(), 1));
  for (Index i = 0; i < sys.dofs(); ++i) M.insert(i, i) = a * sys.mass()[i];
  A += M;
  // CHOLMOD's supernodal LLT (its fill-reducing ordering, dense BLAS on the supernodes); a
  // non-positive pivot ends the factorisation, which is the answer, not an error to print.
  Eigen::CholmodSupernodalLLT<SparseMatrix, Eigen::Lower> llt;
  llt.cholmod().print = 0;
  llt.compute(A);
  return llt.info() == Eigen::Success;
}

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

Certificate certify_omega_max(const GlobalSystem& sys, double omega_max) {
  const auto t0 = std::chrono::steady_clock::now();
  Certificate out;
  out.attempted = true;
  const double omega2 = omega_max * omega_max * (1.0 + certificate_margin);
  out.holds = std::isfinite(omega2) && positive_definite(sys, omega2, 0.0, -1.0);
  out.step = 1.0 / std::sqrt(omega2);
  out.method = fmt::format("Cholesky of omega^2 M - K at omega^2 = omega_max^2 (1 + {:g})", certificate_margin);
  out.seconds = seconds_since(t0);
  return out;
}

Certificate certify_minus_one_line(const GlobalSystem& sys, double h_crit, const MinusOneLine& line) {
  const auto t0 = std::chrono::steady_clock::now();
  Certificate out;
  out.attempted = true;
  const double h = h_crit * (1.0 - certificate_margin), d = line.dashpot, s = line.stiffness;
  out.holds = std::isfinite(h) && h > 0.0 && positive_definite(sys, 4.0, -d * h, -s * h * h) &&
              (s == 0.0 || positive_definite(sys, 4.0, -d * h, 0.0));
  out.step = h;
  out.method = s == 0.0 ? fmt::format("Cholesky of {} at h = h_crit (1 - {:g})", minus_one_line_text(line),
                                      certificate_margin)
                        : fmt::format("Cholesky of {} and of {} at h = h_crit (1 - {:g})", minus_one_line_text(line),
                                      minus_one_line_text({d, 0.0}), certificate_margin);
  out.seconds = seconds_since(t0);
  return out;
}

Certificate certify_half_step(const GlobalSystem& sys, double h_crit) {
  return certify_minus_one_line(sys, h_crit, MinusOneLine{2.0, 1.0});
}

}  // namespace dtcrit::packing
