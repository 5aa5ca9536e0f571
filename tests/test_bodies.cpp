// Contact networks of rigid bodies of any shape (issue 14): the reader, the global system with arms
// and full inertia tensors, and its analysis, against independent references (the pair model of
// Burns & Hanley, the sphere packing, dense eigen-solves of M^-1/2 K M^-1/2 built here from the
// file's data, the rigid-body modes).
#include <cmath>
#include <filesystem>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <random>

#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "packing_test_support.hpp"
#include "test_support.hpp"
#include "dtcrit/core/random_draws.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/io/body_spec.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/model/contact_point_model.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

using namespace dtcrit;
using nlohmann::json;
using Mat3 = Eigen::Matrix3d;
using Vec3 = Eigen::Vector3d;

namespace {

json vec(const Vec3& v, int dim) {
  json a = json::array();
  for (int d = 0; d < dim; ++d) a.push_back(v[d]);
  return a;
}

json tensor(const Mat3& J) {
  return json::array({json::array({J(0, 0), J(0, 1), J(0, 2)}), json::array({J(1, 0), J(1, 1), J(1, 2)}),
                      json::array({J(2, 0), J(2, 1), J(2, 2)})});
}

// A random assembly: `free` bodies with random masses, rotated inertia tensors (or scalar in 2D),
// centres in a unit-ish cloud; `fixed` immovable bodies; every pair of free bodies in contact up to
// `contacts`, plus one contact per fixed body, with random points and unit normals. The law is
// gran/hooke/history KN KT GN GT 0.5 1 (stiffness independent of the overlap).
struct RandomAssembly {
  json file;
  std::vector<double> mass;
  std::vector<Mat3> J;  // world tensors (2D: J(2,2))
  std::vector<Vec3> centre;
  std::vector<bool> fixed;
};

// two_points: every other contact gives each body its own point (`points`), 1e-5 m apart along n.
RandomAssembly random_assembly(int dim, int free, int fixed, int contacts, unsigned seed, double gamma_n = 0.0,
                               bool quaternion = false, bool two_points = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto rvec = [&] {
    const double z = dim == 3 ? U(rng) : 0.0, y = U(rng);  // z first: every compiler draws alike
    return Vec3(U(rng), y, z);
  };
  RandomAssembly a;
  a.file["dimension"] = dim;
  a.file["bodies"] = json::array();
  for (int b = 0; b < free + fixed; ++b) {
    const bool is_fixed = b >= free;
    const Vec3 c = 1e-3 * rvec();
    json body{{"id", 100 + b}, {"centre", vec(c, dim)}};
    a.centre.push_back(c);
    a.fixed.push_back(is_fixed);
    a.mass.push_back(0.0);
    a.J.push_back(Mat3::Zero());
    if (is_fixed) {
      body["fixed"] = true;
    } else {
      const double m = 1e-3 * (1.5 + U(rng));
      a.mass.back() = m;
      body["mass"] = m;
      if (dim == 2) {
        const double I = 1e-10 * (1.5 + U(rng));
        a.J.back()(2, 2) = I;
        body["inertia"] = I;
      } else {
        // In [1, 2] e-10: a rigid body's moments (each at most the sum of the other two).
        const Vec3 moments = 1e-10 * (1.5 + 0.5 * draw_vec3(U, rng).array()).matrix();
        const Vec3 q_xyz = draw_vec3(U, rng);
        const Eigen::Quaterniond q = Eigen::Quaterniond(U(rng), q_xyz.x(), q_xyz.y(), q_xyz.z()).normalized();
        const Mat3 R = q.toRotationMatrix();
        a.J.back() = R * moments.asDiagonal() * R.transpose();
        if (quaternion) {
          body["inertia"] = vec(moments, 3);
          body["orientation"] = json::array({q.w(), q.x(), q.y(), q.z()});
        } else {
          body["inertia"] = tensor(a.J.back());
        }
      }
    }
    a.file["bodies"].push_back(body);
  }
  const std::string law = fmt::format("gran/hooke/history 1e5 4e4 {} {} 0.5 1", gamma_n, 0.5 * gamma_n);
  a.file["contacts"] = json::array();
  auto add = [&](int i, int j) {
    Vec3 n = rvec();
    n /= n.norm();
    const Vec3 p = 0.5 * (a.centre[static_cast<std::size_t>(i)] + a.centre[static_cast<std::size_t>(j)]) + 2e-4 * rvec();
    json c{{"bodies", {100 + i, 100 + j}}, {"normal", vec(n, dim)}, {"law", law}, {"overlap", 1e-6}};
    if (two_points && a.file["contacts"].size() % 2 == 1) c["points"] = {vec(p - 5e-6 * n, dim), vec(p + 5e-6 * n, dim)};
    else c["point"] = vec(p, dim);
    a.file["contacts"].push_back(c);
  };
  int made = 0;
  for (int i = 0; i < free && made < contacts; ++i)
    for (int j = i + 1; j < free && made < contacts; ++j, ++made) add(i, j);
  for (int f = 0; f < fixed; ++f) add(free + f, f % free);  // the fixed body first: i is immovable
  return a;
}

// The independent reference: world-frame M (m I, J per body), K = sum G^T Kc G with the contact-point
// Jacobian G_b = [I, -[a_b]x] (v + w x a), Kc = kn n n^T + kt (I - n n^T); C likewise with
// cn = m_eff gamma_n, ct = m_eff gamma_t (m_eff of the two bodies, the free one's mass on a fixed body).
struct Dense {
  Matrix Kt, Ct;  // M^-1/2 K M^-1/2, M^-1/2 C M^-1/2, with M^-1/2 the symmetric inverse square root
};

Dense dense_reference(const RandomAssembly& a, int dim, double kn, double kt, double gamma_n, double gamma_t) {
  const int dpp = dim == 2 ? 3 : 6;
  std::vector<int> slot;
  int nfree = 0;
  for (bool f : a.fixed) slot.push_back(f ? -1 : nfree++);
  const Index N = nfree * dpp;
  Matrix K = Matrix::Zero(N, N), C = Matrix::Zero(N, N), Minvsqrt = Matrix::Zero(N, N);
  for (std::size_t b = 0; b < a.fixed.size(); ++b) {
    if (a.fixed[b]) continue;
    const Index o = slot[b] * dpp;
    for (int d = 0; d < dim; ++d) Minvsqrt(o + d, o + d) = 1.0 / std::sqrt(a.mass[b]);
    if (dim == 2) {
      Minvsqrt(o + 2, o + 2) = 1.0 / std::sqrt(a.J[b](2, 2));
    } else {
      Eigen::SelfAdjointEigenSolver<Mat3> es(a.J[b]);
      Minvsqrt.block(o + 3, o + 3, 3, 3) = es.operatorInverseSqrt();
    }
  }
  for (const auto& c : a.file["contacts"]) {
    const int i = c["bodies"][0].get<int>() - 100, j = c["bodies"][1].get<int>() - 100;
    Vec3 n = Vec3::Zero(), pi = Vec3::Zero(), pj = Vec3::Zero();
    const json& ji = c.contains("points") ? c["points"][0] : c["point"];
    const json& jj = c.contains("points") ? c["points"][1] : c["point"];
    for (int d = 0; d < dim; ++d) {
      const auto ud = static_cast<std::size_t>(d);
      n[d] = c["normal"][ud], pi[d] = ji[ud], pj[d] = jj[ud];
    }
    const Mat3 nn = n * n.transpose();
    double mi = a.fixed[static_cast<std::size_t>(i)] ? 0.0 : a.mass[static_cast<std::size_t>(i)];
    double mj = a.fixed[static_cast<std::size_t>(j)] ? 0.0 : a.mass[static_cast<std::size_t>(j)];
    const double meff = mi == 0.0 ? mj : mj == 0.0 ? mi : mi * mj / (mi + mj);
    const Mat3 Kc = kn * nn + kt * (Mat3::Identity() - nn);
    const Mat3 Cc = meff * (gamma_n * nn + gamma_t * (Mat3::Identity() - nn));
    // u = G_i q_i - G_j q_j on the dofs of the free bodies (rows: the dim components).
    Matrix G = Matrix::Zero(dim, N);
    for (int side = 0; side < 2; ++side) {
      const int b = side ? j : i;
      if (a.fixed[static_cast<std::size_t>(b)]) continue;
      const double s = side ? -1.0 : 1.0;
      const Vec3 arm = (side ? pj : pi) - a.centre[static_cast<std::size_t>(b)];
      const Mat3 Gr = -contact::cross_matrix(arm);
      const Index o = slot[static_cast<std::size_t>(b)] * dpp;
      for (int r = 0; r < dim; ++r) {
        for (int d = 0; d < dim; ++d) G(r, o + d) += s * (r == d ? 1.0 : 0.0);
        if (dim == 2) G(r, o + 2) += s * Gr(r, 2);
        else
          for (int d = 0; d < 3; ++d) G(r, o + 3 + d) += s * Gr(r, d);
      }
    }
    K += G.transpose() * Kc.topLeftCorner(dim, dim) * G;
    C += G.transpose() * Cc.topLeftCorner(dim, dim) * G;
  }
  return {Minvsqrt * K * Minvsqrt, Minvsqrt * C * Minvsqrt};
}

double largest(const Matrix& A) {
  return linalg::symmetric_eigenvalues(0.5 * (A + A.transpose())).maxCoeff();
}

// The first h at which 4I - 2hC~ - h^2 K~ loses positive definiteness (bisection on dense solves).
double dense_damped_limit(const Dense& d) {
  const Index N = d.Kt.rows();
  auto pd = [&](double h) {
    const Matrix S = 4.0 * Matrix::Identity(N, N) - 2.0 * h * d.Ct - h * h * d.Kt;
    return linalg::symmetric_eigenvalues(0.5 * (S + S.transpose())).minCoeff() > 0.0;
  };
  double lo = 0.0, hi = 2.0 / std::sqrt(largest(d.Kt)) * (1.0 + 1e-9);
  for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) (pd(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
  return 0.5 * (lo + hi);
}

packing::PackingReport analyse(const packing::GlobalSystem& sys, std::vector<std::string> integrators) {
  packing::PackingAnalysisOptions o;
  o.integrators = std::move(integrators);
  o.eigen.method = packing::EigenMethod::dense;
  return packing::analyse_system("test", sys, o);
}

}  // namespace

TEST_CASE("bodies: two bodies in a network file reproduce dtcrit pair (Burns & Hanley Fig. 6(b))", "[bodies]") {
  // The bodies of `dtcrit example` (tools/dtcrit/cmd_example.cpp): plate 1 mm x 0.75 mm, disc r = 0.5 mm, 0.003 kg.
  const std::string plate_e = "shape=rect,a=0.001,b=0.00075,m=0.003,e=0.0004";
  const std::string plate_0 = "shape=rect,a=0.001,b=0.00075,m=0.003,e=0";
  const std::string disc = "shape=disc,r=0.0005,m=0.003";
  const std::vector<std::string> specs = expand_integrator_specs({"all"});
  struct Case {
    std::string b1, b2;
    double cn, ct;
  };
  for (const Case& c : {Case{plate_0, disc, 0.0, 0.0}, Case{plate_e, plate_e, 0.0, 0.0}, Case{plate_0, disc, 20.0, 10.0},
                        Case{plate_e, plate_e, 20.0, 10.0}}) {
    CAPTURE(c.b1, c.b2, c.cn, c.ct);
    const PlanarBody b1 = parse_body(c.b1, "body1"), b2 = parse_body(c.b2, "body2");
    const ContactPointModel model(b1, b2, LinearContactLaw{8e7, 4e7, c.cn, c.ct});
    const PairReport pair = analyse_pair("pair", model, std::nullopt, specs);
    // The contact frame (t, n) = (x, y), the contact point at the origin, the normal from body 1 to
    // body 2 along +y. The pair model's arm (r_t, r_n) of body 1 is P - G1; body 2 lies across the
    // contact, G2 = P + (r_t', r_n') (the mobility is even in the arm: the model's arms are the
    // magnitudes of a point-symmetric pair).
    const double meff = 0.003 * 0.003 / 0.006;
    json f{{"dimension", 2},
           {"bodies", {{{"id", 1}, {"mass", b1.mass}, {"inertia", b1.inertia}, {"centre", {-b1.arm[0], -b1.arm[1]}}},
                       {{"id", 2}, {"mass", b2.mass}, {"inertia", b2.inertia}, {"centre", {b2.arm[0], b2.arm[1]}}}}},
           {"contacts",
            {{{"bodies", {1, 2}},
              {"point", {0.0, 0.0}},
              {"normal", {0.0, 1.0}},
              {"law", fmt::format("gran/hooke/history 8e7 4e7 {:.17g} {:.17g} 0.5 1", c.cn / meff, c.ct / meff)},
              {"overlap", 1e-7}}}}};
    const packing::GlobalSystem sys(packing::network_assembly(network::parse_network_json(f, "pair.json")));
    const packing::PackingReport r = analyse(sys, specs);
    CHECK(rel(r.omega_max, model.omega_max()) < 1e-12);
    // The single-contact bound is the pair model itself.
    CHECK(rel(sys.single_contact_omega_max(), model.omega_max()) < 1e-12);
    for (const IntegratorLimit& want : pair.integrators) {
      CAPTURE(want.name);
      const auto& got = limit_of(r, want.name);
      CHECK(got.stability == want.stability);
      // Undamped: both Omega_crit / omega_max. Damped: the pair's 2-dof reduced system against the
      // network's 6 dofs (S(h) criterion, or the amplification matrix with 4 free modes set aside).
      if (want.stability == Stability::conditional) CHECK(rel(got.h_crit, want.h_crit) < (c.cn == 0.0 ? 1e-12 : 1e-8));
    }
  }
}

TEST_CASE("bodies: a sphere packing written as a network file is the sphere packing", "[bodies]") {
  // Polydisperse simple cubic block between six walls, Hertz with damping (per-contact coefficients).
  packing::LatticeSpec spec;
  spec.kind = packing::parse_lattice("sc");
  spec.n = 3;
  spec.radius = 1e-3;
  spec.compression = 1e-3;
  spec.radius_spread = 5e-4;
  spec.periodic = false;
  packing::Packing p = packing::make_lattice(spec);
  p.periodic = {false, false, false};
  packing::add_box_walls(p, 2e-6);
  packing::ContactLaws laws;
  const std::string law = "gran/hertz/history 5e10 NULL 3e5 NULL 0.5 1";
  laws.base = contact::parse_lammps_pair(law);
  packing::ContactOptions co;
  co.gap_tolerance = 1e-9;
  const packing::ContactSet cs = packing::find_contacts(p, laws, co);
  const packing::GlobalSystem spheres(packing::round_assembly(p, cs));
  REQUIRE(cs.wall_contacts > 0);

  // LAMMPS' spheres move their contact at each sphere's own surface point (arms -r_i n, r_j n), which
  // lie the overlap apart: `points`, one per body. One `point` for both (the contact-point model's
  // single point) shortens one arm by the overlap; that network differs by O(overlap / r).
  auto network_of = [&](bool two_points) {
    json f{{"dimension", 3}, {"bodies", json::array()}, {"contacts", json::array()}};
    for (Index i = 0; i < p.size(); ++i)
      f["bodies"].push_back({{"id", i}, {"mass", p.mass[i]}, {"inertia", tensor(p.inertia[i] * Mat3::Identity())},
                             {"centre", vec(p.centre[i], 3)}});
    for (std::size_t w = 0; w < p.walls.size(); ++w) f["bodies"].push_back({{"id", fmt::format("wall{}", w)}, {"fixed", true}});
    for (const auto& c : cs.contacts) {
      const double ri = p.radius[c.i];
      const Vec3 on_i = p.centre[c.i] - ri * c.normal;  // c.normal points from j to i
      const bool wall = c.j < 0;
      const double r_eff = wall ? ri : ri * p.radius[c.j] / (ri + p.radius[c.j]);
      json e{{"bodies", {json(c.i), wall ? json(fmt::format("wall{}", -c.j - 1)) : json(c.j)}},
             {"normal", vec(-c.normal, 3)},
             {"law", law},
             {"overlap", c.overlap},
             {"r_eff", r_eff}};
      if (two_points && !wall) e["points"] = {vec(on_i, 3), vec(p.centre[c.j] + p.radius[c.j] * c.normal, 3)};
      else e["point"] = vec(on_i, 3);
      f["contacts"].push_back(e);
    }
    return f;
  };
  const json f = network_of(true);
  const packing::GlobalSystem bodies(packing::network_assembly(network::parse_network_json(f, "spheres.json")));
  REQUIRE(bodies.dofs() == spheres.dofs());
  REQUIRE(bodies.damped());
  const std::vector<std::string> specs{"velocity_verlet", "central_difference", "rk4", "gear4", "newmark_linear"};
  packing::PackingAnalysisOptions o;
  o.integrators = specs;
  o.eigen.method = packing::EigenMethod::dense;
  const auto a = packing::analyse_packing(p, spheres, o);
  const auto b = packing::analyse_system("network", bodies, o);
  CHECK(rel(b.omega_max, a.omega_max) < 1e-12);
  CHECK(rel(b.h_exact, a.h_exact) < 1e-12);
  for (const auto& s : specs) {
    CAPTURE(s);
    CHECK(limit_of(b, s).stability == limit_of(a, s).stability);
    CHECK(rel(limit_of(b, s).h_crit, limit_of(a, s).h_crit) < 1e-12);
    if (std::isfinite(limit_of(a, s).h_safe)) CHECK(rel(limit_of(b, s).h_safe, limit_of(a, s).h_safe) < 1e-12);
  }
  CHECK(rel(bodies.single_contact_omega_max(), spheres.single_contact_omega_max()) < 1e-12);
  // The matrix-free operator: the Lanczos path on the same packing.
  packing::EigenOptions lz;
  lz.method = packing::EigenMethod::lanczos;
  lz.tolerance = 1e-10;
  CHECK(rel(packing::largest_eigen(bodies, 1.0, 0.0, lz).lambda, a.omega_max * a.omega_max) < 1e-12);
  // Gershgorin's rows, made by the operator's kernel for bodies (arms, per-dof scaling) and for round
  // particles: each equal to the assembled matrix's absolute row sums (every pair touches once).
  const Vector w = spheres.mass().cwiseSqrt().cwiseInverse();
  for (const auto& [ka, kb] : {std::pair{1.0, 0.0}, std::pair{0.0, 1.0}, std::pair{4e-14, 4e-7}}) {
    CAPTURE(ka, kb);
    const Matrix A = w.asDiagonal() * Matrix(ka * spheres.stiffness() + kb * spheres.damping()) * w.asDiagonal();
    const Vector ref = A.cwiseAbs().rowwise().sum();
    CHECK((spheres.gershgorin_rows(ka, kb) - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref.maxCoeff());
    CHECK((bodies.gershgorin_rows(ka, kb) - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref.maxCoeff());
  }
  // One point per contact: the arm of j is r_j - overlap; omega_max moves by about the relative overlap.
  double max_overlap = 0.0;
  for (const auto& c : cs.contacts) max_overlap = std::max(max_overlap, c.overlap / p.radius[c.i]);
  const packing::GlobalSystem one_point(packing::network_assembly(network::parse_network_json(network_of(false), "spheres.json")));
  const double w1 = std::sqrt(packing::largest_eigen_dense(one_point, 1.0, 0.0));
  CHECK(rel(w1, a.omega_max) > 1e-9);
  CHECK(rel(w1, a.omega_max) < max_overlap);
}

TEST_CASE("bodies: a floating assembly has exactly the rigid-body zero modes", "[bodies]") {
  for (int dim : {2, 3}) {
    CAPTURE(dim);
    const RandomAssembly a = random_assembly(dim, 5, 0, 10, 7 + static_cast<unsigned>(dim), 2e3);
    const packing::GlobalSystem sys(packing::network_assembly(network::parse_network_json(a.file, "floating.json")));
    const Vector w = sys.mass().cwiseSqrt().cwiseInverse();
    const Matrix Kt = w.asDiagonal() * Matrix(sys.stiffness()) * w.asDiagonal();
    const Vector ev = linalg::symmetric_eigenvalues(Kt);
    const double top = ev.maxCoeff();
    Index zero = 0;
    for (Index k = 0; k < ev.size(); ++k) zero += std::abs(ev[k]) < 1e-12 * top;
    CHECK(zero == (dim == 2 ? 3 : 6));
    CHECK(ev[zero] > 1e-4 * top);  // the next mode is a real one
    // The amplification route sets the free modes aside (common null space of K and C).
    const auto r = analyse(sys, {"rk4"});
    CHECK(limit_of(r, "rk4").free_modes == (dim == 2 ? 3 : 6));
    CHECK(limit_of(r, "rk4").stability == Stability::conditional);
  }
}

TEST_CASE("bodies: omega_max and the damped limit against dense solves with full inertia tensors", "[bodies]") {
  for (int dim : {2, 3}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      CAPTURE(dim, seed);
      const RandomAssembly a = random_assembly(dim, 6, 2, 12, seed, 3e3, false, true);
      const packing::GlobalSystem sys(packing::network_assembly(network::parse_network_json(a.file, "random.json")));
      const Dense d = dense_reference(a, dim, 1e5, 4e4, 3e3, 1.5e3);
      const double lambda = largest(d.Kt);
      // Dense, three-term Lanczos and Spectra on the matrix-free operator.
      for (auto m : {packing::EigenMethod::dense, packing::EigenMethod::lanczos, packing::EigenMethod::spectra}) {
        packing::EigenOptions eo;
        eo.method = m;
        eo.tolerance = 1e-10;
        CHECK(rel(packing::largest_eigen(sys, 1.0, 0.0, eo).lambda, lambda) < 1e-11);
      }
      CHECK(sys.gershgorin_omega2() >= lambda * (1.0 - 1e-12));
      const auto r = analyse(sys, {"velocity_verlet"});
      CHECK(rel(r.h_exact, dense_damped_limit(d)) < 1e-10);
    }
  }
}

TEST_CASE("bodies: principal moments with an orientation quaternion equal the world tensor", "[bodies]") {
  const RandomAssembly world = random_assembly(3, 5, 1, 8, 11, 1e3, false);
  const RandomAssembly quat = random_assembly(3, 5, 1, 8, 11, 1e3, true);
  const packing::GlobalSystem a(packing::network_assembly(network::parse_network_json(world.file, "world.json")));
  const packing::GlobalSystem b(packing::network_assembly(network::parse_network_json(quat.file, "quaternion.json")));
  const double la = packing::largest_eigen_dense(a, 1.0, 0.0), lb = packing::largest_eigen_dense(b, 1.0, 0.0);
  CHECK(rel(la, lb) < 1e-12);
  CHECK(rel(packing::half_step_damped_limit_dense(a), packing::half_step_damped_limit_dense(b)) < 1e-10);
  const auto na = network::parse_network_json(world.file, "world.json");
  const auto nb = network::parse_network_json(quat.file, "quaternion.json");
  for (std::size_t k = 0; k < na.bodies.size(); ++k)
    if (!na.bodies[k].fixed)
      CHECK((na.bodies[k].inertia_world() - nb.bodies[k].inertia_world()).cwiseAbs().maxCoeff() <
            1e-12 * nb.bodies[k].moments.maxCoeff());
}

namespace {

std::filesystem::path temp_dir() {
  auto d = std::filesystem::temp_directory_path() / fmt::format("dtcrit_bodies_{}", ::getpid());
  std::filesystem::create_directories(d);
  return d;
}

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

json two_discs() {
  return json{{"dimension", 2},
              {"bodies",
               {{{"id", 1}, {"mass", 0.003}, {"inertia", 3.75e-10}, {"centre", {0.0, -5e-4}}},
                {{"id", 2}, {"mass", 0.003}, {"inertia", 3.75e-10}, {"centre", {0.0, 5e-4}}},
                {{"id", "floor"}, {"fixed", true}}}},
              {"contacts",
               {{{"bodies", {1, 2}}, {"point", {0.0, 0.0}}, {"normal", {0.0, 1.0}},
                 {"law", "gran/hooke/history 8e7 4e7 0 0 0.5 0"}, {"overlap", 1e-7}},
                {{"bodies", {"floor", 1}}, {"point", {0.0, -1e-3}}, {"normal", {0.0, 1.0}},
                 {"law", "gran/hooke/history 8e7 4e7 0 0 0.5 0"}, {"overlap", 1e-7}}}}};
}

}  // namespace

TEST_CASE("bodies: dtcrit packing --bodies, JSON and CSV", "[bodies][cli]") {
  const auto dir = temp_dir();
  const auto file = dir / "two.json";
  write(file, two_discs().dump());
  const CliRun run = run_cli(fmt::format("packing --bodies {} --json --integrator velocity_verlet", file.string()), false);
  REQUIRE(run.status == 0);
  const json out = json::parse(run.out);
  // Two discs stacked on a floor: the dense reference of the 6-dof chain.
  const packing::GlobalSystem sys(packing::network_assembly(network::parse_network_json(two_discs(), "two.json")));
  CHECK(rel(out["omega_max"].get<double>(), std::sqrt(packing::largest_eigen_dense(sys, 1.0, 0.0))) < 1e-12);
  CHECK(out["packing"]["wall_contacts"] == 1);
  CHECK(out["inputs"]["fixed_bodies"] == 1);

  // The same network as a CSV pair.
  write(dir / "two_bodies.csv", "id,mass,x,y,inertia,fixed\n1,0.003,0,-5e-4,3.75e-10,\n2,0.003,0,5e-4,3.75e-10,0\nfloor,,,,,1\n");
  write(dir / "two_contacts.csv",
        "i,j,px,py,nx,ny,law,overlap\n1,2,0,0,0,1,gran/hooke/history 8e7 4e7 0 0 0.5 0,1e-7\n"
        "floor,1,0,-1e-3,0,1,gran/hooke/history 8e7 4e7 0 0 0.5 0,1e-7\n");
  const CliRun csv = run_cli(fmt::format("packing --bodies {} --json --integrator velocity_verlet",
                                         (dir / "two_bodies.csv").string()), false);
  REQUIRE(csv.status == 0);
  CHECK(json::parse(csv.out)["omega_max"] == out["omega_max"]);

  // Options the file gives are errors.
  const CliRun kn = run_cli(fmt::format("packing --bodies {} --kn 1e5", file.string()));
  CHECK(kn.status != 0);
  CHECK(kn.out.find("--kn is not read with --bodies: it applies to a law given by --kn and --kt") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("bodies: malformed network files name the file, the entry and the field", "[bodies][cli]") {
  const auto dir = temp_dir();
  struct Bad {
    std::string what;
    std::function<void(json&)> edit;
    std::vector<std::string> message;
  };
  const std::vector<Bad> cases{
      {"missing normal", [](json& j) { j["contacts"][0].erase("normal"); }, {"contact 0", "'normal'", "missing"}},
      {"non-unit normal", [](json& j) { j["contacts"][1]["normal"] = {0.0, 1.01}; }, {"contact 1", "'normal'", "is not 1"}},
      {"unknown body", [](json& j) { j["contacts"][0]["bodies"] = {1, 7}; }, {"contact 0", "'bodies'", "no body has the id 7"}},
      {"negative mass", [](json& j) { j["bodies"][1]["mass"] = -0.003; }, {"body 1 (id 2)", "'mass'", "positive"}},
      {"duplicate id", [](json& j) { j["bodies"][1]["id"] = 1; }, {"body 1 (id 1)", "'id'", "also body 0"}},
      {"wrong dimension", [](json& j) { j["bodies"][0]["centre"] = {0.0, 0.0, 0.0}; }, {"body 0 (id 1)", "'centre'", "2 numbers"}},
      {"non-SPD inertia",
       [](json& j) {
         j["dimension"] = 3;
         j["bodies"][0]["centre"] = {0.0, -5e-4, 0.0};
         j["bodies"][1]["centre"] = {0.0, 5e-4, 0.0};
         j["bodies"][0]["inertia"] = {{1e-10, 0.0, 0.0}, {0.0, 1e-10, 0.0}, {0.0, 0.0, 1e-10}};
         j["bodies"][1]["inertia"] = {{1e-10, 2e-10, 0.0}, {2e-10, 1e-10, 0.0}, {0.0, 0.0, 1e-10}};
         for (auto& c : j["contacts"]) c["point"].push_back(0.0), c["normal"].push_back(0.0);
       },
       {"body 1 (id 2)", "'inertia'", "not positive definite"}},
      {"unknown law word", [](json& j) { j["contacts"][0]["law"] = "gran/hooke/history 8e7"; }, {"contact 0", "'law'"}},
      {"typo", [](json& j) { j["contacts"][0]["overlapp"] = 1.0; }, {"contact 0", "'overlapp'", "unknown field"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    json j = two_discs();
    c.edit(j);
    const auto file = dir / "bad.json";
    write(file, j.dump());
    const auto out = dir / "out.txt";
    const CliRun r = run_cli(fmt::format("packing --bodies {} -o {}", file.string(), out.string()));
    CAPTURE(r.out);
    CHECK(r.status != 0);
    CHECK(r.out.find(file.string()) != std::string::npos);
    for (const auto& m : c.message) CHECK(r.out.find(m) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("bodies: contact histories, listed from the fixed body's side, equal the packing's", "[bodies]") {
  // A sphere pressed into the corner of the walls x = 0 and z = 0 under gran/hertz/history with
  // hand-set tangential histories of opposite signs (it flutters: test_packing_nonsymmetric.cpp).
  // The network lists each contact as [wall, sphere]: its history is the wall's displacement
  // relative to the sphere, -xi.
  const double r = 1e-3, delta = 1e-6;
  packing::Packing p;
  p.dim = 3;
  p.add(Vec3(r - delta, 0.0, r - delta), r, 2500.0, packing::BodyModel::sphere);
  p.inertia[0] *= 100.0;
  p.walls.push_back(packing::PlaneWall{Vec3::Zero(), Vec3::UnitX(), std::nullopt});
  p.walls.push_back(packing::PlaneWall{Vec3::Zero(), Vec3::UnitZ(), std::nullopt});
  const std::string law = "gran/hertz/history 1e9 NULL 0 NULL 10 0";
  packing::ContactLaws laws;
  laws.base = contact::parse_lammps_pair(law);
  packing::ContactSet cs = packing::find_contacts(p, laws);
  REQUIRE(cs.contacts.size() == 2);
  json f{{"dimension", 3},
         {"bodies",
          {{{"id", 0}, {"mass", p.mass[0]}, {"inertia", tensor(p.inertia[0] * Mat3::Identity())}, {"centre", vec(p.centre[0], 3)}},
           {{"id", "wall x"}, {"fixed", true}},
           {{"id", "wall z"}, {"fixed", true}}}},
         {"contacts", json::array()}};
  for (std::size_t k = 0; k < 2; ++k) {
    const auto& c = cs.contacts[k];
    const bool x_wall = c.j == -1;
    const Vec3 xi = x_wall ? Vec3(0.0, 0.0, 0.5 * delta) : Vec3(-0.5 * delta, 0.0, 0.0);
    cs.history_to_fill(k).xi_t = xi;
    f["contacts"].push_back({{"bodies", {json(x_wall ? "wall x" : "wall z"), json(0)}},
                             {"point", vec(p.centre[0] - r * c.normal, 3)},
                             {"normal", vec(c.normal, 3)},  // from the wall (i) to the sphere (j)
                             {"law", law},
                             {"overlap", c.overlap},
                             {"r_eff", r},
                             {"history", {{"xi_t", vec(-xi, 3)}}}});
  }
  const packing::GlobalSystem spheres(packing::round_assembly(p, cs)), bodies(packing::network_assembly(network::parse_network_json(f, "corner.json")));
  REQUIRE(!bodies.symmetric());
  const Matrix Ks = Matrix(spheres.stiffness()), Kb = Matrix(bodies.stiffness());
  CHECK((Ks - Kb).cwiseAbs().maxCoeff() <= 1e-12 * Ks.cwiseAbs().maxCoeff());
  const auto a = packing::nonsymmetric_spectrum(spheres), b = packing::nonsymmetric_spectrum(bodies);
  REQUIRE(a.mu.size() == b.mu.size());
  for (std::size_t k = 0; k < a.mu.size(); ++k) CHECK(std::abs(a.mu[k] - b.mu[k]) <= 1e-10 * std::abs(a.mu[0]));
}

TEST_CASE("bodies: --confirm runs fixed-arm linear dynamics at 0.99 and 1.01 of each limit", "[bodies][cli]") {
  const std::string file = std::string(DTCRIT_SOURCE_DIR) + "/tests/data/network/plate_plate.json";
  const auto r = run_cli("packing --bodies " + file + " --integrator velocity_verlet --integrator rk4 --confirm 2000 --json",
                         false);
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  const auto& runs = j.at("confirmation");
  REQUIRE(runs.size() == 4);
  for (std::size_t k = 0; k < 4; k += 2) {
    CAPTURE(runs[k].dump());
    CHECK(runs[k].at("model") == "fixed-arm linear dynamics");
    CHECK(runs[k].at("factor") == 0.99);
    CHECK(runs[k].at("growth").get<double>() <= 10.0);
    CHECK((runs[k + 1].at("growth").is_null() || runs[k + 1].at("growth").get<double>() > 1e3));
  }
  const auto text = run_cli("packing --bodies " + file + " --integrator velocity_verlet --confirm 500");
  CHECK(text.status == 0);
  CHECK_THAT(text.out, Catch::Contains("confirmation with fixed-arm linear dynamics"));
}
