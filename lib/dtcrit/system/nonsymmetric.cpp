#include "dtcrit/system/nonsymmetric.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <memory>
#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <Spectra/GenEigsSolver.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/parts_pool.hpp"
#include "dtcrit/core/roots.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace dtcrit::packing {

namespace {

using Complex = std::complex<double>;

// Counts an Arnoldi run's operator applications for SpectrumOptions::progress.
struct ProgressTick {
  const std::function<void(Index)>* progress = nullptr;
  mutable Index applications = 0;
  void operator()() const {
    ++applications;
    if (progress && *progress) (*progress)(applications);
  }
};

// a K~ + b C~, K~ = M^-1/2 K M^-1/2 (similar to M^-1 K) and C~ likewise, matrix-free.
struct ScaledOp {
  using Scalar = double;
  const GlobalSystem* sys;
  double a, b;
  ProgressTick tick{};
  Index rows() const { return sys->dofs(); }
  Index cols() const { return sys->dofs(); }
  void perform_op(const double* x, double* y) const {
    sys->apply_scaled(a, b, x, y);
    tick();
  }
};

// The companion operators of both eigenproblems here, on a state (w y, z) balanced by a frequency w
// of the top of the spectrum: [[0, w I], [k K~ / w, c C~]], matrix-free.
//   first-order system (k = c = -1, w = Omega): the eigenvalues s of [[0, I], [-K~, -C~]]. Unbalanced,
//     with |K~| ~ Omega^2 >> 1, that form is so far from normal that a dense solve misplaced Re s
//     by 1e-5 |s| (a symmetric, damped packing came out growing);
//   -1 crossing (k = 1/4, c = f/4): the roots mu of (4 mu^2 - f mu C~ - K~) phi~ = 0 (minus_one_crossing).
struct CompanionOp {
  using Scalar = double;
  const GlobalSystem* sys;
  double w, k, c;
  ProgressTick tick{};
  mutable Vector tmp;
  Index rows() const { return 2 * sys->dofs(); }
  Index cols() const { return 2 * sys->dofs(); }
  void perform_op(const double* x, double* y) const {
    const Index n = sys->dofs();
    tmp.resize(n);
    sys->apply_scaled(k / w, 0.0, x, y + n);
    if (c != 0.0) {
      sys->apply_scaled(0.0, c, x + n, tmp.data());
      for (Index i = 0; i < n; ++i) y[n + i] += tmp[i];
    }
    for (Index i = 0; i < n; ++i) y[i] = w * x[n + i];
    tick();
  }
};

// The same operator assembled from the scaled K~ and C~.
Matrix companion_matrix(const Matrix& K, const Matrix& C, double w, double k, double c) {
  const Index n = K.rows();
  Matrix A = Matrix::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n) = w * Matrix::Identity(n, n);
  A.bottomLeftCorner(n, n) = (k * K) / w;
  A.bottomRightCorner(n, n) = c * C;
  return A;
}

// M^-1/2 K M^-1/2 and M^-1/2 C M^-1/2, dense.
Matrix scaled_dense(const GlobalSystem& sys, const SparseMatrix& X) {
  const Vector s = sys.mass().cwiseSqrt().cwiseInverse();
  return s.asDiagonal() * Matrix(X) * s.asDiagonal();
}

std::vector<Complex> by_magnitude(const Eigen::VectorXcd& v) {
  std::vector<Complex> out(v.data(), v.data() + v.size());
  std::stable_sort(out.begin(), out.end(), [](Complex a, Complex b) { return std::abs(a) > std::abs(b); });
  return out;
}

// Every eigenvalue of A (dense QR iteration); fails with `failure` unless it converged.
Eigen::VectorXcd dense_eigenvalues(const Matrix& A, const std::string& failure) {
  std::optional<Eigen::VectorXcd> ev = linalg::general_eigenvalues(A);
  if (!ev) fail(failure);
  return *ev;
}

