#include "dtcrit/system/matrix_export.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include <unsupported/Eigen/SparseExtra>

#include "dtcrit/core/check.hpp"
#include "dtcrit/system/nonsymmetric.hpp"

namespace dtcrit::packing {

std::vector<std::string> dof_kinds(const GlobalSystem& sys) {
  if (sys.dim() == 3)
    return sys.rotation() ? std::vector<std::string>{"x", "y", "z", "theta_x", "theta_y", "theta_z"}
                          : std::vector<std::string>{"x", "y", "z"};
  return sys.rotation() ? std::vector<std::string>{"x", "y", "theta_z"} : std::vector<std::string>{"x", "y"};
}

void write_matrix_market(std::ostream& out, const SparseMatrix& m) {
  // saveMarket writes to a named file only: through a temporary one, then copied into `out`.
  std::string tmpl = (std::filesystem::temp_directory_path() / "dtcrit-mtx-XXXXXX").string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) fail(fmt::format("cannot create a temporary file {}", tmpl));
  close(fd);
  struct Remove {
    std::string path;
    ~Remove() { std::remove(path.c_str()); }
  } remove{tmpl};
  if (!Eigen::saveMarket(m, tmpl)) fail(fmt::format("Eigen::saveMarket could not write {}", tmpl));
  std::ifstream in(tmpl);
  out << in.rdbuf();
}

