#include "dtcrit/sweep/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/roots.hpp"
#include "dtcrit/integrators/integrate.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit::sweep {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// What one run of a case produced.
struct RunRecord {
  std::vector<Observation> outputs;  // outputs[i] at t0 + i * (stride h), i = 0 .. n_out
  std::vector<double> offsets;       // velocity_offset() at each output [s]
  std::map<std::string, double> outcomes;
  bool blew_up = false;
  SolverStatus solver;
};

Observation nan_observation(const SweepCase& c, const Observation& like) {
  Observation o = like;
  for (auto& v : o.channels) v.setConstant(nan);
  o.kinetic = nan;
  (void)c;
  return o;
}

// Runs `steps` steps of h, observing every `stride` steps (stride = 0: no channel outputs).
RunRecord run_case(const SweepCase& c, const std::string& spec, double h, double delay, long steps, long stride) {
  RunSetup s = c.build(delay);
  MechanicalSystem& sys = *s.system;  // Integrator::start commits its history at (t0, x0, v0)
  const auto integ = make_integrator(spec);
  integ->start(sys, s.t0, s.x0, s.v0, h);
  const auto mon = c.monitor(sys);
  RunRecord r;
  if (stride > 0) {
    r.outputs.reserve(static_cast<std::size_t>(steps / stride + 1));
    r.outputs.push_back(c.observe(sys, s.x0, s.v0));
    r.offsets.push_back(0.0);
  }
  // A monitor samples every step; without one only the outputs (and the last step) are looked at.
  const long every = mon ? 1 : stride > 0 ? stride : steps;
  r.blew_up = integrate_n_steps(*integ, sys, steps, every, [&](const Integrator& in, const Vector& x, const Vector& v) {
                const double off = in.velocity_offset();
                if (mon) mon->sample(in.time(), x, in.time() + off, v);
                if (stride > 0 && in.steps_taken() % stride == 0) {
                  r.outputs.push_back(c.observe(sys, x, v));
                  r.offsets.push_back(off);
                }
              }).blew_up();
  if (stride > 0) {
    const Observation blank = nan_observation(c, r.outputs.front());
    while (static_cast<long>(r.outputs.size()) <= steps / stride) {
      r.outputs.push_back(blank);
      r.offsets.push_back(0.0);
    }
  }
  if (mon) r.outcomes = mon->outcomes();
  r.solver = integ->solver_status();
  if (r.blew_up)
    for (auto& [k, v] : r.outcomes) v = nan;
  return r;
}

void merge(SolverStatus& into, const SolverStatus& s) {
  into.steps += s.steps;
  into.unconverged_steps += s.unconverged_steps;
  into.max_iterations = std::max(into.max_iterations, s.max_iterations);
  into.worst_residual = std::max(into.worst_residual, s.worst_residual);
  if (into.first_failure.empty()) into.first_failure = s.first_failure;
}

// A fine reference run of one phase: observations every `spacing` = h_min / 2.
struct Reference {
  double t0 = 0.0, spacing = 0.0;
  RunRecord run;
  const Observation& at(double t) const {
    const double q = (t - t0) / spacing;
    const long i = std::lround(q);
    if (std::abs(q - static_cast<double>(i)) > 1e-6 || i < 0 || i >= static_cast<long>(run.outputs.size()))
      fail(fmt::format("sweep: time {} is not on the reference grid (spacing {})", t, spacing));
    return run.outputs[static_cast<std::size_t>(i)];
  }
};

