#include "dtcrit/core/eigen_solvers.hpp"

// The one instantiation of each specialisation eigen_solvers.hpp declares.
template Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, int);
template Eigen::EigenSolver<dtcrit::Matrix>&
Eigen::EigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, bool);
template Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>::compute(const dtcrit::Matrix&, const dtcrit::Matrix&, int);
template Eigen::JacobiSVD<dtcrit::Matrix>&
Eigen::JacobiSVD<dtcrit::Matrix>::compute(const dtcrit::Matrix&, unsigned int);
