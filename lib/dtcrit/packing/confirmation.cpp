#include "dtcrit/packing/confirmation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "dtcrit/core/check.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"

namespace dtcrit::packing {

double equilibrium_residual(const Packing& p, const ContactLaws& laws) {
  SteppedPacking sp = to_particle_system(p, laws);
  Vector f;
  sp.system->force(0.0, sp.x0, Vector::Zero(sp.x0.size()), f);
  double dmin = std::numeric_limits<double>::infinity();
  for (const auto& c : sp.system->last_contacts()) dmin = std::min(dmin, c.overlap);
  return f.cwiseAbs().maxCoeff() / (laws.base.kn * dmin);
}

ConfirmationRun confirm_with_stepper(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                                     double h_predicted, double factor, int steps, double amplitude, unsigned seed,
                                     double spin, const ContactSet* histories) {
  require_positive("predicted step", h_predicted);
  require_positive("step factor", factor);
  require_positive("perturbation amplitude", amplitude);
  require_non_negative("spin perturbation", spin);
  if (steps < 1) fail(fmt::format("steps = {} must be at least 1", steps));
  ConfirmationRun out{integrator, factor, factor * h_predicted, 0, 1.0};
  SteppedPacking sp = to_particle_system(p, laws);
  // Two runs from the same state but for the perturbation: growth is their separation. On a
  // packing in equilibrium the reference stays at x0 and this is |x - x0|; off equilibrium it
  // removes the packing's own relaxation, which is not an instability.
  SteppedPacking ref = to_particle_system(p, laws);
  bool any_history = false;
  if (histories)
    for (std::size_t k = 0; k < histories->contacts.size() && !any_history; ++k) any_history = histories->has_history(k);
  if (any_history) {
    seed_contact_histories(sp, *histories);
    seed_contact_histories(ref, *histories);
  }
  sp.system->set_contact_reports(false);  // never read here
  ref.system->set_contact_reports(false);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vector x = sp.x0;
  for (Index i = 0; i < p.size(); ++i)
    sp.system->set_centre(x, i, p.centre[static_cast<std::size_t>(i)] + amplitude * Vec3(U(rng), U(rng), U(rng)));
  Vector v = Vector::Zero(x.size());
  if (spin > 0.0)
    for (Index i = 0; i < p.size(); ++i) sp.system->set_spin(v, i, spin * Vec3(U(rng), U(rng), U(rng)));
  const Vector w = sp.system->mass().cwiseSqrt();
  const double d0 = (x - sp.x0).cwiseProduct(w).norm();
  auto integ = make_integrator(integrator);
  auto ref_integ = make_integrator(integrator);
  integ->start(*sp.system, 0.0, x, v, out.h);
  ref_integ->start(*ref.system, 0.0, ref.x0, Vector::Zero(x.size()), out.h);
  for (int n = 0; n < steps; ++n) {
    integ->step(*sp.system);
    ref_integ->step(*ref.system);
    out.steps = n + 1;
    const double d = (integ->position() - ref_integ->position()).cwiseProduct(w).norm() / d0;
    if (!std::isfinite(d)) {
      out.growth = std::numeric_limits<double>::infinity();
      break;
    }
    out.growth = std::max(out.growth, d);
    if (out.growth > 1e6) break;
  }
  out.unconverged_steps = integ->solver_status().unconverged_steps + ref_integ->solver_status().unconverged_steps;
  return out;
}

ConfirmationVerdict confirmation_verdict(double growth_below, double growth_above) {
  const bool bounded = growth_below <= bounded_growth;
  const bool growing = !(growth_above <= growing_growth);  // NaN and inf: grew
  ConfirmationVerdict v;
  v.confirmed = bounded && growing;
  if (v.confirmed)
    v.text = fmt::format("CONFIRMED: bounded at 0.99 (growth {:.3g} <= {:g}), growing at 1.01 (growth {:.3g} > {:g})",
                         growth_below, bounded_growth, growth_above, growing_growth);
  else
    v.text = fmt::format("NOT CONFIRMED:{}{}", bounded ? "" : fmt::format(" the run at 0.99 grew by {:.3g} (> {:g});",
                                                                          growth_below, bounded_growth),
                         growing ? "" : fmt::format(" the run at 1.01 grew by only {:.3g} (<= {:g})", growth_above,
                                                    growing_growth));
  return v;
}

}  // namespace dtcrit::packing