// Error of one run against the exact solution or a reference, per channel: max over outputs of
// |obs - ref| / scale.
std::vector<double> run_errors(const SweepCase& c, const RunRecord& r, double delay, double t0, double h_out,
                               const Reference* ref) {
  const auto& ch = c.channels();
  std::vector<double> err(ch.size(), 0.0);
  if (r.blew_up) return std::vector<double>(ch.size(), inf);
  for (std::size_t i = 1; i < r.outputs.size(); ++i) {
    const double t = t0 + static_cast<double>(i) * h_out, tv = t + r.offsets[i];
    const Observation& o = r.outputs[i];
    std::optional<Observation> exact;
    if (!ref) exact = c.exact(delay, t, tv);
    for (std::size_t k = 0; k < ch.size(); ++k) {
      Vector expected;
      if (exact) {
        expected = exact->channels[k];
      } else if (ch[k].level == Level::position) {
        expected = ref->at(t).channels[k];
      } else if (ch[k].level == Level::velocity) {
        expected = ref->at(tv).channels[k];
      } else {  // E(x(t), v(tv)) = E(t) - K(t) + K(tv)
        const Observation& a = ref->at(t);
        expected = a.channels[k].array() - a.kinetic + ref->at(tv).kinetic;
      }
      const double e = (o.channels[k] - expected).norm() / ch[k].scale;
      err[k] = std::isfinite(e) ? std::max(err[k], e) : inf;
    }
  }
  return err;
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return nan;
  double s = 0.0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double relative_error(double value, double ref) {
  if (!std::isfinite(value)) return inf;
  return std::abs(value - ref) / std::max(std::abs(ref), 1e-300);
}

}  // namespace

namespace {

template <class E, std::size_t N>
E parse_status(std::string_view text, const EnumName<E> (&names)[N], const char* what) {
  if (const auto v = value_named(text, names)) return *v;
  fail(fmt::format("'{}' is not a {} status", text, what));
}

}  // namespace

std::string_view to_string(EmpiricalStatus s) { return name_of(s, empirical_status_names); }
EmpiricalStatus parse_empirical_status(std::string_view text) { return parse_status(text, empirical_status_names, "stability"); }
std::string_view to_string(AccuracyStatus s) { return name_of(s, accuracy_status_names); }
AccuracyStatus parse_accuracy_status(std::string_view text) { return parse_status(text, accuracy_status_names, "accuracy"); }

StabilityRun stability_run(const SweepCase& c, const std::string& spec, double h, const SweepOptions& o) {
  StabilityRun out;
  RunSetup s = c.build(0.0);
  MechanicalSystem& sys = *s.system;
  const double floor = c.energy_floor();
  const double E0 = sys.energy(s.x0, s.v0);
  const double base = std::max(E0 - floor, 1e-300);
  const long steps = std::max(o.stability_steps, static_cast<long>(std::ceil(c.t_end() / h)));
  out.steps = steps;
  std::unique_ptr<Integrator> integ;
  try {
    integ = make_integrator(spec);
    integ->start(sys, s.t0, s.x0, s.v0, h);
    // Checked every 8 steps: energy growth beyond `growth` times its start is a blow-up too.
    const IntegrateRun run = integrate_n_steps(*integ, sys, steps, 8, [&](const Integrator&, const Vector& x, const Vector& v) {
      const double E = sys.energy(x, v);
      return std::isfinite(E) && !(E - floor > o.growth * base);
    });
    out.steps_taken = run.steps;
    if (run.end != RunEnd::completed) return out.blew_up = true, out;
    out.unconverged = !integ->solver_status().ok();
  } catch (const std::exception&) {
    out.blew_up = true;  // a solver failing on a diverging state counts as a blow-up
    if (integ) out.steps_taken = integ->steps_taken();  // the steps completed before it failed
  }
  return out;
}

