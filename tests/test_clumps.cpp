// Clumps of spheres as rigid bodies (`--clumps molecule`, assembly/clumps.hpp): the
// bodies against fix rigid/small's sums worked by hand, a clump of one sphere against the sphere
// packing, and omega_max of clump packings against a dense solve built here by constraining the
// sphere packing's own K and M to rigid-body motion (u_s = U_B + Phi_B x d_s, phi_s = Phi_B).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "packing_test_support.hpp"
#include "test_support.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/assembly/clumps.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/system/nonsymmetric.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/system/matrix_export.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

using namespace dtcrit;
using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;

namespace {

// A compressed FCC lattice (periodic, polydisperse) whose atoms are grouped `per_body` at a time in
// the lattice's own order: 2 = dimers of basis sites 0-1 (nearest neighbours), 4 = the tetrahedron of
// a cell's four basis sites (mutually touching).
packing::Packing clump_lattice(int per_body, Index n = 3) {
  packing::LatticeSpec spec;
  spec.kind = packing::LatticeKind::fcc;
  spec.n = n;
  spec.radius = 1e-3;
  spec.compression = 2e-3;
  spec.radius_spread = 1e-3;
  packing::Packing p = packing::make_lattice(spec);
  for (Index i = 0; i < p.size(); ++i) p.molecule.push_back(i / per_body + 1);
  packing::sort_spatially(p);  // the molecule IDs travel with their atoms
  return p;
}

// The sphere packing's contacts without those inside one body (no relative motion there).
packing::ContactSet inter_body_contacts(const packing::Packing& p, const packing::ContactSet& all) {
  packing::ContactSet cs;
  cs.laws = all.laws;
  for (const auto& c : all.contacts) {
    if (c.j >= 0 && p.molecule[static_cast<std::size_t>(c.i)] == p.molecule[static_cast<std::size_t>(c.j)] &&
        p.molecule[static_cast<std::size_t>(c.i)] != 0)
      continue;
    cs.contacts.push_back(c);
    ++(c.j < 0 ? cs.wall_contacts : cs.pair_contacts);
  }
  return cs;
}

// omega_max^2 of the rigid clumps: the sphere packing's K and M (6 dofs per sphere, world axes)
// constrained by T to 6 dofs per body (translation and rotation about its centre of mass, from the
// members' mass-weighted mean computed here), then the generalised eigenproblem K_B v = w^2 M_B v.
double constrained_omega2(const packing::Packing& p, const packing::ContactSet& inter) {
  const packing::GlobalSystem spheres(packing::round_assembly(p, inter));
  REQUIRE(spheres.dofs() == 6 * p.size());
  std::map<std::int64_t, Index> body;
  for (auto m : p.molecule) body.emplace(m, static_cast<Index>(body.size()));
  const Index nb = static_cast<Index>(body.size());
  // Centres of mass (the lattice's clumps lie inside the box without wrapping: checked below).
  std::vector<Vec3> com(static_cast<std::size_t>(nb), Vec3::Zero());
  std::vector<double> mass(static_cast<std::size_t>(nb), 0.0);
  for (Index s = 0; s < p.size(); ++s) {
    const auto b = static_cast<std::size_t>(body.at(p.molecule[static_cast<std::size_t>(s)]));
    com[b] += p.mass[static_cast<std::size_t>(s)] * p.centre[static_cast<std::size_t>(s)];
    mass[b] += p.mass[static_cast<std::size_t>(s)];
  }
  for (std::size_t b = 0; b < com.size(); ++b) com[b] /= mass[b];
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(6 * p.size(), 6 * nb);
  for (Index s = 0; s < p.size(); ++s) {
    const Index b = body.at(p.molecule[static_cast<std::size_t>(s)]);
    const Vec3 d = p.centre[static_cast<std::size_t>(s)] - com[static_cast<std::size_t>(b)];
    REQUIRE(d.norm() < 3e-3);  // not wrapped across the box
    T.block<3, 3>(6 * s, 6 * b) = Mat3::Identity();
    T.block<3, 3>(6 * s, 6 * b + 3) = -contact::cross_matrix(d);  // Phi x d = -[d]x Phi
    T.block<3, 3>(6 * s + 3, 6 * b + 3) = Mat3::Identity();
  }
  const Eigen::MatrixXd Ks = Eigen::MatrixXd(spheres.stiffness());
  const Eigen::MatrixXd Ms = Eigen::MatrixXd(packing::mass_matrix(spheres));
  const Eigen::MatrixXd Kb = T.transpose() * Ks * T, Mb = T.transpose() * Ms * T;
  const linalg::SymmetricEigen eig = linalg::generalized_symmetric_eigen(0.5 * (Kb + Kb.transpose()), Mb, true);
  REQUIRE(eig.converged);
  return eig.values.maxCoeff();
}

// 32 rigid dimers (neighbours along x) of a simple cubic block of 64 spheres (r = 1 mm, compressed by
// 1e-3) between six walls pressed in by the same overlap: every body is in equilibrium.
packing::Packing walled_dimers() {
  packing::LatticeSpec spec;
  spec.kind = packing::LatticeKind::sc;
  spec.n = 4;
  spec.compression = 1e-3;
  spec.periodic = false;
  packing::Packing p = packing::make_lattice(spec);
  p.periodic = {false, false, false};
  packing::add_box_walls(p, 2.0 * spec.radius * spec.compression);
  for (Index i = 0; i < p.size(); ++i) p.molecule.push_back(i / 2 + 1);
  return p;
}

}  // namespace