SparseMatrix mass_matrix(const GlobalSystem& sys) {
  SparseMatrix m(sys.dofs(), sys.dofs());
  std::vector<Eigen::Triplet<double>> t;
  for (Index k = 0; k < sys.dofs(); ++k) t.emplace_back(k, k, sys.mass()[k]);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

nlohmann::json dof_description(const Packing& p, const GlobalSystem& sys, double omega_max) {
  const auto kinds = dof_kinds(sys);
  nlohmann::json particles = nlohmann::json::array();
  for (Index i = 0; i < p.size(); ++i)
    particles.push_back({{"index", i}, {"atom_id", p.atom_id(i)}, {"type", p.type[static_cast<std::size_t>(i)]},
                         {"first_dof", i * sys.dofs_per_particle()}});
  return {
      {"files", {{"M", "M.mtx"}, {"K", "K.mtx"}, {"C", "C.mtx"}}},
      {"format", "MatrixMarket coordinate real general, 1-based (Eigen saveMarket; scipy.io.mmread, MATLAB mmread)"},
      {"equation", "M a + C v + K x = 0; omega_max^2 is the largest eigenvalue of K x = omega^2 M x"},
      {"dofs", sys.dofs()},
      {"dofs_per_particle", sys.dofs_per_particle()},
      {"dof_kinds", kinds},
      {"order", "particle-major: dof first_dof + k of a particle is dof_kinds[k]; dof indices 0-based here, "
                "1-based in the .mtx files"},
      {"particles", particles},
      {"units",
       {{"M", "kg on translations, kg m^2 on rotations"},
        {"K", "N/m (translation-translation), N/rad and N m/m (translation-rotation), N m/rad (rotation-rotation)"},
        {"C", "N s/m (translation-translation), N s/rad and N m s/m (translation-rotation), N m s/rad "
              "(rotation-rotation)"},
        {"x", "m, rad"}}},
      {"free_modes_removed", false},
      {"free_modes", "not removed: floating rigid-body motions (periodic or wall-less packings) are zero eigenvalues of K"},
      {"symmetric", sys.symmetric()},
      {"rotation", sys.rotation()},
      {"omega_max", omega_max},
      {"omega_max_unit", "rad/s"}};
}

namespace {

// x = M^-1/2 v, normalised as TopMode says.
Vector physical_mode(const GlobalSystem& sys, const Vector& v) {
  Vector x = v.cwiseQuotient(sys.mass().cwiseSqrt());
  const Index dpp = sys.dofs_per_particle();
  const Index nt = sys.dim();
  double t_max = 0.0, all_max = 0.0;
  Index arg = 0;
  for (Index i = 0; i < sys.particles(); ++i) t_max = std::max(t_max, x.segment(i * dpp, nt).norm());
  for (Index k = 0; k < x.size(); ++k)
    if (std::abs(x[k]) > all_max) all_max = std::abs(x[k]), arg = k;
  double scale = t_max > 0.0 ? t_max : all_max;
  if (x[arg] < 0.0) scale = -scale;
  return x / scale;
}

}  // namespace

TopMode top_mode(const GlobalSystem& sys, const EigenOptions& opts) {
  if (!sys.symmetric())
    fail(fmt::format("the top mode is written for symmetric K only; this packing has {} contacts with "
                     "histories, sliding or granular torque arms (packing/README.md, non-symmetric packings)",
                     sys.nonsymmetric_contacts()));
  EigenOptions o = opts;
  o.want_vector = true;
  const ExtremeEigen top = largest_eigen(sys, 1.0, 0.0, o);
  if (top.vector.size() != sys.dofs()) fail("the eigensolver returned no eigenvector for the top mode");
  TopMode m;
  m.omega2 = top.lambda;
  m.method = top.method;
  m.x = physical_mode(sys, top.vector);
  return m;
}

TopMode minus_one_mode_of_velocity_verlet(const GlobalSystem& sys, const EigenOptions& opts) {
  if (!sys.damped() && !sys.symmetric())
    fail(fmt::format("the limiting mode of an undamped non-symmetric packing is not written: a fluttering pair, "
                     "not a -1 crossing, can set its limit (this packing has {} contacts with histories, sliding or "
                     "granular torque arms; packing/README.md, non-symmetric packings)",
                     sys.nonsymmetric_contacts()));
  SpectrumOptions so;
  so.dense_below = opts.method == EigenMethod::dense ? std::numeric_limits<Index>::max() : opts.dense_below;
  so.tolerance = std::min(opts.tolerance, 1e-8);
  const bool arnoldi = (opts.method == EigenMethod::lanczos || opts.method == EigenMethod::spectra) &&
                       sys.dofs() > 2 * so.nev + 2;
  const MinusOneCrossing crossing = minus_one_crossing(sys, 2.0, so, arnoldi);
  if (!crossing.found) fail("velocity Verlet's -1 crossing: 4M - 2hC - h^2 K is singular at no step h > 0");
  TopMode m;
  m.h = crossing.h;
  if (crossing.null_vector.size() == sys.dofs()) {  // Arnoldi: its Ritz vector
    m.residual = crossing.residual;
    m.method = fmt::format("the crossing and its null vector: {}", crossing.method);
    m.x = physical_mode(sys, crossing.null_vector);
  } else {
    const MinusOneMode mode = minus_one_mode(sys, 2.0, crossing.h);
    m.residual = mode.residual;
    m.method = fmt::format("the crossing: {}; its null vector: {}", crossing.method, mode.method);
    m.x = physical_mode(sys, mode.phi);
  }
  return m;
}

void write_mode_dump(std::ostream& out, const Packing& p, const GlobalSystem& sys, const TopMode& mode) {
  const Index dpp = sys.dofs_per_particle();
  const int d = sys.dim();
  std::vector<Index> order(static_cast<std::size_t>(p.size()));
  std::iota(order.begin(), order.end(), Index{0});
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return p.atom_id(a) < p.atom_id(b); });
  Vec3 lo = p.box_lo, hi = p.box_hi;
  for (int k = 0; k < 3; ++k)
    if (!(hi[k] > lo[k]))
      for (Index i = 0; i < p.size(); ++i) {
        lo[k] = std::min(i == 0 ? p.centre[0][k] : lo[k], p.centre[i][k] - p.radius[i]);
        hi[k] = std::max(i == 0 ? p.centre[0][k] : hi[k], p.centre[i][k] + p.radius[i]);
      }
  out << "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n" << p.size() << "\nITEM: BOX BOUNDS";
  for (int k = 0; k < 3; ++k) out << (p.periodic[k] ? " pp" : " ff");
  out << "\n";
  for (int k = 0; k < 3; ++k) out << fmt::format("{:.17g} {:.17g}\n", lo[k], hi[k]);
  out << "ITEM: ATOMS id type x y z radius vx vy vz omegax omegay omegaz amplitude\n";
  for (Index i : order) {
    const auto x = mode.x.segment(i * dpp, dpp);
    Vec3 t = Vec3::Zero(), w = Vec3::Zero();
    for (int k = 0; k < d; ++k) t[k] = x[k];
    if (sys.rotation()) {
      if (d == 3) w = Vec3(x[3], x[4], x[5]);
      else w[2] = x[2];
    }
    const Vec3& c = p.centre[static_cast<std::size_t>(i)];
    out << fmt::format("{} {} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n",
                       p.atom_id(i), p.type[static_cast<std::size_t>(i)], c.x(), c.y(), c.z(),
                       p.radius[static_cast<std::size_t>(i)], t.x(), t.y(), t.z(), w.x(), w.y(), w.z(), t.norm());
  }
}

}  // namespace dtcrit::packing