namespace {

// Runs f(i) for every i in `order` on up to `threads` threads (the caller's included). Every task
// runs even if some fail; then the exception of the lowest i is rethrown: the one a serial loop
// over i = 0, 1, ... would have thrown first (it would not have run the later tasks).
template <class F>
void parallel_for(const std::vector<std::size_t>& order, unsigned threads, F&& f) {
  const std::size_t n = order.size();
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k; (k = next++) < n;) {
      try {
        f(order[k]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < std::min<std::size_t>(threads, n); ++t) pool.emplace_back(work);
    work();
  }  // joined
  std::size_t first = n;
  for (std::size_t k = 0; k < n; ++k)
    if (errors[k] && (first == n || order[k] < order[first])) first = k;
  if (first < n) std::rethrow_exception(errors[first]);
}

class Engine {
 public:
  Engine(const SweepCase& c, const SweepOptions& o) : c_(c), o_(o) {
    levels_ = o.levels > 0 ? o.levels : c.levels();
    phases_ = o.phases > 0 ? o.phases : c.phases();
    h0_ = o.h0 > 0.0 ? o.h0 : c.h0();
    ref_spec_ = o.reference.empty() ? c.reference_integrator() : o.reference;
    ref_r_ = o.reference_refinement >= 0 ? o.reference_refinement : c.reference_refinement();
    if (levels_ < 2 || levels_ > 24) fail(fmt::format("levels = {} must lie in [2, 24]", levels_));
    if (phases_ < 1 || phases_ > 64) fail(fmt::format("phases = {} must lie in [1, 64]", phases_));
    if (ref_r_ < 1 || ref_r_ > 12) fail(fmt::format("reference refinement = {} must lie in [1, 12]", ref_r_));
    // The case's t_end covers onsets delayed by up to its own h0; a coarser h0 delays them by up to
    // that, so the run is lengthened by the difference (else a late phase's collision would not end).
    n_out_ = static_cast<long>(std::floor((c.t_end() + std::max(0.0, h0_ - c.h0())) / h0_ + 1e-9));
    if (n_out_ < 1) fail(fmt::format("h0 = {} is longer than the run (t_end = {})", h0_, c.t_end()));
    for (int j = 0; j < phases_; ++j) {
      const double u = phases_ == 1 ? 0.0 : std::fmod(0.5 + 0.6180339887498949 * j, 1.0);
      delays_.push_back(u * h0_);
    }
  }

  SweepResult run(const std::string& tangential) {
    SweepResult res;
    res.case_name = c_.name();
    res.description = c_.description();
    res.parameters = c_.parameters();
    res.tangential = tangential;
    res.tangential_matters = c_.uses_tangential_history();
    res.transient_contacts = c_.transient_contacts();
    res.channels = c_.channels();
    res.h0 = h0_;
    res.t_end = static_cast<double>(n_out_) * h0_;
    res.time_scale = c_.time_scale();
    res.time_scale_name = c_.time_scale_name();
    res.levels = levels_;
    res.phases = phases_;
    res.phase_delays = delays_;
    res.reference = c_.has_exact() ? "analytic" : fmt::format("{} at h_min/{}", ref_spec_, 1L << ref_r_);
    const bool stability = o_.stability < 0 ? c_.stability_by_default() : o_.stability > 0;
    if (stability) {
      lin_ = c_.linearise();
      if (lin_) {
        res.linearisation = lin_->what;
        res.omega_max = lin_->omega_max;
      }
    }
    const std::size_t n = o_.integrators.size();
    std::vector<const IntegratorInfo*> infos;
    for (const auto& spec : o_.integrators) infos.push_back(&integrator_info(spec));  // a bad spec fails here
    // Everything the integrators share is made before they run and only read after: the predicted
    // limits (critical_step works on the one linearised system) and the reference runs.
    std::vector<PredictedLimit> predicted(n);
    if (stability && lin_)
      for (std::size_t i = 0; i < n; ++i) {
        const CriticalStep cs = critical_step(o_.integrators[i], *lin_->system, lin_->omega_max);
        predicted[i].stability = cs.stability;
        predicted[i].h = cs.h_crit;
      }
    const unsigned threads = o_.threads > 0 ? static_cast<unsigned>(o_.threads)
                                            : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::size_t> ref_phases;
    for (int j = 0; j < phases_; ++j)
      if (needs_reference(j)) ref_phases.push_back(static_cast<std::size_t>(j));
    if (!ref_phases.empty()) (void)integrator_info(ref_spec_);  // a bad --reference fails here
    planned_ = n * static_cast<std::size_t>(levels_ * phases_) + ref_phases.size();
    refs_.resize(static_cast<std::size_t>(phases_));
    const auto ref_start = std::chrono::steady_clock::now();
    parallel_for(ref_phases, threads, [&](std::size_t j) { refs_[j] = make_reference(static_cast<int>(j)); });
    res.reference_seconds = ref_phases.empty() ? 0.0 : seconds_since(ref_start);
    // The integrators, implicit ones (the slow ones) first so that the threads finish together;
    // each result goes to its own slot, so the output is in the given order whatever the threads.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return !infos[i]->is_explicit; });
    res.integrators.resize(n);
    parallel_for(order, threads, [&](std::size_t i) {
      res.integrators[i] = sweep_integrator(o_.integrators[i], stability, predicted[i]);
    });
    return res;
  }

