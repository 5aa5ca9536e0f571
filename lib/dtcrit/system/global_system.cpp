#include "dtcrit/system/global_system.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>

#include <Eigen/Cholesky>
#include <Spectra/SymEigsSolver.h>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/parts_pool.hpp"
#include "dtcrit/core/roots.hpp"
#include "dtcrit/linalg/dense_eigenvalues.hpp"
#include "dtcrit/linalg/lanczos.hpp"

namespace dtcrit::packing {

namespace {

// The law's blocks at one contact of the packing, at rest, with the contact's histories (zero
// unless read from a contact dump): contact_blocks of the law's exact derivative at that state.
contact::ContactBlocks contact_state_blocks(const contact::ContactLaw& law, const contact::RoundContact& rc, double m_eff,
                                            const contact::History& history, bool geometric) {
  const contact::ContactInput in = contact::contact_input(rc, Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                                                          m_eff, history);
  return contact::contact_blocks(law, rc, contact::evaluate(law, in, true), geometric);
}

// The same, split into its isotropic blocks (every contact without a history, and those whose
// history leaves the blocks isotropic, e.g. a sticking hooke spring).
contact::IsotropicBlocks linearise(const contact::ContactLaw& law, const contact::RoundContact& rc, double m_eff,
                                   bool geometric, const contact::History& history = {}) {
  const contact::IsotropicBlocks iso =
      contact::isotropic_part(contact_state_blocks(law, rc, m_eff, history, geometric), rc.normal);
  if (!iso.exact)
    fail(fmt::format("the linearisation of '{}' at overlap {} is not of the isotropic form the packing operator "
                     "applies",
                     contact::describe(law), rc.overlap));
  return iso;
}

// A law whose linearisation is the same at every contact up to the effective mass of its dashpots:
// hooke springs with LAMMPS' mass_velocity damping and no rolling or twisting resistance. Its
// coefficients are evaluated once per law (per unit effective mass) instead of per contact.
bool per_law(const contact::ContactLaw& law) {
  using namespace contact;
  return law.normal == NormalModel::hooke &&
         (law.tangential == TangentialModel::linear_history || law.tangential == TangentialModel::linear_nohistory) &&
         (law.damping == DampingModel::mass_velocity || law.damping_coefficient == 0.0) &&
         law.rolling == RollingModel::none && law.twisting == TwistingModel::none;
}

using Mat3 = Eigen::Matrix3d;

}  // namespace

GlobalSystem::GlobalSystem(Assembly a, bool rotation, bool geometric_stiffness)
    : dim_(a.dim), rotation_(rotation), geometric_(geometric_stiffness), bodies_(!a.round),
      contacts_(std::move(a.contacts)) {
  if (dim_ != 2 && dim_ != 3) fail(fmt::format("assembly: dimension {} must be 2 or 3", dim_));
  dpp_ = rotation ? (dim_ == 2 ? 3 : 6) : dim_;
  pmass_ = std::move(a.mass);
  const Index n = particles(), moments = a.moments_per_body();
  if (static_cast<Index>(a.inertia.size()) != n * moments)
    fail(fmt::format("assembly: {} moments of inertia for {} bodies", a.inertia.size(), n));
  // M's diagonal: the mass on each translation, the (principal) moment on each rotation.
  mass_.resize(n * dpp_);
  for (Index i = 0; i < n; ++i)
    for (Index d = 0; d < dpp_; ++d)
      mass_[i * dpp_ + d] =
          d < dim_ ? pmass_[static_cast<std::size_t>(i)] : a.inertia[static_cast<std::size_t>(i * moments + (moments == 3 ? d - 3 : 0))];
  if (bodies_) {
    for (Index i = 0; i < n; ++i)
      for (Index d = 0; d < dpp_; ++d) require_positive(d < dim_ ? "body mass" : "body inertia", mass_[i * dpp_ + d]);
    arms_ = std::move(a.arms);
    r_eff_ = std::move(a.r_eff);
    member_radii_ = std::move(a.member_radii);
    if (dim_ == 3 && rotation) axes_ = std::move(a.axes);
  } else {
    if (static_cast<Index>(a.radius.size()) != n) fail(fmt::format("assembly: {} radii for {} bodies", a.radius.size(), n));
    radius_ = std::move(a.radius);
    inertia_ = std::move(a.inertia);
    particle_scale_.resize(static_cast<std::size_t>(2 * n));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      particle_scale_[2 * i] = 1.0 / std::sqrt(pmass_[i]);
      particle_scale_[2 * i + 1] = 1.0 / std::sqrt(inertia_[i]);
    }
  }
  setup();
}

void GlobalSystem::setup() {
  threads_ = default_threads();
  // Spheres read M^{-1/2} per particle (particle_scale_); a per-dof copy would cost a vector of dofs.
  if (bodies_) inv_sqrt_mass_ = mass_.cwiseSqrt().cwiseInverse();
  const Index n = particles();
  std::vector<char> used(contacts_.laws.size(), 0);  // the laws some contact uses
  for (const Contact& c : contacts_.contacts) {
    if (c.i < 0 || c.i >= n || c.j >= n || c.law < 0 || c.law >= static_cast<std::int32_t>(contacts_.laws.size()))
      fail(fmt::format("contact ({}, {}) refers to a particle or law that does not exist", c.i, c.j));
    used[static_cast<std::size_t>(c.law)] = 1;
  }
  // Damped: some contact's law has a dashpot. Asked by every integrator's row, so found once here.
  for (std::size_t l = 0; l < used.size(); ++l) damped_ = damped_ || (used[l] && contact::damped(contacts_.laws[l]));
  for (const auto& law : contacts_.laws) {
    per_contact_ = per_contact_ || !per_law(law);
    resistance_ = resistance_ || law.rolling != contact::RollingModel::none || law.twisting != contact::TwistingModel::none;
  }
  per_contact_ = per_contact_ || geometric_;
  find_general_contacts();
  per_contact_ = per_contact_ || !general_.empty() || torque_arm_contacts_ > 0;
  if (!per_contact_) {
    // Per unit effective mass: the dashpots of mass_velocity damping are m_eff times these.
    for (const auto& law : contacts_.laws) {
      const contact::IsotropicBlocks l =
          linearise(law, contact::RoundContact{Vec3::UnitX(), 0.0, 1.0, 1.0, 2.0, false}, 1.0, false);
      law_lin_.push_back({l.kn, l.kt, l.cn, l.ct});
    }
    return;
  }
  const std::size_t nc = contacts_.contacts.size();
  coef_.resize(nc);
  if (resistance_ || geometric_ || torque_arm_contacts_ > 0) extra_.resize(nc);
  for (std::size_t k = 0; k < nc; ++k) {
    if (!general_slot_.empty() && general_slot_[k] >= 0) continue;  // zero here: applied by apply_general
    const Contact& c = contacts_.contacts[k];
    const contact::ContactLaw& law = contacts_.laws[static_cast<std::size_t>(c.law)];
    const contact::RoundContact rc = round_contact(k);
    const contact::IsotropicBlocks l = linearise(law, rc, effective_mass(c), geometric_, contacts_.history(k));
    coef_[k] = {l.kn, l.kt, l.cn, l.ct};
    if (!extra_.empty())
      extra_[k] = {l.k_roll, l.c_roll, l.k_twist, l.c_twist, l.geometric, rc.r_eff(),
                   contact::torque_arm(law, rc, true), contact::torque_arm(law, rc, false)};
  }
}

