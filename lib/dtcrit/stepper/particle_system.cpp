#include "dtcrit/stepper/particle_system.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "dtcrit/core/check.hpp"
#include "dtcrit/contact/hooke_history_force.hpp"

namespace dtcrit::stepper {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// What for_each_contact tells its visitor about one interaction.
struct Geom {
  ContactKey key;
  Index i = 0, j = -1;  // j = -1: wall contact
  bool bond = false;
  contact::RoundContact rc;
  double m_eff = 0.0;
  double dt = 0.0;  // traditional: time since the committed call (the increment's factor)
};

// A visitor made of several lambdas, chosen by their arguments.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Sorted-vector key of a bonded pair i < j.
std::uint64_t bond_key(Index i, Index j) { return (static_cast<std::uint64_t>(i) << 32) | static_cast<std::uint64_t>(j); }

Vec3 project_tangent(const Vec3& a, const Vec3& n) { return a - a.dot(n) * n; }

// The loads of one gran/hooke/history contact (contact/kinematics.hpp: A^T Q_c), element by element:
// the force F_n n + F_t on i (its opposite on j) and the torques -arm n x F_t through each body's
// torque arm. Built from Eigen temporaries, these 3-vectors were stored as scalars and read back as
// pairs, a store-forwarding stall that was a fifth of the contact loop (perf annotate).
struct HookeLoad {
  double force[3], torque_i[3], torque_j[3];
};
inline HookeLoad hooke_load(const ContactLaw& law, const contact::RoundContact& rc,
                            const contact::HookeHistoryForce& hf) {
  const double n0 = rc.normal.x(), n1 = rc.normal.y(), n2 = rc.normal.z();
  const double t0 = hf.tangential_force.x(), t1 = hf.tangential_force.y(), t2 = hf.tangential_force.z();
  const double c0 = n1 * t2 - n2 * t1, c1 = n2 * t0 - n0 * t2, c2 = n0 * t1 - n1 * t0;  // n x F_t
  const double ai = -contact::torque_arm(law, rc, true), aj = -contact::torque_arm(law, rc, false);
  const double fn = hf.normal_force;
  return HookeLoad{{fn * n0 + t0, fn * n1 + t1, fn * n2 + t2}, {ai * c0, ai * c1, ai * c2}, {aj * c0, aj * c1, aj * c2}};
}
// The same as the stepper's Load of contact (i, j) (a template: Load is ParticleSystem's own).
template <class Load>
Load as_load(Index i, Index j, const HookeLoad& h) {
  Load l;
  l.i = i;
  l.j = j;
  l.force = Vec3(h.force[0], h.force[1], h.force[2]);
  l.torque_i = Vec3(h.torque_i[0], h.torque_i[1], h.torque_i[2]);
  l.torque_j = Vec3(h.torque_j[0], h.torque_j[1], h.torque_j[2]);
  return l;
}

// Walks the committed records (ascending keys across consecutive chunks) beside a traversal that
// asks for keys in ascending order.
class CommittedCursor {
 public:
  using Record = ParticleSystem::Record;
  // At the first record not below `first`.
  CommittedCursor(const std::vector<std::vector<Record>>& chunks, const ContactKey& first) : chunks_(chunks) {
    while (cc_ < chunks_.size() && (chunks_[cc_].empty() || chunks_[cc_].back().key < first)) ++cc_;
    if (cc_ < chunks_.size()) {
      end_ = chunks_[cc_].data() + chunks_[cc_].size();
      cur_ = std::lower_bound(chunks_[cc_].data(), end_, first,
                              [](const Record& r, const ContactKey& k) { return r.key < k; });
    }
  }
  // The committed record of `key`, or nullptr.
  const Record* find(const ContactKey& key) {
    while (cur_ != end_ && cur_->key < key) next();
    return cur_ != end_ && cur_->key == key ? cur_ : nullptr;
  }
  // Where find()'s last record sits: its chunk and its place in it (for records kept alongside).
  std::size_t chunk() const { return cc_; }
  std::size_t offset() const { return static_cast<std::size_t>(cur_ - chunks_[cc_].data()); }

 private:
  void next() {
    if (++cur_ != end_) return;
    do ++cc_;
    while (cc_ < chunks_.size() && chunks_[cc_].empty());
    cur_ = end_ = cc_ < chunks_.size() ? chunks_[cc_].data() : nullptr;
    if (cur_) end_ += chunks_[cc_].size();
  }
  const std::vector<std::vector<Record>>& chunks_;
  std::size_t cc_ = 0;
  const Record *cur_ = nullptr, *end_ = nullptr;  // cur_ == end_ only past the last record
};

}  // namespace

TangentialHistory parse_tangential_history(std::string_view name) {
  if (const auto mode = value_named(name, tangential_history_names)) return *mode;
  fail(fmt::format("tangential history '{}' is unknown; valid: {}", name, names_list(tangential_history_names)));
}

std::string_view to_string(TangentialHistory mode) { return name_of(mode, tangential_history_names); }

ParticleSystem::ParticleSystem(int dim, const ContactLaw& law, TangentialHistory mode)
    : dim_(dim), law_(contact::validated(law)), mode_(mode), hooke_law_(contact::hooke_history_force_applies(law_)) {
  if (dim != 2 && dim != 3) fail(fmt::format("dimension dim = {} must be 2 or 3", dim));
  check_history_mode(law_);
}

void ParticleSystem::check_history_mode(const ContactLaw& law) const {
  // dmt needs nothing more: LAMMPS' contact is delta > 0 as here, and evaluate() has its force.
  if (law.normal == contact::NormalModel::jkr)
    fail(fmt::format("the jkr normal model in the reference stepper (--confirm): a JKR contact persists after "
                     "touching down to the pull-off overlap, which needs a per-pair memory of having touched that the "
                     "stepper does not keep; law '{}'",
                     contact::describe(law)));
  if (mode_ == TangentialHistory::consistent &&
      (law.rolling != contact::RollingModel::none || law.twisting != contact::TwistingModel::none ||
       law.tangential == contact::TangentialModel::mindlin_force ||
       law.tangential == contact::TangentialModel::mindlin_rescale_force ||
       law.tangential == contact::TangentialModel::mindlin_rescale))
    fail(fmt::format("consistent tangential history supports a tangential displacement spring only, not '{}'",
                     contact::describe(law)));
}

Index ParticleSystem::add_particle(double radius, double mass, double inertia) {
  require_positive("radius", radius);
  require_positive("mass", mass);
  require_positive("inertia I", inertia);
  const Index i = particle_count();
  radius_.push_back(radius);
  pmass_.push_back(mass);
  inertia_.push_back(inertia);
  const Index b = mass_.size(), k = dofs_per_particle();
  mass_.conservativeResize(b + k);
  external_.conservativeResize(b + k);
  external_.segment(b, k).setZero();
  for (Index d = 0; d < k; ++d) mass_[b + d] = d < dim_ ? mass : inertia;
  nlist_.invalidate();
  return i;
}

Index ParticleSystem::add_wall(const Vec3& point, const Vec3& normal, const ContactLaw& law) {
  if (!point.allFinite()) fail("wall point must be finite");
  const double len = normal.norm();
  if (!(len > 0.0) || !std::isfinite(len)) fail(fmt::format("wall normal has length {}, must be positive", len));
  if (dim_ == 2 && (point.z() != 0.0 || normal.z() != 0.0))
    fail(fmt::format("2D wall: point.z = {} and normal.z = {} must be 0", point.z(), normal.z()));
  check_history_mode(law);
  walls_.push_back(Wall{point, normal / len, contact::validated(law)});
  hooke_walls_.push_back(contact::hooke_history_force_applies(walls_.back().law));
  return static_cast<Index>(walls_.size()) - 1;
}