 private:
  void tick(std::size_t more_planned = 0) {
    std::lock_guard lock(progress_mutex_);  // integrators run on several threads
    planned_ += more_planned;
    ++done_;
    if (o_.progress) o_.progress(done_, std::max(done_, planned_));
  }
  double h(int k) const { return h0_ / static_cast<double>(1L << k); }

  // Phase j needs a fine reference run: the case has no analytic solution, or its runs have
  // outcomes (a monitor) without analytic ones.
  bool needs_reference(int j) const {
    if (!c_.has_exact()) return true;
    const RunSetup s = c_.build(delays_[static_cast<std::size_t>(j)]);
    return c_.monitor(*s.system) != nullptr && c_.exact_outcomes(delays_[static_cast<std::size_t>(j)]).empty();
  }

  Reference make_reference(int phase) {
    const double h_ref = h(levels_ - 1) / static_cast<double>(1L << ref_r_);
    const long stride = 1L << (ref_r_ - 1);
    const long steps = n_out_ * (1L << (levels_ - 1 + ref_r_));
    Reference r;
    r.spacing = h_ref * static_cast<double>(stride);
    r.run = run_case(c_, ref_spec_, h_ref, delays_[static_cast<std::size_t>(phase)], steps, stride);
    for (double off : r.run.offsets)
      if (off != 0.0) fail(fmt::format("reference integrator '{}' must keep velocities at whole steps", ref_spec_));
    if (r.run.blew_up) fail(fmt::format("the reference run ({} at h = {}) blew up", ref_spec_, h_ref));
    tick();
    return r;
  }

  const Reference& reference(int phase) const {
    const auto& ref = refs_.at(static_cast<std::size_t>(phase));
    if (!ref) fail(fmt::format("sweep: the reference run of phase {} was not made (needs_reference)", phase));
    return *ref;
  }

  // The case's exact outcomes; those it knows no exact value for from its reference run, where one
  // is made (chung-ooi-4: the normal outcomes exact, the tangential ones from the run).
  std::map<std::string, double> reference_outcomes(int phase) const {
    auto out = c_.exact_outcomes(delays_[static_cast<std::size_t>(phase)]);
    if (out.empty()) return reference(phase).run.outcomes;
    if (const auto& ref = refs_[static_cast<std::size_t>(phase)])
      for (const auto& [name, value] : ref->run.outcomes) out.emplace(name, value);
    return out;
  }

