#pragma once
// Eigen's dense eigensolvers on dtcrit::Matrix, compiled once (eigen_solvers.cpp) instead of in
// every object that uses them. Include this instead of <Eigen/Eigenvalues>.
//
// The solvers' compute() bodies (tridiagonalisation, Householder sequences, the real Schur form)
// are most of the compile time of an object that calls them: 8-10 s of CPU at -O3 each
// (results/benchmarks/build_time.md). The declarations below tell the compiler that the
// specialisations for a plain Matrix argument are instantiated elsewhere; a call with an expression
// argument (a product, a sum) still instantiates its own compute<Expression> where it is made.
// compute() is too large to be inlined at a call site, so the generated code is the same.
#include <Eigen/Eigenvalues>

#include "dtcrit/core/types.hpp"

extern template Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::SelfAdjointEigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, int);
extern template Eigen::EigenSolver<dtcrit::Matrix>&
Eigen::EigenSolver<dtcrit::Matrix>::compute<dtcrit::Matrix>(const Eigen::EigenBase<dtcrit::Matrix>&, bool);
extern template Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>&
Eigen::GeneralizedSelfAdjointEigenSolver<dtcrit::Matrix>::compute(const dtcrit::Matrix&, const dtcrit::Matrix&, int);
