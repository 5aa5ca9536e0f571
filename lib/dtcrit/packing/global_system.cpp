#include "dtcrit/packing/global_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include <Eigen/Eigenvalues>
#include <Spectra/SymEigsSolver.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/linalg/lanczos.hpp"

namespace dtcrit::packing {

namespace {

// The linearisation of a law per unit effective mass: cn_lin and ct_lin of the LAMMPS law are
// m_eff gamma_n and m_eff gamma_t, so evaluating it once with m_eff = 1 gives the per-mass rates.
struct LawLinearisation {
  double kn, kt, cn_per_mass, ct_per_mass;
};

LawLinearisation linearise(const stepper::HookeParams& law) {
  stepper::ContactInput in;
  in.overlap = 0.0;
  in.normal = Vec3::UnitX();
  in.m_eff = 1.0;
  const stepper::ContactOutput out = stepper::hooke_history_force(law, in);
  return {out.kn_lin, out.kt_lin, out.cn_lin, out.ct_lin};
}

using JBlock = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 6>;
using Mat3 = Eigen::Matrix3d;

Mat3 cross_matrix(const Vec3& a) {  // cross_matrix(a) * b = a x b
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

}  // namespace

GlobalSystem::GlobalSystem(const Packing& p, ContactSet contacts, bool rotation)
    : dim_(p.dim), rotation_(rotation), contacts_(std::move(contacts)) {
  validate(p);
  dpp_ = rotation ? (dim_ == 2 ? 3 : 6) : dim_;
  threads_ = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 2u));
  radius_ = p.radius;
  pmass_ = p.mass;
  inertia_ = p.inertia;
  const Index n = p.size();
  mass_.resize(n * dpp_);
  for (Index i = 0; i < n; ++i)
    for (Index d = 0; d < dpp_; ++d) mass_[i * dpp_ + d] = d < dim_ ? pmass_[i] : inertia_[i];
  inv_sqrt_mass_ = mass_.cwiseSqrt().cwiseInverse();
  particle_scale_.resize(static_cast<std::size_t>(2 * n));
  for (Index i = 0; i < n; ++i) {
    particle_scale_[static_cast<std::size_t>(2 * i)] = 1.0 / std::sqrt(pmass_[static_cast<std::size_t>(i)]);
    particle_scale_[static_cast<std::size_t>(2 * i + 1)] = 1.0 / std::sqrt(inertia_[static_cast<std::size_t>(i)]);
  }
  for (const Contact& c : contacts_.contacts) {
    if (c.i < 0 || c.i >= n || c.j >= n || c.law < 0 || c.law >= static_cast<std::int32_t>(contacts_.laws.size()))
      fail(fmt::format("contact ({}, {}) refers to a particle or law that does not exist", c.i, c.j));
  }
  for (const auto& law : contacts_.laws) {
    const LawLinearisation l = linearise(law);
    law_lin_.push_back({l.kn, l.kt, l.cn_per_mass, l.ct_per_mass, 1.0});
  }
}

bool GlobalSystem::damped() const {
  for (const auto& c : contacts_.contacts) {
    const auto& l = law_lin_[static_cast<std::size_t>(c.law)];
    if (l.cn > 0.0 || l.ct > 0.0) return true;
  }
  return false;
}

double GlobalSystem::effective_mass(const Contact& c) const {
  const double mi = pmass_[static_cast<std::size_t>(c.i)];
  if (c.j < 0) return mi;
  const double mj = pmass_[static_cast<std::size_t>(c.j)];
  return mi * mj / (mi + mj);
}

ContactCoefficients GlobalSystem::coef(const Contact& c) const {
  const auto& l = law_lin_[static_cast<std::size_t>(c.law)];
  const double m = effective_mass(c);
  return {l.kn, l.kt, m * l.cn, m * l.ct, m};
}

ContactCoefficients GlobalSystem::coefficients(const Contact& c) const {
  const double m_eff = effective_mass(c);
  stepper::ContactInput in;
  in.overlap = c.overlap;
  in.normal = c.normal;
  in.m_eff = m_eff;
  const stepper::ContactOutput out = stepper::hooke_history_force(contacts_.laws[static_cast<std::size_t>(c.law)], in);
  return {out.kn_lin, out.kt_lin, out.cn_lin, out.ct_lin, m_eff};
}