TEST_CASE("clumps: mass, centre and inertia tensor are fix rigid/small's sums", "[clumps]") {
  // A bent trimer of unequal spheres, non-periodic, no contacts needed for the bodies.
  packing::Packing p;
  p.dim = 3;
  p.add(Vec3(0.0, 0.0, 0.0), 1e-3, 2500.0, packing::BodyModel::sphere);
  p.add(Vec3(1.8e-3, 0.0, 0.0), 1e-3, 2500.0, packing::BodyModel::sphere);
  p.add(Vec3(1.8e-3, 1.5e-3, 0.4e-3), 0.8e-3, 2500.0, packing::BodyModel::sphere);
  p.add(Vec3(9e-3, 9e-3, 9e-3), 0.5e-3, 2500.0, packing::BodyModel::sphere);  // molecule 0: a free sphere
  p.box_hi = Vec3(1e-2, 1e-2, 1e-2);
  p.molecule = {7, 7, 7, 0};
  const network::ContactNetwork net = packing::clump_network(p, packing::ContactSet{});
  REQUIRE(net.bodies.size() == 2);
  const auto& b = net.bodies[0];
  double M = 0.0;
  Vec3 c = Vec3::Zero();
  for (int s = 0; s < 3; ++s) M += p.mass[s], c += p.mass[s] * p.centre[s];
  c /= M;
  CHECK(rel(b.mass, M) < 1e-15);
  CHECK((b.centre - c).norm() < 1e-15);
  // I = sum m (|d|^2 1 - d d^T) + 2/5 m r^2 1, entry by entry as fix_rigid_small.cpp writes it.
  Mat3 J = Mat3::Zero();
  for (int s = 0; s < 3; ++s) {
    const double m = p.mass[s], r = p.radius[s];
    const Vec3 d = p.centre[s] - c;
    J(0, 0) += m * (d.y() * d.y() + d.z() * d.z()) + 0.4 * m * r * r;
    J(1, 1) += m * (d.x() * d.x() + d.z() * d.z()) + 0.4 * m * r * r;
    J(2, 2) += m * (d.x() * d.x() + d.y() * d.y()) + 0.4 * m * r * r;
    J(1, 2) -= m * d.y() * d.z();
    J(0, 2) -= m * d.x() * d.z();
    J(0, 1) -= m * d.x() * d.y();
  }
  J(2, 1) = J(1, 2), J(2, 0) = J(0, 2), J(1, 0) = J(0, 1);
  CHECK((b.inertia_world() - J).norm() < 1e-12 * J.norm());
  CHECK(b.axes.determinant() > 0.0);
  CHECK(b.id == "molecule 7");
  // Molecule ID 0: the sphere alone, with its own mass and inertia.
  CHECK(net.bodies[1].mass == p.mass[3]);
  CHECK((net.bodies[1].inertia_world() - p.inertia[3] * Mat3::Identity()).norm() < 1e-15 * p.inertia[3]);
  CHECK(net.bodies[1].id == "atom 4");
}

