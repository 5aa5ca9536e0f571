#include "dtcrit/packing/confirmation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/integrators/integrate.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/packing/stepper_adapter.hpp"

namespace dtcrit::packing {

double equilibrium_residual(const Packing& p, const ContactLaws& laws, bool clumps) {
  Vector f;
  double dmin = std::numeric_limits<double>::infinity();
  if (clumps) {
    // The bodies' forces, and their torques over the largest radius.
    SteppedClumps sc = to_rigid_clumps(p, laws);
    sc.system->force(0.0, sc.x0, Vector::Zero(sc.x0.size()), f);
    for (Index k = 3; k < f.size(); k += 6) f.segment<3>(k) /= sc.largest_radius;
    for (const auto& c : sc.system->members().last_contacts()) dmin = std::min(dmin, c.overlap);
  } else {
    SteppedPacking sp = to_particle_system(p, laws);
    sp.system->force(0.0, sp.x0, Vector::Zero(sp.x0.size()), f);
    for (const auto& c : sp.system->last_contacts()) dmin = std::min(dmin, c.overlap);
  }
  return f.cwiseAbs().maxCoeff() / (laws.base.kn * dmin);
}

namespace {

// The two runs, perturbed (from x, v) and reference (from x0 at rest), and the growth of their
// separation |M^1/2 (x - x_ref)| relative to its start.
// reference_contacts (particle systems): the reference run's contact set after a step, to count the
// steps that opened or closed a contact.
ConfirmationRun run_pair(MechanicalSystem& perturbed, MechanicalSystem& reference, const Vector& x0, const Vector& x,
                         const Vector& v, ConfirmationRun out, int steps,
                         const stepper::ParticleSystem* reference_contacts = nullptr) {
  const Vector w = perturbed.mass().cwiseSqrt();
  const double d0 = (x - x0).cwiseProduct(w).norm();
  auto integ = make_integrator(out.integrator);
  auto ref_integ = make_integrator(out.integrator);
  integ->start(perturbed, 0.0, x, v, out.h);
  ref_integ->start(reference, 0.0, x0, Vector::Zero(x.size()), out.h);
  std::vector<stepper::ContactKey> contacts, previous;
  if (reference_contacts) {
    out.contact_changes = 0;
    previous = reference_contacts->history_keys();  // none before the first force call
  }
  // The reference run follows the perturbed one step for step (after it, as the observer).
  auto step_reference = [&](long n) {
    ref_integ->step(reference);
    if (reference_contacts) {
      contacts = reference_contacts->history_keys();
      if (n > 1 && contacts != previous) ++out.contact_changes;
      contacts.swap(previous);
    }
  };
  const IntegrateRun run = integrate_n_steps(*integ, perturbed, steps, 1, [&](const Integrator& in, const Vector& x, const Vector&) {
    step_reference(in.steps_taken());
    const double d = (x - ref_integ->position()).cwiseProduct(w).norm() / d0;
    if (!std::isfinite(d)) {
      out.growth = std::numeric_limits<double>::infinity();
      return false;
    }
    out.growth = std::max(out.growth, d);
    return out.growth <= 1e6;
  });
  out.steps = static_cast<int>(run.steps);
  if (run.blew_up()) {
    step_reference(run.steps);
    out.growth = std::numeric_limits<double>::infinity();
  }
  out.unconverged_steps = integ->solver_status().unconverged_steps + ref_integ->solver_status().unconverged_steps;
  return out;
}

ConfirmationRun checked_run(const std::string& integrator, double h_predicted, double factor, int steps,
                            double amplitude, double spin) {
  require_positive("predicted step", h_predicted);
  require_positive("step factor", factor);
  require_positive("perturbation amplitude", amplitude);
  require_non_negative("spin perturbation", spin);
  if (steps < 1) fail(fmt::format("steps = {} must be at least 1", steps));
  return ConfirmationRun{integrator, factor, factor * h_predicted, 0, 1.0};
}

}  // namespace

stepper::TangentialHistory confirmation_history_mode(const std::string& integrator, const contact::ContactLaw& law,
                                                     bool seeded_histories) {
  if (seeded_histories || dashpots_read_backward_difference(integrator))
    return stepper::TangentialHistory::traditional;
  const bool displacement_spring =
      law.rolling == contact::RollingModel::none && law.twisting == contact::TwistingModel::none &&
      law.tangential != contact::TangentialModel::mindlin_force &&
      law.tangential != contact::TangentialModel::mindlin_rescale_force &&
      law.tangential != contact::TangentialModel::mindlin_rescale;
  return displacement_spring ? stepper::TangentialHistory::consistent : stepper::TangentialHistory::traditional;
}

namespace {

// The mode for the particle law and every wall's own law: consistent only if all of them allow it.
stepper::TangentialHistory packing_history_mode(const Packing& p, const ContactLaws& laws, const std::string& integrator,
                                                bool seeded_histories) {
  auto mode = confirmation_history_mode(integrator, laws.base, seeded_histories);
  for (const auto& w : p.walls)
    if (w.law && confirmation_history_mode(integrator, *w.law, false) == stepper::TangentialHistory::traditional)
      mode = stepper::TangentialHistory::traditional;
  return mode;
}

// The packing and its laws with every contact held sticking (contact::sticking): the particle law,
// every type pair's and every wall's own law.
struct HeldSticking {
  Packing packing;
  ContactLaws laws;
};
HeldSticking held_sticking(const Packing& p, const ContactLaws& laws) {
  HeldSticking out{p, laws};
  transform_laws(out.packing, out.laws, contact::sticking);
  return out;
}

}  // namespace

ConfirmationRun confirm_with_stepper(const Packing& given, const ContactLaws& given_laws,
                                     const std::string& integrator, double h_predicted, double factor, int steps,
                                     double amplitude, unsigned seed, double spin, const ContactSet* histories) {
  ConfirmationRun out = checked_run(integrator, h_predicted, factor, steps, amplitude, spin);
  const HeldSticking held = held_sticking(given, given_laws);
  const Packing& p = held.packing;
  const ContactLaws& laws = held.laws;
  bool any_history = false;
  if (histories)
    for (std::size_t k = 0; k < histories->contacts.size() && !any_history; ++k) any_history = histories->has_history(k);
  const stepper::TangentialHistory mode = packing_history_mode(p, laws, integrator, any_history);
  out.history_mode = mode;
  SteppedPacking sp = to_particle_system(p, laws, mode);
  // Two runs from the same state but for the perturbation: growth is their separation. On a
  // packing in equilibrium the reference stays at x0 and this is |x - x0|; off equilibrium it
  // removes the packing's own relaxation, which is not an instability.
  SteppedPacking ref = to_particle_system(p, laws, mode);
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
    sp.system->set_centre(x, i, p.centre[static_cast<std::size_t>(i)] + amplitude * draw_vec3(U, rng));
  Vector v = Vector::Zero(x.size());
  if (spin > 0.0)
    for (Index i = 0; i < p.size(); ++i) sp.system->set_spin(v, i, spin * draw_vec3(U, rng));
  return run_pair(*sp.system, *ref.system, sp.x0, x, v, out, steps, ref.system.get());
}

ConfirmationRun confirm_clumps_with_stepper(const Packing& given, const ContactLaws& given_laws,
                                            const std::string& integrator, double h_predicted, double factor, int steps,
                                            double amplitude, unsigned seed) {
  ConfirmationRun out = checked_run(integrator, h_predicted, factor, steps, amplitude, 0.0);
  const HeldSticking held = held_sticking(given, given_laws);
  const Packing& p = held.packing;
  const ContactLaws& laws = held.laws;
  const stepper::TangentialHistory mode = packing_history_mode(p, laws, integrator, false);
  out.history_mode = mode;
  SteppedClumps sc = to_rigid_clumps(p, laws, mode), ref = to_rigid_clumps(p, laws, mode);
  sc.system->members().set_contact_reports(false);
  ref.system->members().set_contact_reports(false);
  // Each centre of mass moved by up to `amplitude` per axis, each body turned by up to
  // amplitude / r_max about each principal axis (its members move by about `amplitude`).
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vector x = sc.x0;
  for (Index b = 0; b < sc.system->bodies(); ++b) {
    for (int d = 0; d < 3; ++d) x[6 * b + d] += amplitude * U(rng);
    for (int d = 3; d < 6; ++d) x[6 * b + d] += amplitude / sc.largest_radius * U(rng);
  }
  return run_pair(*sc.system, *ref.system, sc.x0, x, Vector::Zero(x.size()), out, steps, &ref.system->members());
}

ConfirmationRun confirm_linear(const LinearSystem& sys, const std::string& integrator, double h_predicted,
                               double factor, int steps, unsigned seed) {
  const ConfirmationRun out = checked_run(integrator, h_predicted, factor, steps, 1.0, 0.0);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vector x(sys.dofs());
  for (Index k = 0; k < x.size(); ++k) x[k] = U(rng);
  // The system is linear and memoryless: the reference run stays at rest.
  LinearSystem perturbed = sys, reference = sys;
  return run_pair(perturbed, reference, Vector::Zero(x.size()), x, Vector::Zero(x.size()), out, steps);
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
    v.text = fmt::format("NOT CONFIRMED: {}{}{}",
                         bounded ? "" : fmt::format("the run at 0.99 grew by {:.3g} (> {:g})", growth_below, bounded_growth),
                         bounded || growing ? "" : "; ",
                         growing ? "" : fmt::format("the run at 1.01 grew by only {:.3g} (<= {:g})", growth_above,
                                                    growing_growth));
  return v;
}

}  // namespace dtcrit::packing