// Visits every contact with its Jacobian blocks (3 x dpp, world axes) and K_c, C_c.
template <class F>
void GlobalSystem::for_each_block(F&& f) const {
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& c = contacts_.contacts[k];
    const ContactCoefficients q = coef(c);
    const Vec3& n = c.normal;
    const Mat3 nn = n * n.transpose();
    const Mat3 P = Mat3::Identity() - nn;
    auto block = [&](double sign, double arm) {
      JBlock J = JBlock::Zero(3, dpp_);
      for (int d = 0; d < dim_; ++d) J(d, d) = sign;
      if (rotation_) {
        const Mat3 R = arm * cross_matrix(n);  // phi -> arm n x phi = -(arm phi) x n
        if (dim_ == 2) J.col(2) = R.col(2);
        else J.rightCols<3>() = R;
      }
      return J;
    };
    const JBlock Ji = block(1.0, radius_[static_cast<std::size_t>(c.i)]);
    const JBlock Jj = c.j >= 0 ? block(-1.0, radius_[static_cast<std::size_t>(c.j)]) : JBlock::Zero(3, dpp_);
    f(c, q, Ji, Jj, Mat3(q.kn * nn + q.kt * P), Mat3(q.cn * nn + q.ct * P));
  }
}

namespace {

// y += S (a K + b C) S x over contacts [first, last), with S = M^{-1/2} when Scaled (applied on
// the fly instead of in two extra passes over the vectors) and the dimension and the rotations
// fixed at compile time.
template <int Dim, bool Rot, bool Scaled>
void contact_kernel(const std::vector<Contact>& cs, const std::vector<ContactCoefficients>& laws,
                    const std::vector<double>& radius, const std::vector<double>& pmass, double a, double b,
                    const double* scale, const double* x, double* y, std::size_t first, std::size_t last) {
  constexpr Index dpp = Rot ? (Dim == 2 ? 3 : 6) : Dim;
  for (std::size_t k = first; k < last; ++k) {
    const Contact& c = cs[k];
    const ContactCoefficients& l = laws[static_cast<std::size_t>(c.law)];
    const bool pair = c.j >= 0;
    double kn = a * l.kn, kt = a * l.kt;
    if (b != 0.0) {
      const double mi = pmass[static_cast<std::size_t>(c.i)];
      const double m = pair ? mi * pmass[static_cast<std::size_t>(c.j)] / (mi + pmass[static_cast<std::size_t>(c.j)]) : mi;
      kn += b * m * l.cn, kt += b * m * l.ct;
    }
    const Index oi = c.i * dpp, oj = pair ? c.j * dpp : 0;
    double xi[dpp], xj[dpp] = {};
    // scale: per particle (1/sqrt(m), 1/sqrt(I)), so that the dof d of a particle has scale[2p + (d >= Dim)].
    double si[2] = {1.0, 1.0}, sj[2] = {1.0, 1.0};
    if constexpr (Scaled) {
      si[0] = scale[2 * c.i], si[1] = scale[2 * c.i + 1];
      if (pair) sj[0] = scale[2 * c.j], sj[1] = scale[2 * c.j + 1];
    }
    for (Index d = 0; d < dpp; ++d) xi[d] = si[d >= Dim] * x[oi + d];
    if (pair)
      for (Index d = 0; d < dpp; ++d) xj[d] = sj[d >= Dim] * x[oj + d];
    [[maybe_unused]] const double ri = Rot ? radius[static_cast<std::size_t>(c.i)] : 0.0;
    [[maybe_unused]] const double rj = Rot && pair ? radius[static_cast<std::size_t>(c.j)] : 0.0;
    double gi[dpp], gj[dpp];  // J_i^T f and J_j^T f
    const Vec3& n = c.normal;
    if constexpr (Dim == 3) {
      Vec3 u(xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]);
      if constexpr (Rot) u += n.cross(Vec3(ri * xi[3] + rj * xj[3], ri * xi[4] + rj * xj[4], ri * xi[5] + rj * xj[5]));
      const Vec3 f = kt * u + (kn - kt) * n.dot(u) * n;
      for (int d = 0; d < 3; ++d) gi[d] = f[d], gj[d] = -f[d];
      if constexpr (Rot) {
        const Vec3 fxn = f.cross(n);
        for (int d = 0; d < 3; ++d) gi[3 + d] = ri * fxn[d], gj[3 + d] = rj * fxn[d];
      }
    } else {
      // 2D: n x (r phi e_z) = r phi (n_y, -n_x).
      const double tx = n.y(), ty = -n.x();
      double ux = xi[0] - xj[0], uy = xi[1] - xj[1];
      if constexpr (Rot) {
        const double th = ri * xi[2] + rj * xj[2];
        ux += th * tx, uy += th * ty;
      }
      const double un = n.x() * ux + n.y() * uy;
      const double fx = kt * ux + (kn - kt) * un * n.x(), fy = kt * uy + (kn - kt) * un * n.y();
      gi[0] = fx, gi[1] = fy, gj[0] = -fx, gj[1] = -fy;
      if constexpr (Rot) {
        const double ft = fx * tx + fy * ty;
        gi[2] = ri * ft, gj[2] = rj * ft;
      }
    }
    for (Index d = 0; d < dpp; ++d) y[oi + d] += si[d >= Dim] * gi[d];
    if (pair)
      for (Index d = 0; d < dpp; ++d) y[oj + d] += sj[d >= Dim] * gj[d];
  }
}

