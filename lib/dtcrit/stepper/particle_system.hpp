#pragma once
// The reference DEM stepper's physics: discs (2D) or spheres (3D) with any contact law of
// contact/law.hpp (LAMMPS gran/* and granular, with their history semantics), plane walls, De Klerk's bonded contacts, gravity and constant external loads, as a
// MechanicalSystem that any integrator of the registry can advance. See stepper/README.md.
//
// State layout (generalised coordinates, one block per particle, particle-major):
//   2D: (x, y, theta)                       mass() block (m, m, I)
//   3D: (x, y, z, phi_x, phi_y, phi_z)      mass() block (m, m, m, I, I, I)
// phi is the time integral of the angular velocity (v holds omega). It is NOT an orientation: it
// exists so that the consistent tangential update can read the rotation of a particle since contact
// onset from positions, at the same time level as the normal overlap.
#include <array>
#include <compare>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "dtcrit/core/parts_pool.hpp"
#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/dynamics/system.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/stepper/cell_list.hpp"

namespace dtcrit::stepper {

using Vec3 = Eigen::Vector3d;
using contact::ContactLaw;
using contact::HookeParams;

// How the tangential spring displacement xi of a contact evolves (Xue et al. 2023).
enum class TangentialHistory {
  // LAMMPS: xi <- P_t(x)[xi_committed + (t - t_committed) v_t,rel(x, v)], with v the velocities
  // handed to force(); accept_step() commits the xi of the most recent force() call.
  traditional,
  // xi = P_t(x)[ s(x, phi) - anchor ]: read from the generalised positions, at the same level as the
  // overlap. The anchor is set at contact onset and shifted at accept_step() when the cap slips.
  consistent,
};
inline constexpr EnumName<TangentialHistory> tangential_history_names[] = {
    {TangentialHistory::traditional, "traditional"}, {TangentialHistory::consistent, "consistent"}};
// "traditional" or "consistent"; anything else throws, naming the valid values.
TangentialHistory parse_tangential_history(std::string_view name);
std::string_view to_string(TangentialHistory mode);

using contact::disc_inertia;    // m r^2 / 2
using contact::sphere_inertia;  // 2 m r^2 / 5

// A plane wall: the half-space the particles live in is (x - point) . normal > 0; a particle of
// radius r touches the wall when its overlap r - (x - point) . normal is positive. The wall is
// immovable; its contacts use their own law, with m_eff = m_i.
struct Wall {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  // unit, pointing into the particles' side
  ContactLaw law;
};

// A bond (De Klerk et al.): the pair keeps a normal spring k_B at any separation,
//   F = (k_B (L0 - |x_i - x_j|) - m_eff gamma_n v_n) n    on i,
// attractive when stretched. L0 defaults to r_i + r_j (De Klerk's choice). A bonded pair has no
// ordinary contact and no tangential spring; its damping rate gamma_n is the particle law's (which
// must then be a mass_velocity damping, as gran/hooke/history's).
struct Bond {
  Index i = 0, j = 0;
  double k_bond = 0.0;
  double rest_length = 0.0;
};

// Identifies a contact: a pair (i, j) with i < j < N, or a wall contact (i, N + w) for wall w.
// Contacts are always kept and reported in ascending (i, j) order.
struct ContactKey {
  Index i = 0, j = 0;
  friend bool operator==(const ContactKey&, const ContactKey&) = default;
  friend auto operator<=>(const ContactKey&, const ContactKey&) = default;
};

// One contact as seen by the most recent force() call (diagnostics, tests, energy bookkeeping).
struct ContactReport {
  ContactKey key;
  double overlap = 0.0;
  Vec3 normal = Vec3::Zero();
  double normal_force = 0.0;            // signed, > 0 repulsive
  Vec3 tangential_force = Vec3::Zero(); // on i
  Vec3 xi = Vec3::Zero();               // after the Coulomb rule
  bool sliding = false;
  Vec3 rolling_force = Vec3::Zero();    // rolling resistance (torque R_eff n x F_r on i)
  double twisting_torque = 0.0;         // twisting resistance (torque M n on i)
};

class ParticleSystem final : public MechanicalSystem {
 public:
  // What one contact remembers between steps. Kept small: every step writes one per contact.
  struct Record {
    ContactKey key;
    Vec3 xi = Vec3::Zero();          // traditional: the spring; consistent: last value (diagnostic)
    Vec3 xi_r = Vec3::Zero();        // rolling history (traditional only)
    double xi_tw = 0.0;              // twisting history (traditional only)
    double a_prev = 0.0;             // mindlin_rescale: contact radius at the last update
  };
  // The consistent mode's anchors, parallel to the records (empty in traditional mode).
  struct Anchor {
    Vec3 x = Vec3::Zero();                             // relative centre position at onset (+ slips)
    Vec3 phi_i = Vec3::Zero(), phi_j = Vec3::Zero();   // phi at onset
    Vec3 slip = Vec3::Zero();                          // anchor shift to apply at accept_step()
  };
  // Everything the contacts remember (see contact_state()).
  struct ContactState {
    std::vector<Record> committed;
    std::vector<Anchor> anchors;
    Vector x_committed;
    double t_ref = std::numeric_limits<double>::quiet_NaN();
  };