TEST_CASE("clumps: a clump of one sphere is the sphere packing", "[clumps]") {
  // Polydisperse simple cubic block between six walls, Hertz with damping: every sphere its own
  // molecule (and, the second time, all of molecule ID 0).
  packing::LatticeSpec spec;
  spec.kind = packing::LatticeKind::sc;
  spec.n = 3;
  spec.compression = 1e-3;
  spec.radius_spread = 5e-4;
  spec.periodic = false;
  packing::Packing p = packing::make_lattice(spec);
  p.periodic = {false, false, false};
  packing::add_box_walls(p, 2e-6);
  packing::ContactLaws laws;
  laws.base = contact::parse_lammps_pair("gran/hertz/history 5e10 NULL 3e5 NULL 0.5 1");
  packing::ContactOptions co;
  co.gap_tolerance = 1e-9;
  const packing::ContactSet cs = packing::find_contacts(p, laws, co);
  REQUIRE(cs.wall_contacts > 0);
  const packing::GlobalSystem spheres(packing::round_assembly(p, cs));
  packing::PackingAnalysisOptions o;
  o.integrators = {"velocity_verlet", "rigid_small", "central_difference", "rk4"};
  o.eigen.method = packing::EigenMethod::dense;
  const auto a = packing::analyse_packing(p, spheres, o);
  for (const bool zero : {false, true}) {
    CAPTURE(zero);
    p.molecule.clear();
    for (Index i = 0; i < p.size(); ++i) p.molecule.push_back(zero ? 0 : 100 + i);
    packing::ClumpSummary sum;
    const packing::GlobalSystem clumps(packing::network_assembly(packing::clump_network(p, cs, &sum)));
    CHECK(sum.bodies == p.size());
    CHECK(sum.clumps == 0);
    CHECK(sum.single_spheres == (zero ? p.size() : 0));
    const auto b = packing::analyse_system("clumps", clumps, o);
    CHECK(rel(b.omega_max, a.omega_max) < 1e-12);
    CHECK(rel(b.h_exact, a.h_exact) < 1e-12);
    // Yade's clump rule on clumps of one sphere is Yade's sphere rule.
    CHECK(rel(clumps.yade_global_stiffness_step(0.8), spheres.yade_global_stiffness_step(0.8)) < 1e-12);
    for (const auto& s : o.integrators) {
      CAPTURE(s);
      CHECK(limit_of(b, s).stability == limit_of(a, s).stability);
      CHECK(rel(limit_of(b, s).h_crit, limit_of(a, s).h_crit) < 1e-12);
    }
  }
  // rigid_small is velocity Verlet in body momentum: the same limit.
  CHECK(rel(limit_of(a, "rigid_small").h_crit, limit_of(a, "velocity_verlet").h_crit) < 1e-10);
}

TEST_CASE("clumps: omega_max of dimer and tetramer packings equals the sphere packing constrained to rigid bodies",
          "[clumps]") {
  for (const int per_body : {2, 4}) {
    for (const char* law : {"gran/hooke/history 1e5 NULL 0 NULL 0.5 0", "gran/hertz/history 5e10 NULL 0 NULL 0.5 0"}) {
      CAPTURE(per_body, law);
      packing::Packing p = clump_lattice(per_body);
      packing::ContactLaws laws;
      laws.base = contact::parse_lammps_pair(law);
      packing::ContactOptions co;
      co.gap_tolerance = 1e-9;
      const packing::ContactSet all = packing::find_contacts(p, laws, co);
      const packing::ContactSet inter = inter_body_contacts(p, all);
      packing::ClumpSummary sum;
      const network::ContactNetwork net = packing::clump_network(p, all, &sum);
      CHECK(sum.bodies == p.size() / per_body);
      CHECK(sum.clumps == sum.bodies);
      CHECK(sum.largest == per_body);
      // Dimers: one inner contact each; tetramers: the six edges of each tetrahedron.
      CHECK(sum.inner_contacts == sum.bodies * (per_body == 2 ? 1 : 6));
      CHECK(static_cast<Index>(net.contacts.size()) == static_cast<Index>(inter.contacts.size()));
      const packing::GlobalSystem clumps(packing::network_assembly(net));
      const double w2 = packing::largest_eigen_dense(clumps, 1.0, 0.0);
      CHECK(rel(w2, constrained_omega2(p, inter)) < 1e-10);
      // The matrix-free Lanczos path on the same bodies.
      packing::EigenOptions lz;
      lz.method = packing::EigenMethod::lanczos;
      lz.tolerance = 1e-11;
      CHECK(rel(packing::largest_eigen(clumps, 1.0, 0.0, lz).lambda, w2) < 1e-10);
      // Constraining to a subspace (M_B = T^T M T) cannot raise the largest Rayleigh quotient: the
      // clumps' omega_max lies below that of the same spheres moving freely on the same contacts.
      const packing::GlobalSystem spheres(packing::round_assembly(p, inter));
      CHECK(w2 < packing::largest_eigen_dense(spheres, 1.0, 0.0));
    }
  }
}