template <bool Scaled>
void dispatch_kernel(int dim, bool rotation, const std::vector<Contact>& cs, const std::vector<ContactCoefficients>& laws,
                     const std::vector<double>& radius, const std::vector<double>& pmass, double a, double b,
                     const double* scale, const double* x, double* y, std::size_t first, std::size_t last) {
  if (dim == 3 && rotation) contact_kernel<3, true, Scaled>(cs, laws, radius, pmass, a, b, scale, x, y, first, last);
  else if (dim == 3) contact_kernel<3, false, Scaled>(cs, laws, radius, pmass, a, b, scale, x, y, first, last);
  else if (rotation) contact_kernel<2, true, Scaled>(cs, laws, radius, pmass, a, b, scale, x, y, first, last);
  else contact_kernel<2, false, Scaled>(cs, laws, radius, pmass, a, b, scale, x, y, first, last);
}

}  // namespace

void GlobalSystem::apply_range(double a, double b, const double* scale, const double* x, double* y, std::size_t first,
                               std::size_t last) const {
  if (scale) dispatch_kernel<true>(dim_, rotation_, contacts_.contacts, law_lin_, radius_, pmass_, a, b, scale, x, y, first, last);
  else dispatch_kernel<false>(dim_, rotation_, contacts_.contacts, law_lin_, radius_, pmass_, a, b, scale, x, y, first, last);
}

void GlobalSystem::apply_with_scale(double a, double b, const double* scale, const double* x, double* y) const {
  const Index N = dofs();
  const std::size_t nc = contacts_.contacts.size();
  const int T = nc >= 50000 ? std::max(1, threads_) : 1;
  if (T == 1) {
    std::fill(y, y + N, 0.0);
    apply_range(a, b, scale, x, y, 0, nc);
    return;
  }
  // Each thread scatters into its own buffer (thread 0 into y); the buffers are summed after.
  scratch_.resize(static_cast<std::size_t>(T - 1));
  std::vector<std::thread> pool;
  for (int t = 1; t < T; ++t) {
    scratch_[static_cast<std::size_t>(t - 1)].resize(N);
    pool.emplace_back([&, t] {
      Vector& buf = scratch_[static_cast<std::size_t>(t - 1)];
      buf.setZero();
      apply_range(a, b, scale, x, buf.data(), nc * static_cast<std::size_t>(t) / static_cast<std::size_t>(T),
                  nc * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(T));
    });
  }
  std::fill(y, y + N, 0.0);
  apply_range(a, b, scale, x, y, 0, nc / static_cast<std::size_t>(T));
  for (auto& th : pool) th.join();
  for (const Vector& buf : scratch_) Eigen::Map<Vector>(y, N) += buf;
}