void GlobalSystem::find_general_contacts() {
  const std::size_t nc = contacts_.contacts.size();
  const Index B = 2 * dpp_;
  const std::array<int, 12> sel = selected_dofs();
  for (std::size_t k = 0; k < nc; ++k) {
    const Contact& c = contacts_.contacts[k];
    const contact::ContactLaw& law = contacts_.laws[static_cast<std::size_t>(c.law)];
    const contact::RoundContact rc = round_contact(k);
    // Only a history or unequal arms can make a contact at rest other than isotropic: the others
    // stay on the fast path without being evaluated twice. (Bodies: A = J.)
    const bool unequal_arms = rotation_ && !rc.wall && !bodies_ &&
                              (contact::torque_arm(law, rc, true) != rc.ri || contact::torque_arm(law, rc, false) != rc.rj);
    // A curved region wall under --geometric-stiffness: the normal force turns with the normal,
    // -F_n dn/dx on i's translations (region_wall.hpp), which is not of the isotropic form.
    // A cone's side under a Hertz law: R_eff, hence F_n, moves with the contact point; not symmetric.
    const WallSurface* surface = contacts_.wall_surface(k);
    const bool turning = geometric_ && surface && !surface->normal_derivative.isZero(0.0);
    const bool sliding_r_eff = surface && !surface->r_eff_gradient.isZero(0.0) && law.normal != contact::NormalModel::hooke;
    if (!contacts_.has_history(k) && !unequal_arms && !turning && !sliding_r_eff) continue;
    const contact::ContactBlocks cb = contact_state_blocks(law, rc, effective_mass(c), contacts_.history(k), geometric_);
    const contact::IsotropicBlocks iso = contact::isotropic_part(cb, rc.normal);
    if (iso.exact && !turning && !sliding_r_eff) {
      // Isotropic at the contact point: the kernel applies it, with its torque arms (extra_). Without
      // a tangential spring or dashpot the force is along n and has no torque: the arms do not matter.
      if (unequal_arms && (iso.kt != 0.0 || iso.ct != 0.0)) ++torque_arm_contacts_, symmetric_ = false;
      continue;
    }
    if (general_slot_.empty()) general_slot_.assign(nc, -1);
    general_slot_[k] = static_cast<std::int32_t>(general_.size());
    general_.push_back(k);
    ContactCoefficients q;
    q.kn = iso.kn, q.kt = iso.kt, q.cn = iso.cn, q.ct = iso.ct, q.m_eff = effective_mass(c);
    q.k_roll = iso.k_roll, q.c_roll = iso.c_roll, q.k_twist = iso.k_twist, q.c_twist = iso.c_twist;
    q.geometric = iso.geometric, q.r_eff = rc.r_eff();
    general_iso_.push_back(q);
    contact::BodyBlocks bb = body_blocks(k, cb);
    if (turning || sliding_r_eff) {
      const contact::ContactResponse at_rest = wall_response_at_rest(k);
      if (turning) bb.K.block<3, 3>(0, 0) -= at_rest.normal_force * surface->normal_derivative;
      // F_n moves with R_eff along the surface (the dashpots carry no force at rest).
      if (sliding_r_eff)
        bb.K.block<3, 3>(0, 0) -=
            c.normal *
            contact::elastic_normal_force_radius_derivative(law, at_rest.elastic_normal_force, surface->r_eff) *
            surface->r_eff_gradient.transpose();
    }
    Matrix K(B, B), C(B, B);
    for (Index r = 0; r < B; ++r)
      for (Index s2 = 0; s2 < B; ++s2) {
        K(r, s2) = bb.K(sel[static_cast<std::size_t>(r)], sel[static_cast<std::size_t>(s2)]);
        C(r, s2) = bb.C(sel[static_cast<std::size_t>(r)], sel[static_cast<std::size_t>(s2)]);
      }
    if (rc.wall) {  // only i's dofs exist; keep the zeros of the partner's rows and columns exact
      K.bottomRows(dpp_).setZero(), K.rightCols(dpp_).setZero();
      C.bottomRows(dpp_).setZero(), C.rightCols(dpp_).setZero();
    }
    symmetric_ = symmetric_ && K == K.transpose() && C == C.transpose();
    general_blocks_.insert(general_blocks_.end(), K.data(), K.data() + B * B);
    general_blocks_.insert(general_blocks_.end(), C.data(), C.data() + B * B);
  }
}

std::array<int, 12> GlobalSystem::selected_dofs() const {
  // The rows of contact::body_blocks (x_i, phi_i, x_j, phi_j, 3 each) that are dofs of this system.
  std::array<int, 12> sel{};
  int m = 0;
  for (int body = 0; body < 2; ++body)
    for (int d = 0; d < 6; ++d) {
      const bool translation = d < 3 && d < dim_;
      const bool rotation = rotation_ && (dim_ == 3 ? d >= 3 : d == 5);
      if (translation || rotation) sel[static_cast<std::size_t>(m++)] = 6 * body + d;
    }
  return sel;
}

contact::RoundContact GlobalSystem::round_contact(std::size_t k) const {
  const Contact& c = contacts_.contacts[k];
  if (bodies_) {  // the law reads R_eff only; the arms are the contact's own (body_blocks)
    const double r = r_eff_[k];
    contact::RoundContact rc{c.normal, c.overlap, r, r, 0.0, c.j < 0};
    rc.curvature_radius = r;
    return rc;
  }
  const double ri = radius_[static_cast<std::size_t>(c.i)];
  if (c.j < 0) {
    contact::RoundContact rc{c.normal, c.overlap, ri, 0.0, 0.0, true};
    // A curved region wall: the R_eff LAMMPS gives the law (region_wall.hpp).
    if (const WallSurface* s = contacts_.wall_surface(k); s && s->r_eff > 0.0) rc.curvature_radius = s->r_eff;
    return rc;
  }
  const double rj = radius_[static_cast<std::size_t>(c.j)];
  return {c.normal, c.overlap, ri, rj, ri + rj - c.overlap, false};
}

contact::ContactResponse GlobalSystem::wall_response_at_rest(std::size_t k) const {
  const Contact& c = contacts_.contacts[k];
  const contact::ContactLaw& law = contacts_.laws[static_cast<std::size_t>(c.law)];
  const contact::ContactInput in = contact::contact_input(round_contact(k), Vec3::Zero(), Vec3::Zero(), Vec3::Zero(),
                                                          Vec3::Zero(), effective_mass(c), contacts_.history(k));
  return contact::evaluate(law, in, false);
}

double GlobalSystem::effective_mass(const Contact& c) const {
  const double mi = pmass_[static_cast<std::size_t>(c.i)];
  return contact::effective_mass(mi, c.j < 0 ? contact::immovable_mass : pmass_[static_cast<std::size_t>(c.j)]);
}

ContactCoefficients GlobalSystem::coef(std::size_t k) const {
  if (!general_slot_.empty() && general_slot_[k] >= 0) return general_iso_[static_cast<std::size_t>(general_slot_[k])];
  const Contact& c = contacts_.contacts[k];
  const double m = effective_mass(c);
  ContactCoefficients q;
  q.m_eff = m;
  if (per_contact_) {
    const LinearCoefficients& l = coef_[k];
    q.kn = l.kn, q.kt = l.kt, q.cn = l.cn, q.ct = l.ct;
  } else {
    const LinearCoefficients& l = law_lin_[static_cast<std::size_t>(c.law)];
    q.kn = l.kn, q.kt = l.kt, q.cn = dashpot_from_lammps_gamma(l.cn, m), q.ct = dashpot_from_lammps_gamma(l.ct, m);
  }
  if (!extra_.empty()) {
    const ResistanceCoefficients& e = extra_[k];
    q.k_roll = e.k_roll, q.c_roll = e.c_roll, q.k_twist = e.k_twist, q.c_twist = e.c_twist;
    q.geometric = e.geometric, q.r_eff = e.r_eff;
  }
  return q;
}