TEST_CASE("clumps: the data file of atom_style hybrid sphere molecular keeps the molecule IDs", "[clumps]") {
  const std::string text =
      "LAMMPS data file via write_data, version 29 Sep 2021, timestep = 0\n\n3 atoms\n1 atom types\n\n"
      "0 0.01 xlo xhi\n0 0.01 ylo yhi\n0 0.01 zlo zhi\n\nMasses\n\n1 0\n\nAtoms # hybrid\n\n"
      "1 1 0.002 0.002 0.002 0.002 2500 1 0 0 0\n2 1 0.0039 0.002 0.002 0.002 2500 1 0 0 0\n"
      "3 1 0.006 0.002 0.002 0.002 2500 2 0 0 0\n\nVelocities\n\n1 0 0 0 0 0 0\n2 0 0 0 0 0 0\n3 0 0 0 0 0 0\n";
  std::istringstream in(text);
  const packing::Packing p = packing::read_lammps_data(in, "hybrid.data");
  REQUIRE(p.size() == 3);
  CHECK(p.molecule == std::vector<std::int64_t>{1, 1, 2});
  CHECK(p.centre[1].x() == 0.0039);
  CHECK(p.radius[2] == 0.001);
  CHECK(rel(p.mass[0], 2500.0 * 4.0 / 3.0 * M_PI * 1e-9) < 1e-15);
  // A sphere file has none; a hybrid line with a fractional molecule ID is an error naming it.
  std::istringstream bad(text.substr(0, text.find("2 1 0.0039")) + "2 1 0.0039 0.002 0.002 0.002 2500 1.5 0 0 0\n");
  CHECK_THROWS_WITH(packing::read_lammps_data(bad, "bad.data"), Catch::Contains("molecule ID") && Catch::Contains("1.5"));
}

