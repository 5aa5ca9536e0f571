// linalg's dense eigenproblems: general_eigenvalues (LAPACK's dgeev from order 128, Eigen's EigenSolver
// below) and the wrapped Eigen solvers, on matrices whose eigenvalues are known by construction.
#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include <Eigen/QR>
#include <catch2/catch.hpp>

#include "dtcrit/linalg/dense_eigenvalues.hpp"

namespace {

using dtcrit::Matrix;
using Complex = std::complex<double>;

// A real matrix S diag(blocks) S^-1 with the given eigenvalues: each complex pair a +- ib as the
// block [[a, -b], [b, a]], each real one alone; S a random, well-conditioned (I + small) matrix.
Matrix with_eigenvalues(const std::vector<Complex>& pairs_and_reals, std::mt19937_64& rng, dtcrit::Index n) {
  Matrix D = Matrix::Zero(n, n);
  dtcrit::Index k = 0;
  for (Complex z : pairs_and_reals) {
    if (z.imag() == 0.0) {
      D(k, k) = z.real();
      ++k;
    } else {
      D(k, k) = D(k + 1, k + 1) = z.real();
      D(k, k + 1) = -z.imag();
      D(k + 1, k) = z.imag();
      k += 2;
    }
  }
  REQUIRE(k == n);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix S = Matrix::Identity(n, n);
  for (dtcrit::Index i = 0; i < n; ++i)
    for (dtcrit::Index j = 0; j < n; ++j) S(i, j) += 0.3 * u(rng) / std::sqrt(static_cast<double>(n));
  return S * D * S.inverse();
}

std::vector<Complex> sorted(std::vector<Complex> v) {
  std::sort(v.begin(), v.end(), [](Complex a, Complex b) { return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag(); });
  return v;
}

}  // namespace

TEST_CASE("general_eigenvalues: every eigenvalue of a non-symmetric matrix, on both sides of LAPACK's order",
          "[linalg]") {
  std::mt19937_64 rng(1202);
  for (dtcrit::Index n : {dtcrit::Index{40}, dtcrit::linalg::lapack_from_order - 1, dtcrit::linalg::lapack_from_order, dtcrit::Index{300}}) {
    // Half the order as complex pairs on a circle of radius 0.99..1.01 (what an amplification matrix
    // near its limit has), the rest real, spread over [-2, 2].
    std::vector<Complex> want, listed;
    dtcrit::Index k = 0;
    for (dtcrit::Index p = 0; k + 2 <= n / 2; ++p, k += 2) {
      const double r = 0.99 + 0.02 * static_cast<double>(p) / static_cast<double>(n), t = 0.1 + 3.0 * static_cast<double>(p) / static_cast<double>(n);
      listed.push_back(std::polar(r, t));
      want.push_back(std::polar(r, t));
      want.push_back(std::polar(r, -t));
    }
    for (; k < n; ++k) {
      const double x = -2.0 + 4.0 * static_cast<double>(k) / static_cast<double>(n);
      listed.emplace_back(x, 0.0);
      want.emplace_back(x, 0.0);
    }
    const Matrix A = with_eigenvalues(listed, rng, n);
    const auto got = dtcrit::linalg::general_eigenvalues(A);
    REQUIRE(got.has_value());
    REQUIRE(got->size() == n);
    const auto g = sorted({got->data(), got->data() + n}), w = sorted(want);
    double worst = 0.0;
    for (dtcrit::Index i = 0; i < n; ++i) worst = std::max(worst, std::abs(g[static_cast<std::size_t>(i)] - w[static_cast<std::size_t>(i)]));
    INFO("order " << n << " (" << dtcrit::linalg::general_eigenvalues_solver(n) << "): worst error " << worst);
    CHECK(worst < 1e-9);
  }
  CHECK(std::string(dtcrit::linalg::general_eigenvalues_solver(127)) == "Eigen::EigenSolver");
  CHECK(std::string(dtcrit::linalg::general_eigenvalues_solver(128)) == "LAPACK dgeev");
}

TEST_CASE("symmetric_eigen, generalized_symmetric_eigen and eigen_solver: known spectra, A v = lambda v", "[linalg]") {
  using dtcrit::Index;
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Index n = 30;
  // Q diag(1..n) Q^T with Q orthogonal (the Q of a random matrix's QR): eigenvalues 1..n.
  Matrix R(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) R(i, j) = u(rng);
  const Matrix Q = Eigen::HouseholderQR<Matrix>(R).householderQ();
  Eigen::VectorXd d(n);
  for (Index i = 0; i < n; ++i) d[i] = static_cast<double>(i + 1);
  const Matrix A = Q * d.asDiagonal() * Q.transpose();

  const auto s = dtcrit::linalg::symmetric_eigen(A, true);
  REQUIRE(s.converged);
  CHECK((s.values - d).cwiseAbs().maxCoeff() < 1e-12 * n);  // ascending
  CHECK((A * s.vectors - s.vectors * s.values.asDiagonal()).norm() < 1e-11 * n);
  CHECK(dtcrit::linalg::symmetric_eigen(A, false).vectors.size() == 0);
  CHECK(dtcrit::linalg::symmetric_eigenvalues(A) == s.values);

  // A x = lambda B x with B = diag(b): the eigenvalues of B^-1/2 A B^-1/2.
  Eigen::VectorXd b(n);
  for (Index i = 0; i < n; ++i) b[i] = 1.0 + 0.5 * u(rng) * u(rng);
  const Matrix B = b.asDiagonal();
  const auto g = dtcrit::linalg::generalized_symmetric_eigen(A, B, true);
  REQUIRE(g.converged);
  const Eigen::VectorXd w = b.cwiseInverse().cwiseSqrt();
  const Eigen::VectorXd want = dtcrit::linalg::symmetric_eigenvalues(w.asDiagonal() * A * w.asDiagonal());
  CHECK((g.values - want).cwiseAbs().maxCoeff() < 1e-12 * n);
  CHECK((A * g.vectors - B * g.vectors * g.values.asDiagonal()).norm() < 1e-11 * n);

  // A rotation by t in the plane of the first two axes, scaled by 2: eigenvalues 2 e^(+-it), then 1..n-2.
  Matrix G = Matrix::Zero(n, n);
  const double t = 0.7;
  G.topLeftCorner(2, 2) << 2 * std::cos(t), -2 * std::sin(t), 2 * std::sin(t), 2 * std::cos(t);
  for (Index i = 2; i < n; ++i) G(i, i) = static_cast<double>(i - 1);
  const Matrix N = Q * G * Q.transpose();
  const auto e = dtcrit::linalg::eigen_solver(N, true);
  REQUIRE(e.converged);
  int found = 0;  // 2 e^(it) and its conjugate, once each
  for (Index i = 0; i < n; ++i)
    found += std::abs(e.values[i] - std::polar(2.0, t)) < 1e-12 || std::abs(e.values[i] - std::polar(2.0, -t)) < 1e-12;
  CHECK(found == 2);
  CHECK((N.cast<Complex>() * e.vectors - e.vectors * e.values.asDiagonal()).norm() < 1e-11 * n);
}
