// The matrix-free packing operator: equal to the assembled matrices whatever the order of the
// contacts (its kernel sums a particle's run of contacts in registers), the same bits with its
// contacts split into parts over threads as the parts' own sums added in order, whichever thread
// runs which part (core/parts_pool.hpp), and the pool itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <random>
#include <stdexcept>

#include "dtcrit/core/parts_pool.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"

using namespace dtcrit;
using namespace dtcrit::packing;

namespace {

ContactLaws damped_laws() {
  ContactLaws l;
  l.base = contact::hooke_history(1e5, 3e4, 2000.0, 1000.0, 0.0);
  return l;
}

Packing lattice(LatticeKind kind, Index n, bool periodic) {
  LatticeSpec s;
  s.kind = kind;
  s.n = n;
  s.periodic = periodic;
  s.compression = 0.01;
  s.radius_spread = 0.004;
  s.seed = 3;
  return make_lattice(s);
}

// |y - (M^-1/2 (a K + b C) M^-1/2) x| / |y| with the assembled sparse K and C (another code path:
// the contact module's blocks per contact).
double relative_error_to_assembled(const GlobalSystem& g, double a, double b, const Vector& x) {
  const Vector w = g.mass().cwiseSqrt().cwiseInverse();
  const Vector ref = w.asDiagonal() * ((a * g.stiffness() + b * g.damping()) * (w.asDiagonal() * x));
  Vector y(g.dofs());
  g.apply_scaled(a, b, x.data(), y.data());
  return (y - ref).norm() / ref.norm();
}

bool same_bits(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::equal(a.data(), a.data() + a.size(), b.data());
}

}  // namespace

TEST_CASE("packing operator equals the assembled matrices, contacts in any order", "[packing]") {
  const double h = 2e-6;  // the damped limit's operator h^2 K + 2h C, and K alone
  struct Case {
    const char* name;
    Packing p;
  };
  std::vector<Case> cases;
  cases.push_back({"periodic fcc, polydisperse", lattice(LatticeKind::fcc, 3, true)});
  // A periodic simple cubic box of one cell: the particle touches its own images (j == i), the
  // contact the kernel adds to its run's own sum.
  cases.push_back({"one particle touching its own images", lattice(LatticeKind::sc, 1, true)});
  Packing boxed = lattice(LatticeKind::fcc, 2, false);
  add_box_walls(boxed, 2e-5);
  cases.push_back({"fcc boxed in by walls", boxed});
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ContactSet cs = find_contacts(c.p, damped_laws(), {1e-9});
    REQUIRE(cs.contacts.size() > 0);
    if (std::string(c.name).find("own images") != std::string::npos)
      REQUIRE(std::any_of(cs.contacts.begin(), cs.contacts.end(), [](const Contact& k) { return k.i == k.j; }));
    if (std::string(c.name).find("walls") != std::string::npos) REQUIRE(cs.wall_contacts > 0);
    // The same contacts shuffled: particle i's contacts no longer come in one run.
    ContactSet shuffled = cs;
    std::shuffle(shuffled.contacts.begin(), shuffled.contacts.end(), std::mt19937(5));
    const GlobalSystem sorted_sys(round_assembly(c.p, cs)), shuffled_sys(round_assembly(c.p, shuffled));
    const Vector x = Vector::Random(sorted_sys.dofs());
    for (const GlobalSystem* g : {&sorted_sys, &shuffled_sys}) {
      CHECK(relative_error_to_assembled(*g, 1.0, 0.0, x) <= 1e-12);
      CHECK(relative_error_to_assembled(*g, h * h, 2.0 * h, x) <= 1e-12);
    }
  }
}

