#include "dtcrit/analysis/pair_analysis.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include <limits>
#include <map>
#include <mutex>

#include "dtcrit/analysis/accuracy_step.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/stability/amplification.hpp"
#include "dtcrit/stability/damped_limit.hpp"

namespace dtcrit {

std::vector<std::string> expand_integrator_specs(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (const auto& s : specs) {
    if (s == "all") {
      for (const auto& d : default_integrator_specs()) out.push_back(d);
    } else if (s != "none") {
      integrator_info(s);  // throws for an unknown name, listing the valid ones
      out.push_back(s);
    }
  }
  return out;
}

namespace {

// Omega_crit = h_crit * omega of an integrator on the undamped scalar oscillator, cached per spec.
CriticalStep scalar_limit(const std::string& spec) {
  static std::mutex mutex;
  static std::map<std::string, CriticalStep> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(spec);
  if (it != cache.end()) return it->second;
  LinearSystem unit = scalar_oscillator(1.0, 0.0);
  return cache[spec] = critical_step(spec, unit, 1.0);
}
// The damped limits that have a closed form on a symmetric system (K, C symmetric, positive
// semi-definite: a contact-point model without load-dependent terms), computed once per contact: the
// rows whose dashpots read the backward difference, the first h where 4M - 2hC - h^2 K is singular
// (half_step_damped_limit); those that read v_{n+1}, where 4M - h^2 K is: 2 / omega_max
// (packing/README.md derives both, and packings use them the same way). Empty: the amplification
// matrix decides.
struct DampedClosedForms {
  std::optional<CriticalStep> backward, central;
};
DampedClosedForms damped_closed_forms(const LinearSystem& reduced, double omega_max) {
  DampedClosedForms out;
  const Matrix K(reduced.stiffness()), C(reduced.damping());
  if (!K.isApprox(K.transpose(), 1e-14) || !C.isApprox(C.transpose(), 1e-14)) return out;
  if (linalg::symmetric_eigenvalues(C).minCoeff() < -1e-12 * C.cwiseAbs().maxCoeff()) return out;
  out.central = CriticalStep{Stability::conditional, 2.0 / omega_max, 0, "closed form: 2 / omega_max (dashpot at v_{n+1})"};
  if (const DampedLimit d = half_step_damped_limit(reduced); d.converged)
    out.backward = CriticalStep{Stability::conditional, d.h_crit, 0,
                                "closed form: first h where 4M - 2hC - h^2 K is singular (dashpot at the backward difference)"};
  return out;
}

}  // namespace

std::vector<IntegratorLimit> integrator_limits(const ContactPointModel& model, const std::vector<std::string>& specs) {
  std::vector<IntegratorLimit> out;
  const bool undamped = model.law().cn == 0.0 && model.law().ct == 0.0;
  const double omega_max = model.omega_max();
  std::optional<LinearSystem> reduced;
  std::optional<DampedClosedForms> closed;
  for (const auto& spec : specs) {
    CriticalStep c;
    if (undamped) {
      c = scalar_limit(spec);
      c.h_crit /= omega_max;
    } else {
      if (!reduced) reduced.emplace(model.reduced_system());
      const DashpotVelocity dashpot = integrator_info(spec).dashpot_velocity;
      std::optional<CriticalStep> form;
      if (dashpot == DashpotVelocity::backward_difference || dashpot == DashpotVelocity::central_difference) {
        if (!closed) closed = damped_closed_forms(*reduced, omega_max);
        form = dashpot == DashpotVelocity::backward_difference ? closed->backward : closed->central;
      }
      c = form ? *form : critical_step(spec, *reduced, omega_max);
    }
    out.push_back({spec, c.stability, c.h_crit});
  }
  return out;
}

PairReport analyse_pair(std::string label, const ContactPointModel& model, const std::optional<Material>& material,
                        const std::vector<std::string>& integrator_specs) {
  PairReport r{std::move(label), model, pair_estimates(model), {}, {}, {}};
  if (const auto& o = model.origin(); o && o->point.impact) {
    // The law's own collision: its integrated duration replaces the linear spring's, with the
    // Hertz closed form beside it for Hertz laws.
    for (auto& e : r.estimates)
      if (e.name == "collision_time") {
        e.seconds = o->point.impact->duration;
        e.description = fmt::format("duration of a head-on impact at {} m/s under the law, integrated (RK4)",
                                    o->point.impact_velocity);
      } else if (e.name == "collision_time_over_50") {
        e.seconds = o->point.impact->duration / 50.0;
      }
    if (o->e_star > 0.0)
      r.estimates.push_back({"hertz_collision_time_formula",
                             contact::hertz_duration(model.normal_effective_mass(), o->r_eff, o->e_star,
                                                     o->point.impact_velocity),
                             "2.86826 (m*^2 / (R* E*^2 v))^(1/5), the undamped Hertz closed form with the law's "
                             "m*, R*, E* (the two bodies' normal effective mass), beside the law's integrated "
                             "collision_time; hertz_collision_time uses the material's two equal spheres"});
  }
  if (material)
    for (auto& e : material_estimates(*material)) r.estimates.push_back(std::move(e));
  r.integrators = integrator_limits(model, integrator_specs);
  return r;
}

std::optional<Material> requested_material(const PairRequest& r) {
  const int given = r.youngs.has_value() + r.poisson.has_value() + r.density.has_value() + r.radius.has_value();
  const bool law_given = !r.input.lammps_pair.empty() || !r.input.hertz_mindlin.empty();
  if (given == 0) {
    if (r.impact_velocity && !law_given)
      fail("--impact-velocity needs the material (--youngs, --poisson, --density, --radius) or a --lammps-pair or "
           "--hertz-mindlin law");
    return std::nullopt;
  }
  if (given < 4) fail("the material heuristics need all of --youngs, --poisson, --density and --radius");
  return validated(Material{*r.youngs, *r.poisson, *r.density, *r.radius, r.impact_velocity.value_or(0.0)});
}

PairReport answer_pair(const PairRequest& request) {
  PairInput input = request.input;
  // The impact velocity sets the linearisation state of a LAMMPS or Hertz-Mindlin law.
  if (request.impact_velocity && (!input.lammps_pair.empty() || !input.hertz_mindlin.empty()))
    input.law["impact_velocity"] = *request.impact_velocity;
  const auto model = build_model(input);
  auto report = analyse_pair("", model, requested_material(request), expand_integrator_specs(request.integrators));
  report.defaults = applied_defaults(input);
  report.recommendation = recommend_step(report, request.margin);
  if (request.impact_angle && request.accuracy.empty())
    fail("--impact-angle is read only by --accuracy tangential_restitution, spin or rebound_angle: give one, or "
         "drop the angle");
  if (!request.accuracy.empty() && report.recommendation) {
    const auto [quantity, tolerance] = parse_accuracy(request.accuracy);
    const auto a =
        pair_accuracy_step(model, report.recommendation->integrator, quantity, tolerance, request.impact_angle);
    report.recommendation->h_accuracy = a.h;
    report.recommendation->accuracy =
        fmt::format("{} within {:g}%{}{}", quantity, 100 * tolerance,
                    request.impact_angle ? fmt::format(" (the impact at {:g} deg from the normal)", *request.impact_angle)
                                         : "",
                    a.status == sweep::AccuracyStatus::above_grid ? ", met already at the coarsest step tried, t_c/8: a lower bound" : "");
  }
  return report;
}

}  // namespace dtcrit