  // dim = 2 (discs) or 3 (spheres); law: the particle-particle interaction. The consistent history
  // mode supports tangential springs only (no rolling or twisting resistance).
  ParticleSystem(int dim, const ContactLaw& law, TangentialHistory mode = TangentialHistory::traditional);

  // --- building the system (before the first force() call) ---
  // Returns the particle index. inertia > 0 (use disc_inertia / sphere_inertia).
  Index add_particle(double radius, double mass, double inertia);
  // normal is normalised here; in 2D point and normal must have z = 0.
  Index add_wall(const Vec3& point, const Vec3& normal, const ContactLaw& law);
  // rest_length < 0 (the default) means r_i + r_j.
  void add_bond(Index i, Index j, double k_bond, double rest_length = -1.0);
  // A pair that never forms a contact: two members of one rigid body (rigid_clumps.hpp; LAMMPS'
  // neigh_modify exclude molecule/intra). i != j.
  void exclude_pair(Index i, Index j);
  // The mass the contact laws' effective mass reads for particle i (m_i m_j / (m_i + m_j), m_i against
  // a wall): its own by default; a clump member's is its body's (LAMMPS' granular styles under a rigid fix).
  void set_contact_mass(Index i, double mass);
  void set_gravity(const Vec3& g);  // in 2D, g.z must be 0
  // A constant generalised force on particle i (size dofs_per_particle(): force then torque).
  void set_external_force(Index i, const Vector& f);
  // Verlet skin of the neighbour list [m]; default 0.2 x the largest radius.
  void set_skin(double skin);
  // tangent() with the geometric stiffness of the turning normals (-F_n / |x_i - x_j| across the
  // normal). Off by default: the sweeps' predicted limits linearise a pressed contact without it,
  // as packings do unless asked (--geometric-stiffness); with it a lone pressed pair is a buckling
  // (negative) mode.
  void set_geometric_stiffness(bool on) { geometric_ = on; }
  // Threads of force() (default 1; tangent() and energy() stay on one): contiguous particle ranges
  // evaluate their contacts in parallel, then the loads are summed in the one-thread order, so the
  // result is the same to the last bit for any count. threads >= 1.
  void set_threads(int threads);
  int threads() const { return threads_; }

  // --- queries ---
  int dim() const { return dim_; }
  Index particle_count() const { return static_cast<Index>(radius_.size()); }
  Index dofs_per_particle() const { return dim_ == 2 ? 3 : 6; }
  TangentialHistory history_mode() const { return mode_; }
  const ContactLaw& law() const { return law_; }
  double radius(Index i) const { return radius_[i]; }
  const std::vector<Wall>& walls() const { return walls_; }
  const std::vector<Bond>& bonds() const { return bonds_; }
  double skin() const;
  // Centre of particle i in x (z = 0 in 2D), and its angular velocity (3D vector) in v.
  Vec3 centre(const Vector& x, Index i) const;
  Vec3 spin(const Vector& v, Index i) const;
  // Packs centres (and optionally velocities / angular velocities) into a generalised vector.
  void set_centre(Vector& x, Index i, const Vec3& c) const;
  void set_spin(Vector& v, Index i, const Vec3& w) const;