TEST_CASE("clumps: dtcrit packing --clumps molecule on a LAMMPS data file", "[clumps][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("dtcrit_clumps_{}", getpid());
  std::filesystem::create_directories(dir);
  // Dimers of an FCC lattice as write_data writes atom_style hybrid sphere molecular.
  const packing::Packing p = clump_lattice(2, 2);
  const std::string data = (dir / "dimers.data").string();
  {
    std::ofstream out(data);
    out << "LAMMPS data file\n\n" << p.size() << " atoms\n1 atom types\n\n";
    for (int d = 0; d < 3; ++d) out << fmt::format("{:.17g} {:.17g} {}lo {}hi\n", p.box_lo[d], p.box_hi[d], "xyz"[d], "xyz"[d]);
    out << "\nAtoms # hybrid\n\n";
    for (Index i = 0; i < p.size(); ++i) {
      const auto s = static_cast<std::size_t>(i);
      const double rho = p.mass[s] / (4.0 / 3.0 * M_PI * std::pow(p.radius[s], 3));
      out << fmt::format("{} 1 {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} 0 0 0\n", p.atom_id(i), p.centre[s].x(),
                         p.centre[s].y(), p.centre[s].z(), 2.0 * p.radius[s], rho, p.molecule[s]);
    }
  }
  const std::string common = fmt::format("packing --lammps-data {} --periodic x,y,z --gap-tolerance 1e-9 --kn 1e5 --kt 3e4", data);
  const auto r = run_cli(common + " --clumps molecule --integrator velocity_verlet --integrator rigid_small --json", false);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("clumps").at("bodies") == p.size() / 2);
  CHECK(j.at("clumps").at("inner_contacts_left_out") == p.size() / 2);
  // omega_max as the library's clump network gives it, and the two rows' limits agree.
  packing::ContactLaws laws;
  laws.base = contact::hooke_history(1e5, 3e4, 0.0, 0.0, 0.0);
  packing::ContactOptions co;
  co.gap_tolerance = 1e-9;
  packing::Packing q = packing::read_lammps_data(data, packing::ReadOptions{3, packing::BodyModel::sphere, std::array{true, true, true}, {}});
  packing::sort_spatially(q);
  const double w2 = constrained_omega2(q, inter_body_contacts(q, packing::find_contacts(q, laws, co)));
  CHECK(rel(j.at("omega_max").get<double>(), std::sqrt(w2)) < 1e-8);
  const auto& rows = j.at("integrators");
  REQUIRE(rows.size() == 2);
  CHECK(rel(rows.at("velocity_verlet").at("h_crit").get<double>(), rows.at("rigid_small").at("h_crit").get<double>()) < 1e-10);
  const auto text = run_cli(common + " --clumps molecule --integrator velocity_verlet");
  CHECK(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains(fmt::format("clumps (--clumps molecule): {} spheres in {} rigid bodies", p.size(), p.size() / 2)));

  // Bad input: a named error, non-zero exit, no output file.
  const std::string out = (dir / "out.txt").string();
  const auto style = run_cli(common + " --clumps atom -o " + out);
  CHECK(style.status != 0);
  CHECK_THAT(style.out, Catch::Contains("--clumps 'atom'"));
  const auto lattice = run_cli("packing --lattice fcc --n 2 --kn 1e5 --kt 3e4 --clumps molecule -o " + out);
  CHECK(lattice.status != 0);
  CHECK_THAT(lattice.out, Catch::Contains("--clumps molecule reads molecule IDs"));
  // The stepper has no periodic boundaries: --confirm on this periodic packing is a named error.
  const auto confirm = run_cli(common + " --clumps molecule --confirm 10 -o " + out);
  CHECK(confirm.status != 0);
  CHECK_THAT(confirm.out, Catch::Contains("no periodic boundaries"));
  // A data file of atom_style sphere has no molecule IDs.
  const std::string spheres = (dir / "spheres.data").string();
  packing::write_lammps_data(spheres, p);
  const auto none = run_cli(fmt::format("packing --lammps-data {} --kn 1e5 --kt 3e4 --clumps molecule -o {}", spheres, out));
  CHECK(none.status != 0);
  CHECK_THAT(none.out, Catch::Contains("has no molecule IDs"));
  CHECK(!std::filesystem::exists(out));
  std::filesystem::remove_all(dir);
}

TEST_CASE("clumps: the reference stepper's rigid clumps confirm the predicted limits, undamped and damped",
          "[clumps][stepper]") {
  // Sticking contacts (mu = 1e6).
  const packing::Packing p = walled_dimers();
  for (const double gamma_n : {0.0, 2e4}) {
    CAPTURE(gamma_n);
    packing::ContactLaws laws;
    laws.base = contact::hooke_history(1e5, 3e4, gamma_n, 0.5 * gamma_n, 1e6);
    packing::ContactOptions co;
    co.gap_tolerance = 1e-9;
    const packing::ContactSet cs = packing::find_contacts(p, laws, co);
    const packing::GlobalSystem sys(packing::network_assembly(packing::clump_network(p, cs)));
    packing::PackingAnalysisOptions o;
    // central_difference runs with the tangential history read from the positions
    // (confirmation_history_mode): LAMMPS' rule would advance the spring by h v_{n+1} there.
    o.integrators = {"rigid_small", "velocity_verlet", "central_difference"};
    const auto report = packing::analyse_system("dimers", sys, o);
    CHECK(packing::equilibrium_residual(p, laws, true) < 1e-9);
    double dmin = 1.0;
    for (const auto& c : cs.contacts) dmin = std::min(dmin, c.overlap);
    for (const auto& name : o.integrators) {
      CAPTURE(name);
      const double h = limit_of(report, name).h_crit;
      const auto below = packing::confirm_clumps_with_stepper(p, laws, name, h, 0.99, 1500, 1e-4 * dmin);
      const auto above = packing::confirm_clumps_with_stepper(p, laws, name, h, 1.01, 1500, 1e-4 * dmin);
      CHECK(below.steps == 1500);
      CHECK(below.growth <= packing::bounded_growth);
      CAPTURE(below.growth, above.growth, h);
      CHECK(!(above.growth <= packing::growing_growth));
    }
  }
}

