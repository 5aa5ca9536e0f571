#pragma once
// A stepper scene shared by the tests that compare two ways of running the same physics (threads,
// the specialised law path): they need a dense, colliding, sliding packing, not particular numbers.
#include <array>
#include <random>

#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/stepper/particle_system.hpp"

namespace dtcrit::test {

// 256 spheres (4 layers of 8 x 8, radius 0.5 +- 2 %, spacing 0.99: pressed by about 1 %) in a box of
// five walls, wall_laws in the order floor, -x, +x, -y, +y; gravity; random velocities and spins.
// The particles are added to `sys`; x and v are the start state. Draws from rng in a fixed order.
struct SphereBox {
  Vector x, v;
};
inline SphereBox fill_sphere_box(stepper::ParticleSystem& sys, std::mt19937_64& rng,
                                 const std::array<contact::ContactLaw, 5>& wall_laws) {
  using stepper::Vec3;
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Index n = 256;
  for (Index i = 0; i < n; ++i) sys.add_particle(0.5 + 0.02 * U(rng), 1.0, stepper::sphere_inertia(1.0, 0.5));
  sys.add_wall(Vec3::Zero(), Vec3::UnitZ(), wall_laws[0]);
  for (int axis = 0; axis < 2; ++axis) {
    sys.add_wall(Vec3::Unit(axis) * -0.5, Vec3::Unit(axis), wall_laws[static_cast<std::size_t>(1 + 2 * axis)]);
    sys.add_wall(Vec3::Unit(axis) * 7.43, -Vec3::Unit(axis), wall_laws[static_cast<std::size_t>(2 + 2 * axis)]);
  }
  sys.set_gravity(Vec3(0, 0, -9.81));
  SphereBox box{Vector::Zero(sys.dofs()), Vector::Zero(sys.dofs())};
  for (Index i = 0; i < n; ++i) {
    sys.set_centre(box.x, i, Vec3(0.99 * (i % 8), 0.99 * ((i / 8) % 8), 0.49 + 0.99 * (i / 64)));
    sys.set_centre(box.v, i, 0.05 * draw_vec3(U, rng));
    sys.set_spin(box.v, i, 0.2 * draw_vec3(U, rng));
  }
  return box;
}

}  // namespace dtcrit::test