contact::BodyBlocks GlobalSystem::body_blocks(std::size_t k, const contact::ContactBlocks& b) const {
  const Contact& c = contacts_.contacts[k];
  const contact::ContactLaw& law = contacts_.laws[static_cast<std::size_t>(c.law)];
  if (!bodies_) return contact::body_blocks(law, round_contact(k), b);
  contact::ContactArms arms;
  arms.normal = c.normal;
  arms.r_eff = r_eff_[k];
  arms.wall = c.j < 0;
  arms.velocity_i = arms.torque_i = arms_[2 * k];
  arms.velocity_j = arms.torque_j = arms_[2 * k + 1];
  contact::BodyBlocks bb = contact::body_blocks(arms, b);
  if (dim_ == 3 && rotation_) {
    // Rotations about the principal axes: phi = R psi, so K(psi) = T^T K(phi) T, T = diag(1, R_i, 1, R_j).
    Eigen::Matrix<double, 12, 12> T = Eigen::Matrix<double, 12, 12>::Identity();
    T.block<3, 3>(3, 3) = Eigen::Map<const Mat3>(axes_.data() + 9 * static_cast<std::size_t>(c.i));
    if (c.j >= 0) T.block<3, 3>(9, 9) = Eigen::Map<const Mat3>(axes_.data() + 9 * static_cast<std::size_t>(c.j));
    for (auto* M : {&bb.K, &bb.C}) {
      const bool symmetric = *M == M->transpose();
      *M = (T.transpose() * *M * T).eval();
      if (symmetric) *M = (0.5 * (*M + M->transpose())).eval();  // one triangle is read: equal to the bit
    }
  }
  return bb;
}

ContactCoefficients GlobalSystem::coefficients(std::size_t k) const {
  const Contact& c = contacts_.contacts[k];
  const contact::RoundContact rc = round_contact(k);
  const contact::IsotropicBlocks l = contact::isotropic_part(
      contact_state_blocks(contacts_.laws[static_cast<std::size_t>(c.law)], rc, effective_mass(c), contacts_.history(k), geometric_),
      rc.normal);
  ContactCoefficients q;
  q.kn = l.kn, q.kt = l.kt, q.cn = l.cn, q.ct = l.ct, q.m_eff = effective_mass(c);
  q.k_roll = l.k_roll, q.c_roll = l.c_roll, q.k_twist = l.k_twist, q.c_twist = l.c_twist;
  q.geometric = l.geometric, q.r_eff = rc.r_eff();
  return q;
}

// Contact k's linearisation in body coordinates from the contact module (contact::body_blocks over
// the generalised coordinates of i and j), restricted to this system's dofs: K and C of size 2 dpp
// (i's dofs first); for a wall contact only the first dpp rows and columns are meaningful.
void GlobalSystem::contact_block(std::size_t k, const std::array<int, 12>& sel, ContactBlock& K, ContactBlock& C) const {
  const Index B = 2 * dpp_;
  K.resize(B, B);
  C.resize(B, B);
  if (!general_slot_.empty() && general_slot_[k] >= 0) {
    const double* blk = general_blocks_.data() + static_cast<std::size_t>(2 * B * B) * static_cast<std::size_t>(general_slot_[k]);
    K = Eigen::Map<const Matrix>(blk, B, B);
    C = Eigen::Map<const Matrix>(blk + B * B, B, B);
    return;
  }
  const Contact& c = contacts_.contacts[k];
  const ContactCoefficients q = coef(k);
  const Vec3& n = c.normal;
  contact::ContactBlocks b;
  b.K.block<3, 3>(0, 0) = contact::isotropic_block(q.kn, q.kt, n);
  b.K.block<3, 3>(3, 3) = contact::isotropic_block(0.0, q.k_roll, n);  // rolling acts across n only
  b.K(6, 6) = q.k_twist;
  b.C.block<3, 3>(0, 0) = contact::isotropic_block(q.cn, q.ct, n);
  b.C.block<3, 3>(3, 3) = contact::isotropic_block(0.0, q.c_roll, n);
  b.C(6, 6) = q.c_twist;
  b.geometric = q.geometric;
  const contact::BodyBlocks bb = body_blocks(k, b);
  if (B == 12) {  // every dof selected (3D with rotation)
    K = bb.K;
    C = bb.C;
    return;
  }
  for (Index r = 0; r < B; ++r)
    for (Index s2 = 0; s2 < B; ++s2) {
      K(r, s2) = bb.K(sel[static_cast<std::size_t>(r)], sel[static_cast<std::size_t>(s2)]);
      C(r, s2) = bb.C(sel[static_cast<std::size_t>(r)], sel[static_cast<std::size_t>(s2)]);
    }
}

// Visits every contact with its blocks (contact_block), in order.
template <class F>
void GlobalSystem::for_each_block(F&& f) const {
  const std::array<int, 12> sel = selected_dofs();
  ContactBlock K, C;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    contact_block(k, sel, K, C);
    f(contacts_.contacts[k], K, C);
  }
}

void GlobalSystem::apply_general(double a, double b, const double* scale, const double* x, double* y,
                                 std::size_t first, std::size_t last) const {
  const Index dpp = dpp_, B = 2 * dpp;
  auto it = std::lower_bound(general_.begin(), general_.end(), first);
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 12, 1> xs(B), g(B);
  for (; it != general_.end() && *it < last; ++it) {
    const std::size_t slot = static_cast<std::size_t>(it - general_.begin());
    const Contact& c = contacts_.contacts[*it];
    const double* blk = general_blocks_.data() + static_cast<std::size_t>(2 * B * B) * slot;
    const Index body[2] = {c.i, c.j};
    const Index bodies = c.j >= 0 ? 2 : 1;
    // scale: per particle (1/sqrt(m), 1/sqrt(I)), or per dof for bodies
    auto s = [&](Index p, Index d) {
      return !scale ? 1.0 : bodies_ ? scale[body[p] * dpp + d] : scale[2 * body[p] + (d >= dim_ ? 1 : 0)];
    };
    xs.setZero();
    for (Index p = 0; p < bodies; ++p)
      for (Index d = 0; d < dpp; ++d) xs[p * dpp + d] = s(p, d) * x[body[p] * dpp + d];
    g.noalias() = a * (Eigen::Map<const Matrix>(blk, B, B) * xs);
    if (b != 0.0) g.noalias() += b * (Eigen::Map<const Matrix>(blk + B * B, B, B) * xs);
    for (Index p = 0; p < bodies; ++p)
      for (Index d = 0; d < dpp; ++d) y[body[p] * dpp + d] += s(p, d) * g[p * dpp + d];
  }
}