void GlobalSystem::apply(double a, double b, const double* x, double* y) const { apply_with_scale(a, b, nullptr, x, y); }

void GlobalSystem::apply_scaled(double a, double b, const double* x, double* y) const {
  apply_with_scale(a, b, particle_scale_.data(), x, y);
}

void GlobalSystem::set_threads(int threads) {
  if (threads < 1) fail(fmt::format("threads = {} must be at least 1", threads));
  threads_ = threads;
}

SparseMatrix GlobalSystem::stiffness() const {
  std::vector<Eigen::Triplet<double>> t;
  const Index dpp = dpp_;
  auto scatter = [&](Index bi, Index bj, const Matrix& blk) {
    for (Index r = 0; r < blk.rows(); ++r)
      for (Index q = 0; q < blk.cols(); ++q)
        if (blk(r, q) != 0.0) t.emplace_back(bi + r, bj + q, blk(r, q));
  };
  for_each_block([&](const Contact& c, const ContactCoefficients&, const JBlock& Ji, const JBlock& Jj, const Mat3& Kc,
                     const Mat3&) {
    const Index bi = c.i * dpp;
    scatter(bi, bi, Ji.transpose() * Kc * Ji);
    if (c.j >= 0) {
      const Index bj = c.j * dpp;
      const Matrix Kij = Ji.transpose() * Kc * Jj;
      scatter(bi, bj, Kij);
      scatter(bj, bi, Kij.transpose());
      scatter(bj, bj, Jj.transpose() * Kc * Jj);
    }
  });
  SparseMatrix K(dofs(), dofs());
  K.setFromTriplets(t.begin(), t.end());
  return K;
}

SparseMatrix GlobalSystem::damping() const {
  std::vector<Eigen::Triplet<double>> t;
  const Index dpp = dpp_;
  auto scatter = [&](Index bi, Index bj, const Matrix& blk) {
    for (Index r = 0; r < blk.rows(); ++r)
      for (Index q = 0; q < blk.cols(); ++q)
        if (blk(r, q) != 0.0) t.emplace_back(bi + r, bj + q, blk(r, q));
  };
  for_each_block([&](const Contact& c, const ContactCoefficients&, const JBlock& Ji, const JBlock& Jj, const Mat3&,
                     const Mat3& Cc) {
    const Index bi = c.i * dpp;
    scatter(bi, bi, Ji.transpose() * Cc * Ji);
    if (c.j >= 0) {
      const Index bj = c.j * dpp;
      const Matrix Cij = Ji.transpose() * Cc * Jj;
      scatter(bi, bj, Cij);
      scatter(bj, bi, Cij.transpose());
      scatter(bj, bj, Jj.transpose() * Cc * Jj);
    }
  });
  SparseMatrix C(dofs(), dofs());
  C.setFromTriplets(t.begin(), t.end());
  return C;
}

LinearSystem GlobalSystem::linear_system() const { return LinearSystem(mass_, stiffness(), damping()); }