  IntegratorSweep sweep_integrator(const std::string& spec, bool stability, const PredictedLimit& predicted) {
    const auto start = std::chrono::steady_clock::now();
    IntegratorSweep out;
    const auto& info = integrator_info(spec);
    out.spec = spec;
    out.declared_order = info.order;
    out.declared_order_damped = info.order_damped;
    out.is_explicit = info.is_explicit;
    const auto& ch = c_.channels();
    for (int k = 0; k < levels_; ++k) {
      SweepPoint p;
      p.level = k;
      p.h = h(k);
      for (int j = 0; j < phases_; ++j) {
        const double delay = delays_[static_cast<std::size_t>(j)];
        const Reference* ref = c_.has_exact() ? nullptr : &reference(j);
        const RunRecord r = run_case(c_, spec, p.h, delay, n_out_ * (1L << k), 1L << k);
        if (k == 0 && r.offsets.size() > 1) out.velocity_offset = r.offsets.back() / p.h;
        p.blew_up = p.blew_up || r.blew_up;
        merge(p.solver, r.solver);
        const auto e = run_errors(c_, r, delay, 0.0, h0_, ref);
        for (std::size_t q = 0; q < ch.size(); ++q) p.phase_errors[ch[q].name].push_back(e[q]);
        // Only a run with outcomes needs the reference ones: for a case with an analytic solution
        // but no analytic outcomes, asking would start a fine reference run for nothing.
        const auto ref_out = r.outcomes.empty() ? std::map<std::string, double>{} : reference_outcomes(j);
        for (const auto& [name, value] : r.outcomes) {
          p.phase_outcomes[name].push_back(value);
          const auto it = ref_out.find(name);
          p.phase_outcomes[name + "_error"].push_back(it == ref_out.end() ? nan : relative_error(value, it->second));
        }
        tick();
      }
      for (const auto& [name, v] : p.phase_errors) p.error[name] = mean(v);
      for (const auto& [name, v] : p.phase_outcomes) {
        if (name.size() > 6 && name.ends_with("_error")) p.outcome_error[name.substr(0, name.size() - 6)] = mean(v);
        else p.outcome[name] = mean(v);
      }
      for (auto it = p.phase_outcomes.begin(); it != p.phase_outcomes.end();)
        it = it->first.ends_with("_error") ? p.phase_outcomes.erase(it) : std::next(it);
      merge(out.solver, p.solver);
      out.points.push_back(std::move(p));
    }
    // Order per channel.
    std::vector<double> hs;
    for (const auto& p : out.points) hs.push_back(p.h);
    for (const auto& chan : ch) {
      std::vector<double> es;
      for (const auto& p : out.points) es.push_back(p.error.at(chan.name));
      out.order[chan.name] = fit_order(hs, es, o_.order_agreement, o_.error_floor);
    }
    // Order of each outcome's relative error (restitution, ...), where a converged value is known.
    for (const auto& [name, v] : out.points.front().outcome_error) {
      std::vector<double> es;
      for (const auto& p : out.points) es.push_back(p.outcome_error.at(name));
      out.order[name] = fit_order(hs, es, o_.order_agreement, o_.error_floor);
    }
    out.seconds_convergence = seconds_since(start);
    // Stability.
    const auto start_stability = std::chrono::steady_clock::now();
    if (stability) {
      out.predicted = predicted;
      out.empirical = empirical_limit(spec, out.predicted);
    }
    out.seconds_stability = seconds_since(start_stability);
    const auto start_accuracy = std::chrono::steady_clock::now();
    if (o_.accuracy) out.accuracy = accuracy_limit(spec, out);
    out.seconds_accuracy = seconds_since(start_accuracy);
    out.seconds = seconds_since(start);
    return out;
  }

  // One run of the stability search (stability_run below), counted by the progress bar.
  StabilityRun blows_up(const std::string& spec, double h) {
    tick(1);
    return stability_run(c_, spec, h, o_);
  }

  // blows_up() that also records, in r, a "stable" verdict resting on unconverged Newton steps.
  bool blows_up(const std::string& spec, double h, long& steps_out, StabilityResult& r) {
    const StabilityRun run = blows_up(spec, h);
    steps_out = run.steps;
    ++r.runs;
    r.steps_taken += run.steps_taken;
    if (!run.blew_up && run.unconverged) {
      ++r.unconverged_runs;
      r.smallest_unconverged_h = std::min(r.smallest_unconverged_h, h);
    }
    return run.blew_up;
  }