namespace {

// y += S (a K + b C) S x over contacts [first, last), with S = M^{-1/2} when Scaled (applied on
// the fly instead of in two extra passes over the vectors) and the dimension and the rotations
// fixed at compile time. Coefficients per law (scaled by m_eff for the dashpots) or, PerContact,
// per contact; Resist adds rolling and twisting resistance and the geometric stiffness. Arms: rigid
// bodies of any shape (arms a_i, a_j per contact, rotations about each body's principal axes, S per
// dof); without, round bodies (arms -r_i n, r_j n, S per particle), the same formulas specialised.
template <int Dim, bool Rot, bool Scaled, bool PerContact, bool Resist, bool Arms>
void contact_kernel(const KernelData& kd, double a, double b, const double* scale, const double* x, double* y,
                    std::size_t first, std::size_t last) {
  constexpr Index dpp = Rot ? (Dim == 2 ? 3 : 6) : Dim;
  const std::vector<Contact>& cs = *kd.contacts;
  // Contacts come in runs of one particle i (ContactSet: ascending i). i's scaled (and, bodies,
  // rotated) displacement is read once per run, and i's forces are summed in registers and stored
  // once: y[i] receives the same terms in the same order as one += per contact (the only other
  // contact of a run that touches i is one with its own image, j == i, added in its place), so the
  // result is the same to the bit, without a store-to-load chain through y[i] per contact.
  for (std::size_t k = first; k < last;) {
    const Index i = cs[k].i;
    const Index oi = i * dpp;
    double xi[dpp];
    double si[2] = {1.0, 1.0};
    if constexpr (Scaled && !Arms) si[0] = scale[2 * i], si[1] = scale[2 * i + 1];
    // scale: per particle (1/sqrt(m), 1/sqrt(I)), so that the dof d of a particle has scale[2p + (d >= Dim)];
    // bodies: per dof.
    auto scale_i = [&](Index d) {
      if constexpr (Scaled && Arms) return scale[oi + d];
      else return si[d >= Dim];
    };
    for (Index d = 0; d < dpp; ++d) xi[d] = scale_i(d) * x[oi + d];
    // Bodies, 3D: rotations about the principal axes (columns of R), to world axes.
    [[maybe_unused]] const Eigen::Map<const Mat3> Ri(Arms && Rot && Dim == 3 ? kd.axes + 9 * i : nullptr);
    if constexpr (Arms && Rot && Dim == 3) {
      const Vec3 wi = Ri * Vec3(xi[3], xi[4], xi[5]);
      xi[3] = wi[0], xi[4] = wi[1], xi[5] = wi[2];
    }
    [[maybe_unused]] const double ri = Rot && !Arms ? (*kd.radius)[static_cast<std::size_t>(i)] : 0.0;
    double acc[dpp];  // y[i], accumulated over the run
    for (Index d = 0; d < dpp; ++d) acc[d] = y[oi + d];
    for (; k < last && cs[k].i == i; ++k) {
      const Contact& c = cs[k];
      const bool pair = c.j >= 0;
      double kn, kt;
      if constexpr (PerContact) {
        const LinearCoefficients& l = (*kd.per_contact)[k];
        kn = a * l.kn + b * l.cn, kt = a * l.kt + b * l.ct;
      } else {
        const LinearCoefficients& l = (*kd.per_law)[static_cast<std::size_t>(c.law)];
        kn = a * l.kn, kt = a * l.kt;
        if (b != 0.0) {
          const double mi = (*kd.pmass)[static_cast<std::size_t>(c.i)];
          const double mj = pair ? (*kd.pmass)[static_cast<std::size_t>(c.j)] : contact::immovable_mass;
          const double m = contact::effective_mass(mi, mj);
          kn += b * dashpot_from_lammps_gamma(l.cn, m), kt += b * dashpot_from_lammps_gamma(l.ct, m);
        }
      }
      const Index oj = pair ? c.j * dpp : 0;
      double xj[dpp] = {};
      double sj[2] = {1.0, 1.0};
      if constexpr (Scaled && !Arms)
        if (pair) sj[0] = scale[2 * c.j], sj[1] = scale[2 * c.j + 1];
      auto scale_j = [&](Index d) {
        if constexpr (Scaled && Arms) return scale[oj + d];
        else return sj[d >= Dim];
      };
      if (pair)
        for (Index d = 0; d < dpp; ++d) xj[d] = scale_j(d) * x[oj + d];
      [[maybe_unused]] const Eigen::Map<const Mat3> Rj(Arms && Rot && Dim == 3 && pair ? kd.axes + 9 * c.j : nullptr);
      if constexpr (Arms && Rot && Dim == 3) {
        if (pair) {
          const Vec3 wj = Rj * Vec3(xj[3], xj[4], xj[5]);
          xj[3] = wj[0], xj[4] = wj[1], xj[5] = wj[2];
        }
      }
      [[maybe_unused]] const double rj = Rot && !Arms && pair ? (*kd.radius)[static_cast<std::size_t>(c.j)] : 0.0;
      // The torques' arms: r_i, r_j, or with resistance coefficients per contact, their torque arms.
      [[maybe_unused]] double ti = ri, tj = rj;
      if constexpr (Resist && Rot && !Arms) ti = (*kd.extra)[k].torque_arm_i, tj = pair ? (*kd.extra)[k].torque_arm_j : 0.0;
      [[maybe_unused]] const Vec3* ai = Arms ? kd.arms + 2 * k : nullptr;
      [[maybe_unused]] const Vec3* aj = Arms ? kd.arms + 2 * k + 1 : nullptr;
      double gi[dpp], gj[dpp];  // J_i^T f and J_j^T f
      const Vec3& n = c.normal;
      if constexpr (Dim == 3) {
        Vec3 u(xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]);
        if constexpr (Rot && Arms) u += Vec3(xi[3], xi[4], xi[5]).cross(*ai) - Vec3(xj[3], xj[4], xj[5]).cross(*aj);
        else if constexpr (Rot) u += n.cross(Vec3(ri * xi[3] + rj * xj[3], ri * xi[4] + rj * xj[4], ri * xi[5] + rj * xj[5]));
        const Vec3 f = kt * u + (kn - kt) * n.dot(u) * n;
        for (int d = 0; d < 3; ++d) gi[d] = f[d], gj[d] = -f[d];
        if constexpr (Rot && Arms) {
          const Vec3 ti = ai->cross(f), tj = aj->cross(f);
          for (int d = 0; d < 3; ++d) gi[3 + d] = ti[d], gj[3 + d] = -tj[d];
        } else if constexpr (Rot) {
          const Vec3 fxn = f.cross(n);
          for (int d = 0; d < 3; ++d) gi[3 + d] = ti * fxn[d], gj[3 + d] = tj * fxn[d];
        }
      } else {
        double ux = xi[0] - xj[0], uy = xi[1] - xj[1];
        // 2D: theta e_z x a = theta (-a_y, a_x); round bodies: n x (r theta e_z) = r theta (n_y, -n_x).
        const double tx = n.y(), ty = -n.x();
        if constexpr (Rot && Arms) {
          ux += -xi[2] * ai->y() + xj[2] * aj->y();
          uy += xi[2] * ai->x() - xj[2] * aj->x();
        } else if constexpr (Rot) {
          const double th = ri * xi[2] + rj * xj[2];
          ux += th * tx, uy += th * ty;
        }
        const double un = n.x() * ux + n.y() * uy;
        const double fx = kt * ux + (kn - kt) * un * n.x(), fy = kt * uy + (kn - kt) * un * n.y();
        gi[0] = fx, gi[1] = fy, gj[0] = -fx, gj[1] = -fy;
        if constexpr (Rot && Arms) {
          gi[2] = ai->x() * fy - ai->y() * fx;
          gj[2] = -(aj->x() * fy - aj->y() * fx);
        } else if constexpr (Rot) {
          const double ft = fx * tx + fy * ty;
          gi[2] = ti * ft, gj[2] = tj * ft;
        }
      }
      if constexpr (Resist) {
        // contact/kinematics.hpp: geometric -g P on the relative translation; rolling k_r rho with
        // rho = R_eff (phi_i - phi_j) x n, torque R_eff n x (k_r rho) on i; twisting k_w theta n with
        // theta = n . (phi_i - phi_j). In 2D rho is R_eff dphi (-n_y, n_x) and there is no twist.
        const ResistanceCoefficients& e = (*kd.extra)[k];
        const double g = a * e.geometric;
        if (g != 0.0 && pair) {
          Vec3 d = Vec3::Zero();
          for (int q = 0; q < Dim; ++q) d[q] = xi[q] - xj[q];
          const Vec3 gd = g * (d - n.dot(d) * n);
          for (int q = 0; q < Dim; ++q) gi[q] -= gd[q], gj[q] += gd[q];
        }
        if constexpr (Rot) {
          const double kr = a * e.k_roll + b * e.c_roll, kw = a * e.k_twist + b * e.c_twist, R = e.r_eff;
          if constexpr (Dim == 3) {
            const Vec3 dphi(xi[3] - xj[3], xi[4] - xj[4], xi[5] - xj[5]);
            const Vec3 tr = (kr * R * R) * n.cross(dphi.cross(n)) + (kw * n.dot(dphi)) * n;
            for (int q = 0; q < 3; ++q) gi[3 + q] += tr[q], gj[3 + q] -= tr[q];
          } else {
            const double tr = kr * R * R * (xi[2] - xj[2]);
            gi[2] += tr, gj[2] -= tr;
          }
        }
      }
      if constexpr (Arms && Rot && Dim == 3) {  // world torques to the principal axes: R^T t
        const Vec3 ti = Ri.transpose() * Vec3(gi[3], gi[4], gi[5]);
        gi[3] = ti[0], gi[4] = ti[1], gi[5] = ti[2];
        if (pair) {
          const Vec3 tj = Rj.transpose() * Vec3(gj[3], gj[4], gj[5]);
          gj[3] = tj[0], gj[4] = tj[1], gj[5] = tj[2];
        }
      }
      for (Index d = 0; d < dpp; ++d) acc[d] += scale_i(d) * gi[d];
      if (pair && c.j == i) {  // i's own periodic image: both sides add to y[i]
        for (Index d = 0; d < dpp; ++d) acc[d] += scale_j(d) * gj[d];
      } else if (pair) {
        for (Index d = 0; d < dpp; ++d) y[oj + d] += scale_j(d) * gj[d];
      }
    }
    for (Index d = 0; d < dpp; ++d) y[oi + d] = acc[d];
  }
}

