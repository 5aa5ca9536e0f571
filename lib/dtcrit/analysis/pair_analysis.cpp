#include "dtcrit/analysis/pair_analysis.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <mutex>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stability/amplification.hpp"

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
}  // namespace

std::vector<IntegratorLimit> integrator_limits(const ContactPointModel& model, const std::vector<std::string>& specs) {
  std::vector<IntegratorLimit> out;
  const bool undamped = model.law().cn == 0.0 && model.law().ct == 0.0;
  const double omega_max = model.omega_max();
  std::optional<LinearSystem> reduced;
  for (const auto& spec : specs) {
    CriticalStep c;
    if (undamped) {
      c = scalar_limit(spec);
      c.h_crit /= omega_max;
    } else {
      if (!reduced) reduced.emplace(model.reduced_system());
      c = critical_step(spec, *reduced, omega_max);
    }
    out.push_back({spec, std::string(stability_keyword(c.stability)), c.h_crit});
  }
  return out;
}

PairReport analyse_pair(std::string label, const ContactPointModel& model, const std::optional<Material>& material,
                        const std::vector<std::string>& integrator_specs) {
  PairReport r{std::move(label), model, pair_estimates(model), {}, {}, {}};
  if (material)
    for (auto& e : material_estimates(*material)) r.estimates.push_back(std::move(e));
  r.integrators = integrator_limits(model, integrator_specs);
  return r;
}

}  // namespace dtcrit