TEST_CASE("clumps: dtcrit packing --clumps molecule --confirm on dimers between walls", "[clumps][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("dtcrit_clumps_confirm_{}", getpid());
  std::filesystem::create_directories(dir);
  const packing::Packing p = walled_dimers();
  std::string walls;
  for (const auto& w : p.walls) {
    int axis = 0;
    w.normal.cwiseAbs().maxCoeff(&axis);
    walls += fmt::format(" --wall {}={:.17g}", "xyz"[axis], w.point[axis]);
  }
  const std::string data = (dir / "dimers.data").string();
  {
    std::ofstream out(data);
    out << "LAMMPS data file\n\n" << p.size() << " atoms\n1 atom types\n\n";
    for (int d = 0; d < 3; ++d) out << fmt::format("-0.01 0.02 {}lo {}hi\n", "xyz"[d], "xyz"[d]);
    out << "\nAtoms # hybrid\n\n";
    for (Index i = 0; i < p.size(); ++i) {
      const auto s = static_cast<std::size_t>(i);
      out << fmt::format("{} 1 {:.17g} {:.17g} {:.17g} {:.17g} 2500 {}\n", i + 1, p.centre[s].x(), p.centre[s].y(),
                         p.centre[s].z(), 2.0 * p.radius[s], p.molecule[s]);
    }
  }
  const auto r = run_cli(fmt::format("packing --lammps-data {}{} --gap-tolerance 1e-9 --kn 1e5 --kt 3e4 --gamma-n 2e4 "
                                     "--clumps molecule --integrator rigid_small --confirm 1500 --json",
                                     data, walls),
                         false);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("clumps").at("bodies") == 32);
  const auto& runs = j.at("confirmation");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].at("equilibrium_residual").get<double>() < 1e-9);
  CHECK(runs[0].at("growth").get<double>() <= packing::bounded_growth);
  CHECK((runs[1].at("growth").is_null() || runs[1].at("growth").get<double>() > packing::growing_growth));
  std::filesystem::remove_all(dir);
}

TEST_CASE("clumps: histories from LAMMPS' contact dumps are carried to the bodies", "[clumps]") {
  // The Hertz packing LAMMPS settled (in.hertz: gran/hertz/history, wall z = 0 with its own law), its
  // pair and wall contact dumps; every sphere its own molecule: the same non-symmetric spectrum of
  // M^-1 K as the sphere packing with the same histories.
  const packing::LammpsInput in = packing::read_lammps_input(DTCRIT_SOURCE_DIR "/tests/data/lammps/in.hertz");
  packing::Packing p = in.packing;
  packing::sort_spatially(p);
  packing::ContactSet cs = packing::find_contacts(p, in.laws);
  const auto summary = packing::read_lammps_contacts(
      {DTCRIT_SOURCE_DIR "/tests/data/lammps/contacts_hertz.dump", DTCRIT_SOURCE_DIR "/tests/data/lammps/wall_hertz.dump"},
      p, cs, in.computes);
  REQUIRE(summary.pairs_read > 0);
  REQUIRE(summary.walls_read > 0);
  for (Index i = 0; i < p.size(); ++i) p.molecule.push_back(i + 1);
  const network::ContactNetwork net = packing::clump_network(p, cs);
  std::size_t carried = 0;
  for (const auto& c : net.contacts) carried += c.has_history;
  CHECK(carried == static_cast<std::size_t>(summary.pairs_read + summary.walls_read));
  const packing::GlobalSystem spheres(packing::round_assembly(p, cs)), clumps(packing::network_assembly(net));
  REQUIRE(!spheres.symmetric());
  const auto a = packing::nonsymmetric_spectrum(spheres), b = packing::nonsymmetric_spectrum(clumps);
  REQUIRE(a.mu.size() == b.mu.size());
  for (std::size_t k = 0; k < a.mu.size(); ++k) CHECK(std::abs(a.mu[k] - b.mu[k]) <= 1e-10 * std::abs(a.mu[0]));
}