template <bool Scaled, bool PerContact, bool Resist, bool Arms>
void dispatch_dim(int dim, bool rotation, const KernelData& kd, double a, double b, const double* scale,
                  const double* x, double* y, std::size_t first, std::size_t last) {
  if (dim == 3 && rotation) contact_kernel<3, true, Scaled, PerContact, Resist, Arms>(kd, a, b, scale, x, y, first, last);
  else if (dim == 3) contact_kernel<3, false, Scaled, PerContact, Resist, Arms>(kd, a, b, scale, x, y, first, last);
  else if (rotation) contact_kernel<2, true, Scaled, PerContact, Resist, Arms>(kd, a, b, scale, x, y, first, last);
  else contact_kernel<2, false, Scaled, PerContact, Resist, Arms>(kd, a, b, scale, x, y, first, last);
}

template <bool Scaled, bool Arms>
void dispatch_kernel(int dim, bool rotation, const KernelData& kd, double a, double b, const double* scale,
                     const double* x, double* y, std::size_t first, std::size_t last) {
  if (!kd.extra->empty()) dispatch_dim<Scaled, true, true, Arms>(dim, rotation, kd, a, b, scale, x, y, first, last);
  else if (!kd.per_contact->empty()) dispatch_dim<Scaled, true, false, Arms>(dim, rotation, kd, a, b, scale, x, y, first, last);
  else dispatch_dim<Scaled, false, false, Arms>(dim, rotation, kd, a, b, scale, x, y, first, last);
}

}  // namespace

void GlobalSystem::apply_range(double a, double b, const double* scale, const double* x, double* y, std::size_t first,
                               std::size_t last) const {
  const KernelData kd{&contacts_.contacts, &law_lin_, &coef_, &extra_, &radius_, &pmass_, arms_.data(), axes_.data()};
  if (bodies_) {
    if (scale) dispatch_kernel<true, true>(dim_, rotation_, kd, a, b, scale, x, y, first, last);
    else dispatch_kernel<false, true>(dim_, rotation_, kd, a, b, scale, x, y, first, last);
  } else {
    if (scale) dispatch_kernel<true, false>(dim_, rotation_, kd, a, b, scale, x, y, first, last);
    else dispatch_kernel<false, false>(dim_, rotation_, kd, a, b, scale, x, y, first, last);
  }
  if (!general_.empty()) apply_general(a, b, scale, x, y, first, last);
}

void GlobalSystem::apply_with_scale(double a, double b, const double* scale, const double* x, double* y) const {
  const Index N = dofs();
  const std::size_t nc = contacts_.contacts.size();
  const int T = operator_parts();
  if (T == 1) {
    std::fill(y, y + N, 0.0);
    apply_range(a, b, scale, x, y, 0, nc);
    return;
  }
  // T parts of the contacts: part 0 scatters into y, part t into its own buffer, summed after in
  // the parts' order, whichever thread ran each part (the same sums for every scheduling). A buffer
  // is zeroed and summed only on the rows its part writes: elsewhere it would add +0.0, which leaves
  // y unchanged (y is never -0.0: its sums start from +0.0), so y is the same to the bit.
  const auto uT = static_cast<std::size_t>(T);
  if (written_parts_ != T) {
    written_.clear();
    for (std::size_t t = 1; t < uT; ++t) written_.push_back(written_rows(nc * t / uT, nc * (t + 1) / uT));
    written_parts_ = T;
  }
  scratch_.resize(static_cast<std::size_t>(T - 1));
  for (Vector& buf : scratch_)
    if (buf.size() != N) buf.resize(N);
  run_parts(T, [&](int t) {
    const auto ut = static_cast<std::size_t>(t);
    double* out = y;
    if (t == 0) {
      std::fill(y, y + N, 0.0);
    } else {
      out = scratch_[ut - 1].data();
      for (const auto& [begin, end] : written_[ut - 1]) std::fill(out + begin, out + end, 0.0);
    }
    apply_range(a, b, scale, x, out, nc * ut / uT, nc * (ut + 1) / uT);
  });
  for (std::size_t t = 1; t < uT; ++t) {
    const double* buf = scratch_[t - 1].data();
    for (const auto& [begin, end] : written_[t - 1])
      for (Index r = begin; r < end; ++r) y[r] += buf[r];
  }
}

int GlobalSystem::operator_parts() const { return contacts_.contacts.size() >= 50000 ? std::max(1, threads_) : 1; }

void GlobalSystem::run_parts(int parts, const std::function<void(int)>& f) const {
  if (parts == 1) f(0);
  else if (parts > 1) pool_.with_workers(parts - 1).run(parts, f);
}

std::vector<std::pair<Index, Index>> GlobalSystem::written_rows(std::size_t first, std::size_t last) const {
  const Index n = particles();
  std::vector<bool> hit(static_cast<std::size_t>(n), false);
  for (std::size_t k = first; k < last; ++k) {
    const Contact& c = contacts_.contacts[k];
    hit[static_cast<std::size_t>(c.i)] = true;
    if (c.j >= 0) hit[static_cast<std::size_t>(c.j)] = true;
  }
  // Particles' dof ranges, merged across gaps of less than a page (512 doubles).
  constexpr Index page = 512;
  std::vector<std::pair<Index, Index>> out;
  for (Index p = 0; p < n; ++p) {
    if (!hit[static_cast<std::size_t>(p)]) continue;
    const Index begin = p * dpp_, end = begin + dpp_;
    if (!out.empty() && begin - out.back().second < page) out.back().second = end;
    else out.emplace_back(begin, end);
  }
  return out;
}

void GlobalSystem::apply(double a, double b, const double* x, double* y) const { apply_with_scale(a, b, nullptr, x, y); }

void GlobalSystem::apply_scaled(double a, double b, const double* x, double* y) const {
  apply_with_scale(a, b, bodies_ ? inv_sqrt_mass_.data() : particle_scale_.data(), x, y);
}

void GlobalSystem::set_threads(int threads) {
  if (threads < 1) fail(fmt::format("threads = {} must be at least 1", threads));
  threads_ = threads;
}

