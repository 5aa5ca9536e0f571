// The stepper's specialised gran/hooke/history path (contact/hooke_history_force.hpp) against the
// general law (contact_input, advance_history, evaluate): equal to the last bit, contact by contact
// and over whole runs. The general law is the reference: it is what the comparisons with LAMMPS'
// own trajectories validate (tests/test_lammps_input.cpp).
#include <algorithm>
#include <cmath>
#include <tuple>
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

namespace {

// Everything the history contract exposes, bit for bit (Record has no operator==).
void check_same_state(const stepper::ParticleSystem::ContactState& a, const stepper::ParticleSystem::ContactState& b) {
  REQUIRE(a.committed.size() == b.committed.size());
  for (std::size_t k = 0; k < a.committed.size(); ++k) {
    INFO("record " << k);
    CHECK(a.committed[k].key == b.committed[k].key);
    CHECK(a.committed[k].xi == b.committed[k].xi);
    CHECK(a.committed[k].xi_r == b.committed[k].xi_r);
    CHECK(a.committed[k].xi_tw == b.committed[k].xi_tw);
    CHECK(a.committed[k].a_prev == b.committed[k].a_prev);
  }
  CHECK(a.anchors.size() == b.anchors.size());
  CHECK(a.x_committed == b.x_committed);
  CHECK(a.t_ref == b.t_ref);  // (not NaN here: both runs have committed)
}

}  // namespace

TEST_CASE("the specialised loop's per-slot histories keep the history contract to the last bit", "[stepper]") {
  // hooke_contacts keeps its histories per neighbour-list slot; history(), history_keys(),
  // contact_state(), set_history(), set_contact_state(), energy() and the general path read or write
  // records. A hand-written velocity-Verlet loop (force and accept_step called by the test) with,
  // between a force() call and its accept_step(), the queries (which must see the committed state,
  // not the trial), a neighbour-list rebuild forced by energy() at far positions (the trial slots
  // must survive it), a discarded trial after set_contact_state(), two force() calls per step (the
  // second is committed), set_history() of scaled histories, a switch to the general path and back
  // (reports on for 10 steps), a call (not accepted) with a particle moved away from its contacts,
  // and thread counts 1, 2, 3 in turn. Reference: the same script on the general path, one thread.
  using namespace dtcrit::stepper;
  struct Snapshot {
    Vector history;
    std::vector<ContactKey> keys;
    ParticleSystem::ContactState state;
    double energy = 0.0;
  };
  struct Run {
    Vector x, v;
    std::vector<Snapshot> snaps;
    std::size_t builds = 0;
  };
  auto run = [](bool specialised, bool threads) {
    std::mt19937_64 rng(11);
    const HookeParams law{1.0e4, 2857.0, 20.0, 10.0, 0.3};
    ParticleSystem sys(3, law, TangentialHistory::traditional);
    const dtcrit::test::SphereBox box = dtcrit::test::fill_sphere_box(sys, rng, {law, law, law, law, law});
    sys.add_bond(2, 3, 5e3);
    sys.set_contact_reports(false);
    sys.set_specialised_laws(specialised);
    const Vector& m = sys.mass();
    const double h = 2e-3;
    Vector x = box.x, v = box.v, f, scratch;
    Run out;
    auto snap = [&](const Vector& xs, const Vector& vs) {
      out.snaps.push_back(Snapshot{sys.history(), sys.history_keys(), sys.contact_state(), sys.energy(xs, vs)});
    };
    sys.force(0.0, x, v, f);
    sys.accept_step();
    double t = 0.0;
    ParticleSystem::ContactState saved;
    for (int k = 0; k < 200; ++k) {
      if (threads) sys.set_threads(1 + (k / 20) % 3);
      if (k == 140) sys.set_contact_reports(true);  // the general path for 10 steps, then the slots again
      if (k == 150) sys.set_contact_reports(false);
      const Vector v_half = v + 0.5 * h * f.cwiseQuotient(m);
      x += h * v_half;
      t += h;
      if (k == 110) sys.force(t, x, 0.5 * v_half, scratch);  // overwritten by the next call's trial
      if (k == 120) {
        // A call with particle 100 far from its place: the rebuilt list lacks its committed contacts,
        // which the committed state keeps (the call is not accepted) for the next call.
        Vector x_jump = x;
        x_jump[6 * 100] += 3.0;
        sys.force(t, x_jump, v_half, scratch);
        snap(x, v_half);
        const auto& keys = out.snaps.back().keys;
        CHECK(std::any_of(keys.begin(), keys.end(), [](const ContactKey& c) { return c.i == 100 || c.j == 100; }));
      }
      if (k == 80) saved = sys.contact_state();
      sys.force(t, x, v_half, f);
      if (k == 20 || k == 110) snap(x, v_half);  // between force() and accept_step(): the committed state
      if (k == 40) {
        // A query far away rebuilds the neighbour list before accept_step().
        const std::size_t before = sys.neighbour_builds();
        Vector x_far = x;
        for (Index i = 0; i < sys.particle_count(); ++i) x_far[6 * i + 2] += 0.3 + 1e-3 * static_cast<double>(i % 7);
        out.snaps.push_back(Snapshot{{}, {}, {}, sys.energy(x_far, v_half)});
        CHECK(sys.neighbour_builds() > before);
      }
      if (k == 80) {
        // A trial discarded: the state saved before this call restored (and the call made again).
        sys.set_contact_state(saved);
        sys.force(t, x, v_half, f);
      }
      sys.accept_step();
      v = v_half + 0.5 * h * f.cwiseQuotient(m);
      if (k == 60) {
        Vector hist = sys.history();
        for (Index e = 0; e < hist.size(); ++e) hist[e] *= e % 3 == 0 ? 0.5 : 1.25;
        sys.set_history(hist);
        snap(x, v);
      }
      if (k == 100 || k == 145) snap(x, v);
    }
    snap(x, v);
    out.x = x;
    out.v = v;
    out.builds = sys.neighbour_builds();
    return out;
  };
  const Run general = run(false, false);
  REQUIRE(general.snaps.back().keys.size() > 300);
  for (bool threads : {false, true}) {
    INFO("threads " << threads);
    const Run fast = run(true, threads);
    CHECK(fast.builds == general.builds);
    CHECK(fast.x == general.x);
    CHECK(fast.v == general.v);
    REQUIRE(fast.snaps.size() == general.snaps.size());
    for (std::size_t s = 0; s < general.snaps.size(); ++s) {
      INFO("snapshot " << s);
      CHECK(fast.snaps[s].history == general.snaps[s].history);
      CHECK(fast.snaps[s].keys == general.snaps[s].keys);
      CHECK(fast.snaps[s].energy == general.snaps[s].energy);
      if (!general.snaps[s].keys.empty()) check_same_state(fast.snaps[s].state, general.snaps[s].state);
    }
  }
}

