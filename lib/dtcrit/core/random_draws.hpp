#pragma once
// Random vectors drawn in a fixed order. The order in which a compiler evaluates the arguments of
// Vec3(U(rng), U(rng), U(rng)) is unspecified (g++ takes the last first, clang++ the first), so
// such an expression gives each compiler its own kicks and packings.
#include <Eigen/Core>

namespace dtcrit {

// (x, y, z) with each component one draw of `dist`, z drawn first, then y, then x: the order g++
// used for Vec3(U(rng), U(rng), U(rng)), which the recorded results were made with.
template <class Distribution, class Engine>
Eigen::Vector3d draw_vec3(Distribution& dist, Engine& rng) {
  const double z = dist(rng);
  const double y = dist(rng);
  const double x = dist(rng);
  return {x, y, z};
}

}  // namespace dtcrit