  StabilityResult empirical_limit(const std::string& spec, const PredictedLimit& pred) {
    StabilityResult r;
    const double start = std::isfinite(pred.h) && pred.h > 0.0 ? pred.h
                         : lin_                                ? 2.0 / lin_->omega_max
                                                               : h0_;
    const double tol = o_.stability_rel_tol;
    long steps = 0;
    auto finish = [&](EmpiricalStatus status, double h, double lo, double hi) {
      r.status = status;
      r.h = h;
      r.lo = lo;
      r.hi = hi;
      r.steps = steps;
      return r;
    };
    double lo = 0.0, hi = 0.0;
    // Only where the run is its linearisation (SweepCase::linear_stability): on spinning-disk and
    // rolling-resistance blow-up is not monotone in h near the limit (a search from the prediction
    // lands on other transitions than the doubling search), on collision cases (head-on) the
    // blow-up step is not the linear limit (4.3 t_c against 0.57 t_c).
    const bool use_prediction = c_.linear_stability();
    if (use_prediction && pred.conditional() && std::isfinite(pred.h) && pred.h > 0.0) {
      // The prediction is usually within the tolerance of the transition: test a bracket around it
      // that is already narrow enough (width 0.9 tol, a margin for rounding), then widen it
      // geometrically (x4 per run, at most doubling, as below) on the side the transition lies.
      const double w = 0.9 * tol;
      double step = w;
      const double a = start * (1.0 - 0.5 * w), b = start * (1.0 + 0.5 * w);
      if (blows_up(spec, a, steps, r)) {
        hi = a;
        for (;;) {
          step = std::min(4.0 * step, 1.0);
          lo = hi / (1.0 + step);
          if (lo < start * 1e-4) return finish(EmpiricalStatus::unstable_everywhere, 0.0, lo, hi);
          if (!blows_up(spec, lo, steps, r)) break;
          hi = lo;
        }
      } else if (blows_up(spec, b, steps, r)) {
        lo = a;
        hi = b;
      } else {
        lo = b;
        for (;;) {
          step = std::min(4.0 * step, 1.0);
          hi = lo * (1.0 + step);
          if (hi > start * 64.0) return finish(EmpiricalStatus::none_found, inf, lo, hi);
          if (blows_up(spec, hi, steps, r)) break;
          lo = hi;
        }
      }
    } else {
      // No finite prediction. Predicted unconditionally stable: test the top of the search range
      // first; stable there, that is the answer (the doublings below it are not run).
      if (use_prediction && pred.stability == Stability::unconditional && !blows_up(spec, start * 64.0, steps, r))
        return finish(EmpiricalStatus::none_found, inf, start * 64.0, start * 128.0);
      // Else bracket from `start` by halving / doubling.
      if (blows_up(spec, start, steps, r)) {
        hi = start;
        lo = 0.5 * start;
        while (blows_up(spec, lo, steps, r)) {
          hi = lo;
          lo *= 0.5;
          if (lo < start * 1e-4) return finish(EmpiricalStatus::unstable_everywhere, 0.0, lo, hi);
        }
      } else {
        lo = start;
        hi = 2.0 * start;
        while (!blows_up(spec, hi, steps, r)) {
          lo = hi;
          hi *= 2.0;
          if (hi > start * 64.0) return finish(EmpiricalStatus::none_found, inf, lo, hi);
        }
      }
    }
    const Bracket b = bisect([&](double mid) { return blows_up(spec, mid, steps, r); }, lo, hi,
                             [&](double a, double c) { return c - a > tol * a; });
    return finish(EmpiricalStatus::found, b.mid(), b.lo, b.hi);
  }