void ParticleSystem::add_bond(Index i, Index j, double k_bond, double rest_length) {
  const Index n = particle_count();
  if (i < 0 || i >= n || j < 0 || j >= n || i == j)
    fail(fmt::format("bond ({}, {}) must join two distinct particles among {}", i, j, n));
  require_positive("bond stiffness k_bond", k_bond);
  if (law_.damping != contact::DampingModel::mass_velocity && law_.damping_coefficient > 0.0)
    fail(fmt::format("bonds take the particle law's gamma_n, which needs mass_velocity damping; the law is '{}'",
                     contact::describe(law_)));
  if (i > j) std::swap(i, j);
  const double L0 = rest_length < 0.0 ? radius_[i] + radius_[j] : rest_length;
  require_non_negative("bond rest_length", L0);
  const std::uint64_t key = bond_key(i, j);
  if (std::binary_search(bond_keys_.begin(), bond_keys_.end(), key))
    fail(fmt::format("bond ({}, {}) is already defined", i, j));
  bonds_.push_back(Bond{i, j, k_bond, L0});
  bond_keys_.insert(std::upper_bound(bond_keys_.begin(), bond_keys_.end(), key), key);
}

void ParticleSystem::exclude_pair(Index i, Index j) {
  const Index n = particle_count();
  if (i < 0 || i >= n || j < 0 || j >= n || i == j)
    fail(fmt::format("excluded pair ({}, {}) must join two distinct particles among {}", i, j, n));
  if (i > j) std::swap(i, j);
  const std::uint64_t key = bond_key(i, j);
  const auto at = std::lower_bound(excluded_keys_.begin(), excluded_keys_.end(), key);
  if (at == excluded_keys_.end() || *at != key) excluded_keys_.insert(at, key);
}

void ParticleSystem::set_contact_mass(Index i, double mass) {
  if (i < 0 || i >= particle_count()) fail(fmt::format("set_contact_mass: particle {} of {}", i, particle_count()));
  require_positive("contact mass", mass);
  if (contact_mass_.empty()) contact_mass_ = pmass_;
  contact_mass_[static_cast<std::size_t>(i)] = mass;
}

bool ParticleSystem::no_contact(Index i, Index j) const {
  if (bond_keys_.empty() && excluded_keys_.empty()) return false;
  const std::uint64_t key = i < j ? bond_key(i, j) : bond_key(j, i);
  return std::binary_search(bond_keys_.begin(), bond_keys_.end(), key) ||
         std::binary_search(excluded_keys_.begin(), excluded_keys_.end(), key);
}

void ParticleSystem::set_gravity(const Vec3& g) {
  if (!g.allFinite()) fail("gravity must be finite");
  if (dim_ == 2 && g.z() != 0.0) fail(fmt::format("2D gravity: g.z = {} must be 0", g.z()));
  gravity_ = g;
}

void ParticleSystem::set_external_force(Index i, const Vector& f) {
  if (i < 0 || i >= particle_count()) fail(fmt::format("external force: particle {} out of range", i));
  if (f.size() != dofs_per_particle())
    fail(fmt::format("external force on particle {} has {} entries, expected {}", i, f.size(), dofs_per_particle()));
  if (!f.allFinite()) fail(fmt::format("external force on particle {} must be finite", i));
  external_.segment(i * dofs_per_particle(), dofs_per_particle()) = f;
}

void ParticleSystem::set_threads(int threads) {
  if (threads < 1) fail(fmt::format("threads = {} must be at least 1", threads));
  threads_ = threads;
}

void ParticleSystem::set_skin(double skin) {
  skin_ = require_non_negative("skin", skin);
  nlist_.invalidate();
}

double ParticleSystem::skin() const {
  if (skin_ >= 0.0) return skin_;
  double rmax = 0.0;
  for (double r : radius_) rmax = std::max(rmax, r);
  return 0.2 * rmax;
}

Vec3 ParticleSystem::centre(const Vector& x, Index i) const {
  const Index b = i * dofs_per_particle();
  return dim_ == 2 ? Vec3(x[b], x[b + 1], 0.0) : Vec3(x[b], x[b + 1], x[b + 2]);
}

Vec3 ParticleSystem::spin(const Vector& v, Index i) const {
  const Index b = i * dofs_per_particle();
  return dim_ == 2 ? Vec3(0.0, 0.0, v[b + 2]) : Vec3(v[b + 3], v[b + 4], v[b + 5]);
}

void ParticleSystem::set_centre(Vector& x, Index i, const Vec3& c) const {
  const Index b = i * dofs_per_particle();
  for (int d = 0; d < dim_; ++d) x[b + d] = c[d];
}

void ParticleSystem::set_spin(Vector& v, Index i, const Vec3& w) const {
  const Index b = i * dofs_per_particle();
  if (dim_ == 2) v[b + 2] = w.z();
  else v.segment<3>(b + 3) = w;
}

// By element through a pointer, always inlined: as an out-of-line call on Eigen segments it was
// 25 instructions per call, twice per contact (callgrind).
[[gnu::always_inline]] inline void ParticleSystem::add_generalised(Vector& f, Index i, const Vec3& force,
                                                                   const Vec3& torque) const {
  if (dim_ == 2) {
    double* b = f.data() + 3 * i;
    b[0] += force.x();
    b[1] += force.y();
    b[2] += torque.z();
  } else {
    double* b = f.data() + 6 * i;
    b[0] += force.x();
    b[1] += force.y();
    b[2] += force.z();
    b[3] += torque.x();
    b[4] += torque.y();
    b[5] += torque.z();
  }
}

void ParticleSystem::refresh_neighbours(const Vector& x) const {
  const Index n = particle_count();
  centres_.resize(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) centres_[i] = centre(x, i);
  nlist_.update(centres_, radius_, skin());
}

// The one place where contact geometry, history and the law meet. Visits every ordinary contact in
// ascending key order (pairs (i, j) then walls of i, for each i), then every bond, with the law's
// input (histories advanced to t) and its response (with its derivative when `derivative`).
template <class Visit>
void ParticleSystem::for_each_contact(double t, const Vector& x, const Vector& v, bool for_energy,
                                      contact::Differentiate derivative,
                                      Visit&& visit) const {
  sync_records();
  refresh_neighbours(x);
  for_each_contact_in(t, x, v, for_energy, derivative, 0, particle_count(), true, visit);
}