SparseMatrix GlobalSystem::assemble(bool stiffness) const {
  std::vector<Eigen::Triplet<double>> t;
  const Index dpp = dpp_;
  for_each_block([&](const Contact& c, const auto& K, const auto& C) {
    const auto& B = stiffness ? K : C;
    const Index bodies = c.j >= 0 ? 2 : 1;  // a particle touching its own image: both blocks add to i
    for (Index p = 0; p < bodies; ++p)
      for (Index q = 0; q < bodies; ++q) {
        const Index bp = (p ? c.j : c.i) * dpp, bq = (q ? c.j : c.i) * dpp;
        for (Index r = 0; r < dpp; ++r)
          for (Index s2 = 0; s2 < dpp; ++s2)
            if (B(p * dpp + r, q * dpp + s2) != 0.0) t.emplace_back(bp + r, bq + s2, B(p * dpp + r, q * dpp + s2));
      }
  });
  SparseMatrix A(dofs(), dofs());
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

SparseMatrix GlobalSystem::stiffness() const { return assemble(true); }
SparseMatrix GlobalSystem::damping() const { return assemble(false); }

LinearSystem GlobalSystem::linear_system() const { return LinearSystem(mass_, stiffness(), damping()); }

double GlobalSystem::gershgorin_bound(double a, double b) const {
  if (const auto it = gershgorin_.find({a, b}); it != gershgorin_.end()) return it->second;
  const Vector rows = gershgorin_rows(a, b);
  const double best = rows.size() > 0 ? std::max(0.0, rows.maxCoeff()) : 0.0;
  gershgorin_[{a, b}] = best;
  return best;
}

Vector GlobalSystem::gershgorin_rows(double a, double b) const {
  const Index n = particles(), dpp = dpp_;
  const std::size_t nc = contacts_.contacts.size();
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> last(static_cast<std::size_t>(n), none);  // the last contact touching each particle
  for (std::size_t k = 0; k < nc; ++k) {
    const Contact& c = contacts_.contacts[k];
    last[static_cast<std::size_t>(c.i)] = k;
    if (c.j >= 0) last[static_cast<std::size_t>(c.j)] = k;
  }
  Vector offsum = Vector::Zero(dofs());  // scaled off-block row sums
  Vector rows = Vector::Zero(dofs());    // stays 0 for a particle without contacts
  // M^{-1/2} of particle p's dof d: per dof for bodies, per particle (1/sqrt(m), 1/sqrt(I)) for spheres
  // (the same numbers: 1 / sqrt of the same mass).
  auto s = [&](Index p, Index d) {
    return bodies_ ? inv_sqrt_mass_[p * dpp + d] : particle_scale_[static_cast<std::size_t>(2 * p + (d >= dim_ ? 1 : 0))];
  };
  const std::array<int, 12> sel = selected_dofs();
  const auto bsize = static_cast<std::size_t>(dpp * dpp);
  // Each part owns the rows of a range of particles and walks every contact in order, taking the
  // halves that land on its particles: each particle's sums are added in contact order, as on one
  // thread, so the bits are the same for any thread count. A contact between two ranges has its block
  // made by both. A particle's diagonal block is complete after the last contact that touches it and
  // is kept only from its first contact to that one -- in cell order a few layers of the packing
  // instead of dpp^2 doubles per particle (288 MB at 10^6 spheres, the analysis' peak).
  const int T = operator_parts();
  run_parts(T, [&](int t) {
    const Index p0 = n * t / T, p1 = n * (t + 1) / T;
    auto mine = [&](Index p) { return p >= p0 && p < p1; };
    std::vector<std::int32_t> slot(static_cast<std::size_t>(p1 - p0), -1), free_slots;
    std::vector<double> blocks;  // open particles' scaled diagonal blocks, dpp^2 each
    auto add_diag = [&](Index i, const auto& B) {
      std::int32_t& sl = slot[static_cast<std::size_t>(i - p0)];
      if (sl < 0) {
        if (!free_slots.empty()) {
          sl = free_slots.back();
          free_slots.pop_back();
          std::fill_n(blocks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(sl) * bsize), bsize, 0.0);
        } else {
          sl = static_cast<std::int32_t>(blocks.size() / bsize);
          blocks.resize(blocks.size() + bsize, 0.0);
        }
      }
      double* D = blocks.data() + static_cast<std::size_t>(sl) * bsize;
      for (Index r = 0; r < dpp; ++r)
        for (Index q = 0; q < dpp; ++q) D[r * dpp + q] += B(r, q);
    };
    auto finish = [&](Index i) {
      std::int32_t& sl = slot[static_cast<std::size_t>(i - p0)];
      const double* D = blocks.data() + static_cast<std::size_t>(sl) * bsize;
      for (Index r = 0; r < dpp; ++r) {
        double row = 0.0;
        for (Index q = 0; q < dpp; ++q) row += std::abs(D[r * dpp + q]);
        rows[i * dpp + r] = row + offsum[i * dpp + r];
      }
      free_slots.push_back(sl);
      sl = -1;
    };
    // A contact's scaled block S (a K + b C) S, column by column: the operator's own kernel applied
    // to the unit vectors of the contact's m dofs, in one call over m copies of the contact, copy q
    // between particles P q and P q + 1 (P = 2; P = 1 for a wall or a particle's own image), so that
    // the bound is of the very operator the eigensolver applies. Contacts with full blocks (applied
    // apart from the kernel) scale their blocks.
    constexpr std::size_t copies = 12, slots = 2 * copies;
    std::vector<Contact> copy(copies);
    std::vector<LinearCoefficients> copy_coef(coef_.empty() ? 0 : copies);
    std::vector<ResistanceCoefficients> copy_extra(extra_.empty() ? 0 : copies);
    std::vector<double> radius(slots, 0.0), mass(slots, 0.0), axes(9 * slots, 0.0),
        scale(static_cast<std::size_t>(bodies_ ? dpp : 2) * slots, 1.0), x(static_cast<std::size_t>(dpp) * slots),
        y(static_cast<std::size_t>(dpp) * slots);
    std::vector<Vec3> arms(slots, Vec3::Zero());
    const KernelData kd{&copy, &law_lin_, &copy_coef, &copy_extra, &radius, &mass, arms.data(), axes.data()};
    ContactBlock K, Kc, Cc;
    auto scaled_block = [&](std::size_t k, const Contact& c, Index m) {
      const Index side[2] = {c.i, c.j == c.i ? c.i : c.j};
      K.resize(m, m);
      if (!general_slot_.empty() && general_slot_[k] >= 0) {
        contact_block(k, sel, Kc, Cc);
        if (c.j == c.i)  // a particle touching its own image: all four blocks are diagonal
          Kc = (a * (Kc.topLeftCorner(dpp, dpp) + Kc.topRightCorner(dpp, dpp) + Kc.bottomLeftCorner(dpp, dpp) +
                     Kc.bottomRightCorner(dpp, dpp)) +
                b * (Cc.topLeftCorner(dpp, dpp) + Cc.topRightCorner(dpp, dpp) + Cc.bottomLeftCorner(dpp, dpp) +
                     Cc.bottomRightCorner(dpp, dpp)))
                   .eval();
        else if (b == 0.0) Kc = a * Kc;  // = a Kc + 0 Cc to the bit (x + -0 = x), without the pass over C
        else Kc = a * Kc + b * Cc;
        for (Index r = 0; r < m; ++r)
          for (Index q = 0; q < m; ++q) K(r, q) = s(side[r / dpp], r % dpp) * Kc(r, q) * s(side[q / dpp], q % dpp);
        return;
      }
      const Index P = m / dpp;
      std::fill(x.begin(), x.end(), 0.0);
      std::fill(y.begin(), y.end(), 0.0);
      for (Index q = 0; q < m; ++q) {
        const auto uq = static_cast<std::size_t>(q);
        copy[uq] = c;
        copy[uq].i = static_cast<std::int32_t>(P * q);
        if (c.j >= 0) copy[uq].j = static_cast<std::int32_t>(P * q + P - 1);
        if (!copy_coef.empty()) copy_coef[uq] = coef_[k];
        if (!copy_extra.empty()) copy_extra[uq] = extra_[k];
        if (bodies_) arms[2 * uq] = arms_[2 * k], arms[2 * uq + 1] = arms_[2 * k + 1];  // a wall's a_j is zero
        for (Index p = 0; p < P; ++p) {
          const auto at = static_cast<std::size_t>(P * q + p), body = static_cast<std::size_t>(side[p]);
          radius[at] = radius_.empty() ? 0.0 : radius_[body];
          mass[at] = pmass_.empty() ? 0.0 : pmass_[body];
          if (bodies_) {
            if (!axes_.empty())
              std::copy_n(axes_.begin() + static_cast<std::ptrdiff_t>(9 * body), 9, axes.begin() + static_cast<std::ptrdiff_t>(9 * at));
            for (Index d = 0; d < dpp; ++d) scale[at * static_cast<std::size_t>(dpp) + static_cast<std::size_t>(d)] = inv_sqrt_mass_[side[p] * dpp + d];
          } else {
            scale[2 * at] = particle_scale_[2 * body];
            scale[2 * at + 1] = particle_scale_[2 * body + 1];
          }
        }
        x[static_cast<std::size_t>(P * q * dpp + q)] = 1.0;  // copy q's dof q (i's dofs, then j's)
      }
      if (bodies_) dispatch_kernel<true, true>(dim_, rotation_, kd, a, b, scale.data(), x.data(), y.data(), 0, static_cast<std::size_t>(m));
      else dispatch_kernel<true, false>(dim_, rotation_, kd, a, b, scale.data(), x.data(), y.data(), 0, static_cast<std::size_t>(m));
      for (Index q = 0; q < m; ++q)
        for (Index r = 0; r < m; ++r) K(r, q) = y[static_cast<std::size_t>(P * q * dpp + r)];
    };
    for (std::size_t k = 0; k < nc; ++k) {
      const Contact& c = contacts_.contacts[k];
      const bool own_i = mine(c.i), own_j = c.j >= 0 && c.j != c.i && mine(c.j);
      if (!own_i && !own_j) continue;
      const bool two = c.j >= 0 && c.j != c.i;
      scaled_block(k, c, two ? 2 * dpp : dpp);
      if (own_i) {
        add_diag(c.i, K.topLeftCorner(dpp, dpp));
        if (two)
          for (Index r = 0; r < dpp; ++r)
            for (Index q = 0; q < dpp; ++q) offsum[c.i * dpp + r] += std::abs(K(r, dpp + q));
      }
      if (own_j) {
        add_diag(c.j, K.bottomRightCorner(dpp, dpp));
        for (Index r = 0; r < dpp; ++r)
          for (Index q = 0; q < dpp; ++q) offsum[c.j * dpp + q] += std::abs(K(dpp + q, r));
        if (last[static_cast<std::size_t>(c.j)] == k) finish(c.j);
      }
      if (own_i && last[static_cast<std::size_t>(c.i)] == k) finish(c.i);
    }
  });
  return rows;
}