// Runs Arnoldi to convergence or fails, its message `prefix`, then the run (`rule` in words, nev,
// ncv); adds the operator applications to `operations`.
template <class Op>
void run_arnoldi(Spectra::GenEigsSolver<Op>& eigs, Spectra::SortRule rule, const SpectrumOptions& o, Index nev,
                 Index ncv, std::string_view prefix, std::string_view rule_words, Index& operations) {
  eigs.init();
  try {
    eigs.compute(rule, o.max_restarts, o.tolerance);
  } catch (const std::runtime_error& e) {  // Spectra's own failures (its Schur step) name no stage
    fail(fmt::format("{}Arnoldi (Spectra GenEigsSolver, {}, nev = {}, ncv = {}) failed: {}", prefix, rule_words, nev,
                     ncv, e.what()));
  }
  if (eigs.info() != Spectra::CompInfo::Successful)
    fail(fmt::format("{}Arnoldi (Spectra GenEigsSolver, {}, nev = {}, ncv = {}) did not converge in {} restarts to "
                     "tolerance {}",
                     prefix, rule_words, nev, ncv, o.max_restarts, o.tolerance));
  operations += eigs.num_operations();
}

template <class Op>
std::vector<Complex> arnoldi(Op& op, const SpectrumOptions& o, Index& operations, const char* what) {
  const Index n = op.rows();
  const Index nev = std::min(o.nev, n - 2);
  const Index ncv = std::min(std::max(o.ncv, 2 * nev + 1), n);
  if (nev < 1) fail(fmt::format("Arnoldi ({}): {} dofs are too few; use the dense solver", what, n));
  Spectra::GenEigsSolver<Op> eigs(op, nev, ncv);
  run_arnoldi(eigs, Spectra::SortRule::LargestMagn, o, nev, ncv, "", what, operations);
  return by_magnitude(eigs.eigenvalues());
}

// |(4I - f hC~ - s h^2 K~) phi~| / 4 of a unit vector phi~: how far it is from the null vector of
// 4M - f hC - s h^2 K at h, relative to the 4M term.
double minus_one_residual(const GlobalSystem& sys, double f, double s, double h, const Vector& phi) {
  const Index n = sys.dofs();
  Vector kphi(n), cphi(n);
  sys.apply_scaled(1.0, 0.0, phi.data(), kphi.data());
  sys.apply_scaled(0.0, 1.0, phi.data(), cphi.data());
  return (4.0 * phi - f * h * cphi - s * h * h * kphi).norm() / 4.0;
}

}  // namespace

Spectrum nonsymmetric_spectrum(const GlobalSystem& sys, const SpectrumOptions& opts, bool force_arnoldi) {
  Spectrum out;
  const Index n = sys.dofs();
  const bool damped = sys.damped();
  if (!force_arnoldi && n <= opts.dense_below) {
    const Matrix K = scaled_dense(sys, sys.stiffness());
    out.mu = by_magnitude(
        dense_eigenvalues(K, "dense eigenvalues of M^-1/2 K M^-1/2: the QR iteration did not converge"));
    if (damped) out.s = first_order_spectrum(sys, std::sqrt(std::abs(out.mu.front())), opts).s;
    const char* solver = linalg::general_eigenvalues_solver(n);
    const char* first_order = linalg::general_eigenvalues_solver(2 * n);
    out.method = !damped || std::string_view(solver) == first_order
                     ? fmt::format("dense ({})", solver)
                     : fmt::format("dense ({} for M^-1 K, {} for the first-order system)", solver, first_order);
    return out;
  }
  ScaledOp k{&sys, 1.0, 0.0, {&opts.progress}};
  if (damped) {
    // A damped packing reads only the largest |mu| (omega_max, the balance of both companions): one
    // eigenvalue converges in a fraction of the applications six need where the top of the spectrum
    // is a cluster (polydisperse fcc, granular: 151, 301, 361 applications at 4000, 16 384, 32 000
    // spheres). Two did not converge in 200 restarts at 32 000 spheres (a lattice's eigenvalues come
    // in near-pairs); should one not either, the nev of the options are computed.
    SpectrumOptions top = opts;
    top.nev = 1;
    top.max_restarts = std::min<Index>(200, opts.max_restarts);
    try {
      out.mu = arnoldi(k, top, out.operations, "M^-1/2 K M^-1/2");
    } catch (const std::exception&) {
      out.operations += k.tick.applications;
      k.tick.applications = 0;
    }
  }
  if (out.mu.empty()) out.mu = arnoldi(k, opts, out.operations, "M^-1/2 K M^-1/2");
  if (damped) {
    // Its six eigenvalues of largest magnitude converged on every packing tried, but nothing
    // guarantees it: a failure leaves s empty and says so, and the rows that do not read s keep
    // their answers.
    SpectrumOptions first_opts = opts;
    first_opts.max_restarts = opts.first_order_max_restarts;
    Index applications = 0;
    first_opts.progress = [&](Index a) {
      applications = a;
      if (opts.progress) opts.progress(a);
    };
    try {
      Spectrum first = first_order_spectrum(sys, std::sqrt(std::abs(out.mu.front())), first_opts, true);
      out.s = std::move(first.s);
    } catch (const std::exception& e) {
      out.first_order_failure = e.what();
    }
    out.operations += applications;
    out.first_order_operations = applications;
  }
  out.complete = false;
  const std::string largest = fmt::format("Arnoldi (Spectra GenEigsSolver), of largest magnitude: {} eigenvalue{} of M^-1 K",
                                          out.mu.size(), out.mu.size() == 1 ? "" : "s");
  out.method = !damped        ? largest
               : out.s.empty() ? fmt::format("{}; the first-order system's: {}", largest, out.first_order_failure)
                               : fmt::format("{} and {} of the first-order system", largest, out.s.size());
  return out;
}