template <class Visit>
void ParticleSystem::for_each_contact_in(double t, const Vector& x, const Vector& v, bool for_energy,
                                         contact::Differentiate derivative, Index i_begin, Index i_end, bool bonds,
                                         Visit&& visit) const {
  const Index n = particle_count();
  const Index dpp = dofs_per_particle();
  const bool consistent = mode_ == TangentialHistory::consistent;
  const double dt = (for_energy || std::isnan(t_ref_)) ? 0.0 : t - t_ref_;
  const bool have_prev = x_committed_.size() == x.size();
  const bool any_excluded = !bond_keys_.empty() || !excluded_keys_.empty();  // no_contact() is out of line
  auto phi = [&](const Vector& q, Index i) {
    const Index b = i * dpp;
    return dim_ == 2 ? Vec3(0.0, 0.0, q[b + 2]) : Vec3(q[b + 3], q[b + 4], q[b + 5]);
  };
  // centre() and spin() by hand: called out of line they were 2 % of a step (perf).
  const double* vd = v.data();
  auto vel = [&](Index i) {
    const double* b = vd + i * dpp;
    return for_energy ? Vec3(Vec3::Zero()) : dim_ == 2 ? Vec3(b[0], b[1], 0.0) : Vec3(b[0], b[1], b[2]);
  };
  auto omega = [&](Index i) {
    const double* b = vd + i * dpp;
    return for_energy ? Vec3(Vec3::Zero()) : dim_ == 2 ? Vec3(0.0, 0.0, b[2]) : Vec3(b[3], b[4], b[5]);
  };

  const auto& rows = nlist_.cells().row_start();
  const auto& cols = nlist_.cells().neighbours();
  CommittedCursor committed(committed_, ContactKey{i_begin, 0});
  Record rec;
  Anchor anc;
  Geom g;
  g.dt = dt;

  // A visitor that takes a gran/hooke/history contact's force as contact::hooke_history_force gives it
  // (force() only: no derivative, no energy) gets it so for such laws under the traditional history:
  // the same numbers, without the general law's inputs and outputs.
  constexpr bool takes_hooke = std::is_invocable_v<Visit&, const Geom&, const ContactLaw&,
                                                   const contact::HookeHistoryForce&, const Record&>;
  const bool hooke_path =
      takes_hooke && specialised_laws_ && !consistent && !for_energy && derivative == contact::Differentiate::none;
  const bool hooke_pairs = hooke_path && hooke_law_;

  // The law at one contact: histories from the committed record, advanced to t (traditional) or read
  // from the positions (consistent), then the law itself.
  auto finish = [&](const ContactLaw& law, bool hooke, const Vec3& s_now, const Vec3& s_prev, double overlap_prev,
                    const Vec3& phi_i, const Vec3& phi_i_prev, const Vec3& phi_j, const Vec3& phi_j_prev) {
    const Record* old = committed.find(g.key);
    rec.key = g.key;  // every other field of rec is set below
    const Vec3 vj = g.j >= 0 ? vel(g.j) : Vec3(Vec3::Zero()), wj = g.j >= 0 ? omega(g.j) : Vec3(Vec3::Zero());
    if constexpr (takes_hooke) {
      if (hooke) {
        const contact::HookeHistoryForce hf = contact::hooke_history_force(
            law, g.rc, vel(g.i), omega(g.i), vj, wj, g.m_eff, old ? old->xi : Vec3(Vec3::Zero()), dt);
        rec.xi = hf.xi_t;
        rec.xi_r = old ? old->xi_r : Vec3(Vec3::Zero());  // kept, as the general law keeps them
        rec.xi_tw = old ? old->xi_tw : 0.0;
        rec.a_prev = old ? old->a_prev : 0.0;
        visit(g, law, hf, rec);
        return;
      }
    }
    contact::ContactInput in = contact::contact_input(g.rc, vel(g.i), omega(g.i), vj, wj, g.m_eff, {},
                                                      contact::uses_resistance_rates(law));
    contact::History h;
    if (old) h = contact::History{old->xi, old->xi_r, old->xi_tw, old->a_prev};
    if (!consistent) {
      h = contact::advance_history(law, in, h, dt);
    } else {
      if (old) {
        anc = anchors_committed_[committed.chunk()][committed.offset()];
        anc.slip.setZero();
      } else {
        // Onset: interpolate the configuration where the overlap crossed zero between the committed
        // call and this one (lambda = 1: now; lambda = 0: already touching at the committed call).
        double lambda = 1.0;
        if (have_prev) lambda = overlap_prev < 0.0 ? overlap_prev / (overlap_prev - g.rc.overlap) : 0.0;
        anc.x = s_prev + lambda * (s_now - s_prev);
        anc.phi_i = phi_i_prev + lambda * (phi_i - phi_i_prev);
        anc.phi_j = phi_j_prev + lambda * (phi_j - phi_j_prev);
        anc.slip.setZero();
      }
      const Vec3 rot = (g.rc.ri * (phi_i - anc.phi_i) + g.rc.rj * (phi_j - anc.phi_j)).cross(g.rc.normal);
      h.xi_t = project_tangent(s_now - anc.x - rot, g.rc.normal);
    }
    in.xi_t = h.xi_t;
    in.xi_r = h.xi_r;
    in.xi_tw = h.xi_tw;
    const contact::ContactResponse out = contact::evaluate(law, in, derivative);
    rec.xi = out.xi_t;
    rec.xi_r = out.xi_r;
    rec.xi_tw = out.xi_tw;
    rec.a_prev = h.a_prev;
    if (consistent) anc.slip = h.xi_t - out.xi_t;
    visit(g, law, in, out, rec, anc);
  };

  for (Index i = i_begin; i < i_end; ++i) {
    const Vec3 ci_pos = centres_[i];
    const Vec3 phi_i = consistent ? phi(x, i) : Vec3::Zero();
    const Vec3 phi_i_prev = (consistent && have_prev) ? phi(x_committed_, i) : phi_i;
    const Vec3 ci_prev = (consistent && have_prev) ? centre(x_committed_, i) : ci_pos;
    for (Index k = rows[i]; k < rows[i + 1]; ++k) {
      const Index j = cols[k];
      const Vec3 d = ci_pos - centres_[j];
      const double R = radius_[i] + radius_[j];
      const double r2 = d.squaredNorm();
      if (r2 >= R * R) continue;  // LAMMPS: touching iff rsq < radsum^2
      if (any_excluded && no_contact(i, j)) continue;
      const double r = std::sqrt(r2);
      if (!(r > 0.0)) continue;  // coincident centres: no normal defined
      g.key = ContactKey{i, j};
      g.i = i;
      g.j = j;
      g.bond = false;
      g.rc = contact::RoundContact{d / r, R - r, radius_[i], radius_[j], r, false};
      g.m_eff = contact::effective_mass(contact_mass(i), contact_mass(j));
      if (consistent) {
        const Vec3 d_prev = have_prev ? Vec3(ci_prev - centre(x_committed_, j)) : d;
        const Vec3 phi_j = phi(x, j);
        const Vec3 phi_j_prev = have_prev ? phi(x_committed_, j) : phi_j;
        finish(law_, false, d, d_prev, R - d_prev.norm(), phi_i, phi_i_prev, phi_j, phi_j_prev);
      } else {
        finish(law_, hooke_pairs, d, d, 0.0, phi_i, phi_i, Vec3::Zero(), Vec3::Zero());
      }
    }
    for (std::size_t w = 0; w < walls_.size(); ++w) {
      const Wall& wall = walls_[w];
      const double overlap = radius_[i] - (ci_pos - wall.point).dot(wall.normal);
      if (!(overlap > 0.0)) continue;
      g.key = ContactKey{i, n + static_cast<Index>(w)};
      g.i = i;
      g.j = -1;
      g.bond = false;
      g.rc = contact::RoundContact{wall.normal, overlap, radius_[i], 0.0, 0.0, true};
      g.m_eff = contact::effective_mass(contact_mass(i), contact::immovable_mass);
      const double overlap_prev = radius_[i] - (ci_prev - wall.point).dot(wall.normal);
      finish(wall.law, hooke_path && hooke_walls_[w], ci_pos, ci_prev, overlap_prev, phi_i, phi_i_prev, Vec3::Zero(),
             Vec3::Zero());
    }
  }

  if (!bonds) return;
  for (const Bond& bd : bonds_) {
    const Vec3 d = centres_[bd.i] - centres_[bd.j];
    const double r = d.norm();
    if (!(r > 0.0)) continue;
    g.key = ContactKey{bd.i, bd.j};
    g.i = bd.i;
    g.j = bd.j;
    g.bond = true;
    g.rc = contact::RoundContact{d / r, bd.rest_length - r, radius_[bd.i], radius_[bd.j], r, false};
    g.m_eff = contact::effective_mass(pmass_[bd.i], pmass_[bd.j]);
    const contact::ContactInput in = contact::contact_input(g.rc, vel(bd.i), omega(bd.i), vel(bd.j), omega(bd.j),
                                                            g.m_eff, {});
    rec = Record{};
    rec.key = g.key;
    const ContactLaw bond_law = contact::hooke_history(bd.k_bond, 0.0, law_.damping_coefficient, 0.0, 0.0);
    visit(g, bond_law, in, contact::evaluate(bond_law, in, derivative), rec, Anchor{});
  }
}

