#pragma once
// The global system of a packing for other tools: M, K and C in MatrixMarket coordinate format
// (Eigen's saveMarket, unsupported/Eigen/SparseExtra; scipy.io.mmread, MATLAB's mmread), a JSON
// description of the dof ordering, and the top mode (the eigenvector of omega_max) per particle as
// a LAMMPS text dump for OVITO. K v = omega^2 M v; the dof order is GlobalSystem's: particle-major in
// dtcrit's storage order (sort_spatially's cell order, not the atom ids: dofs.json maps them).
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/system/global_system.hpp"

namespace dtcrit::packing {

// The kind of each dof of one particle: x y z theta_x theta_y theta_z (3D), x y theta_z (2D), the
// translations only without rotation.
std::vector<std::string> dof_kinds(const GlobalSystem& sys);

// The matrix in MatrixMarket coordinate real general format, 1-based, 17 significant digits.
void write_matrix_market(std::ostream& out, const SparseMatrix& m);
// M as a sparse diagonal matrix.
SparseMatrix mass_matrix(const GlobalSystem& sys);

// dofs.json: the dof ordering (particle index, LAMMPS atom id, first dof, dof kinds), the units of
// each matrix by dof kind, whether free modes were removed (never: K keeps the zero eigenvalues of
// floating rigid-body motion), symmetry, and the file names.
nlohmann::json dof_description(const Packing& p, const GlobalSystem& sys, double omega_max);

// A mode in physical coordinates, normalised to a largest particle translation of 1 (largest
// rotation of 1 rad when no particle translates), sign fixed by its largest component being positive.
// top_mode: the top mode of a symmetric system, omega_max^2 and its eigenvector (K x = omega^2 M x).
// minus_one_mode_of_velocity_verlet: the mode of velocity Verlet's -1 crossing (dashpots at
// (x_n - x_{n-1})/h, as LAMMPS), the null vector of 4M - 2hC - h^2 K at its first root h, the limit
// of a damped packing wherever it is exact (undamped and symmetric it is the top mode, h = 2/omega_max);
// undamped non-symmetric packings are refused (a fluttering pair, not a -1 crossing, can set their
// limit).
struct TopMode {
  double omega2 = std::numeric_limits<double>::quiet_NaN();  // top_mode [rad^2/s^2]
  double h = std::numeric_limits<double>::quiet_NaN();       // the -1 crossing's step [s]
  double residual = std::numeric_limits<double>::quiet_NaN();  // the -1 crossing: |(4I - 2hC~ - h^2 K~) phi~| / 4
  Vector x;
  std::string method;
};
TopMode top_mode(const GlobalSystem& sys, const EigenOptions& opts);
TopMode minus_one_mode_of_velocity_verlet(const GlobalSystem& sys, const EigenOptions& opts);

// A LAMMPS text dump of the mode: ITEM: ATOMS id type x y z radius vx vy vz omegax omegay omegaz
// amplitude, the mode's translation as (vx, vy, vz), its rotation as (omegax, omegay, omegaz) (2D:
// omegaz), amplitude = |translation|; full precision, rows in atom-id order.
void write_mode_dump(std::ostream& out, const Packing& p, const GlobalSystem& sys, const TopMode& mode);

}  // namespace dtcrit::packing
