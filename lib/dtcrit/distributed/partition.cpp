#include "dtcrit/distributed/partition.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

#include "dtcrit/core/check.hpp"

namespace dtcrit::distributed {

namespace {

// tree (may be null): the cuts in preorder, for points outside the set (rcb_cuts).
void bisect(const std::vector<packing::Vec3>& x, const std::vector<double>& w, std::int64_t* first, std::int64_t* last,
            int rank0, int parts, std::vector<int>& owner, std::vector<RcbCuts::Node>* tree) {
  if (parts == 1 || last - first <= 0) {
    for (auto* it = first; it != last; ++it) owner[static_cast<std::size_t>(*it)] = rank0;
    if (tree) tree->push_back({-1, 0.0, rank0});
    return;
  }
  packing::Vec3 lo = x[static_cast<std::size_t>(*first)], hi = lo;
  double total = 0.0;
  for (auto* it = first; it != last; ++it) {
    lo = lo.cwiseMin(x[static_cast<std::size_t>(*it)]);
    hi = hi.cwiseMax(x[static_cast<std::size_t>(*it)]);
    total += w[static_cast<std::size_t>(*it)];
  }
  int axis = 0;
  (hi - lo).maxCoeff(&axis);
  // Sorted along the axis (ties by index: the same cut on every run), then cut where the running
  // weight reaches the left side's share.
  std::sort(first, last, [&](std::int64_t a, std::int64_t b) {
    const double xa = x[static_cast<std::size_t>(a)][axis], xb = x[static_cast<std::size_t>(b)][axis];
    return xa < xb || (xa == xb && a < b);
  });
  const int left = parts / 2;
  const double share = total * left / parts;
  double run = 0.0;
  auto* cut = first;
  while (cut != last && run + 0.5 * w[static_cast<std::size_t>(*cut)] < share) run += w[static_cast<std::size_t>(*cut++)];
  std::size_t node = 0;
  if (tree) {
    node = tree->size();
    // Left: below the first coordinate of the right side (every point when the right side is empty).
    const double at = cut == last ? std::numeric_limits<double>::infinity() : x[static_cast<std::size_t>(*cut)][axis];
    tree->push_back({axis, at, 0});
  }
  bisect(x, w, first, cut, rank0, left, owner, tree);
  if (tree) (*tree)[node].next = static_cast<int>(tree->size());
  bisect(x, w, cut, last, rank0 + left, parts - left, owner, tree);
}

// Every point's part, and the cuts into tree when given (both entry points check the same input).
std::vector<int> bisect_all(const std::vector<packing::Vec3>& x, const std::vector<double>& w, int parts,
                            std::vector<RcbCuts::Node>* tree) {
  if (parts < 1) fail(fmt::format("partition: parts = {} must be at least 1", parts));
  if (w.size() != x.size()) fail(fmt::format("partition: {} weights for {} particles", w.size(), x.size()));
  std::vector<std::int64_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> owner(x.size(), 0);
  bisect(x, w, order.data(), order.data() + order.size(), 0, parts, owner, tree);
  return owner;
}

}  // namespace

std::vector<int> partition_rcb(const std::vector<packing::Vec3>& centres, const std::vector<double>& weights, int parts) {
  return bisect_all(centres, weights, parts, nullptr);
}

RcbCuts rcb_cuts(const std::vector<packing::Vec3>& sample, const std::vector<double>& weights, int parts) {
  RcbCuts cuts;
  bisect_all(sample, weights, parts, &cuts.nodes);
  return cuts;
}

int RcbCuts::owner(const packing::Vec3& x) const {
  std::size_t k = 0;
  while (nodes[k].axis >= 0) k = x[nodes[k].axis] < nodes[k].cut ? k + 1 : static_cast<std::size_t>(nodes[k].next);
  return nodes[k].next;
}

}  // namespace dtcrit::distributed