Spectrum first_order_spectrum(const GlobalSystem& sys, double omega, const SpectrumOptions& opts, bool force_arnoldi) {
  Spectrum out;
  if (!force_arnoldi && sys.dofs() <= opts.dense_below) {
    out.s = by_magnitude(dense_eigenvalues(
        companion_matrix(scaled_dense(sys, sys.stiffness()), scaled_dense(sys, sys.damping()), omega, -1.0, -1.0),
        "dense eigenvalues of the first-order system: the QR iteration did not converge"));
    out.method = fmt::format("dense ({})", linalg::general_eigenvalues_solver(2 * sys.dofs()));
    return out;
  }
  CompanionOp a{&sys, omega, -1.0, -1.0, {&opts.progress}, {}};
  out.s = arnoldi(a, opts, out.operations, "first-order system");
  out.complete = false;
  out.method = fmt::format("Arnoldi (Spectra GenEigsSolver), the {} eigenvalues of largest magnitude", out.s.size());
  return out;
}

MinusOneCrossing minus_one_crossing(const GlobalSystem& sys, double f, const SpectrumOptions& o, bool force_arnoldi,
                                    double stiffness) {
  MinusOneCrossing out;
  const Index n = sys.dofs();
  // Real to rounding: a double root split by rounding (or by a non-normal perturbation smaller than
  // this) is taken as real, its real part as the crossing: the smaller h of the two readings.
  constexpr double real_tolerance = 1e-7;
  // Without K (s = 0: the variational integrator's 4M - 2hC) the roots are mu = (f/4) x the
  // eigenvalues of C~, solved for as such: the companion operator would carry n roots mu = 0 in
  // Jordan blocks, on which Spectra's Schur step fails.
  const bool damping_only = stiffness == 0.0;
  if (damping_only && !(f > 0.0))
    fail(fmt::format("the -1 crossing without K (4M - f hC) needs a dashpot factor f > 0; got f = {}", f));
  const Index dim = damping_only ? n : 2 * n;
  // The companion's balance: a frequency of the top of the spectrum (Gershgorin: an upper bound of
  // omega_max^2, within a small factor of it), so both blocks have norms of order omega_max.
  const double w = damping_only ? 0.0 : 0.5 * std::sqrt(std::max(sys.gershgorin_bound(1.0, 0.0), 1e-300));
  std::vector<Complex> mu;
  Eigen::MatrixXcd ritz;  // Arnoldi: the Ritz vectors, columns in the order of mu
  if (!force_arnoldi && n <= o.dense_below) {
    const Matrix C = scaled_dense(sys, sys.damping());
    const Eigen::VectorXcd ev = dense_eigenvalues(
        damping_only ? Matrix(0.25 * f * C) : companion_matrix(scaled_dense(sys, sys.stiffness()), C, w, 0.25 * stiffness, 0.25 * f),
        "the -1 crossing: the dense QR iteration did not converge");
    mu.assign(ev.data(), ev.data() + dim);
    out.method = fmt::format("every root (dense, {})", linalg::general_eigenvalues_solver(dim));
  } else {
    // The root of largest real part alone first: it converges in a third of the applications that
    // six roots need (32 000 spheres: 77 s against 256 s, h equal to 5e-11). Only when it is not real
    // (a complex pair rightmost) are the six of largest real part computed and the largest real one taken.
    auto rightmost = [&](auto& op, double scale) {
      for (const Index wanted : {Index{1}, std::max<Index>(o.nev, 6)}) {
        const Index nev = std::min<Index>(wanted, dim - 2);
        // One root: the basis of the spectra's runs (ncv). With twice it, 16 384 spheres (fcc,
        // polydisperse, granular) took the same 421 applications and 2.3 times the time: the
        // single-threaded orthogonalisation against the basis outweighs the operator. Six roots: twice
        // the basis, since the top of a packing's spectrum is a cluster and a small basis's restarts
        // dominate (4000 spheres: 51 s with 30 vectors, 31 s with 60).
        const Index basis = wanted == 1 ? o.ncv : 2 * o.ncv;
        const Index ncv = std::min<Index>(std::max<Index>(basis, 2 * nev + 1), dim);
        Spectra::GenEigsSolver<std::decay_t<decltype(op)>> eigs(op, nev, ncv);
        run_arnoldi(eigs, Spectra::SortRule::LargestReal, o, nev, ncv, "the -1 crossing: ", "largest real part",
                    out.operations);
        const Eigen::VectorXcd v = scale * eigs.eigenvalues();
        mu.assign(v.data(), v.data() + v.size());
        ritz = eigs.eigenvectors();
        out.method = fmt::format("the {} of largest real part (Arnoldi, Spectra GenEigsSolver, matrix-free)",
                                 mu.size() == 1 ? "root" : fmt::format("{} roots", mu.size()));
        if (std::abs(mu[0].imag()) <= real_tolerance * std::abs(mu[0])) break;
      }
    };
    if (damping_only) {
      ScaledOp op{&sys, 0.0, 1.0, {&o.progress}};
      rightmost(op, 0.25 * f);
    } else {
      CompanionOp op{&sys, w, 0.25 * stiffness, 0.25 * f, {&o.progress}, {}};
      rightmost(op, 1.0);
    }
  }
  double best = 0.0;
  Index best_index = -1;
  for (std::size_t k = 0; k < mu.size(); ++k)
    if (mu[k].real() > best && std::abs(mu[k].imag()) <= real_tolerance * std::abs(mu[k])) {
      best = mu[k].real();
      best_index = static_cast<Index>(k);
    }
  if (best_index < 0) return out;
  out.found = true;
  out.h = 1.0 / best;
  if (ritz.cols() > best_index) {
    // phi~ = b / mu from the Ritz vector's lower half (without K: the vector itself); the residual of
    // the quadratic problem.
    Vector phi = ritz.col(best_index).tail(n).real();
    if (phi.norm() == 0.0) phi = ritz.col(best_index).tail(n).imag();
    phi /= phi.norm();
    out.residual = minus_one_residual(sys, f, stiffness, out.h, phi);
    out.null_vector = std::move(phi);
  }
  return out;
}