double GlobalSystem::gershgorin_omega2() const {
  const Index n = particles(), dpp = dpp_;
  std::vector<double> diag(static_cast<std::size_t>(n * dpp * dpp), 0.0);  // particle diagonal blocks
  Vector offsum = Vector::Zero(dofs());                                    // scaled off-block row sums
  const Vector& s = inv_sqrt_mass_;
  auto add_diag = [&](Index i, const Matrix& B) {
    double* D = diag.data() + i * dpp * dpp;
    for (Index r = 0; r < dpp; ++r)
      for (Index q = 0; q < dpp; ++q) D[r * dpp + q] += B(r, q);
  };
  for_each_block([&](const Contact& c, const ContactCoefficients&, const JBlock& Ji, const JBlock& Jj, const Mat3& Kc,
                     const Mat3&) {
    add_diag(c.i, Ji.transpose() * Kc * Ji);
    if (c.j < 0) return;
    if (c.j == c.i) {  // a particle touching its own image: all four blocks are diagonal
      add_diag(c.i, Ji.transpose() * Kc * Jj + Jj.transpose() * Kc * Ji + Jj.transpose() * Kc * Jj);
      return;
    }
    add_diag(c.j, Jj.transpose() * Kc * Jj);
    const Matrix B = Ji.transpose() * Kc * Jj;
    for (Index r = 0; r < dpp; ++r)
      for (Index q = 0; q < dpp; ++q) {
        const double v = std::abs(B(r, q));
        offsum[c.i * dpp + r] += v * s[c.j * dpp + q];
        offsum[c.j * dpp + q] += v * s[c.i * dpp + r];
      }
  });
  double best = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double* D = diag.data() + i * dpp * dpp;
    for (Index r = 0; r < dpp; ++r) {
      double row = 0.0;
      for (Index q = 0; q < dpp; ++q) row += std::abs(D[r * dpp + q]) * s[i * dpp + q];
      row = s[i * dpp + r] * (row + offsum[i * dpp + r]);
      best = std::max(best, row);
    }
  }
  return best;
}

double GlobalSystem::yade_global_stiffness_step(double safety) const {
  const Index n = particles();
  std::vector<Vec3> kt(static_cast<std::size_t>(n), Vec3::Zero()), kr(static_cast<std::size_t>(n), Vec3::Zero());
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& c = contacts_.contacts[k];
    const ContactCoefficients q = coef(c);
    const Vec3 n2 = c.normal.cwiseProduct(c.normal);
    const Vec3 trans = (q.kn - q.kt) * n2 + Vec3::Constant(q.kt);
    const Vec3 rot = q.kt * (Vec3::Ones() - n2);
    auto add = [&](Index b) {
      const double R = radius_[static_cast<std::size_t>(b)];
      kt[static_cast<std::size_t>(b)] += trans;
      kr[static_cast<std::size_t>(b)] += R * R * rot;
    };
    add(c.i);
    if (c.j >= 0) add(c.j);
  }
  double best = std::numeric_limits<double>::infinity();
  for (Index b = 0; b < n; ++b) {
    const auto ub = static_cast<std::size_t>(b);
    double kmax = 0.0;
    for (int d = 0; d < dim_; ++d) kmax = std::max(kmax, kt[ub][d]);
    if (kmax == 0.0) continue;  // no contact
    double dt2 = pmass_[ub] / kmax;
    if (rotation_) {
      for (int d = 0; d < 3; ++d) {
        if (dim_ == 2 && d != 2) continue;
        if (kr[ub][d] > 0.0) dt2 = std::min(dt2, inertia_[ub] / kr[ub][d]);
      }
    }
    best = std::min(best, 1.41044 * safety * std::sqrt(dt2));
  }
  return best;
}

double GlobalSystem::single_contact_omega_max() const {
  double w2 = 0.0;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& c = contacts_.contacts[k];
    const ContactCoefficients q = coef(c);
    const auto i = static_cast<std::size_t>(c.i);
    double inv_m = 1.0 / pmass_[i], rot = radius_[i] * radius_[i] / inertia_[i];
    if (c.j >= 0) {
      const auto j = static_cast<std::size_t>(c.j);
      inv_m += 1.0 / pmass_[j];
      rot += radius_[j] * radius_[j] / inertia_[j];
    }
    if (!rotation_) rot = 0.0;
    w2 = std::max({w2, q.kn * inv_m, q.kt * (inv_m + rot)});
  }
  return std::sqrt(w2);
}

// --- eigenvalues ------------------------------------------------------------------------------

namespace {

struct ScaledOperator {
  using Scalar = double;
  const GlobalSystem* sys;
  double a, b;
  Index rows() const { return sys->dofs(); }
  Index cols() const { return sys->dofs(); }
  void perform_op(const double* x, double* y) const { sys->apply_scaled(a, b, x, y); }
};

Matrix dense_scaled(const GlobalSystem& s, double a, double b) {
  const Vector w = s.mass().cwiseSqrt().cwiseInverse();
  Matrix A = Matrix(a * s.stiffness() + b * s.damping());
  return w.asDiagonal() * A * w.asDiagonal();
}

}  // namespace