TEST_CASE("the specialised loop under RK4 and from initial histories: the general path's bits", "[stepper]") {
  // RK4 makes five force() calls per step and reads history() between them; initial histories
  // (set_initial_histories) start the slots from the records; one with a rolling history, which the
  // slots do not keep, leaves the run on the general path (still the same bits, and that history kept).
  using namespace dtcrit::stepper;
  const auto with_rolling = GENERATE(false, true);
  auto run = [&](bool specialised, int threads) {
    std::mt19937_64 rng(7);
    const HookeParams law{1.0e4, 2857.0, 20.0, 10.0, 0.3};
    ParticleSystem sys(3, law, TangentialHistory::traditional);
    const dtcrit::test::SphereBox box = dtcrit::test::fill_sphere_box(sys, rng, {law, law, law, law, law});
    sys.set_contact_reports(false);
    sys.set_specialised_laws(specialised);
    sys.set_threads(threads);
    std::vector<std::pair<ContactKey, contact::History>> initial;
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (const ContactKey& key : sys.find_contacts(box.x)) {
      contact::History hist;
      hist.xi_t = 1e-4 * draw_vec3(U, rng);
      initial.emplace_back(key, hist);
    }
    initial.emplace_back(ContactKey{0, 255}, contact::History{});  // not touching: dropped
    if (with_rolling) initial[5].second.xi_r = Vec3(1e-5, 0.0, 0.0);  // one of the first contacts
    sys.set_initial_histories(initial);
    auto rk = make_integrator("rk4");
    rk->start(sys, 0.0, box.x, box.v, 1e-3);
    for (int k = 0; k < 60; ++k) rk->step(sys);
    return std::make_tuple(rk->position(), rk->velocity(), sys.contact_state(), initial[5].first);
  };
  const auto [x0, v0, s0, rolling_key] = run(false, 1);
  REQUIRE(s0.committed.size() > 300);
  const ContactKey rolling = rolling_key;  // (a structured binding cannot be captured before C++20 compilers)
  const auto kept = std::find_if(s0.committed.begin(), s0.committed.end(),
                                 [&](const auto& r) { return r.key == rolling; });
  REQUIRE(kept != s0.committed.end());
  CHECK((kept->xi_r.x() == 1e-5) == with_rolling);
  for (int threads : {1, 2}) {
    INFO("threads " << threads);
    const auto [x, v, s, key] = run(true, threads);
    CHECK(x == x0);
    CHECK(v == v0);
    check_same_state(s, s0);
  }
}
