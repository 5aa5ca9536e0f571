#include "dtcrit/integrators/runge_kutta.hpp"

#include <cmath>

#include "dtcrit/core/check.hpp"

namespace dtcrit {

const ButcherTableau& classical_rk4_tableau() {
  static const ButcherTableau tableau{"rk4",
                                      {{0.0, 0.0, 0.0, 0.0}, {0.5, 0.0, 0.0, 0.0}, {0.0, 0.5, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.0}},
                                      {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0},
                                      {0.0, 0.5, 0.5, 1.0}};
  return tableau;
}

std::vector<double> stability_polynomial(const ButcherTableau& t) {
  const std::size_t s = t.b.size();
  std::vector<double> r{1.0}, v(s, 1.0);  // v = A^(k-1) 1
  for (std::size_t k = 1; k <= s; ++k) {
    double rk = 0.0;
    for (std::size_t i = 0; i < s; ++i) rk += t.b[i] * v[i];
    r.push_back(rk);
    std::vector<double> next(s, 0.0);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < s; ++j) next[i] += t.a[i][j] * v[j];
    v = std::move(next);
  }
  while (r.size() > 1 && r.back() == 0.0) r.pop_back();
  return r;
}

ExplicitRungeKutta::ExplicitRungeKutta(ButcherTableau tableau)
    : BlockStateIntegrator(tableau.name, {&x_, &v_}), tab_(std::move(tableau)) {
  const std::size_t s = tab_.b.size();
  if (s == 0 || tab_.c.size() != s || tab_.a.size() != s)
    fail(fmt::format("Butcher tableau '{}': b has {} entries, c {}, a {} rows; they must agree", tab_.name, s,
                     tab_.c.size(), tab_.a.size()));
  double sum_b = 0.0;
  for (std::size_t i = 0; i < s; ++i) {
    if (tab_.a[i].size() != s) fail(fmt::format("Butcher tableau '{}': row {} of a has {} entries, expected {}", tab_.name, i, tab_.a[i].size(), s));
    double row = 0.0;
    for (std::size_t j = 0; j < s; ++j) {
      if (j >= i && tab_.a[i][j] != 0.0)
        fail(fmt::format("Butcher tableau '{}': a[{}][{}] = {} makes the method implicit", tab_.name, i, j, tab_.a[i][j]));
      row += tab_.a[i][j];
    }
    if (std::abs(row - tab_.c[i]) > 1e-14)
      fail(fmt::format("Butcher tableau '{}': c[{}] = {} differs from the row sum {} of a", tab_.name, i, tab_.c[i], row));
    sum_b += tab_.b[i];
  }
  if (std::abs(sum_b - 1.0) > 1e-14) fail(fmt::format("Butcher tableau '{}': weights sum to {}, not 1", tab_.name, sum_b));
  kx_.resize(s);
  kv_.resize(s);
}

void ExplicitRungeKutta::start(MechanicalSystem& sys, double t0, const Vector& x0, const Vector& v0, double h) {
  begin(sys, t0, x0, v0, h);
}

void ExplicitRungeKutta::step(MechanicalSystem& sys) {
  const double h = step_size(), t = time();
  const std::size_t s = tab_.b.size();
  for (std::size_t i = 0; i < s; ++i) {
    xs_ = x_;
    vs_ = v_;
    for (std::size_t j = 0; j < i; ++j) {
      if (tab_.a[i][j] == 0.0) continue;
      xs_ += h * tab_.a[i][j] * kx_[j];
      vs_ += h * tab_.a[i][j] * kv_[j];
    }
    sys.force(t + tab_.c[i] * h, xs_, vs_, f_);
    kx_[i] = vs_;
    kv_[i] = accel(f_);
  }
  for (std::size_t i = 0; i < s; ++i) {
    if (tab_.b[i] == 0.0) continue;
    x_ += h * tab_.b[i] * kx_[i];
    v_ += h * tab_.b[i] * kv_[i];
  }
  if (sys.history().size() > 0) sys.force(t + h, x_, v_, f_);
  tick();
  sys.accept_step();
}

}  // namespace dtcrit