void ParticleSystem::force(double t, const Vector& x, const Vector& v, Vector& f) {
  const Index n = dofs();
  if (x.size() != n || v.size() != n)
    fail(fmt::format("force: x has {} and v has {} entries, expected {}", x.size(), v.size(), n));
  f.resize(n);
  const Index np = particle_count();
  const Index dpp = dofs_per_particle();
  const bool consistent = mode_ == TangentialHistory::consistent;
  const int ranges = static_cast<int>(std::min<Index>(threads_, np / 64));  // small systems: not worth a thread
  auto first = [&](int r) { return np * r / ranges; };
  // Body forces of particles [b, e): the constant external loads plus gravity on the translational dofs.
  auto body_loads = [&](Index b, Index e) {
    f.segment(b * dpp, (e - b) * dpp) = external_.segment(b * dpp, (e - b) * dpp);
    for (Index i = b; i < e; ++i)
      for (int d = 0; d < dim_; ++d) f[i * dpp + d] += pmass_[i] * gravity_[d];
  };
  PartsPool* pool = nullptr;
  bool finite = std::isfinite(t), moved = false;
  const double skin_now = skin();
  if (ranges > 1) {
    // Pass 0 on the pool's threads: each range checks its x and v, writes its rows of f (body loads),
    // its centres, and whether one of its particles has moved beyond half the skin.
    pool = &pool_.with_workers(threads_ - 1);
    if (shares_.size() < static_cast<std::size_t>(ranges)) shares_.resize(static_cast<std::size_t>(ranges));
    centres_.resize(static_cast<std::size_t>(np));
    pool->run(ranges, [&](int r) {
      RangeShare& sh = shares_[static_cast<std::size_t>(r)];
      const Index b = first(r), e = first(r + 1);
      sh.finite = x.segment(b * dpp, (e - b) * dpp).allFinite() && v.segment(b * dpp, (e - b) * dpp).allFinite();
      sh.moved = false;
      if (!sh.finite) return;
      body_loads(b, e);
      for (Index i = b; i < e; ++i) centres_[i] = centre(x, i);
      sh.moved = nlist_.moved(centres_, static_cast<std::size_t>(b), static_cast<std::size_t>(e), skin_now);
    });
    for (int r = 0; r < ranges; ++r) {
      finite = finite && shares_[static_cast<std::size_t>(r)].finite;
      moved = moved || shares_[static_cast<std::size_t>(r)].moved;
    }
  } else {
    finite = finite && x.allFinite() && v.allFinite();
  }
  if (!finite) {
    f.setConstant(kNaN);
    return;
  }
  if (std::isnan(t_ref_)) t_ref_ = t;
  if (consistent && x_committed_.size() != n) x_committed_ = x;

  reports_.clear();
  // Generalised loads A^T Q_c of one contact (contact/kinematics.hpp): the tangential force's torque
  // through the law's torque arm (LAMMPS: torque -= arm (n x F_t) on both), rolling R_eff n x F_r and
  // twisting M n on i, their opposites on j.
  auto loads = [](const Geom& g, const ContactLaw& law, const contact::ContactInput& in,
                  const contact::ContactResponse& out) {
    const Vec3& nrm = g.rc.normal;
    const Vec3 nxft = nrm.cross(out.tangential_force);
    Load l{g.i, g.j, out.force(nrm), -contact::torque_arm(law, g.rc, true) * nxft,
           -contact::torque_arm(law, g.rc, false) * nxft};
    if (contact::uses_resistance_rates(law)) {  // else there is no rolling or twisting torque to add
      const Vec3 resist = in.r_eff * nrm.cross(out.rolling_force) + out.twisting_torque * nrm;
      l.torque_i += resist;
      l.torque_j -= resist;
    }
    return l;
  };
  auto apply = [&](const Load& l) {
    add_generalised(f, l.i, l.force, l.torque_i);
    if (l.j >= 0) add_generalised(f, l.j, -l.force, l.torque_j);
  };
  auto report = [](const Geom& g, const contact::ContactResponse& out) {
    return ContactReport{g.key, g.rc.overlap, g.rc.normal, out.normal_force, out.tangential_force, out.xi_t,
                         out.sliding, out.rolling_force, out.twisting_torque};
  };
  // The same for a gran/hooke/history contact's force (contact/hooke_history_force.hpp).
  auto hooke_loads = [](const Geom& g, const ContactLaw& law, const contact::HookeHistoryForce& hf) {
    return as_load<Load>(g.i, g.j, hooke_load(law, g.rc, hf));
  };
  auto hooke_report = [](const Geom& g, const contact::HookeHistoryForce& hf) {
    return ContactReport{g.key, g.rc.overlap, g.rc.normal, hf.normal_force, hf.tangential_force, hf.xi_t,
                         hf.sliding, Vec3::Zero(), 0.0};
  };
  RangeShare* own = nullptr;  // one thread: the share that takes the trial records
  auto serial_load = [&](const Geom& g, const Load& l, const Record& rec, const Anchor& anc, auto&& make_report) {
    apply(l);
    if (g.bond) return;
    own->trial.push_back(rec);
    if (consistent) own->anchors.push_back(anc);
    if (reports_on_) reports_.push_back(make_report());
  };
  Overloaded serial{
      [&](const Geom& g, const ContactLaw& law, const contact::ContactInput& in, const contact::ContactResponse& out,
          const Record& rec, const Anchor& anc) {
        serial_load(g, loads(g, law, in, out), rec, anc, [&] { return report(g, out); });
      },
      [&](const Geom& g, const ContactLaw& law, const contact::HookeHistoryForce& hf, const Record& rec) {
        serial_load(g, hooke_loads(g, law, hf), rec, Anchor{}, [&] { return hooke_report(g, hf); });
      }};
  if (ranges <= 1) {
    body_loads(0, np);
    if (shares_.empty()) shares_.resize(1);
    own = &shares_[0];
    own->trial.clear();
    own->anchors.clear();
    trial_chunks_ = 1;
    trial_in_slots_ = false;
    const bool hooke_loop = hooke_contacts_apply();
    if (hooke_loop) refresh_neighbours(x);
    if (hooke_loop && prepare_slots()) {
      hooke_contacts<false>(0, np, 0, t - t_ref_, v, f, nullptr, nullptr);
      trial_in_slots_ = true;
      for_each_contact_in(t, x, v, false, contact::Differentiate::none, np, np, true, serial);  // the bonds
    } else {
      for_each_contact(t, x, v, false, contact::Differentiate::none, serial);
    }
  } else {
    // Pass 1: each range evaluates its contacts, adds the loads on its `clean` particles (those no
    // earlier range's neighbour list reaches) into f at once, and keeps the others in its share, in
    // visiting order (`cross`: those whose j lies in a later range). Pass 2: each range adds into f for
    // its other particles, first the loads of earlier ranges that land on them (their `cross` lists,
    // in range order), then its own kept loads in order. With the half list (j > i) that is, particle
    // by particle, exactly the one-thread order of the additions into f: bit-identical results for
    // any thread count. The trial records stay in the shares, one chunk per range, in range order
    // (accept_step() swaps them in).
    if (moved) nlist_.rebuild(centres_, radius_, skin_now);
    if (clean_from_.size() != static_cast<std::size_t>(ranges) || clean_build_ != nlist_.builds()) {
      const auto& rows = nlist_.cells().row_start();
      const auto& cols = nlist_.cells().neighbours();
      clean_from_.assign(static_cast<std::size_t>(ranges), 0);
      Index reach = -1;  // the largest neighbour of the particles before first(r)
      for (int r = 1; r < ranges; ++r) {
        for (Index i = first(r - 1); i < first(r); ++i)
          if (rows[i + 1] > rows[i]) reach = std::max(reach, cols[rows[i + 1] - 1]);
        clean_from_[static_cast<std::size_t>(r)] = std::max(first(r), reach + 1);
      }
      clean_build_ = nlist_.builds();
    }
    const bool hooke_loop = hooke_contacts_apply() && prepare_slots();
    if (!hooke_loop) sync_records();  // the general path reads the records, on the threads
    auto evaluate_range = [&](int r) {
      RangeShare& sh = shares_[static_cast<std::size_t>(r)];
      sh.loads.clear();
      sh.cross.clear();
      sh.trial.clear();
      sh.anchors.clear();
      sh.reports.clear();
      const Index end = first(r + 1), clean = clean_from_[static_cast<std::size_t>(r)];
      auto take = [&](const Geom& g, Load l, const Record& rec, const Anchor& anc, auto&& make_report) {
        if (g.j >= end) sh.cross.push_back(l);
        // The halves on clean particles now; l.i / l.j = -1 marks a half as done.
        if (l.i >= clean) {
          add_generalised(f, l.i, l.force, l.torque_i);
          l.i = -1;
        }
        if (l.j >= clean && l.j < end) {
          add_generalised(f, l.j, -l.force, l.torque_j);
          l.j = -1;
        }
        if (l.i >= 0 || (l.j >= 0 && l.j < end)) sh.loads.push_back(l);
        sh.trial.push_back(rec);
        if (consistent) sh.anchors.push_back(anc);
        if (reports_on_) sh.reports.push_back(make_report());
      };
      Overloaded visit{
          [&](const Geom& g, const ContactLaw& law, const contact::ContactInput& in,
              const contact::ContactResponse& out, const Record& rec, const Anchor& anc) {
            take(g, loads(g, law, in, out), rec, anc, [&] { return report(g, out); });
          },
          [&](const Geom& g, const ContactLaw& law, const contact::HookeHistoryForce& hf, const Record& rec) {
            take(g, hooke_loads(g, law, hf), rec, Anchor{}, [&] { return hooke_report(g, hf); });
          }};
      if (hooke_loop)
        hooke_contacts<true>(first(r), end, clean, t - t_ref_, v, f, &sh.loads, &sh.cross);
      else
        for_each_contact_in(t, x, v, false, contact::Differentiate::none, first(r), end, false, visit);
    };
    std::vector<std::size_t> offset(static_cast<std::size_t>(ranges) + 1, 0);
    auto apply_range = [&](int r) {
      const Index begin = first(r), end = first(r + 1);
      for (int q = 0; q < r; ++q)
        for (const Load& l : shares_[static_cast<std::size_t>(q)].cross)
          if (l.j >= begin && l.j < end) add_generalised(f, l.j, -l.force, l.torque_j);
      const RangeShare& sh = shares_[static_cast<std::size_t>(r)];
      for (const Load& l : sh.loads) {
        if (l.i >= 0) add_generalised(f, l.i, l.force, l.torque_i);
        if (l.j >= 0 && l.j < end) add_generalised(f, l.j, -l.force, l.torque_j);
      }
      if (reports_on_)
        std::copy(sh.reports.begin(), sh.reports.end(),
                  reports_.begin() + static_cast<std::ptrdiff_t>(offset[static_cast<std::size_t>(r)]));
    };
    // On the pool's threads: every range evaluates, then (the reports sized in between, on this thread)
    // every range applies. A task that throws ends its loop; run() rethrows after the others finish.
    pool->run(ranges, evaluate_range);
    trial_chunks_ = static_cast<std::size_t>(ranges);
    trial_in_slots_ = hooke_loop;
    if (reports_on_) {
      for (int r = 0; r < ranges; ++r)
        offset[static_cast<std::size_t>(r) + 1] =
            offset[static_cast<std::size_t>(r)] + shares_[static_cast<std::size_t>(r)].reports.size();
      reports_.resize(offset.back());
    }
    pool->run(ranges, apply_range);
    own = &shares_[0];  // (the bonds keep no records)
    for_each_contact_in(t, x, v, false, contact::Differentiate::none, np, np, true, serial);  // the bonds, after every contact as above
  }
  t_trial_ = t;
  if (consistent) x_trial_ = x;
  have_trial_ = true;
}