MinusOneMode minus_one_mode(const GlobalSystem& sys, double f, double h) {
  if (!(h > 0.0) || !std::isfinite(h)) fail(fmt::format("the -1 crossing's mode needs a step h > 0; got {}", h));
  const Index n = sys.dofs();
  const Matrix A = 4.0 * Matrix::Identity(n, n) - f * h * scaled_dense(sys, sys.damping()) -
                   h * h * scaled_dense(sys, sys.stiffness());
  const Eigen::EigenSolver<Matrix> es(A, true);
  if (es.info() != Eigen::Success) fail("the -1 crossing's mode: the dense eigensolver did not converge");
  Index k = 0;
  es.eigenvalues().cwiseAbs().minCoeff(&k);
  MinusOneMode out;
  out.phi = es.eigenvectors().col(k).real();
  if (out.phi.norm() < 1e-8) out.phi = es.eigenvectors().col(k).imag();
  out.phi /= out.phi.norm();
  out.residual = minus_one_residual(sys, f, 1.0, h, out.phi);
  out.method = "dense (Eigen EigenSolver)";
  return out;
}

constexpr double growth_tolerance = 1e-6;

namespace {

// family_recurrence_matrix with M^-1 K and M^-1 C made dense once, for a check's many steps.
class FamilyRecurrence {
 public:
  FamilyRecurrence(DashpotVelocity family, const LinearSystem& ls)
      : family_(family),
        mk_(ls.mass().cwiseInverse().asDiagonal() * Matrix(ls.stiffness())),
        mc_(ls.mass().cwiseInverse().asDiagonal() * Matrix(ls.damping())) {
    if (family == DashpotVelocity::other) fail("family_recurrence_matrix: the row has no dashpot family");
  }
  Matrix operator()(double h) const {
    const Index n = mk_.rows();
    const Matrix I = Matrix::Identity(n, n);
    Matrix A = Matrix::Zero(2 * n, 2 * n);
    if (family_ == DashpotVelocity::backward_difference) {
      A.topLeftCorner(n, n) = 2.0 * I - h * mc_ - h * h * mk_;
      A.topRightCorner(n, n) = h * mc_ - I;
    } else {
      const Eigen::PartialPivLU<Matrix> lead(I + 0.5 * h * mc_);
      A.topLeftCorner(n, n) = lead.solve(2.0 * I - h * h * mk_);
      A.topRightCorner(n, n) = -lead.solve(I - 0.5 * h * mc_);
    }
    A.bottomLeftCorner(n, n) = I;
    return A;
  }