  // --- MechanicalSystem ---
  Index dofs() const override { return static_cast<Index>(mass_.size()); }
  const Vector& mass() const override { return mass_; }
  // Non-finite x or v gives an all-NaN force (so that a blowing-up run is detected, not thrown).
  void force(double t, const Vector& x, const Vector& v, Vector& f) override;
  // K = -df/dx, C = -df/dv from the contact module's exact derivative of the law (contact/kinematics.hpp:
  // A^T K_c J per contact; the geometric stiffness of the turning normal when set_geometric_stiffness);
  // see README for what is dropped. Not symmetric in general (granular torque arms, histories under load, sliding).
  void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) override;
  // The part of the consistent tangent's K that acts through the contacts' histories (tangential,
  // rolling and twisting springs; dF = -K_history dxi in body coordinates). In traditional mode the
  // histories advance by dt times the velocities instead, and tangent() returns K - K_history and
  // C + dt K_history (dt: time since the committed call, 0 before the first).
  void history_stiffness(double t, const Vector& x, const Vector& v, SparseMatrix& K_history);
  // tangent()'s C alone, to the last bit, without K: the per-contact C blocks summed in tangent()'s
  // order into a pattern kept between calls and refilled in place (grown when a contact's blocks
  // are not in it). The pattern holds each contact's full body blocks, and those of contacts that
  // have opened, so C stores explicit zeros where tangent() stores none.
  void damping(double t, const Vector& x, const Vector& v, SparseMatrix& C) override;
  void accept_step() override;
  // traditional: the committed xi of every committed contact, dim() entries each, in ascending
  //   ContactKey order (history_keys()); consistent: empty (xi is a function of the positions; the
  //   anchors are configuration, saved with contact_state()).
  Vector history() const override;
  // traditional: overwrites the committed xi of the committed contacts, same order and size as
  //   history() (throws on a size mismatch). It cannot add or remove contacts: if the contact set
  //   has changed, use history_keys() to know what the entries mean. consistent: h must be empty.
  void set_history(const Vector& h) override;
  // Kinetic + elastic (normal, tangential, bond, wall) + potential of gravity and of the constant
  // external loads. The tangential spring energy uses xi as it would be at (x) with no time elapsed
  // since the last commit (traditional: the committed xi projected; consistent: from the anchors).
  double energy(const Vector& x, const Vector& v) const override;

  // --- history bookkeeping ---
  std::vector<ContactKey> history_keys() const;
  // Everything the contacts remember: restoring it makes force() behave exactly as when it was
  // saved (use it to measure a step's amplification matrix column by column).
  ContactState contact_state() const;
  void set_contact_state(const ContactState& s);
  // Histories the contacts start from (traditional mode, before the first force() call): a contact
  // listed here that touches at the first call starts from its history instead of zero (LAMMPS: a
  // restart, or the histories of a contact dump). Entries of contacts that do not touch are dropped.
  void set_initial_histories(std::vector<std::pair<ContactKey, contact::History>> histories);
  // Forget every contact; the next force() call at time t0 adds no tangential increment.
  void reset_history(double t0);
  // Time of the force() call whose history was committed last (NaN before the first call).
  double committed_time() const { return t_ref_; }

  // --- diagnostics ---
  // Contacts of the most recent force() call (bonds not included), ascending key order. Throws when
  // the reports are off.
  const std::vector<ContactReport>& last_contacts() const;
  // On by default. Long runs that never read last_contacts() (--confirm, the benchmark) turn them
  // off: a report is 144 bytes written per contact and step.
  void set_contact_reports(bool on) { reports_on_ = on; reports_.clear(); }
  // On by default: force() evaluates gran/hooke/history contacts (traditional history) through
  // contact::hooke_history_force, the law specialised, which gives the same numbers to the last bit
  // as the general contact::evaluate(); when every law does (3D, reports off) through one loop over
  // the neighbour list (hooke_contacts). Off: every contact through the general law (the tests
  // compare the two).
  void set_specialised_laws(bool on) { specialised_laws_ = on; }
  // Touching pairs and wall contacts (overlap > 0, bonds excluded) at x: through the cell list,
  // and by an O(N^2) scan (the test oracle).
  std::vector<ContactKey> find_contacts(const Vector& x) const;
  std::vector<ContactKey> find_contacts_brute_force(const Vector& x) const;
  std::size_t neighbour_builds() const { return nlist_.builds(); }

