// A contact already closed at t0 takes its tangential-history origin at x0 for every integrator:
// Integrator::start commits the system's history at (t0, x0, v0) before the scheme's own start-up.
// Position Verlet (first force at x0 + h/2 v0) and the variational integrator (at q_alpha) used to
// take it from their first force call inside the step.
#include <catch2/catch.hpp>

#include <cmath>

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/stepper/particle_system.hpp"

using namespace dtcrit;
using namespace dtcrit::stepper;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// Two spheres overlapping along x, b sliding along y at v_t, no spin (and hardly any later). The contact's tangential
// history after one step is read from the step's last force call (ParticleSystem::last_contacts):
// its elastic displacement xi and force -kt xi (no dashpot). Before the fix xi was 0 there: the
// origin sat at that very force point.
struct SlidingPair {
  double r = 1e-3, m = 4e-6, overlap = 1e-6, v_t = 1e-3, h = 1e-5, kt = 3e3;
  TangentialHistory mode;

  ContactReport after_one_step(const std::string& spec, double* slide = nullptr) const {
    ParticleSystem sys(3, HookeParams{1e4, kt, 0.0, 0.0, 10.0}, mode);  // mu = 10: no sliding cap
    // Inertia 1e6 times a sphere's: the contact's torque turns them by ~1e-6 of the slide, so the
    // contact point moves with the centres (the hand values below ignore rotation).
    const Index a = sys.add_particle(r, m, 4e5 * m * r * r);
    const Index b = sys.add_particle(r, m, 4e5 * m * r * r);
    Vector x = Vector::Zero(sys.dofs()), v = Vector::Zero(sys.dofs());
    sys.set_centre(x, a, Vec3::Zero());
    sys.set_centre(x, b, Vec3(2.0 * r - overlap, 0.0, 0.0));
    sys.set_centre(v, b, Vec3(0.0, v_t, 0.0));
    auto integ = make_integrator(spec);
    integ->start(sys, 0.0, x, v, h);
    integ->step(sys);
    if (slide) {
      const Vector& q = integ->position();
      *slide = (sys.centre(q, b) - sys.centre(q, a)).y() - (sys.centre(x, b) - sys.centre(x, a)).y();
    }
    REQUIRE(sys.last_contacts().size() == 1);
    return sys.last_contacts().front();
  }
};

}  // namespace

TEST_CASE("a contact closed at t0 takes its tangential history from x0 for every integrator", "[integrators]") {
  SlidingPair p;
  p.mode = GENERATE(TangentialHistory::traditional, TangentialHistory::consistent);
  const bool traditional = p.mode == TangentialHistory::traditional;
  CAPTURE(traditional);
  auto check = [&](const ContactReport& c, double xi, double rel = 1e-6) {
    CHECK_THAT(c.xi.norm(), WithinRel(xi, rel));
    CHECK_THAT(std::abs(c.xi.y()), WithinRel(xi, rel));  // along the slide (the normal turns by ~1e-5 rad)
    CHECK_THAT(c.tangential_force.norm(), WithinRel(p.kt * xi, rel));
  };
  SECTION("position Verlet: one force call at x0 + (h/2) v0, so |xi| = v_t h / 2") {
    check(p.after_one_step("position_verlet"), 0.5 * p.v_t * p.h);
  }
  SECTION("variational, alpha = 1: one force call at x0 + h v0 with velocity v0, so |xi| = v_t h") {
    check(p.after_one_step("variational:alpha=1"), p.v_t * p.h);
  }
  SECTION("variational_2 (alpha = ½): the force at q_½ = (x0 + x1)/2, at t0 + h/2 with velocity v0") {
    double slide = 0.0;
    const ContactReport c = p.after_one_step("variational_2", &slide);
    REQUIRE(std::abs(slide) > 0.9 * p.v_t * p.h);
    // traditional: xi advanced by dt v_t = (h/2) v_t; consistent: xi read from the positions, half
    // the relative slide, up to Newton's last correction (applied after the last force call)
    if (traditional) check(c, 0.5 * p.v_t * p.h);
    else check(c, 0.5 * std::abs(slide), 1e-4);
  }
}