  // Mean over phases of the relative error of an outcome at step h (runs not aligned to the grid).
  double outcome_error_at(const std::string& spec, const std::string& q, double h) {
    std::vector<double> errs;
    for (int j = 0; j < phases_; ++j) {
      tick(1);
      const double delay = delays_[static_cast<std::size_t>(j)];
      const long steps = static_cast<long>(std::ceil(static_cast<double>(n_out_) * h0_ / h));
      const RunRecord r = run_case(c_, spec, h, delay, steps, 0);
      const auto ref = reference_outcomes(j);
      const auto a = r.outcomes.find(q);
      const auto b = ref.find(q);
      errs.push_back(a == r.outcomes.end() || b == ref.end() ? nan : relative_error(a->second, b->second));
    }
    return mean(errs);
  }

  AccuracyResult accuracy_limit(const std::string& spec, const IntegratorSweep& s) {
    AccuracyResult a;
    a.quantity = o_.accuracy_quantity.empty() ? c_.accuracy_quantity() : o_.accuracy_quantity;
    a.tolerance = o_.tolerance;
    const bool is_channel = s.points.front().error.count(a.quantity) > 0;
    const bool is_outcome = s.points.front().outcome_error.count(a.quantity) > 0;
    if (!is_channel && !is_outcome) {
      std::vector<std::string> names;
      for (const auto& [n, v] : s.points.front().error) names.push_back(n);
      for (const auto& [n, v] : s.points.front().outcome_error) names.push_back(n);
      fail(fmt::format("accuracy quantity '{}' is not measured by case '{}'; choose one of: {}", a.quantity, c_.name(),
                       fmt::join(names, ", ")));
    }
    auto err = [&](const SweepPoint& p) { return is_channel ? p.error.at(a.quantity) : p.outcome_error.at(a.quantity); };
    if (is_outcome) {
      const auto ref = reference_outcomes(0);
      const auto it = ref.find(a.quantity);
      if (it != ref.end()) a.converged = it->second;
    }
    int kstar = levels_;
    while (kstar > 0 && err(s.points[static_cast<std::size_t>(kstar - 1)]) <= a.tolerance) --kstar;
    if (kstar == levels_) {
      a.status = AccuracyStatus::below_grid;
      return a;
    }
    if (kstar == 0) {
      a.status = AccuracyStatus::above_grid;
      a.h = h0_;
      return a;
    }
    if (is_channel) {
      a.status = AccuracyStatus::grid;
      a.h = h(kstar);
      return a;
    }
    // h(kstar) passes, h(kstar - 1) fails: six geometric halvings of the octave.
    const Bracket b = bisect([&](double mid) { return !(outcome_error_at(spec, a.quantity, mid) <= a.tolerance); },
                             h(kstar), h(kstar - 1), any_width, 6, Midpoint::geometric);
    a.status = AccuracyStatus::bisected;
    a.h = b.lo;
    return a;
  }

  const SweepCase& c_;
  const SweepOptions& o_;
  int levels_, phases_, ref_r_;
  double h0_;
  long n_out_;
  std::string ref_spec_;
  std::vector<double> delays_;
  std::vector<std::optional<Reference>> refs_;
  std::optional<Linearisation> lin_;
  std::mutex progress_mutex_;
  std::size_t done_ = 0, planned_ = 0;
};

}  // namespace

SweepResult run_sweep(const SweepCase& c, const std::string& tangential, const SweepOptions& options) {
  if (options.integrators.empty()) fail("sweep: no integrator given");
  require_positive("tolerance", options.tolerance);
  require_positive("growth", options.growth);
  if (options.threads < 0)
    fail(fmt::format("threads = {} must be >= 0 (0: one per hardware thread)", options.threads));
  if (!(options.stability_rel_tol > 0.0 && options.stability_rel_tol <= 0.5))
    fail(fmt::format("stability_rel_tol = {} must lie in (0, 0.5]", options.stability_rel_tol));
  Engine engine(c, options);
  return engine.run(tangential);
}

}  // namespace dtcrit::sweep