 private:
  DashpotVelocity family_;
  Matrix mk_, mc_;
};

// The matrix whose spectral radius decides a step of spec on the system: its dashpot family's
// recurrence where it has one (the same spectral radius, order 2n), else its own amplification
// matrix. Copies share nothing mutable (a system keeps the state of its last step: each copy of an
// amplification matrix's owns one; a recurrence's dense matrices are shared, read only), so two
// threads may each use one.
struct StepMatrix {
  std::string name;
  std::function<Matrix(double)> at;
};
StepMatrix step_matrix(std::string_view spec, const LinearSystem& system) {
  const DashpotVelocity family = integrator_info(spec).dashpot_velocity;
  if (family != DashpotVelocity::other) {
    auto recurrence = std::make_shared<const FamilyRecurrence>(family, system);
    return {fmt::format("the companion matrix of the recurrence in x of {}'s dashpot family (order 2n; each "
                        "member's one-step map has its eigenvalues, and zeros for any further stored value)",
                        spec),
            [recurrence](double h) { return (*recurrence)(h); }};
  }
  return {fmt::format("{}'s amplification matrix", spec),
          [spec = std::string(spec), ls = LinearSystem(system)](double h) mutable {
            return amplification_matrix(*make_integrator(spec), ls, h);
          }};
}

// The scheme's amplification matrix at the steps given (ascending), as check_below_crossing and
// scan_amplification describe; the first unstable one is bisected from the last stable one (0 when
// the first step is unstable) until the bracket is narrower than width(its upper end).
CrossingCheck check_steps(std::string_view spec, const LinearSystem& system, const std::vector<double>& steps,
                          double sigma, const std::function<double(double)>& width,
                          const std::function<void(std::string_view)>& progress) {
  CrossingCheck out;
  // A copy for the second thread (a family's recurrence is shared, read only).
  const StepMatrix matrix = step_matrix(spec, system), second_matrix = matrix;
  out.matrix = matrix.name;
  // Eigenvalues only (the condition-aware test of critical_step needs both eigenvector sets, 4-5
  // times the cost at 1200 x 1200); 1e-6 is above the rounding of a Jordan block at +1 (free modes,
  // ~sqrt(eps)) and below any growth that matters (e-folding in 1e6 steps).
  // A physically unstable system grows by exp(sigma h) per step at any h: only faster growth is the
  // scheme's (before, such a packing got h1 = 1e-6 / sigma, where its own growth passed 1 + 1e-6).
  const double rate = std::max(0.0, sigma);
  int solves = 0;
  auto report = [&](double h) {
    if (progress)
      progress(fmt::format("every eigenvalue of {} at h = {:.6g} s ({} dofs, dense solve {})", matrix.name, h,
                           system.dofs(), ++solves));
  };
  // rho / exp(2 sigma h) - 1: the scheme's own growth per step beyond the packing's.
  auto excess_with = [&](const StepMatrix& of, double h) {
    return spectral_radius(of.at(h)) / std::exp(2.0 * rate * h) - 1.0;
  };
  auto excess = [&](double h) {
    report(h);
    return excess_with(matrix, h);
  };
  auto unstable = [&](double h) { return excess(h) > growth_tolerance; };
  // The steps two at a time, the second on another thread (the dense solves dominate; with two cores
  // a pair takes the time of one). A pair past the first unstable step costs one solve in vain.
  const bool pairs = default_threads() >= 2;
  double lo = 0.0;
  for (std::size_t i = 0; i < steps.size(); i += pairs ? 2 : 1) {
    const bool paired = pairs && i + 1 < steps.size();
    std::future<double> next;
    if (paired) {
      report(steps[i + 1]);
      next = std::async(std::launch::async, [&, h = steps[i + 1]] { return excess_with(second_matrix, h); });
    }
    const double first = excess(steps[i]);
    const double then = paired ? next.get() : 0.0;
    double h = steps[i];
    if (!(first > growth_tolerance)) {
      lo = steps[i];
      if (!paired || !(then > growth_tolerance)) {
        if (paired) lo = steps[i + 1];
        continue;
      }
      h = steps[i + 1];
    }
    // Some eigenvalue left the unit circle between lo and h: bisect.
    const Bracket br = bisect(unstable, lo, h, [&](double a, double b) { return b - a > width(b); });
    out.first_unstable = br.hi;
    out.limit = br.lo;
    out.located = "the last step found stable, below the threshold";
    if (!(br.lo > 0.0)) return out;
    // A real eigenvalue through -1 passes the threshold a little above its crossing (4e-7 relative
    // on a 48-dof packing), and changes the sign of det(A + I) there: its root, found without any
    // threshold (critical_step's certificate), is the limit. (A complex pair has no such cheap
    // determinant; a modulus that creeps above 1 as a power of h, as variational_2's on a granular
    // block, has no crossing to extrapolate to: both keep the threshold's step.)
    if (rate > 0.0) return out;
    const double below = br.lo * (1.0 - 1e-4);
    const auto det_plus_identity = [&](double step) {
      const Matrix A = matrix.at(step);
      return signed_log_det(A + Matrix::Identity(A.rows(), A.cols()));
    };
    const SignedLog da = det_plus_identity(below), db = det_plus_identity(br.hi);
    if (!(da.sign * db.sign < 0.0)) return out;
    out.limit = sign_change_root(det_plus_identity, below, br.hi, da, db);  // the end on the stable side
    out.located = "the root of det(A + I): a real eigenvalue through -1";
    return out;
  }
  return out;
}

}  // namespace