double GlobalSystem::yade_global_stiffness_step(double safety) const {
  // Yade's GlobalStiffnessTimeStepper (pkg/dem/GlobalStiffnessTimeStepper.cpp, computeStiffnesses and
  // findTimeStepFromBody): per body, the diagonal translational stiffness sum_c (kn - ks) n^2 + ks and
  // the rotational one sum_c ks (1 - n^2) R^2, R the sphere's radius; a clump sums those of its members,
  // each member's rotational stiffness taken about the member's own centre (not the clump's: the arm
  // from the clump's centre is not read) and compared with the clump's principal moments (body frame)
  // axis by axis in world axes, as Yade does. Bodies without member radii: not defined (NaN).
  if (bodies_ && member_radii_.empty()) return std::numeric_limits<double>::quiet_NaN();
  const Index n = particles();
  std::vector<Vec3> kt(static_cast<std::size_t>(n), Vec3::Zero()), kr(static_cast<std::size_t>(n), Vec3::Zero());
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& c = contacts_.contacts[k];
    const ContactCoefficients q = coef(k);
    const Vec3 n2 = c.normal.cwiseProduct(c.normal);
    const Vec3 trans = (q.kn - q.kt) * n2 + Vec3::Constant(q.kt);
    const Vec3 rot = q.kt * (Vec3::Ones() - n2);
    auto add = [&](Index b, int side) {
      const double R = bodies_ ? member_radii_[2 * k + static_cast<std::size_t>(side)] : radius_[static_cast<std::size_t>(b)];
      kt[static_cast<std::size_t>(b)] += trans;
      kr[static_cast<std::size_t>(b)] += R * R * rot;
    };
    add(c.i, 0);
    if (c.j >= 0) add(c.j, 1);
  }
  double best = std::numeric_limits<double>::infinity();
  for (Index b = 0; b < n; ++b) {
    const auto ub = static_cast<std::size_t>(b);
    double kmax = 0.0;
    for (int d = 0; d < dim_; ++d) kmax = std::max(kmax, kt[ub][d]);
    if (kmax == 0.0) continue;  // no contact
    double dt2 = pmass_[ub] / kmax;
    if (rotation_) {
      for (int d = 0; d < 3; ++d) {
        if (dim_ == 2 && d != 2) continue;
        const double I = bodies_ ? mass_[b * dpp_ + (dim_ == 2 ? 2 : 3 + d)] : inertia_[ub];
        if (kr[ub][d] > 0.0) dt2 = std::min(dt2, I / kr[ub][d]);
      }
    }
    best = std::min(best, 1.41044 * safety * std::sqrt(dt2));
  }
  return best;
}

double GlobalSystem::single_contact_omega_max() const {
  double w2 = 0.0;
  if (bodies_) {
    // The pair's contact-point mobility Z = sum_b (I/m_b + [a_b]x J_b^-1 [a_b]x^T) (Burns & Hanley's
    // zhat in 3D), omega^2 = lambda_max(L^T Kc L), Z = L L^T, restricted to the plane in 2D.
    for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
      const Contact& c = contacts_.contacts[k];
      const ContactCoefficients q = coef(k);
      const Vec3& n = c.normal;
      const Mat3 Kc = contact::isotropic_block(q.kn, q.kt, n);
      Mat3 Z = Mat3::Zero();
      for (int side = 0; side < (c.j >= 0 ? 2 : 1); ++side) {
        const Index b = side ? c.j : c.i;
        Z += Mat3::Identity() / pmass_[static_cast<std::size_t>(b)];
        if (!rotation_) continue;
        const Mat3 A = contact::cross_matrix(arms_[2 * k + static_cast<std::size_t>(side)]);
        if (dim_ == 2) {
          Z += A.col(2) * A.col(2).transpose() / mass_[b * dpp_ + 2];  // theta e_z x a
        } else {
          const Mat3 R = Eigen::Map<const Mat3>(axes_.data() + 9 * static_cast<std::size_t>(b));
          const Vec3 inv_I = mass_.segment<3>(b * dpp_ + 3).cwiseInverse();
          Z += A * R * inv_I.asDiagonal() * R.transpose() * A.transpose();
        }
      }
      const Index d = dim_;
      const Matrix L = Matrix(Z.topLeftCorner(d, d)).llt().matrixL();
      const Matrix S = L.transpose() * Kc.topLeftCorner(d, d) * L;
      w2 = std::max(w2, linalg::symmetric_eigenvalues(S).maxCoeff());
    }
    return std::sqrt(w2);
  }
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const Contact& c = contacts_.contacts[k];
    const ContactCoefficients q = coef(k);
    const auto i = static_cast<std::size_t>(c.i);
    double inv_m = 1.0 / pmass_[i], rot = radius_[i] * radius_[i] / inertia_[i];
    if (c.j >= 0) {
      const auto j = static_cast<std::size_t>(c.j);
      inv_m += 1.0 / pmass_[j];
      rot += radius_[j] * radius_[j] / inertia_[j];
    }
    if (!rotation_) rot = 0.0;
    w2 = std::max({w2, q.kn * inv_m, q.kt * (inv_m + rot)});
  }
  return std::sqrt(w2);
}

// --- eigenvalues ------------------------------------------------------------------------------

namespace {

struct ScaledOperator {
  using Scalar = double;
  const GlobalSystem* sys;
  double a, b;
  Index rows() const { return sys->dofs(); }
  Index cols() const { return sys->dofs(); }
  void perform_op(const double* x, double* y) const { sys->apply_scaled(a, b, x, y); }
};

// The symmetric solvers read one triangle and rely on real eigenvalues.
void require_symmetric(const GlobalSystem& s, const char* what) {
  if (!s.symmetric())
    fail(fmt::format("{}: K or C is not symmetric ({} contacts with histories, sliding or granular torque arms); use "
                     "the non-symmetric analysis (system/nonsymmetric.hpp)",
                     what, s.nonsymmetric_contacts()));
}

Matrix dense_scaled(const GlobalSystem& s, double a, double b) {
  const Vector w = s.mass().cwiseSqrt().cwiseInverse();
  Matrix A = Matrix(a * s.stiffness() + b * s.damping());
  return w.asDiagonal() * A * w.asDiagonal();
}

}  // namespace