bool ParticleSystem::hooke_contacts_apply() const {
  return dim_ == 3 && mode_ == TangentialHistory::traditional && specialised_laws_ && !reports_on_ && hooke_law_ &&
         std::all_of(hooke_walls_.begin(), hooke_walls_.end(), [](char hooke) { return hooke != 0; });
}

template <bool kRanges>
void ParticleSystem::hooke_contacts(Index begin, Index end, Index clean, double dt, const Vector& v, Vector& f,
                                    std::vector<Load>* kept, std::vector<Load>* cross) {
  const auto& rows = nlist_.cells().row_start();  // the slots' layout (prepare_slots())
  const auto& cols = nlist_.cells().neighbours();
  const bool any_excluded = !bond_keys_.empty() || !excluded_keys_.empty();
  const Vec3* xi_old = slots_.xi.data();
  using Touch = Slots::Touch;
  const Touch* on_old = slots_.on.data();
  Vec3* xi_new = slots_.xi_trial.data();
  Touch* on_new = slots_.on_trial.data();
  const std::size_t walls = walls_.size(), wall_slots = cols.size();
  const double* vd = v.data();
  double* fd = f.data();
  auto vel = [&](Index i) { return Vec3(vd[6 * i], vd[6 * i + 1], vd[6 * i + 2]); };
  auto omega = [&](Index i) { return Vec3(vd[6 * i + 3], vd[6 * i + 4], vd[6 * i + 5]); };
  // One contact of i with j (-1: a wall) in slot s: the law, its trial history, and its loads
  // (hooke_load(), added as add_generalised() adds them). i's half goes onto its running sums fi when i is
  // clean, j's straight into f when j is a clean particle of the range; the halves left are kept as
  // the general path's take() keeps them (kRanges only: on one range every particle is clean).
  // Inlined by force: out of line its call and arguments were ~40 instructions per contact, and
  // alternated runs of the benchmark (10^4 spheres x 1000 steps) took 4.1-4.7 s against 3.7-3.9 s.
  auto contact = [&](const ContactLaw& law, Index i, Index j, std::size_t s, const contact::RoundContact& rc,
                     const Vec3& vi, const Vec3& wi, const Vec3& vj, const Vec3& wj, double m_eff,
                     double* fi) __attribute__((always_inline)) {
    const contact::HookeHistoryForce hf = contact::hooke_history_force(
        law, rc, vi, wi, vj, wj, m_eff, on_old[s] == Touch::yes ? xi_old[s] : Vec3(Vec3::Zero()), dt);
    xi_new[s] = hf.xi_t;
    on_new[s] = Touch::yes;
    const HookeLoad h = hooke_load(law, rc, hf);
    const bool i_now = !kRanges || i >= clean;
    const bool j_now = j >= 0 && (!kRanges || (j >= clean && j < end));
    if (i_now) {
      for (int c = 0; c < 3; ++c) fi[c] += h.force[c];
      for (int c = 0; c < 3; ++c) fi[3 + c] += h.torque_i[c];
    }
    if (j_now) {
      double* fj = fd + 6 * j;
      for (int c = 0; c < 3; ++c) fj[c] += -h.force[c];
      for (int c = 0; c < 3; ++c) fj[3 + c] += h.torque_j[c];
    }
    if constexpr (kRanges) {
      const bool j_later = j >= end;
      if (i_now && j_now) return;
      Load l = as_load<Load>(i, j, h);
      if (j_later) cross->push_back(l);  // its j half, added by the range that owns j
      if (i_now) l.i = -1;
      if (j_now) l.j = -1;
      if (l.i >= 0 || (l.j >= 0 && !j_later)) kept->push_back(l);
    }
  };
  for (Index i = begin; i < end; ++i) {
    const Vec3 ci = centres_[i], vi = vel(i), wi = omega(i);
    const double ri = radius_[i], mi = contact_mass(i);
    // i's loads from its own contacts (partners j > i, then walls) in visiting order, onto what f
    // holds when its row starts: the additions of the general path, in its order.
    const bool i_now = !kRanges || i >= clean;
    double fi[6];
    std::copy(fd + 6 * i, fd + 6 * i + 6, fi);
    for (Index k = rows[i]; k < rows[i + 1]; ++k) {
      const Index j = cols[k];
      const Vec3 d = ci - centres_[j];
      const double R = ri + radius_[j];
      const double r2 = d.squaredNorm();
      on_new[k] = Touch::no;  // until it touches
      if (r2 >= R * R) continue;  // LAMMPS: touching iff rsq < radsum^2
      if (any_excluded && no_contact(i, j)) continue;
      const double r = std::sqrt(r2);
      if (!(r > 0.0)) continue;  // coincident centres: no normal defined
      contact(law_, i, j, static_cast<std::size_t>(k), contact::RoundContact{d / r, R - r, ri, radius_[j], r, false},
              vi, wi, vel(j), omega(j), contact::effective_mass(mi, contact_mass(j)), fi);
    }
    for (std::size_t w = 0; w < walls; ++w) {
      const Wall& wall = walls_[w];
      const double overlap = ri - (ci - wall.point).dot(wall.normal);
      const std::size_t s = wall_slots + static_cast<std::size_t>(i) * walls + w;
      on_new[s] = Touch::no;
      if (!(overlap > 0.0)) continue;
      contact(wall.law, i, -1, s, contact::RoundContact{wall.normal, overlap, ri, 0.0, 0.0, true}, vi, wi,
              Vec3::Zero(), Vec3::Zero(), contact::effective_mass(mi, contact::immovable_mass), fi);
    }
    if (i_now) std::copy(fi, fi + 6, fd + 6 * i);
  }
}