double largest_eigen_dense(const GlobalSystem& s, double a, double b) {
  Eigen::SelfAdjointEigenSolver<Matrix> es(dense_scaled(s, a, b), Eigen::EigenvaluesOnly);
  return es.eigenvalues().maxCoeff();
}

EigenMethod parse_eigen_method(const std::string& name) {
  if (name == "auto") return EigenMethod::automatic;
  if (name == "dense") return EigenMethod::dense;
  if (name == "lanczos") return EigenMethod::lanczos;
  if (name == "spectra") return EigenMethod::spectra;
  fail(fmt::format("eigensolver '{}' is not known; expected auto, dense, lanczos or spectra", name));
}

ExtremeEigen largest_eigen(const GlobalSystem& s, double a, double b, const EigenOptions& opts) {
  const Index N = s.dofs();
  EigenMethod method = opts.method;
  if (method == EigenMethod::automatic)
    method = N <= std::max<Index>(opts.dense_below, 2) ? EigenMethod::dense : EigenMethod::lanczos;
  if (method == EigenMethod::spectra && N < 3) method = EigenMethod::dense;  // Spectra needs ncv > nev + 1
  ExtremeEigen out;
  bool have_residual = false;
  switch (method) {
    case EigenMethod::automatic:
    case EigenMethod::dense: {
      Eigen::SelfAdjointEigenSolver<Matrix> es(dense_scaled(s, a, b));
      out.lambda = es.eigenvalues()[N - 1];  // ascending order
      out.vector = es.eigenvectors().col(N - 1);
      out.method = "dense";
      break;
    }
    case EigenMethod::lanczos: {
      linalg::LanczosOptions lo;
      lo.tolerance = opts.tolerance;
      lo.max_steps = opts.max_steps;
      lo.want_vector = opts.want_vector;
      lo.progress = opts.progress;
      const linalg::LanczosResult r =
          linalg::lanczos_largest(N, [&](const double* x, double* y) { s.apply_scaled(a, b, x, y); }, lo);
      if (!r.converged)
        fail(fmt::format("Lanczos (three-term) did not reach tolerance {} in {} steps (residual {:.3g} of lambda)",
                         opts.tolerance, r.steps, r.residual_estimate / std::abs(r.lambda)));
      out.lambda = r.lambda;
      out.vector = r.vector;
      out.residual = r.residual_estimate;
      out.operations = r.operations;
      out.method = "lanczos";
      have_residual = !opts.want_vector;
      break;
    }
    case EigenMethod::spectra: {
      ScaledOperator op{&s, a, b};
      const Index ncv = std::min(std::max<Index>(opts.ncv, 3), N);
      Spectra::SymEigsSolver<ScaledOperator> eigs(op, 1, ncv);
      eigs.init();
      eigs.compute(Spectra::SortRule::LargestAlge, opts.max_restarts, opts.tolerance);
      if (eigs.info() != Spectra::CompInfo::Successful)
        fail(fmt::format("Lanczos (Spectra SymEigsSolver, ncv = {}) did not converge in {} restarts to tolerance {}",
                         ncv, opts.max_restarts, opts.tolerance));
      out.lambda = eigs.eigenvalues()[0];
      out.vector = eigs.eigenvectors().col(0);
      out.operations = eigs.num_operations();
      out.method = "spectra";
      break;
    }
  }
  if (!have_residual) {
    Vector Av(N);
    s.apply_scaled(a, b, out.vector.data(), Av.data());
    out.residual = (Av - out.lambda * out.vector).norm();
    ++out.operations;
  }
  return out;
}

