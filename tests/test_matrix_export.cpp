// packing/matrix_export: the MatrixMarket files read back with Eigen's loadMarket equal the
// assembled M, K and C to the last bit, their dense generalised eigen-solve gives omega_max, the
// top mode satisfies K x = omega^2 M x and the -1 crossing's mode (4M - 2hC - h^2 K) x = 0 (dense
// and iterative paths).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <unsupported/Eigen/SparseExtra>

#include "dtcrit/contact/law.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/system/matrix_export.hpp"
#include "dtcrit/system/nonsymmetric.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/assembly/packing.hpp"

using namespace dtcrit;
using namespace dtcrit::packing;

namespace {

// 27 polydisperse spheres of a compressed simple cubic lattice between six walls, damped.
struct Walled {
  Packing p;
  ContactLaws laws;
  Walled() {
    LatticeSpec spec;
    spec.kind = LatticeKind::sc;
    spec.n = 3;
    spec.compression = 1e-3;
    spec.radius_spread = 5e-4;
    spec.periodic = false;
    p = make_lattice(spec);
    p.periodic = {false, false, false};
    add_box_walls(p, 2.0 * spec.radius * spec.compression);
    laws.base = contact::hooke_history(1e5, 5e4, 100.0, 50.0, 0.5);
  }
};

Eigen::SparseMatrix<double> round_trip(const SparseMatrix& m, const std::string& name) {
  const auto path = std::filesystem::temp_directory_path() / ("dtcrit-test-" + name + ".mtx");
  {
    std::ofstream out(path);
    write_matrix_market(out, m);
  }
  Eigen::SparseMatrix<double> back;
  REQUIRE(Eigen::loadMarket(back, path.string()));
  std::filesystem::remove(path);
  return back;
}

}  // namespace

TEST_CASE("matrix export: M, K, C round-trip through MatrixMarket and give omega_max", "[matrix_export]") {
  Walled w;
  const GlobalSystem sys(round_assembly(w.p, find_contacts(w.p, w.laws)), true);
  REQUIRE(sys.dofs() == 27 * 6);
  const Matrix M = Matrix(round_trip(mass_matrix(sys), "M"));
  const Matrix K = Matrix(round_trip(sys.stiffness(), "K"));
  const Matrix C = Matrix(round_trip(sys.damping(), "C"));
  CHECK((M - Matrix(mass_matrix(sys))).cwiseAbs().maxCoeff() == 0.0);
  CHECK((K - Matrix(sys.stiffness())).cwiseAbs().maxCoeff() == 0.0);
  CHECK((C - Matrix(sys.damping())).cwiseAbs().maxCoeff() == 0.0);
  CHECK(M.diagonal().isApprox(sys.mass(), 0.0));
  // The generalised problem K x = w^2 M x, solved densely from the files, against dtcrit's dense solve
  // of the scaled operator.
  const linalg::SymmetricEigen ges = linalg::generalized_symmetric_eigen(K, M, false);
  const double lambda = largest_eigen_dense(sys, 1.0, 0.0);
  CHECK(ges.values.maxCoeff() == Approx(lambda).epsilon(1e-12));
  const auto j = dof_description(w.p, sys, std::sqrt(lambda));
  CHECK(j["dofs"] == 162);
  CHECK(j["dof_kinds"][3] == "theta_x");
  CHECK(j["particles"].size() == 27);
}

TEST_CASE("matrix export: the top mode satisfies K x = omega^2 M x", "[matrix_export]") {
  Walled w;
  const GlobalSystem sys(round_assembly(w.p, find_contacts(w.p, w.laws)), true);
  const Matrix K = Matrix(sys.stiffness());
  const Vector m = sys.mass();
  const double lambda = largest_eigen_dense(sys, 1.0, 0.0);
  for (auto method : {EigenMethod::dense, EigenMethod::lanczos}) {
    EigenOptions o;
    o.method = method;
    o.tolerance = 1e-10;
    const TopMode mode = top_mode(sys, o);
    CHECK(mode.omega2 == Approx(lambda).epsilon(1e-9));
    const Vector Mx = m.cwiseProduct(mode.x);
    const double residual = (K * mode.x - mode.omega2 * Mx).norm() / (mode.omega2 * Mx.norm());
    INFO(mode.method << ": residual " << residual);
    CHECK(residual < 1e-8);
    double t_max = 0.0;  // normalised to a largest particle translation of 1
    for (Index i = 0; i < sys.particles(); ++i) t_max = std::max(t_max, mode.x.segment(i * 6, 3).norm());
    CHECK(t_max == Approx(1.0).epsilon(1e-14));
    // The dump holds the same numbers (full precision), one row per particle in atom-id order.
    std::ostringstream dump;
    write_mode_dump(dump, w.p, sys, mode);
    std::istringstream in(dump.str());
    std::string line;
    for (int k = 0; k < 9; ++k) std::getline(in, line);
    CHECK(line == "ITEM: ATOMS id type x y z radius vx vy vz omegax omegay omegaz amplitude");
    int rows = 0;
    double max_diff = 0.0;
    while (std::getline(in, line)) {
      std::istringstream row(line);
      long id = 0;
      int type = 0;
      double x = 0, y = 0, z = 0, r = 0, v[6], amp = 0;
      row >> id >> type >> x >> y >> z >> r >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5] >> amp;
      Index i = 0;
      while (w.p.atom_id(i) != id) ++i;
      for (int k = 0; k < 6; ++k) max_diff = std::max(max_diff, std::abs(v[k] - mode.x[i * 6 + k]));
      ++rows;
    }
    CHECK(rows == 27);
    CHECK(max_diff == 0.0);
  }
}