void ParticleSystem::set_initial_histories(std::vector<std::pair<ContactKey, contact::History>> histories) {
  if (mode_ != TangentialHistory::traditional)
    fail("set_initial_histories: the consistent history mode reads its histories from the positions");
  if (!std::isnan(t_ref_) || have_trial_) fail("set_initial_histories: call it before the first force() call");
  std::sort(histories.begin(), histories.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Record> records;
  for (const auto& [key, h] : histories) {
    if (!records.empty() && records.back().key == key)
      fail(fmt::format("set_initial_histories: contact ({}, {}) is given twice", key.i, key.j));
    Record r;
    r.key = key;
    r.xi = h.xi_t;
    r.xi_r = h.xi_r;
    r.xi_tw = h.xi_tw;
    r.a_prev = h.a_prev;
    records.push_back(r);
  }
  committed_.assign(1, std::move(records));
  slots_valid_ = slots_hold_ = false;
  anchors_committed_.clear();
}

void ParticleSystem::accept_step() {
  if (!have_trial_) return;
  if (trial_in_slots_) {  // the slots' trial side becomes the committed one (and the committed one the next trial)
    slots_.xi.swap(slots_.xi_trial);
    slots_.on.swap(slots_.on_trial);
    slots_valid_ = slots_hold_ = true;
    records_synced_ = false;
    t_ref_ = t_trial_;
    have_trial_ = false;
    return;
  }
  slots_valid_ = slots_hold_ = false;
  // The ranges' trial chunks become the committed ones (and the committed ones' storage the next trial's).
  committed_.resize(trial_chunks_);
  for (std::size_t r = 0; r < trial_chunks_; ++r) committed_[r].swap(shares_[r].trial);
  if (mode_ == TangentialHistory::consistent) {
    anchors_committed_.resize(trial_chunks_);
    for (std::size_t r = 0; r < trial_chunks_; ++r) {
      for (Anchor& a : shares_[r].anchors) {
        a.x += a.slip;
        a.slip.setZero();
      }
      anchors_committed_[r].swap(shares_[r].anchors);
    }
    x_committed_.swap(x_trial_);
  }
  t_ref_ = t_trial_;
  have_trial_ = false;
}

namespace {
// +0.0, not -0.0 (which the slots, keeping no such field, would give back as +0.0).
bool zero_bits(double a) { return a == 0.0 && !std::signbit(a); }
}  // namespace

void ParticleSystem::sync_records() const {
  if (!slots_hold_ || records_synced_) return;
  // The touching slots in their layout's order: rows i ascending, partners ascending, then walls:
  // ascending ContactKey order, as the records are kept.
  committed_.resize(1);
  std::vector<Record>& out = committed_[0];
  out.clear();
  const std::size_t walls = static_cast<std::size_t>(slots_.walls), wall_slots = slots_.cols.size();
  for (Index i = 0; i < slots_.n; ++i) {
    auto take = [&](Index j, std::size_t s) {
      if (slots_.on[s] != Slots::Touch::yes) return;
      Record& r = out.emplace_back();
      r.key = ContactKey{i, j};
      r.xi = slots_.xi[s];
    };
    for (Index k = slots_.rows[i]; k < slots_.rows[i + 1]; ++k) take(slots_.cols[k], static_cast<std::size_t>(k));
    for (std::size_t w = 0; w < walls; ++w)
      take(slots_.n + static_cast<Index>(w), wall_slots + static_cast<std::size_t>(i) * walls + w);
  }
  records_synced_ = true;
}

bool ParticleSystem::prepare_slots() {
  using Touch = Slots::Touch;
  const auto& rows = nlist_.cells().row_start();
  const auto& cols = nlist_.cells().neighbours();
  const Index n = particle_count(), walls = static_cast<Index>(walls_.size());
  const bool same_bodies = slots_.n == n && slots_.walls == walls;
  if (slots_valid_ && same_bodies && slots_.build == nlist_.builds()) return true;
  // The new layout's committed side is filled in the trial arrays (whose contents the call overwrites
  // anyway), then the two are swapped. A contact missing from the list as it stands is not touching
  // and is left out of the slots (this call drops it); the slots then no longer hold the whole
  // committed state, the records do.
  const std::size_t count = cols.size() + static_cast<std::size_t>(n * walls), wall_slots = cols.size();
  std::vector<Vec3>& xi = slots_.xi_trial;
  std::vector<Touch>& on = slots_.on_trial;
  on.assign(count, Touch::no);
  xi.resize(count);
  if (slots_hold_ && same_bodies) {
    // The list was rebuilt: each row's old and new partners (both ascending) merged, the walls' slots
    // as they were. The committed state keeps a dropped contact until this call's trial is accepted,
    // so the records are written from the old slots first if one is dropped.
    bool dropped = false;
    for (Index i = 0; i < n; ++i) {
      Index o = slots_.rows[i];
      const Index o_end = slots_.rows[i + 1];
      for (Index k = rows[i]; k < rows[i + 1]; ++k) {
        for (; o < o_end && slots_.cols[o] < cols[k]; ++o) dropped = dropped || slots_.on[o] == Touch::yes;
        if (o < o_end && slots_.cols[o] == cols[k]) {
          if (slots_.on[o] == Touch::yes) {
            xi[k] = slots_.xi[o];
            on[k] = Touch::yes;
          }
          ++o;
        }
      }
      for (; o < o_end; ++o) dropped = dropped || slots_.on[o] == Touch::yes;
    }
    const std::size_t old_walls = slots_.cols.size();
    for (std::size_t s = 0; s < count - wall_slots; ++s)
      if (slots_.on[old_walls + s] == Touch::yes) {
        xi[wall_slots + s] = slots_.xi[old_walls + s];
        on[wall_slots + s] = Touch::yes;
      }
    if (dropped) {
      sync_records();
      slots_hold_ = false;
    }
  } else {
    // Loaded from the records (for the list as it stands), unless one carries more than xi.
    sync_records();
    slots_hold_ = false;
    slots_valid_ = false;
    for (const auto& chunk : committed_)
      for (const Record& r : chunk)
        if (!(zero_bits(r.xi_r.x()) && zero_bits(r.xi_r.y()) && zero_bits(r.xi_r.z()) && zero_bits(r.xi_tw) &&
              zero_bits(r.a_prev)))
          return false;
    std::size_t loaded = 0;
    CommittedCursor cursor(committed_, ContactKey{0, 0});
    auto load = [&](const ContactKey& key, std::size_t s) {
      if (const Record* r = cursor.find(key)) {
        xi[s] = r->xi;
        on[s] = Touch::yes;
        ++loaded;
      }
    };
    for (Index i = 0; i < n; ++i) {
      for (Index k = rows[i]; k < rows[i + 1]; ++k) load(ContactKey{i, cols[k]}, static_cast<std::size_t>(k));
      for (Index w = 0; w < walls; ++w)
        load(ContactKey{i, n + w}, wall_slots + static_cast<std::size_t>(i * walls + w));
    }
    slots_hold_ = loaded == committed_count();
    records_synced_ = true;
  }
  slots_.xi.swap(xi);
  slots_.on.swap(on);
  slots_.xi_trial.resize(count);
  slots_.on_trial.resize(count);
  slots_.rows.assign(rows.begin(), rows.end());
  slots_.cols.assign(cols.begin(), cols.end());
  slots_.n = n;
  slots_.walls = walls;
  slots_.build = nlist_.builds();
  slots_valid_ = true;
  return true;
}

void ParticleSystem::tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) {
  assemble_tangent(t, x, v, K, C, nullptr);
}

