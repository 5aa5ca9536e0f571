#pragma once
// Neighbour search for the reference DEM stepper: a uniform-grid cell list producing a Verlet list
// (pairs closer than r_i + r_j + skin), rebuilt only when some particle has moved more than half the
// skin since the last build. Building is O(N) for a packing of bounded density; between rebuilds the
// check costs one pass over the positions.
#include <array>
#include <cstddef>
#include <vector>

#include "dtcrit/core/types.hpp"

namespace dtcrit::stepper {

using Vec3 = Eigen::Vector3d;

// One build of the grid: pairs (i < j) with |x_i - x_j| < r_i + r_j + skin. The cell edge is at
// least 2 max(r) + skin (larger only if the particles are so spread out that the grid would hold
// more than max(64, 4N) cells). 2D packings simply have z = 0: the grid is then one layer thick.
class CellList {
 public:
  void build(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin);

  // CSR storage: the partners of i are neighbours()[row_start()[i] .. row_start()[i+1]),
  // ascending, all > i.
  const std::vector<Index>& row_start() const { return row_start_; }
  const std::vector<Index>& neighbours() const { return neighbours_; }
  Index pair_count() const { return static_cast<Index>(neighbours_.size()); }
  double cell_size() const { return cell_; }
  const std::array<Index, 3>& grid_dims() const { return dims_; }

 private:
  double cell_ = 0.0;
  std::array<Index, 3> dims_{1, 1, 1};
  std::vector<Index> row_start_, neighbours_;
  std::vector<Index> cell_start_, cell_items_, cell_of_;
};

// A Verlet list kept valid by the half-skin criterion: update() rebuilds the cell list when any
// particle has moved more than skin/2 since the last build (or the particle count changed), so every
// pair in contact (|x_i - x_j| < r_i + r_j) is guaranteed to be in the list.
class NeighbourList {
 public:
  // Returns true when it rebuilt.
  bool update(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin);
  // update() in two parts, so that the check can run on threads: whether a build is due or one of the
  // particles [begin, end) has moved more than skin/2 since the last build; then the build.
  bool moved(const std::vector<Vec3>& pos, std::size_t begin, std::size_t end, double skin) const;
  void rebuild(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin);
  void invalidate() { valid_ = false; }
  const CellList& cells() const { return cells_; }
  std::size_t builds() const { return builds_; }

 private:
  CellList cells_;
  std::vector<Vec3> pos_at_build_;
  double skin_at_build_ = -1.0;
  bool valid_ = false;
  std::size_t builds_ = 0;
};

}  // namespace dtcrit::stepper