DampedLimit half_step_damped_limit(const GlobalSystem& s, double omega_max, const EigenOptions& opts,
                                   double top_mode_zeta) {
  require_positive("omega_max", omega_max);
  require_non_negative("top_mode_zeta", top_mode_zeta);
  DampedLimit out;
  const double h_max = 2.0 / omega_max;  // the undamped limit bounds the damped one
  if (!s.damped()) {
    out.h_crit = h_max;
    out.lambda_at_root = 4.0;
    out.converged = true;
    return out;
  }
  EigenOptions o = opts;
  // Every solve starts from the same random vector, never from the last eigenvector: a Krylov space
  // started inside one invariant subspace of A(h) (a symmetry sector of a lattice) stays in it, and
  // the top mode of h^2 K + 2h C can lie in another sector than the one at the previous h. Warm
  // starts gave a bcc lattice's damped limit 1.4 % too large (unsafe), with converged residuals.
  double h = 2.0 * (std::sqrt(1.0 + top_mode_zeta * top_mode_zeta) - top_mode_zeta) / omega_max;
  // First derivative: that of the top mode's own Rayleigh quotient v0^T (h^2 K~ + 2h C~) v0, exact
  // when damping does not mix the modes; later ones from the eigenvector at h while steps are large.
  double dg = 2.0 * h * omega_max * omega_max + 4.0 * top_mode_zeta * omega_max;
  bool fresh_derivative = false;
  for (int it = 1; it <= 60; ++it) {
    // The derivative needs the eigenvector (a second Lanczos pass). Once the steps are below 1e-6 h
    // the last derivative is kept: g' changes by O(step) and its error enters the next step squared.
    o.want_vector = fresh_derivative;
    const ExtremeEigen e = largest_eigen(s, h * h, 2.0 * h, o);
    out.iterations = it;
    out.lambda_at_root = e.lambda;
    const double g = e.lambda - 4.0;
    if (!std::isfinite(g)) break;  // NaN guard: not converged, h_crit NaN below
    if (fresh_derivative) {  // g'(h) = v^T (2h K~ + 2 C~) v (Hellmann-Feynman)
      Vector w(s.dofs());
      s.apply_scaled(2.0 * h, 2.0, e.vector.data(), w.data());
      dg = e.vector.dot(w);
      if (std::isnan(dg)) break;
      if (!(dg > 0.0)) fail("damped limit: lambda_max(h^2 K + 2h C) does not grow with h");
    }
    const double step = g / dg;
    // Convex and increasing: from the right (g >= 0) Newton moves left and never passes the root.
    // g < 0 (a start or a Ritz value just left of it) moves right, past the root, at most to h_max.
    const double h_new = g >= 0.0 ? std::clamp(h - step, 0.5 * h, h) : std::min(h - step, h_max);
    const bool done = std::abs(h_new - h) <= 1e-12 * h;
    fresh_derivative = std::abs(h_new - h) > 1e-6 * h;
    h = h_new;
    if (done) {
      out.converged = std::isfinite(h) && h > 0.0;
      break;
    }
  }
  out.h_crit = out.converged ? h : std::numeric_limits<double>::quiet_NaN();
  return out;
}

double half_step_damped_limit_dense(const GlobalSystem& s) {
  // S(h) is congruent to M^{-1/2} S(h) M^{-1/2} = 4 I - 2h C~ - h^2 K~, whose eigenvalues are of one
  // scale (those of S itself mix m and I, 1e7 apart for millimetre spheres, and lose 7 digits).
  const Matrix K = dense_scaled(s, 1.0, 0.0), C = dense_scaled(s, 0.0, 1.0);
  const Matrix I = Matrix::Identity(s.dofs(), s.dofs());
  auto positive_definite = [&](double h) {
    Eigen::SelfAdjointEigenSolver<Matrix> es(4.0 * I - 2.0 * h * C - h * h * K, Eigen::EigenvaluesOnly);
    return es.eigenvalues().minCoeff() > 0.0;
  };
  const double wmax = std::sqrt(largest_eigen_dense(s, 1.0, 0.0));
  double lo = 0.0, hi = 2.0 / wmax * (1.0 + 1e-9);
  if (positive_definite(hi)) return hi;
  for (int k = 0; k < 200 && hi - lo > 1e-14 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (positive_definite(mid) ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace dtcrit::packing