void ParticleSystem::history_stiffness(double t, const Vector& x, const Vector& v, SparseMatrix& K_history) {
  SparseMatrix K, C;
  assemble_tangent(t, x, v, K, C, &K_history);
}

void ParticleSystem::assemble_tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C,
                                      SparseMatrix* K_history) {
  const Index n = dofs();
  if (x.size() != n || v.size() != n)
    fail(fmt::format("tangent: x has {} and v has {} entries, expected {}", x.size(), v.size(), n));
  const Index dpp = dofs_per_particle();
  const bool traditional = mode_ == TangentialHistory::traditional;
  auto& tk = tangent_k_;
  auto& tc = tangent_c_;
  tk.clear();
  tc.clear();
  std::vector<Eigen::Triplet<double>> th;
  // Which of a body's 6 velocity components (v, w) are dofs here: 3D all, 2D (vx, vy, w_z).
  const std::array<int, 6> sel3{0, 1, 2, 3, 4, 5}, sel2{0, 1, 5, -1, -1, -1};
  const auto& sel = dim_ == 3 ? sel3 : sel2;
  auto scatter = [&](std::vector<Eigen::Triplet<double>>& tr, const Eigen::Matrix<double, 12, 12>& B, Index bi,
                     Index bj, bool pair) {
    const Index body_count = pair ? 2 : 1;
    for (Index p = 0; p < body_count; ++p)
      for (Index q = 0; q < body_count; ++q)
        for (Index a = 0; a < dpp; ++a)
          for (Index b = 0; b < dpp; ++b) {
            const double val = B(6 * p + sel[a], 6 * q + sel[b]);
            if (val != 0.0) tr.emplace_back((p ? bj : bi) + a, (q ? bj : bi) + b, val);
          }
  };

  for_each_contact(t, x, v, false, contact::Differentiate::all,
                   [&](const Geom& g, const ContactLaw& law, const contact::ContactInput&,
                       const contact::ContactResponse& out, const Record&, const Anchor&) {
    contact::ContactBlocks blocks = contact::contact_blocks(law, g.rc, out, geometric_ && !g.rc.wall);
    // traditional: the histories are incremented by dt times the velocities, so what the law's
    // springs see moves with v, not with x.
    const Index bi = g.i * dpp, bj = g.j >= 0 ? g.j * dpp : 0;
    if (K_history) {
      contact::ContactBlocks history;
      history.K = blocks.K_history;
      scatter(th, contact::body_blocks(law, g.rc, history).K, bi, bj, g.j >= 0);
    }
    if (traditional) {
      blocks.K -= blocks.K_history;
      blocks.C += g.dt * blocks.K_history;
    }
    const contact::BodyBlocks bb = contact::body_blocks(law, g.rc, blocks);
    scatter(tk, bb.K, bi, bj, g.j >= 0);
    scatter(tc, bb.C, bi, bj, g.j >= 0);
  });
  K.resize(n, n);
  C.resize(n, n);
  K.setFromTriplets(tk.begin(), tk.end());
  C.setFromTriplets(tc.begin(), tc.end());
  if (K_history) {
    K_history->resize(n, n);
    K_history->setFromTriplets(th.begin(), th.end());
  }
}

void ParticleSystem::damping(double t, const Vector& x, const Vector& v, SparseMatrix& C) {
  const Index n = dofs();
  if (x.size() != n || v.size() != n)
    fail(fmt::format("damping: x has {} and v has {} entries, expected {}", x.size(), v.size(), n));
  const Index dpp = dofs_per_particle();
  const bool traditional = mode_ == TangentialHistory::traditional;
  const std::array<int, 6> sel3{0, 1, 2, 3, 4, 5}, sel2{0, 1, 5, -1, -1, -1};
  const auto& sel = dim_ == 3 ? sel3 : sel2;
  // consistent: C comes from the law's velocity derivatives alone; traditional: also from the
  // history derivatives (h K_history)
  const contact::Differentiate which = traditional ? contact::Differentiate::all : contact::Differentiate::velocities;
  auto& d = damping_;
  if (d.C.rows() != n) {
    d.rows.assign(static_cast<std::size_t>(particle_count()), {});
    build_damping_pattern();
  }
  // Where block (p, q) starts in each of body q's columns (-1: not in the pattern).
  auto offset = [&](Index p, Index q) -> Index {
    const auto& r = d.rows[q];
    const auto it = std::lower_bound(r.begin(), r.end(), p);
    return it != r.end() && *it == p ? static_cast<Index>(it - r.begin()) * dpp : -1;
  };
  // One pass over the contacts, as tangent() visits them, adding each one's blocks in place. Each
  // entry receives its contributions in contact order, as tangent()'s setFromTriplets sums its
  // duplicates, so the values are the same to the last bit. A contact whose blocks are not in the
  // pattern stops the filling; the pattern is then grown by this pass's body pairs and filled again.
  std::size_t blocks = 0;
  auto pass = [&] {
    bool fits = true;
    d.visited.clear();
    blocks = 0;
    std::fill(d.C.valuePtr(), d.C.valuePtr() + d.C.nonZeros(), 0.0);
    for_each_contact(t, x, v, false, which,
                     [&](const Geom& g, const ContactLaw& law, const contact::ContactInput&,
                         const contact::ContactResponse& out, const Record&, const Anchor&) {
      const bool pair = g.j >= 0;
      d.visited.push_back({g.i, pair ? g.j : Index(-1)});
      blocks += pair ? 4 : 1;
      if (!fits) return;
      const std::array<Index, 4> off{offset(g.i, g.i), pair ? offset(g.j, g.i) : 0, pair ? offset(g.i, g.j) : 0,
                                     pair ? offset(g.j, g.j) : 0};
      if (*std::min_element(off.begin(), off.end()) < 0) {
        fits = false;
        return;
      }
      contact::ContactBlocks cb = contact::contact_damping_blocks(law, g.rc, out, traditional);
      if (traditional) cb.C += g.dt * cb.K_history;
      const Eigen::Matrix<double, 12, 12> B = contact::body_damping(law, g.rc, cb);
      const Index body[2] = {g.i * dpp, pair ? g.j * dpp : 0};
      const Index count = pair ? 2 : 1;
      const int* outer = d.C.outerIndexPtr();
      double* val = d.C.valuePtr();
      if (dpp == 6) {  // 3D: every velocity component, a block column is contiguous in B
        for (Index q = 0; q < count; ++q)
          for (Index b = 0; b < 6; ++b)
            for (Index p = 0; p < count; ++p)
              Eigen::Map<Eigen::Matrix<double, 6, 1>>(val + outer[body[q] + b] + off[2 * q + p]) +=
                  B.block<6, 1>(6 * p, 6 * q + b);
      } else {
        for (Index q = 0; q < count; ++q)
          for (Index b = 0; b < dpp; ++b)
            for (Index p = 0; p < count; ++p) {
              double* column = val + outer[body[q] + b] + off[2 * q + p];
              for (Index a = 0; a < dpp; ++a) column[a] += B(6 * p + sel[a], 6 * q + sel[b]);
            }
      }
    });
    return fits;
  };
  // The pattern keeps the blocks of contacts that have opened (their entries are zeros), so a
  // contact that flickers does not rebuild it; it starts afresh from this call's contacts when it
  // holds more than twice their blocks.
  const bool fits = pass();
  if (!fits || d.blocks > 2 * blocks + 16) {
    if (fits) d.rows.assign(d.rows.size(), {});
    for (const auto& [i, j] : d.visited) {
      d.rows[i].push_back(i);
      if (j < 0) continue;
      d.rows[i].push_back(j);
      d.rows[j].push_back(i);
      d.rows[j].push_back(j);
    }
    build_damping_pattern();
    pass();
  }
  C = d.C;
}

