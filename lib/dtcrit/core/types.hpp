#pragma once
// Linear-algebra vocabulary shared by every part of dtcrit.
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace dtcrit {

using Index = Eigen::Index;
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double>;
using Vector2 = Eigen::Vector2d;
using Matrix2 = Eigen::Matrix2d;

}  // namespace dtcrit