 private:
  template <class Visit>
  void for_each_contact(double t, const Vector& x, const Vector& v, bool for_energy,
                        contact::Differentiate derivative, Visit&& visit) const;
  // The same over the contacts of particles [i_begin, i_end) (and the bonds when `bonds`), with the
  // neighbour list as refresh_neighbours() left it: one range per thread.
  template <class Visit>
  void for_each_contact_in(double t, const Vector& x, const Vector& v, bool for_energy,
                           contact::Differentiate derivative,
                           Index i_begin, Index i_end, bool bonds, Visit&& visit) const;
  // Refuses what the stepper cannot run: jkr (no touch memory), and under the consistent history the
  // laws with more than a tangential displacement spring.
  void check_history_mode(const ContactLaw& law) const;
  void refresh_neighbours(const Vector& x) const;
  // force()'s contacts, specialised: when every law takes contact::hooke_history_force (3D,
  // traditional history, reports off), the neighbour list of particles [begin, end) walked directly,
  // each clean particle's own loads summed in registers across its row and its partners' added as it
  // goes; on ranges (kRanges, threads) the loads on particles below `clean` or beyond `end` kept in
  // `kept` and `cross` as force()'s general pass keeps them. The histories are read from and written
  // to the slots (below), not the records. The same operations in the same order as the general
  // path, so the same bits (test_specialised_law.cpp).
  bool hooke_contacts_apply() const;
  void add_generalised(Vector& f, Index i, const Vec3& force, const Vec3& torque) const;

