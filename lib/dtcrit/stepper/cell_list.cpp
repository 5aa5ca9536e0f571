#include "dtcrit/stepper/cell_list.hpp"

#include <algorithm>
#include <cmath>

#include "dtcrit/core/check.hpp"

namespace dtcrit::stepper {

void CellList::build(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin) {
  require_non_negative("skin", skin);
  if (pos.size() != radius.size())
    fail(fmt::format("cell list: {} positions but {} radii", pos.size(), radius.size()));
  const Index n = static_cast<Index>(pos.size());
  row_start_.assign(static_cast<std::size_t>(n) + 1, 0);
  neighbours_.clear();
  if (n == 0) return;

  Vec3 lo = pos[0], hi = pos[0];
  double rmax = 0.0;
  for (Index i = 0; i < n; ++i) {
    if (!pos[i].allFinite()) fail(fmt::format("cell list: position of particle {} is not finite", i));
    lo = lo.cwiseMin(pos[i]);
    hi = hi.cwiseMax(pos[i]);
    rmax = std::max(rmax, radius[i]);
  }
  cell_ = 2.0 * rmax + skin;
  if (!(cell_ > 0.0)) cell_ = 1.0;  // point particles with zero skin: any size works
  const double max_cells = std::max(64.0, 4.0 * static_cast<double>(n));
  std::array<double, 3> dd{};
  for (;;) {
    double total = 1.0;
    for (int d = 0; d < 3; ++d) {
      dd[d] = std::floor((hi[d] - lo[d]) / cell_) + 1.0;
      total *= dd[d];
    }
    if (total <= max_cells) break;
    cell_ *= std::max(1.01, std::cbrt(total / max_cells));
  }
  for (int d = 0; d < 3; ++d) dims_[d] = static_cast<Index>(dd[d]);
  const Index ncell = dims_[0] * dims_[1] * dims_[2];

  // Counting sort of the particles into cells.
  cell_of_.resize(static_cast<std::size_t>(n));
  cell_start_.assign(static_cast<std::size_t>(ncell) + 1, 0);
  auto coord = [&](const Vec3& p, int d) {
    return std::min<Index>(dims_[d] - 1, static_cast<Index>(std::floor((p[d] - lo[d]) / cell_)));
  };
  for (Index i = 0; i < n; ++i) {
    const Index c = (coord(pos[i], 2) * dims_[1] + coord(pos[i], 1)) * dims_[0] + coord(pos[i], 0);
    cell_of_[i] = c;
    ++cell_start_[c + 1];
  }
  for (Index c = 0; c < ncell; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_items_.resize(static_cast<std::size_t>(n));
  {
    std::vector<Index> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (Index i = 0; i < n; ++i) cell_items_[fill[cell_of_[i]]++] = i;
  }

  // Rows in particle order; each row scans the 27 (2D: 9) cells around the particle's own.
  for (Index i = 0; i < n; ++i) {
    const Index c = cell_of_[i];
    const Index cx = c % dims_[0], cy = (c / dims_[0]) % dims_[1], cz = c / (dims_[0] * dims_[1]);
    const std::size_t row_begin = neighbours_.size();
    for (Index z = std::max<Index>(0, cz - 1); z <= std::min(dims_[2] - 1, cz + 1); ++z)
      for (Index y = std::max<Index>(0, cy - 1); y <= std::min(dims_[1] - 1, cy + 1); ++y)
        for (Index x = std::max<Index>(0, cx - 1); x <= std::min(dims_[0] - 1, cx + 1); ++x) {
          const Index cc = (z * dims_[1] + y) * dims_[0] + x;
          for (Index k = cell_start_[cc]; k < cell_start_[cc + 1]; ++k) {
            const Index j = cell_items_[k];
            if (j <= i) continue;
            const double reach = radius[i] + radius[j] + skin;
            if ((pos[i] - pos[j]).squaredNorm() < reach * reach) neighbours_.push_back(j);
          }
        }
    std::sort(neighbours_.begin() + static_cast<std::ptrdiff_t>(row_begin), neighbours_.end());
    row_start_[i + 1] = static_cast<Index>(neighbours_.size());
  }
}

bool NeighbourList::moved(const std::vector<Vec3>& pos, std::size_t begin, std::size_t end, double skin) const {
  if (!valid_ || pos.size() != pos_at_build_.size() || skin != skin_at_build_) return true;
  const double limit2 = 0.25 * skin * skin;
  for (std::size_t i = begin; i < end; ++i)
    if ((pos[i] - pos_at_build_[i]).squaredNorm() > limit2) return true;
  return false;
}

void NeighbourList::rebuild(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin) {
  cells_.build(pos, radius, skin);
  pos_at_build_ = pos;
  skin_at_build_ = skin;
  valid_ = true;
  ++builds_;
}

bool NeighbourList::update(const std::vector<Vec3>& pos, const std::vector<double>& radius, double skin) {
  if (!moved(pos, 0, pos.size(), skin)) return false;
  rebuild(pos, radius, skin);
  return true;
}

}  // namespace dtcrit::stepper