CrossingCheck check_below_crossing(std::string_view spec, const LinearSystem& ls, double h1, double sigma,
                                   const std::vector<double>& fractions,
                                   const std::function<void(std::string_view)>& progress) {
  std::vector<double> steps;
  for (double f : fractions) steps.push_back(f * h1);
  CrossingCheck out = check_steps(spec, ls, steps, sigma, [&](double) { return 1e-10 * h1; }, progress);
  out.fractions = fractions;
  return out;
}

CrossingCheck scan_amplification(std::string_view spec, const LinearSystem& ls, double omega_ref, double sigma,
                                 const std::function<void(std::string_view)>& progress) {
  require_positive("omega_ref", omega_ref);
  std::vector<double> steps;
  for (int k = scan_first_power; k <= scan_last_power; ++k) steps.push_back(std::ldexp(1.0, k) / omega_ref);
  // 1e-10 relative, and no narrower than 1e-10 of the first step (a scheme unstable at every step
  // is bisected towards 0).
  return check_steps(spec, ls, steps, sigma, [&](double b) { return 1e-10 * std::max(b, steps.front()); }, progress);
}

PhysicalStability physical_stability(const Spectrum& sp, bool damped) {
  PhysicalStability out;
  out.assessed = true;
  out.complete = sp.complete;
  double mu_max = 0.0;
  for (Complex m : sp.mu) mu_max = std::max(mu_max, std::abs(m));
  // Rounding of the eigenvalues of a non-normal matrix: far above eps; 1e-9 of the largest keeps
  // rounding out and catches any flutter that grows by e in fewer than ~1e9 periods of the top mode.
  out.tolerance = 1e-9;
  const double tol_mu = out.tolerance * mu_max;
  bool flutter = false, divergence = false;
  double sigma = 0.0;
  for (Complex m : sp.mu) {
    out.max_imag_relative = std::max(out.max_imag_relative, std::abs(m.imag()) / mu_max);
    out.min_real_relative = std::min(out.min_real_relative, m.real() / mu_max);
    if (damped) continue;
    if (std::abs(m.imag()) > tol_mu) flutter = true;
    else if (m.real() < -tol_mu) divergence = true;
    else continue;
    sigma = std::max(sigma, std::sqrt(-m).real());  // principal root: Re >= 0
  }
  if (damped && sp.s.empty() && !sp.first_order_failure.empty()) {
    out.complete = false;
    out.not_judged = sp.first_order_failure;
    return out;
  }
  if (damped) {
    double s_max = 0.0;
    for (Complex s : sp.s) s_max = std::max(s_max, std::abs(s));
    // A rigid mode is a double s = 0 (a Jordan block): rounding splits it by ~sqrt(eps) |A|.
    out.tolerance = 1e-8;
    for (Complex s : sp.s)
      if (s.real() > out.tolerance * s_max) {
        sigma = std::max(sigma, s.real());
        (std::abs(s.imag()) > out.tolerance * s_max ? flutter : divergence) = true;
      }
  }
  out.unstable = flutter || divergence;
  out.kind = flutter && divergence ? "flutter and divergence" : flutter ? "flutter" : divergence ? "divergence" : "";
  if (out.unstable) {
    out.growth_rate = sigma;
    out.efolding_time = 1.0 / sigma;
  }
  return out;
}