  int dim_;
  ContactLaw law_;
  TangentialHistory mode_;
  // Which laws force() evaluates through contact::hooke_history_force: the pair law, each wall's.
  bool hooke_law_;
  std::vector<char> hooke_walls_;
  std::vector<double> radius_, pmass_, inertia_;
  Vector mass_;
  std::vector<Wall> walls_;
  std::vector<Bond> bonds_;
  std::vector<std::uint64_t> bond_keys_;  // sorted i * N' + j, for exclusion from ordinary contacts
  std::vector<std::uint64_t> excluded_keys_;  // sorted, exclude_pair()
  std::vector<double> contact_mass_;      // set_contact_mass(); empty: pmass_
  bool no_contact(Index i, Index j) const;  // bonded or excluded
  double contact_mass(Index i) const { return contact_mass_.empty() ? pmass_[i] : contact_mass_[i]; }
  Vec3 gravity_ = Vec3::Zero();
  Vector external_;
  double skin_ = -1.0;
  bool geometric_ = false;
  bool reports_on_ = true;
  bool specialised_laws_ = true;
  int threads_ = 1;
  // One particle range's share of a threaded force() call: its contacts' loads in visiting order,
  // those whose j lies beyond the range again (`cross`, applied by the range that owns j), and its
  // trial records.
  struct Load {
    Index i = 0, j = -1;  // j = -1: wall
    Vec3 force = Vec3::Zero(), torque_i = Vec3::Zero(), torque_j = Vec3::Zero();
  };
  // Its trial records and anchors stay here until accept_step() swaps them into committed_.
  struct RangeShare {
    std::vector<Load> loads, cross;
    std::vector<Record> trial;
    std::vector<Anchor> anchors;
    std::vector<ContactReport> reports;
    bool finite = true, moved = false;  // the range's x and v; one of its particles beyond half the skin
  };
  std::vector<RangeShare> shares_;
  // hooke_contacts_apply()'s loop (above); kRanges = false: one range [0, N), all of it clean.
  template <bool kRanges>
  void hooke_contacts(Index begin, Index end, Index clean, double dt, const Vector& v, Vector& f,
                      std::vector<Load>* kept, std::vector<Load>* cross);
  // hooke_contacts()' histories, one slot per entry of the neighbour list (then one per particle and
  // wall), as LAMMPS keeps its shear history beside the list (FixNeighHistory): a call reads the
  // committed xi of its slots and writes their trial xi in place, accept_step() swaps the two arrays.
  // The layout (the list's rows and partners, N, the wall count) is copied when the slots are filled,
  // so that they stay readable after the list is rebuilt; at a rebuild they are carried over to the
  // new list row by row. Only xi is kept: a record with rolling, twisting or rescale history
  // (set_initial_histories, set_contact_state) leaves force() on the general path.
  struct Slots {
    std::vector<Index> rows, cols;
    Index n = -1, walls = -1;
    std::size_t build = 0;           // nlist_.builds() of the layout
    std::vector<Vec3> xi, xi_trial;  // pair slot k: partner cols[k]; wall slot of (i, w): cols.size() + i walls + w
    // Touching at the committed call, at the trial call (xi unset where not). Not a char type, which
    // may alias anything and would make the compiler reload the loop's other arrays after each store.
    enum class Touch : std::uint8_t { no, yes };
    std::vector<Touch> on, on_trial;
  };
  Slots slots_;
  // Where the committed histories are. The records (committed_) hold them unless slots_hold_; the
  // slots hold all of them when slots_hold_, and the records too when records_synced_. slots_valid_:
  // the slots hold the committed history of every contact of their layout (they may lack a committed
  // contact that is not in the list, then the records have it). sync_records() writes the slots'
  // histories as records (for history(), contact_state(), the general path, anything that reads
  // committed_); prepare_slots() makes the slots valid for the neighbour list as it stands (false:
  // they cannot be).
  bool slots_hold_ = false, slots_valid_ = false;
  mutable bool records_synced_ = true;
  bool trial_in_slots_ = false;  // the most recent force() call wrote slots_'s trial side
  void sync_records() const;
  bool prepare_slots();
  // Per range, the first particle that no earlier range's neighbour list reaches (so that no load of
  // an earlier range lands on it from there on): for the neighbour build `clean_build_`.
  std::vector<Index> clean_from_;
  std::size_t clean_build_ = 0;
  std::size_t trial_chunks_ = 0;  // shares_[0, trial_chunks_) hold the most recent call's trial records
  OwnedPartsPool pool_;  // force()'s threads, started at the first threaded call and kept

  mutable NeighbourList nlist_;
  mutable std::vector<Vec3> centres_;
  // tangent()'s triplets, kept between calls: an implicit scheme assembles every step, and a
  // fresh vector grown to ~10^5 entries each time spent most of tangent() in page faults.
  std::vector<Eigen::Triplet<double>> tangent_k_, tangent_c_;
  // tangent(), and history_stiffness() when K_history is given.
  void assemble_tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C,
                        SparseMatrix* K_history);
  // damping()'s kept pattern: for each body q, the bodies p with a block (p, q) (sorted; blocks of
  // contacts that have opened stay, as zeros), their count, the pairs (i, j; j = -1 a wall) the
  // last call visited, and C in that pattern.
  struct DampingPattern {
    std::vector<std::vector<Index>> rows;
    std::size_t blocks = 0;
    std::vector<std::array<Index, 2>> visited;
    SparseMatrix C;
  };
  void build_damping_pattern();
  DampingPattern damping_;
  // The committed records in ascending key order, as consecutive chunks: one per particle range of
  // the force() call that wrote them, so that accept_step() takes the ranges' trial records by a
  // swap instead of gathering them. The anchors (consistent mode only) are chunked alike.
  mutable std::vector<std::vector<Record>> committed_;  // mutable: sync_records()
  std::vector<std::vector<Anchor>> anchors_committed_;
  std::size_t committed_count() const;
  std::vector<ContactReport> reports_;
  Vector x_committed_, x_trial_;  // positions of the committed / most recent force() call
  double t_ref_ = std::numeric_limits<double>::quiet_NaN(), t_trial_ = 0.0;
  bool have_trial_ = false;
};

}  // namespace dtcrit::stepper