TEST_CASE("packing operator over threads: the parts' sums added in order, the same bits every time", "[packing]") {
  // From 50000 contacts the operator splits the contacts into threads() parts: part t scatters into
  // its own buffer, the buffers are added in order. The reference: each part as a system of its own
  // (fewer than 50000 contacts: one thread), their answers added in the same order.
  const Packing p = lattice(LatticeKind::fcc, 14, true);  // 10976 spheres, 65856 contacts
  const ContactSet cs = find_contacts(p, damped_laws(), {1e-9});
  const std::size_t nc = cs.contacts.size();
  REQUIRE(nc >= 50000);
  const double h = 2e-6;
  for (int T : {2, 3}) {
    CAPTURE(T);
    GlobalSystem whole(round_assembly(p, cs));
    whole.set_threads(T);
    std::vector<GlobalSystem> parts;
    for (int t = 0; t < T; ++t) {
      ContactSet part = cs;
      part.contacts.assign(cs.contacts.begin() + static_cast<std::ptrdiff_t>(nc * t / T),
                           cs.contacts.begin() + static_cast<std::ptrdiff_t>(nc * (t + 1) / T));
      REQUIRE(part.contacts.size() < 50000);
      parts.emplace_back(round_assembly(p, part));
    }
    const Vector x = Vector::Random(whole.dofs());
    for (const auto& [a, b] : {std::pair{1.0, 0.0}, std::pair{h * h, 2.0 * h}}) {
      Vector ref(whole.dofs()), part_y(whole.dofs());
      parts[0].apply_scaled(a, b, x.data(), ref.data());
      for (int t = 1; t < T; ++t) {
        parts[static_cast<std::size_t>(t)].apply_scaled(a, b, x.data(), part_y.data());
        ref += part_y;
      }
      // Repeated: whichever thread claims which part, the answer may not change in any bit.
      for (int rep = 0; rep < 20; ++rep) {
        Vector y(whole.dofs());
        whole.apply_scaled(a, b, x.data(), y.data());
        REQUIRE(same_bits(y, ref));
      }
    }
    // A copy of the system has its own workers and the same answer.
    const GlobalSystem copy = whole;
    Vector y1(whole.dofs()), y2(whole.dofs());
    whole.apply_scaled(1.0, 0.0, x.data(), y1.data());
    copy.apply_scaled(1.0, 0.0, x.data(), y2.data());
    CHECK(same_bits(y1, y2));
    // Another thread count in between: each part's buffer is zeroed and summed only on the rows it
    // writes (written_rows), which depend on the parts; changing T must redo them.
    Vector y3(whole.dofs());
    whole.set_threads(T == 2 ? 3 : 2);
    whole.apply_scaled(1.0, 0.0, x.data(), y3.data());
    whole.set_threads(T);
    whole.apply_scaled(1.0, 0.0, x.data(), y2.data());
    CHECK(same_bits(y1, y2));
    CHECK((y3 - y1).norm() <= 1e-14 * y1.norm());
  }
}

TEST_CASE("parts pool runs every part exactly once and passes exceptions on", "[packing]") {
  for (int workers : {0, 1, 3}) {
    CAPTURE(workers);
    PartsPool pool(workers);
    CHECK(pool.workers() == workers);
    for (int parts : {1, 2, 7}) {
      for (int rep = 0; rep < 200; ++rep) {
        std::vector<std::atomic<int>> runs(static_cast<std::size_t>(parts));
        for (auto& r : runs) r = 0;
        pool.run(parts, [&](int t) { ++runs[static_cast<std::size_t>(t)]; });
        for (int t = 0; t < parts; ++t) REQUIRE(runs[static_cast<std::size_t>(t)] == 1);
      }
    }
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(pool.run(4,
                             [&](int t) {
                               ++ran;
                               if (t == 2) throw std::runtime_error("part 2");
                             }),
                    std::runtime_error);
    CHECK(ran == 4);  // every part still ran: run returns after all of them
    pool.run(3, [&](int) { ++ran; });  // usable after an exception
    CHECK(ran == 7);
  }
}

