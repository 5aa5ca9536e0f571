#pragma once
// Eigen's dense eigensolvers and its Jacobi SVD on dtcrit::Matrix, compiled once
// (eigen_solvers.cpp) instead of in every object that uses them. Include this instead of
// <Eigen/Eigenvalues> or <Eigen/SVD>.
//
// The solvers' compute() bodies (tridiagonalisation, Householder sequences, the real Schur form,
// the QR preconditioner of the SVD) are most of the compile time of an object that calls them:
// several seconds of CPU each at -O3 (results/benchmarks/build_eigen_solvers.md). The declarations
// below tell the compiler that the specialisations for a plain Matrix argument are instantiated
// elsewhere; a call with an expression argument (a product, a sum) still instantiates its own
// compute<Expression> where it is made. compute() is too large to be inlined at a call site, so the
// generated code is the same.
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "dtcrit/core/types.hpp"

extern template Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, int);
extern template Eigen::EigenSolver<dtcrit::Matrix>&
Eigen::EigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, bool);
extern template Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>::compute(const dtcrit::Matrix&, const dtcrit::Matrix&, int);
extern template Eigen::JacobiSVD<dtcrit::Matrix>&
Eigen::JacobiSVD<dtcrit::Matrix>::compute(const dtcrit::Matrix&, unsigned int);