CriticalStep growth_limit(std::string_view spec, MechanicalSystem& ls, double sigma, double omega_ref) {
  require_positive("omega_ref", omega_ref);
  if (!(sigma > 0.0)) return critical_step(spec, ls, omega_ref);
  auto integ = make_integrator(std::string(spec));
  // The scheme's growth per step against exp(2 sigma h): its spurious growth rate exceeds sigma.
  auto too_fast = [&](double Omega) {
    const double h = Omega / omega_ref;
    return spectral_radius(amplification_matrix(*integ, ls, h)) > std::exp(2.0 * sigma * h);
  };
  constexpr double lo_end = 1e-4, hi_end = 1e3, factor = 1.05;
  if (too_fast(lo_end)) return {Stability::unstable, std::numeric_limits<double>::quiet_NaN()};
  double lo = lo_end, hi = 0.0;
  for (double Omega = lo_end * factor; Omega <= hi_end; Omega *= factor) {
    if (too_fast(Omega)) {
      hi = Omega;
      break;
    }
    lo = Omega;
  }
  if (hi == 0.0) return {Stability::unconditional, std::numeric_limits<double>::quiet_NaN()};
  lo = bisect(too_fast, lo, hi, [](double a, double b) { return b - a > 1e-12 * b; }).lo;
  return {Stability::conditional, lo / omega_ref};
}

Matrix family_recurrence_matrix(DashpotVelocity family, const LinearSystem& ls, double h) {
  return FamilyRecurrence(family, ls)(h);
}

CriticalStep mode_limit(std::string_view spec, Complex mu) {
  Matrix K(2, 2), C = Matrix::Zero(2, 2);
  K << mu.real(), -mu.imag(), mu.imag(), mu.real();
  LinearSystem ls(Vector::Ones(2), K, C);
  return growth_limit(spec, ls, std::sqrt(-mu).real(), std::sqrt(std::abs(mu)));
}

}  // namespace dtcrit::packing