double largest_eigen_dense(const GlobalSystem& s, double a, double b) {
  require_symmetric(s, "largest_eigen_dense");
  return linalg::symmetric_eigenvalues(dense_scaled(s, a, b)).maxCoeff();
}

EigenMethod parse_eigen_method(const std::string& name) {
  if (name == "auto") return EigenMethod::automatic;
  if (name == "dense") return EigenMethod::dense;
  if (name == "lanczos") return EigenMethod::lanczos;
  if (name == "spectra") return EigenMethod::spectra;
  fail(fmt::format("eigensolver '{}' is not known; expected auto, dense, lanczos or spectra", name));
}

ExtremeEigen largest_eigen(const GlobalSystem& s, double a, double b, const EigenOptions& opts) {
  require_symmetric(s, "largest_eigen");
  const Index N = s.dofs();
  EigenMethod method = opts.method;
  if (method == EigenMethod::automatic)
    method = N <= std::max<Index>(opts.dense_below, 2) ? EigenMethod::dense : EigenMethod::lanczos;
  if (method == EigenMethod::spectra && N < 3) method = EigenMethod::dense;  // Spectra needs ncv > nev + 1
  ExtremeEigen out;
  bool have_residual = false;
  switch (method) {
    case EigenMethod::automatic:
    case EigenMethod::dense: {
      const linalg::SymmetricEigen es = linalg::symmetric_eigen(dense_scaled(s, a, b), true);
      out.lambda = es.values[N - 1];  // ascending order
      out.vector = es.vectors.col(N - 1);
      out.method = "dense";
      break;
    }
    case EigenMethod::lanczos: {
      linalg::LanczosOptions lo;
      lo.tolerance = opts.tolerance;
      lo.max_steps = opts.max_steps;
      lo.want_vector = opts.want_vector;
      lo.progress = opts.progress;
      lo.parts = s.operator_parts();
      lo.run_parts = [&s](int parts, const std::function<void(int)>& f) { s.run_parts(parts, f); };
      const linalg::LanczosResult r =
          linalg::lanczos_largest(N, [&](const double* x, double* y) { s.apply_scaled(a, b, x, y); }, lo);
      if (!r.converged)
        fail(fmt::format("Lanczos (three-term) did not reach tolerance {} in {} steps (residual {:.3g} of lambda)",
                         opts.tolerance, r.steps, r.residual_estimate / std::abs(r.lambda)));
      out.lambda = r.lambda;
      out.vector = r.vector;
      out.residual = r.residual_estimate;
      out.operations = r.operations;
      out.method = "lanczos";
      have_residual = !opts.want_vector;
      break;
    }
    case EigenMethod::spectra: {
      ScaledOperator op{&s, a, b};
      const Index ncv = std::min(std::max<Index>(opts.ncv, 3), N);
      Spectra::SymEigsSolver<ScaledOperator> eigs(op, 1, ncv);
      eigs.init();
      eigs.compute(Spectra::SortRule::LargestAlge, opts.max_restarts, opts.tolerance);
      if (eigs.info() != Spectra::CompInfo::Successful)
        fail(fmt::format("Lanczos (Spectra SymEigsSolver, ncv = {}) did not converge in {} restarts to tolerance {}",
                         ncv, opts.max_restarts, opts.tolerance));
      out.lambda = eigs.eigenvalues()[0];
      out.vector = eigs.eigenvectors().col(0);
      out.operations = eigs.num_operations();
      out.method = "spectra";
      break;
    }
  }
  if (!have_residual) {
    Vector Av(N);
    s.apply_scaled(a, b, out.vector.data(), Av.data());
    out.residual = (Av - out.lambda * out.vector).norm();
    ++out.operations;
  }
  return out;
}

bool GlobalSystem::stiffness_semidefinite() const {
  if (geometric_ || !general_.empty()) return false;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const ContactCoefficients q = coef(k);
    if (q.kn < 0.0 || q.kt < 0.0 || q.k_roll < 0.0 || q.k_twist < 0.0) return false;
  }
  return true;
}

bool GlobalSystem::damping_semidefinite() const {
  if (!general_.empty()) return false;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const ContactCoefficients q = coef(k);
    if (q.cn < 0.0 || q.ct < 0.0 || q.c_roll < 0.0 || q.c_twist < 0.0) return false;
  }
  return true;
}

double GlobalSystem::damping_over_stiffness() const {
  if (torque_arm_contacts_ > 0 || !stiffness_semidefinite() || !damping_semidefinite()) return 0.0;
  double alpha = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const ContactCoefficients q = coef(k);
    for (const auto& [spring, dashpot] : {std::pair{q.kn, q.cn}, {q.kt, q.ct}, {q.k_roll, q.c_roll}, {q.k_twist, q.c_twist}})
      if (spring > 0.0) alpha = std::min(alpha, dashpot / spring);
  }
  return alpha;  // infinity: no spring at all
}

TopAtStep top_eigenvalue(const GlobalSystem& s, double a, double b, EigenOptions opts, double tolerance) {
  opts.tolerance = tolerance;
  opts.want_vector = false;  // the roots need eigenvalues only (damped_limit.hpp)
  const ExtremeEigen e = largest_eigen(s, a, b, opts);
  return TopAtStep{e.lambda, e.residual, e.operations};
}

DampedLimit half_step_damped_limit(const GlobalSystem& s, double omega_max, const EigenOptions& opts,
                                   double top_mode_zeta, double rtol, double dashpot_factor) {
  require_finite("dashpot_factor", dashpot_factor);
  require_positive("omega_max", omega_max);
  require_non_negative("top_mode_zeta", top_mode_zeta);
  require_symmetric(s, "half_step_damped_limit");
  if (!s.damped() || dashpot_factor == 0.0) {
    DampedLimit out;
    out.h_crit = out.h_low = 2.0 / omega_max;  // the undamped limit
    out.lambda_at_root = 4.0;
    out.converged = true;
    return out;
  }
  // Every solve starts from the same random vector, never from the last eigenvector: a Krylov space
  // started inside one invariant subspace of A(h) (a symmetry sector of a lattice) stays in it, and
  // the top mode of h^2 K + 2h C can lie in another sector than the one at the previous h. Warm
  // starts gave a bcc lattice's damped limit 1.4 % too large (unsafe), with converged residuals.
  return half_step_root(
      omega_max, top_mode_zeta, rtol,
      [&](double h, double tolerance) { return top_eigenvalue(s, h * h, 2.0 * dashpot_factor * h, opts, tolerance); },
      s.stiffness_semidefinite(), dashpot_factor);
}

double half_step_damped_limit_dense(const GlobalSystem& s) {
  require_symmetric(s, "half_step_damped_limit_dense");
  // S(h) is congruent to M^{-1/2} S(h) M^{-1/2} = 4 I - 2h C~ - h^2 K~, whose eigenvalues are of one
  // scale (those of S itself mix m and I, 1e7 apart for millimetre spheres, and lose 7 digits).
  const Matrix K = dense_scaled(s, 1.0, 0.0), C = dense_scaled(s, 0.0, 1.0);
  const Matrix I = Matrix::Identity(s.dofs(), s.dofs());
  auto positive_definite = [&](double h) {
    return linalg::symmetric_eigenvalues(4.0 * I - 2.0 * h * C - h * h * K).minCoeff() > 0.0;
  };
  const double wmax = std::sqrt(largest_eigen_dense(s, 1.0, 0.0));
  double lo = 0.0, hi = 2.0 / wmax * (1.0 + 1e-9);
  if (positive_definite(hi)) return hi;
  return bisect([&](double mid) { return !positive_definite(mid); }, lo, hi,
                [](double a, double b) { return b - a > 1e-14 * b; }, 200)
      .mid();
}

}  // namespace dtcrit::packing