void ParticleSystem::build_damping_pattern() {
  auto& d = damping_;
  const Index n = dofs(), dpp = dofs_per_particle(), np = particle_count();
  d.blocks = 0;
  for (auto& r : d.rows) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    d.blocks += r.size();
  }
  d.C.resize(n, n);
  d.C.resizeNonZeros(static_cast<Index>(d.blocks) * dpp * dpp);
  int* outer = d.C.outerIndexPtr();
  int* inner = d.C.innerIndexPtr();
  Index e = 0;
  for (Index q = 0; q < np; ++q)
    for (Index b = 0; b < dpp; ++b) {
      outer[q * dpp + b] = static_cast<int>(e);
      for (Index p : d.rows[q])
        for (Index a = 0; a < dpp; ++a) inner[e++] = static_cast<int>(p * dpp + a);
    }
  outer[n] = static_cast<int>(e);
}

std::size_t ParticleSystem::committed_count() const {
  std::size_t count = 0;
  for (const auto& chunk : committed_) count += chunk.size();
  return count;
}

Vector ParticleSystem::history() const {
  if (mode_ == TangentialHistory::consistent) return {};
  sync_records();
  Vector h(static_cast<Index>(committed_count()) * dim_);
  Index k = 0;
  for (const auto& chunk : committed_)
    for (const Record& r : chunk) h.segment(dim_ * k++, dim_) = r.xi.head(dim_);
  return h;
}

void ParticleSystem::set_history(const Vector& h) {
  if (mode_ == TangentialHistory::consistent) {
    if (h.size() != 0) fail(fmt::format("consistent tangential history carries no state; got {} entries", h.size()));
    return;
  }
  sync_records();
  slots_valid_ = slots_hold_ = false;  // the records are changed below
  const std::size_t count = committed_count();
  const Index expected = static_cast<Index>(count) * dim_;
  if (h.size() != expected)
    fail(fmt::format("history has {} entries, expected {} ({} committed contacts x {})", h.size(), expected,
                     count, dim_));
  Index k = 0;
  for (auto& chunk : committed_)
    for (Record& r : chunk) {
      r.xi.setZero();
      r.xi.head(dim_) = h.segment(dim_ * k++, dim_);
    }
}

std::vector<ContactKey> ParticleSystem::history_keys() const {
  sync_records();
  std::vector<ContactKey> keys;
  keys.reserve(committed_count());
  for (const auto& chunk : committed_)
    for (const Record& r : chunk) keys.push_back(r.key);
  return keys;
}

ParticleSystem::ContactState ParticleSystem::contact_state() const {
  sync_records();
  ContactState s{{}, {}, x_committed_, t_ref_};
  s.committed.reserve(committed_count());
  for (const auto& chunk : committed_) s.committed.insert(s.committed.end(), chunk.begin(), chunk.end());
  if (mode_ == TangentialHistory::consistent)
    for (const auto& chunk : anchors_committed_) s.anchors.insert(s.anchors.end(), chunk.begin(), chunk.end());
  return s;
}

void ParticleSystem::set_contact_state(const ContactState& s) {
  if (mode_ == TangentialHistory::consistent && s.anchors.size() != s.committed.size())
    fail(fmt::format("contact state: {} anchors for {} contacts", s.anchors.size(), s.committed.size()));
  committed_.assign(1, s.committed);
  slots_valid_ = slots_hold_ = false;
  anchors_committed_.assign(1, s.anchors);
  x_committed_ = s.x_committed;
  t_ref_ = s.t_ref;
  have_trial_ = false;
}

void ParticleSystem::reset_history(double t0) {
  require_finite("t0", t0);
  committed_.clear();
  slots_valid_ = slots_hold_ = false;
  anchors_committed_.clear();
  have_trial_ = false;
  x_committed_.resize(0);
  t_ref_ = t0;
}

double ParticleSystem::energy(const Vector& x, const Vector& v) const {
  if (x.size() != dofs() || v.size() != dofs())
    fail(fmt::format("energy: x has {} and v has {} entries, expected {}", x.size(), v.size(), dofs()));
  double e = 0.5 * v.dot(mass_.cwiseProduct(v)) - external_.dot(x);
  for (Index i = 0; i < particle_count(); ++i) e -= pmass_[i] * gravity_.dot(centre(x, i));
  for_each_contact(t_ref_, x, v, true, contact::Differentiate::none,
                   [&](const Geom&, const ContactLaw& law, const contact::ContactInput& in,
                       const contact::ContactResponse& out, const Record&, const Anchor&) {
                     e += contact::stored_energy(law, in, out);
                   });
  return e;
}

const std::vector<ContactReport>& ParticleSystem::last_contacts() const {
  if (!reports_on_) fail("last_contacts: the contact reports are off (set_contact_reports(false))");
  return reports_;
}

std::vector<ContactKey> ParticleSystem::find_contacts(const Vector& x) const {
  if (x.size() != dofs()) fail(fmt::format("find_contacts: x has {} entries, expected {}", x.size(), dofs()));
  refresh_neighbours(x);
  std::vector<ContactKey> out;
  const auto& rows = nlist_.cells().row_start();
  const auto& cols = nlist_.cells().neighbours();
  const Index n = particle_count();
  for (Index i = 0; i < n; ++i) {
    for (Index k = rows[i]; k < rows[i + 1]; ++k) {
      const Index j = cols[k];
      const double R = radius_[i] + radius_[j];
      if ((centres_[i] - centres_[j]).squaredNorm() < R * R && !no_contact(i, j))
        out.push_back(ContactKey{i, j});
    }
    for (std::size_t w = 0; w < walls_.size(); ++w)
      if (radius_[i] - (centres_[i] - walls_[w].point).dot(walls_[w].normal) > 0.0)
        out.push_back(ContactKey{i, n + static_cast<Index>(w)});
  }
  return out;
}

std::vector<ContactKey> ParticleSystem::find_contacts_brute_force(const Vector& x) const {
  if (x.size() != dofs()) fail(fmt::format("find_contacts: x has {} entries, expected {}", x.size(), dofs()));
  std::vector<ContactKey> out;
  const Index n = particle_count();
  for (Index i = 0; i < n; ++i) {
    const Vec3 ci = centre(x, i);
    for (Index j = i + 1; j < n; ++j) {
      const double R = radius_[i] + radius_[j];
      if ((ci - centre(x, j)).squaredNorm() < R * R && !no_contact(i, j))
        out.push_back(ContactKey{i, j});
    }
    for (std::size_t w = 0; w < walls_.size(); ++w)
      if (radius_[i] - (ci - walls_[w].point).dot(walls_[w].normal) > 0.0)
        out.push_back(ContactKey{i, n + static_cast<Index>(w)});
  }
  return out;
}

}  // namespace dtcrit::stepper