TEST_CASE("Gershgorin rows: the blocks made on several threads, summed in contact order", "[packing]") {
  // From 50000 contacts gershgorin_rows makes the contacts' blocks on apply()'s threads, in rounds of
  // a few thousand contacts, and sums them on one thread in contact order: the same bits on one thread
  // and on several, and the assembled matrix's absolute row sums (no pair touches twice here).
  const Packing p = lattice(LatticeKind::fcc, 14, true);  // 10976 spheres, 65856 contacts
  const ContactSet cs = find_contacts(p, damped_laws(), {1e-9});
  REQUIRE(cs.contacts.size() >= 50000);
  GlobalSystem one(round_assembly(p, cs));
  one.set_threads(1);
  const Vector w = one.mass().cwiseSqrt().cwiseInverse();
  const double h = 2e-6;
  for (const auto& [a, b] : {std::pair{1.0, 0.0}, std::pair{h * h, 2.0 * h}}) {
    const Vector ref = one.gershgorin_rows(a, b);
    const SparseMatrix A = w.asDiagonal() * SparseMatrix(a * one.stiffness() + b * one.damping()) * w.asDiagonal();
    Vector sums = Vector::Zero(A.rows());
    for (Index col = 0; col < A.outerSize(); ++col)
      for (SparseMatrix::InnerIterator it(A, col); it; ++it) sums[it.row()] += std::abs(it.value());
    CHECK((ref - sums).cwiseAbs().maxCoeff() <= 1e-12 * sums.maxCoeff());
    CHECK(ref.minCoeff() > 0.0);
    for (int T : {2, 3}) {
      CAPTURE(T);
      GlobalSystem several(round_assembly(p, cs));
      several.set_threads(T);
      CHECK(several.gershgorin_rows(a, b) == ref);
    }
  }
}

TEST_CASE("Gershgorin rows equal the assembled matrix's absolute row sums without repeated pairs", "[packing]") {
  // gershgorin_rows keeps a particle's diagonal block only between its first and last contact. With
  // walls and no periodic images every pair has one contact, so the bound is the assembled row sum
  // of |M^-1/2 (a K + b C) M^-1/2| exactly (up to rounding). Contacts shuffled too: the blocks are
  // then opened and closed in another order.
  Packing p = lattice(LatticeKind::fcc, 3, false);
  add_box_walls(p, 2e-5);
  ContactSet cs = find_contacts(p, damped_laws(), {1e-9});
  REQUIRE(cs.wall_contacts > 0);
  ContactSet shuffled = cs;
  std::shuffle(shuffled.contacts.begin(), shuffled.contacts.end(), std::mt19937(11));
  for (const ContactSet* set : {&cs, &shuffled}) {
    const GlobalSystem g(round_assembly(p, *set));
    const Vector w = g.mass().cwiseSqrt().cwiseInverse();
    for (const auto& [a, b] : {std::pair{1.0, 0.0}, std::pair{0.0, 1.0}, std::pair{4e-12, 4e-6}}) {
      const Matrix A = w.asDiagonal() * Matrix(a * g.stiffness() + b * g.damping()) * w.asDiagonal();
      const Vector ref = A.cwiseAbs().rowwise().sum();
      const Vector rows = g.gershgorin_rows(a, b);
      REQUIRE(rows.size() == ref.size());
      CHECK((rows - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref.maxCoeff());
      CHECK(rows.minCoeff() > 0.0);  // every particle touches something
    }
  }
  // A granular law with rolling and twisting (per-contact coefficients and torque arms r - delta/2)
  // and one contact with a tangential history at its Coulomb cap (full blocks, applied apart from
  // the kernel): the bound is still the assembled row sum, the blocks non-symmetric.
  ContactLaws granular;
  granular.base = contact::parse_lammps_pair("granular hooke 1e5 50 tangential linear_history 3e4 1 0.5 "
                                             "rolling sds 2e4 10 0.3 twisting marshall damping mass_velocity");
  ContactSet gs = find_contacts(p, granular, {1e-9});
  const std::size_t pair = static_cast<std::size_t>(
      std::find_if(gs.contacts.begin(), gs.contacts.end(), [](const Contact& c) { return c.j >= 0; }) - gs.contacts.begin());
  const Vec3 n = gs.contacts[pair].normal;
  gs.history_to_fill(pair).xi_t = 1.0 * n.unitOrthogonal();  // far beyond mu F_n / k_t: sliding
  const GlobalSystem g(round_assembly(p, gs));
  REQUIRE(g.general_contacts() >= 1);
  REQUIRE_FALSE(g.symmetric());
  const Vector w = g.mass().cwiseSqrt().cwiseInverse();
  for (const auto& [a, b] : {std::pair{1.0, 0.0}, std::pair{4e-12, 4e-6}}) {
    CAPTURE(a, b);
    const Matrix A = w.asDiagonal() * Matrix(a * g.stiffness() + b * g.damping()) * w.asDiagonal();
    const Vector ref = A.cwiseAbs().rowwise().sum();
    CHECK((g.gershgorin_rows(a, b) - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref.maxCoeff());
  }
}