TEST_CASE("matrix export: the mode of velocity Verlet's -1 crossing is the null vector of 4M - 2hC - h^2 K",
          "[matrix_export]") {
  // Damped, the limit is where 4M - 2hC - h^2 K turns singular, and its mode is that matrix's null
  // vector, not the top mode: checked on the assembled matrices, symmetric (hooke/history) and not
  // (granular torque arms r - delta/2), by the dense and the Arnoldi path.
  Walled w;
  ContactLaws granular;
  granular.base = contact::parse_lammps_pair("granular hertz/material 7e10 0.3 0.3 tangential mindlin NULL 1.0 0.5");
  for (const ContactLaws& laws : {w.laws, granular}) {
    const GlobalSystem sys(round_assembly(w.p, find_contacts(w.p, laws)), true);
    REQUIRE(sys.damped());
    const MinusOneCrossing crossing = minus_one_crossing(sys, 2.0);
    REQUIRE(crossing.found);
    const Vector m = sys.mass();
    const Matrix A = 4.0 * Matrix(m.asDiagonal()) - 2.0 * crossing.h * Matrix(sys.damping()) -
                     crossing.h * crossing.h * Matrix(sys.stiffness());
    Vector first;
    for (auto method : {EigenMethod::dense, EigenMethod::lanczos}) {
      EigenOptions o;
      o.method = method;
      const TopMode mode = minus_one_mode_of_velocity_verlet(sys, o);
      INFO((sys.symmetric() ? "symmetric" : "non-symmetric") << ", " << mode.method);
      CHECK(std::isnan(mode.omega2));
      CHECK(mode.h == Approx(crossing.h).epsilon(1e-9));
      const double residual = (A * mode.x).norm() / (4.0 * m.cwiseProduct(mode.x).norm());
      // Arnoldi's tolerance is 1e-8 on the Ritz value, in M^1/2's coordinates; here in M's.
      const double tolerance = method == EigenMethod::dense ? 1e-10 : 1e-7;
      CHECK(residual < tolerance);
      CHECK(mode.residual < tolerance);
      double t_max = 0.0;
      for (Index i = 0; i < sys.particles(); ++i) t_max = std::max(t_max, mode.x.segment(i * 6, 3).norm());
      CHECK(t_max == Approx(1.0).epsilon(1e-14));
      if (first.size() == 0) first = mode.x;
      else CHECK(std::abs(first.dot(mode.x)) / (first.norm() * mode.x.norm()) > 1.0 - 1e-6);  // one simple root
    }
  }
  // Undamped and non-symmetric, a fluttering pair rather than -1 can set the limit: refused, by name.
  ContactLaws undamped;
  undamped.base = contact::parse_lammps_pair("granular hertz/material 7e10 0 0.3 tangential mindlin NULL 0 0.5");
  const GlobalSystem flutter(round_assembly(w.p, find_contacts(w.p, undamped)), true);
  REQUIRE_FALSE(flutter.damped());
  REQUIRE_FALSE(flutter.symmetric());
  CHECK_THROWS_WITH(minus_one_mode_of_velocity_verlet(flutter, {}),
                    Catch::Matchers::Contains("the limiting mode of an undamped non-symmetric packing is not written"));
}

#include "cli_test_support.hpp"

TEST_CASE("packing --write-matrices/--write-mode: checked before computing, nothing left on error",
          "[matrix_export][cli]") {
  const auto missing = run_cli("packing --lattice sc --n 2 --compression 1e-3 --kn 1e5 --kt 5e4 --write-matrices "
                               "/nonexistent/dtcrit-matrices");
  CHECK(missing.status != 0);
  CHECK_THAT(missing.out, Catch::Matchers::Contains("--write-matrices '/nonexistent/dtcrit-matrices' is not an existing folder"));
  // An undamped granular law with rotations is not symmetric: the mode is refused after the matrices
  // were staged, and neither they nor the mode are left behind.
  const auto dir = std::filesystem::temp_directory_path() / "dtcrit-test-matrices-error";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto r = run_cli("packing --lattice sc --n 2 --periodic none --box-walls --compression 1e-3 --lammps-pair "
                         "\"granular hertz/material 7e10 0 0.3 tangential mindlin NULL 0 0.5\" --integrator none "
                         "--write-matrices " + dir.string() + " --write-mode " + (dir / "mode.dump").string());
  CHECK(r.status != 0);
  CHECK_THAT(r.out, Catch::Matchers::Contains("the limiting mode of an undamped non-symmetric packing is not written"));
  CHECK(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}
