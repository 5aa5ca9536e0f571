// The stepper's specialised gran/hooke/history path (contact/hooke_history_force.hpp) against the
// general law (contact_input, advance_history, evaluate): equal to the last bit, contact by contact
// and over whole runs. The general law is the reference: it is what the comparisons with LAMMPS'
// own trajectories validate (tests/test_lammps_input.cpp).
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/contact/hooke_history_force.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "stepper_test_support.hpp"

using namespace dtcrit;
using contact::Vec3;

namespace {

// 150 velocity-Verlet steps (h = 2e-3 s) of a filled box from its start: the final positions and velocities.
std::pair<Vector, Vector> run_box(stepper::ParticleSystem& sys, const test::SphereBox& box) {
  auto vv = make_integrator("velocity_verlet");
  vv->start(sys, 0.0, box.x, box.v, 2e-3);
  for (int k = 0; k < 150; ++k) vv->step(sys);
  return {vv->position(), vv->velocity()};
}

}  // namespace

TEST_CASE("hooke_history_force equals the general law to the last bit", "[contact][stepper]") {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
  auto random_vec = [&](double scale) -> Vec3 { return scale * draw_vec3(U, rng); };
  auto product_of_two = [&] {  // two draws in a fixed order, whatever the compiler
    const double a = P(rng);
    return a * P(rng);
  };
  // Friction from none to almost none to ample, with and without tangential dashpots and springs:
  // the draws below stick and slide, with zero and non-zero histories.
  const std::vector<contact::ContactLaw> laws = {
      contact::hooke_history(1e4, 2857.0, 50.0, 25.0, 0.5), contact::hooke_history(1e4, 2857.0, 50.0, 0.0, 0.05),
      contact::hooke_history(2e3, 0.0, 0.0, 10.0, 0.3), contact::hooke_history(1e5, 3e4, 0.0, 0.0, 0.0),
      contact::hooke_history(1e4, 2857.0, 50.0, 1e5, 0.5),
      contact::parse_lammps_pair("gran/hooke/history 1e4 NULL 60 NULL 0.4 0")};
  int sliding = 0, zero_history_capped = 0, compared = 0;
  for (const contact::ContactLaw& law : laws) {
    REQUIRE(contact::hooke_history_force_applies(law));
    for (int k = 0; k < 4000; ++k) {
      contact::RoundContact g;
      g.normal = random_vec(1.0).normalized();
      g.overlap = 1e-4 * product_of_two();
      g.ri = 1e-3 * (0.5 + P(rng));
      g.rj = 1e-3 * (0.5 + P(rng));
      g.wall = k % 5 == 0;
      g.distance = g.wall ? 0.0 : g.ri + g.rj - g.overlap;
      const Vec3 vi = random_vec(0.1), wi = random_vec(100.0), vj = random_vec(0.1), wj = random_vec(100.0);
      const double m_eff = 1e-5 * (0.2 + P(rng)), dt = k % 7 == 0 ? 0.0 : 1e-5 * P(rng);  // 0: a first call
      contact::History h;
      if (k % 3 != 0) h.xi_t = random_vec(1e-4 * product_of_two());
      const contact::HookeHistoryForce fast = contact::hooke_history_force(law, g, vi, wi, vj, wj, m_eff, h.xi_t, dt);

      contact::ContactInput in = contact::contact_input(g, vi, wi, vj, wj, m_eff, {}, false);
      const contact::History advanced = contact::advance_history(law, in, h, dt);
      in.xi_t = advanced.xi_t;
      const contact::ContactResponse out = contact::evaluate(law, in, contact::Differentiate::none);
      ++compared;
      sliding += out.sliding;
      zero_history_capped += out.sliding && advanced.xi_t.squaredNorm() == 0.0;
      // Bits, not tolerances: operator== on doubles.
      CHECK(fast.normal_force == out.normal_force);
      CHECK(fast.tangential_force == out.tangential_force);
      CHECK(fast.xi_t == out.xi_t);
      CHECK(fast.sliding == out.sliding);
    }
  }
  INFO("compared " << compared << ", sliding " << sliding << ", capped on a zero history " << zero_history_capped);
  CHECK(sliding > 1000);
  CHECK(sliding < compared - 1000);
  CHECK(zero_history_capped > 10);  // LAMMPS' rule: the cap on a zero history zeroes the force
}

