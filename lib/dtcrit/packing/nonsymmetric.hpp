#pragma once
// Non-symmetric packings (contact histories, sliding contacts, `granular` torque arms; see
// global_system.hpp): the eigenvalues mu of M^-1 K and s of the first-order system
//   d/dt (y, y') = [[0, I], [-K~, -C~]] (y, y'),   K~ = M^-1/2 K M^-1/2, C~ likewise,
// the physical stability they imply, and each integrator's numerical limit (packing/README.md,
// "Non-symmetric packings", defines it):
//   h_num = the first h at which the scheme's largest growth per step exceeds exp(2 sigma+ h),
//   sigma+ = max(0, max Re s): the scheme's own (spurious) growth rate exceeds the physical one.
// For a system the exact flow does not grow (sigma+ = 0) this is the classical limit rho(A(h)) > 1.
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "dtcrit/packing/global_system.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit::packing {

struct SpectrumOptions {
  Index dense_below = 600;  // dofs at or below which every eigenvalue is computed (Eigen::EigenSolver)
  Index nev = 6;            // Arnoldi (Spectra GenEigsSolver): eigenvalues of largest magnitude wanted
  Index ncv = 30;           // its basis size
  Index max_restarts = 5000;
  double tolerance = 1e-10;  // Spectra's relative tolerance on the Ritz values
};

struct Spectrum {
  std::vector<std::complex<double>> mu;  // eigenvalues of M^-1 K [1/s^2], largest magnitude first
  std::vector<std::complex<double>> s;   // damped: eigenvalues of the first-order system [1/s]; empty undamped
  bool complete = true;  // every eigenvalue (dense); false: the nev largest in magnitude only (Arnoldi)
  std::string method;    // "dense (Eigen::EigenSolver)" or "Arnoldi (Spectra GenEigsSolver), ..."
  Index operations = 0;  // operator applications (Arnoldi)
};
// dense when dofs <= dense_below (or force_dense), else Arnoldi on the matrix-free operators.
Spectrum nonsymmetric_spectrum(const GlobalSystem& sys, const SpectrumOptions& opts = {}, bool force_arnoldi = false);

struct PhysicalStability {
  bool assessed = false;  // false: a symmetric system (no flutter; divergence not looked for)
  bool unstable = false;
  std::string kind;              // "flutter", "divergence", "flutter and divergence"; empty when stable
  double growth_rate = 0.0;      // sigma = max Re s [1/s] (0 when stable)
  double efolding_time = std::numeric_limits<double>::infinity();  // 1 / sigma [s]
  double max_imag_relative = 0.0;   // max |Im mu| / max |mu|
  double min_real_relative = 0.0;   // min Re mu / max |mu|
  double tolerance = 0.0;           // relative threshold below which an Im or a negative Re is rounding
  bool complete = true;             // judged on every eigenvalue (else on the largest in magnitude only)
};
// Undamped: unstable when some mu has |Im mu| (flutter) or -Re mu (divergence, mu real) above
// 1e-9 max |mu|; sigma = max Re sqrt(-mu). Damped: from s, unstable when max Re s > 1e-8 max |s|.
PhysicalStability physical_stability(const Spectrum& spectrum, bool damped);

// The numerical limit of one integrator on a linear system whose exact flow grows at most like
// exp(sigma t) (sigma <= 0: the classical critical_step, rounding-aware). Measured on the
// integrator's own amplification matrix: a geometric scan of Omega = h omega_ref over
// [1e-4, 1e3] and bisection to 1e-12.
CriticalStep growth_limit(std::string_view integrator_spec, MechanicalSystem& linear_system, double sigma,
                          double omega_ref);

// One mode mu of M^-1 K (complex, or real and negative) as the real 2-dof system K = [[a, -b],
// [b, a]] (M = I, eigenvalues a +- i b), undamped: its numerical limit by growth_limit with
// sigma = Re sqrt(-mu). The modes of an undamped diagonalisable M^-1 K decouple exactly.
CriticalStep mode_limit(std::string_view integrator_spec, std::complex<double> mu);

}  // namespace dtcrit::packing
