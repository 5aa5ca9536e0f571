#pragma once
// Particles dealt to ranks in space: recursive coordinate bisection. Each part is cut normal to the
// longest side of its particles' bounding box, at the weighted quantile that gives the two sides
// weight in proportion to the ranks they get (so any number of ranks, not only powers of two).
// Weight = 1 + the particle's contacts: the operator's cost per rank is its contacts.
#include <vector>

#include "dtcrit/assembly/packing.hpp"

namespace dtcrit::distributed {

// The rank (0 .. parts - 1) of every particle. A rank may get no particle (more ranks than particles).
std::vector<int> partition_rcb(const std::vector<packing::Vec3>& centres, const std::vector<double>& weights, int parts);

// The same bisection of a sample, kept as its cuts, to deal points that are not in it (the parallel
// reader: a sample of every rank's particles cut on every rank alike, then each particle dealt).
struct RcbCuts {
  struct Node {
    int axis;    // -1: a leaf
    double cut;  // x[axis] < cut: the left child (the next node), else the node `next`
    int next;    // a leaf: its rank
  };
  std::vector<Node> nodes;  // preorder
  int owner(const packing::Vec3& x) const;
};
RcbCuts rcb_cuts(const std::vector<packing::Vec3>& sample, const std::vector<double>& weights, int parts);

}  // namespace dtcrit::distributed