TEST_CASE("hooke_history_force applies to gran/hooke/history alone", "[contact]") {
  using contact::parse_lammps_pair;
  CHECK(contact::hooke_history_force_applies(parse_lammps_pair("gran/hooke/history 1e4 NULL 60 NULL 0.4 1")));
  // gran/hooke (no history), gran/hertz/history, limit_damping and every granular law take the general path.
  CHECK_FALSE(contact::hooke_history_force_applies(parse_lammps_pair("gran/hooke 1e4 NULL 60 NULL 0.4 1")));
  CHECK_FALSE(contact::hooke_history_force_applies(parse_lammps_pair("gran/hertz/history 1e7 NULL 60 NULL 0.4 1")));
  CHECK_FALSE(
      contact::hooke_history_force_applies(parse_lammps_pair("gran/hooke/history 1e4 NULL 60 NULL 0.4 1 limit_damping")));
  CHECK_FALSE(contact::hooke_history_force_applies(
      parse_lammps_pair("granular hooke 1e4 60 tangential linear_history 2857 1 0.5")));
  CHECK_FALSE(contact::hooke_history_force_applies(
      parse_lammps_pair("granular hooke 1e4 60 tangential linear_history 2857 1 0.5 rolling sds 1e3 1e-3 0.3")));
}

TEST_CASE("the specialised path runs the general law's trajectory to the last bit", "[stepper]") {
  // 256 spheres in a box with friction, gravity and random spins, 150 velocity-Verlet steps, on 1
  // and 2 threads: floor and sides gran/hooke/history (the specialised path), one side granular
  // (the general path), so that both meet in one force() call. The reference: every contact through
  // the general law (set_specialised_laws(false)).
  using namespace dtcrit::stepper;
  struct Run {
    Vector x, v, history;
    std::vector<ContactReport> contacts;
  };
  auto run = [](bool specialised, int threads) {
    std::mt19937_64 rng(5);
    const HookeParams law{1.0e4, 2857.0, 20.0, 10.0, 0.3};
    const contact::ContactLaw granular =
        contact::parse_lammps_pair("granular hooke 1e4 20 tangential linear_history 2857 0.5 0.3");
    ParticleSystem sys(3, law, TangentialHistory::traditional);
    const dtcrit::test::SphereBox box = dtcrit::test::fill_sphere_box(sys, rng, {law, law, law, granular, law});
    sys.set_specialised_laws(specialised);
    sys.set_threads(threads);
    auto [x, v] = run_box(sys, box);
    return Run{x, v, sys.history(), sys.last_contacts()};
  };
  const Run general = run(false, 1);
  REQUIRE(general.contacts.size() > 300);
  int sliding = 0, granular_wall = 0;
  for (const ContactReport& c : general.contacts) {
    sliding += c.sliding;
    granular_wall += c.key.j == 256 + 3;
  }
  CHECK(sliding > 0);
  CHECK(granular_wall > 0);
  for (int threads : {1, 2}) {
    const Run fast = run(true, threads);
    CHECK(fast.x == general.x);
    CHECK(fast.v == general.v);
    CHECK(fast.history == general.history);
    REQUIRE(fast.contacts.size() == general.contacts.size());
    for (std::size_t k = 0; k < general.contacts.size(); ++k) {
      CHECK(fast.contacts[k].key == general.contacts[k].key);
      CHECK(fast.contacts[k].normal_force == general.contacts[k].normal_force);
      CHECK(fast.contacts[k].tangential_force == general.contacts[k].tangential_force);
      CHECK(fast.contacts[k].xi == general.contacts[k].xi);
      CHECK(fast.contacts[k].sliding == general.contacts[k].sliding);
    }
  }
}

TEST_CASE("the specialised contact loop runs the general law's trajectory to the last bit", "[stepper]") {
  // Every law gran/hooke/history and the reports off: force() takes ParticleSystem::hooke_contacts
  // (the benchmark's path), on one thread and on two ranges; the reference is the general path on
  // one thread (set_specialised_laws(false)). With an excluded pair, a bond (applied after the
  // contacts) and a clump-like contact mass on one sphere, so that each branch of the loop is walked.
  using namespace dtcrit::stepper;
  struct Run {
    Vector x, v, history;
    std::vector<ContactKey> keys;
  };
  auto run = [](bool specialised, int threads) {
    std::mt19937_64 rng(11);
    const HookeParams law{1.0e4, 2857.0, 20.0, 10.0, 0.3};
    ParticleSystem sys(3, law, TangentialHistory::traditional);
    const dtcrit::test::SphereBox box = dtcrit::test::fill_sphere_box(sys, rng, {law, law, law, law, law});
    sys.exclude_pair(0, 1);
    sys.add_bond(2, 3, 5e3);
    sys.set_contact_mass(4, 3.0);
    sys.set_contact_reports(false);
    sys.set_specialised_laws(specialised);
    sys.set_threads(threads);
    auto [x, v] = run_box(sys, box);
    return Run{x, v, sys.history(), sys.history_keys()};
  };
  const Run general = run(false, 1);
  REQUIRE(general.keys.size() > 300);
  for (int threads : {1, 2}) {
    INFO("threads " << threads);
    const Run fast = run(true, threads);
    CHECK(fast.keys == general.keys);
    CHECK(fast.x == general.x);
    CHECK(fast.v == general.v);
    CHECK(fast.history == general.history);
  }
}
