#pragma once
// The global linear system of a packing,  M a + C v + K x = 0,  assembled from the contact module
// (contact/kinematics.hpp): each contact's law linearised at that contact's overlap (at rest, zero
// histories, sticking), mapped to the bodies through the same Jacobians the reference stepper uses:
//
//   u_c = (x_i - x_j) + n x (r_i phi_i + r_j phi_j)      relative contact-point motion
//   rho_c = R_eff (phi_i - phi_j) x n,  theta_c = n . (phi_i - phi_j)   rolling, twisting
//   K = sum_c J_c^T K_c J_c,  K_c = kn n n^T + kt (I - n n^T) on u (+ k_roll, k_twist),  C likewise
//
// (arms r_i n from i's centre, as LAMMPS and the stepper use; a wall is an immovable partner). The
// geometric stiffness of the normal force (-F_n / |x_i - x_j| (I - n n^T) on the relative
// translation) is optional; without it the answer is that of the law's own stiffness.
//
// A `granular` pair with rotations keeps the isotropic K_c but scatters its torques with the arm
// r - delta/2 (velocity arm r: A != J), in the same kernel. A contact whose linearisation is not of
// the isotropic form -- a non-zero history (read from a LAMMPS contact dump), a sliding contact, a
// curved wall turning with the contact point -- keeps its full body blocks (contact::body_blocks over
// its 2 x dofs-per-particle coordinates, evaluated at its overlap and history), applied as a small
// dense block. Either makes K and C in general not symmetric (symmetric() false), and the analysis
// takes the non-symmetric path (system/nonsymmetric.hpp).
//
// Degrees of freedom, particle-major: 3D (x, y, z, phi_x, phi_y, phi_z), 2D (x, y, theta); without
// rotation only the translations. M = diag(m, .., I, ..).
//
// Rigid bodies of any shape (a contact network, network/network.hpp) are the general case of the
// same operator: each contact carries the arms a_i, a_j from the bodies' centres of mass to their
// contact points (spheres: -r_i n, r_j n), u_c = (x_i + phi_i x a_i) - (x_j + phi_j x a_j), torques
// a x f; the law's torque arm is the velocity arm (A = J: the force acts at the given point). A
// body's rotational dofs are its rotations psi about its principal axes (world-frame columns of R,
// phi = R psi), so M = diag(m, m, m, I_1, I_2, I_3) stays diagonal and M^-1/2 in world axes is
// R diag(I^-1/2) R^T, the symmetric square root of J^-1; stiffness(), damping() and eigenvectors
// are in these coordinates. Fixed bodies are walls (no dofs).
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/stability/damped_limit.hpp"
#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/core/parts_pool.hpp"
#include "dtcrit/assembly/assembly.hpp"
#include "dtcrit/assembly/contacts.hpp"


namespace dtcrit::packing {

// Per-contact linearised coefficients (the law evaluated at the contact: its overlap, at rest,
// zero histories, sticking): normal, tangential, rolling and twisting stiffness and dashpots, the
// geometric stiffness F_n / |x_i - x_j| (when asked for), m_eff and R_eff.
struct ContactCoefficients {
  double kn = 0.0, kt = 0.0, cn = 0.0, ct = 0.0;
  double m_eff = 0.0;
  double k_roll = 0.0, c_roll = 0.0, k_twist = 0.0, c_twist = 0.0, geometric = 0.0, r_eff = 0.0;
};
// What the matrix-free kernel reads per law or per contact.
struct LinearCoefficients {
  double kn = 0.0, kt = 0.0, cn = 0.0, ct = 0.0;
};
struct ResistanceCoefficients {
  double k_roll = 0.0, c_roll = 0.0, k_twist = 0.0, c_twist = 0.0, geometric = 0.0, r_eff = 0.0;
  // Round bodies: the lengths of the torque arms of i and j (contact::torque_arm: r - delta/2 for a
  // granular pair, else r); the velocity arms stay r_i, r_j.
  double torque_arm_i = 0.0, torque_arm_j = 0.0;
};
struct KernelData {
  const std::vector<Contact>* contacts;
  const std::vector<LinearCoefficients>* per_law;
  const std::vector<LinearCoefficients>* per_contact;
  const std::vector<ResistanceCoefficients>* extra;
  const std::vector<double>* radius;
  const std::vector<double>* pmass;
  const Vec3* arms;     // bodies: (a_i, a_j) per contact
  const double* axes;   // bodies, 3D: per body its principal axes R (9, column-major)
};

class GlobalSystem {
 public:
  // The system of an assembly (assembly/assembly.hpp): round_assembly(packing, contacts) or
  // network_assembly(network). rotation = false freezes the rotations (translational dofs only).
  // geometric_stiffness adds the turning of each pair's normal under its normal force
  // (-F_n / |x_i - x_j| on the translations; round bodies).
  explicit GlobalSystem(Assembly assembly, bool rotation = true, bool geometric_stiffness = false);

  int dim() const { return dim_; }
  bool rotation() const { return rotation_; }
  bool geometric_stiffness() const { return geometric_; }
  // Whether the coefficients are evaluated per contact (overlap-dependent laws, resistance, geometric).
  bool per_contact() const { return per_contact_; }
  Index particles() const { return static_cast<Index>(pmass_.size()); }  // bodies: the free ones
  bool bodies() const { return bodies_; }  // rigid bodies (arms, principal axes), not round ones
  const std::vector<double>& particle_masses() const { return pmass_; }
  Index dofs_per_particle() const { return dpp_; }
  Index dofs() const { return particles() * dpp_; }
  const Vector& mass() const { return mass_; }  // diagonal of M
  const ContactSet& contacts() const { return contacts_; }
  bool damped() const { return damped_; }  // some contact's law has a dashpot (found once, at construction)
  // K and C symmetric: every contact is isotropic, or its full blocks are symmetric. The symmetric
  // solvers (largest_eigen, half_step_damped_limit) refuse a non-symmetric system.
  bool symmetric() const { return symmetric_; }
  // Contacts applied through their full blocks (histories, sliding, curved walls).
  std::size_t general_contacts() const { return general_.size(); }
  // Contacts whose torque arm differs from their velocity arm (granular pairs with rotations,
  // r - delta/2 against r: A != J), applied by the contact kernel with both arms.
  std::size_t torque_arm_contacts() const { return torque_arm_contacts_; }
  // The contacts that can make K or C non-symmetric: both of the above.
  std::size_t nonsymmetric_contacts() const { return general_.size() + torque_arm_contacts_; }
  // K positive semi-definite by construction: no geometric stiffness, no full blocks, and every
  // contact's stiffnesses (normal, tangential, rolling, twisting) non-negative (K = sum J^T D J).
  bool stiffness_semidefinite() const;
  // C positive semi-definite by construction: no full blocks, every contact's dashpots non-negative.
  bool damping_semidefinite() const;
  // The largest alpha [s] with C - alpha K positive semi-definite by construction: each contact's
  // K and C are sum_q k_q J_q^T J_q and sum_q c_q J_q^T J_q over the same J_q (normal, tangential,
  // rolling, twisting: the kernel applies a k_q + b c_q), so alpha = min c_q / k_q over the terms with
  // k_q > 0 (infinity without springs). 0 when some spring has no dashpot, or when K or C is not
  // semi-definite by construction or not symmetric (torque arms).
  double damping_over_stiffness() const;

  // The coefficients stored for contact k (the k-th of contacts()), as the operator applies them; for
  // a contact with full blocks, their isotropic projection (n.K n, half the trace across n: what the
  // heuristic bounds read).
  ContactCoefficients stored_coefficients(std::size_t k) const { return coef(k); }
  // The law's linearisation at contact k (the k-th of contacts()) through the contact module,
  // evaluated afresh at its overlap and history (with its derivative: slower than
  // stored_coefficients); the isotropic projection when the blocks have other terms.
  ContactCoefficients coefficients(std::size_t k) const;

  // y = M^{-1/2} (a K + b C) M^{-1/2} x, matrix-free over the contacts (y must not alias x).
  void apply_scaled(double a, double b, const double* x, double* y) const;
  // y = (a K + b C) x, matrix-free; contacts split over threads() threads (from 50000 contacts).
  void apply(double a, double b, const double* x, double* y) const;
  // Threads of apply(); default min(2, hardware threads). Not thread-safe itself: one caller at a time.
  void set_threads(int threads);
  int threads() const { return threads_; }
  // The parts apply() splits its contacts into (threads() from 50 000 contacts on, else 1), and a
  // runner of f(0), ..., f(parts - 1) on apply()'s threads: the eigensolvers split their vector
  // work the same way (linalg::LanczosOptions::run_parts). Not while apply() runs.
  int operator_parts() const;
  void run_parts(int parts, const std::function<void(int)>& f) const;

  // Assembled sparse K and C (both triangles; symmetric when symmetric()).
  SparseMatrix stiffness() const;
  SparseMatrix damping() const;
  // The LinearSystem(M, K, C) on which the integrators' amplification matrices are measured.
  LinearSystem linear_system() const;

  // Gershgorin bound on lambda_max(M^{-1/2} K M^{-1/2}) = omega_max^2: the largest absolute row sum
  // of the scaled matrix, with the particle diagonal blocks assembled exactly and each contact's
  // off-diagonal block counted on its own (an upper bound of the assembled row sum).
  double gershgorin_omega2() const { return gershgorin_bound(1.0, 0.0); }
  // The same bound on lambda_max(M^{-1/2} (a K + b C) M^{-1/2}), e.g. (0, 1) for the damping.
  // Remembered per (a, b): the estimates and every integrator's h_safe ask for the same bounds.
  double gershgorin_bound(double a, double b) const;
  // The bound of every row (dof) of that matrix, whose largest is gershgorin_bound(a, b). A distributed
  // rank takes the largest over the rows it owns: the rows of its ghosts miss the contacts it does not hold.
  // Each contact's block is made by the operator's own kernel (apply()'s), applied to the unit vectors
  // of its dofs, so the bound is of the very matrix the eigensolvers apply; full blocks are read.
  Vector gershgorin_rows(double a, double b) const;

  // Yade's GlobalStiffnessTimeStepper, as its code computes it (spheres; NaN for bodies: its clump rule
  // is not implemented): per body the translational
  // diagonal K_ii = sum_c kn n_i^2 + kt (1 - n_i^2), the rotational K^rot_ii = sum_c kt R^2 (1 - n_i^2),
  // dt_body = 1.41044 * safety * sqrt(min(m / max_i K_ii, min_i I / K^rot_ii)) (Yade's comment
  // calls 1.41044 sqrt 2), minimised over bodies. Yade skips contacts of zero normal force: so do
  // we (contacts inside the gap tolerance with overlap <= 0 count, unlike Yade). safety 0.8 is
  // Yade's default timestepSafetyCoefficient.
  double yade_global_stiffness_step(double safety = 0.8) const;

  // The stiffest single contact on its own: max over contacts of the pair's undamped omega_max,
  //   omega^2 = max(kn (1/m_i + 1/m_j), kt (1/m_i + 1/m_j + r_i^2/I_i + r_j^2/I_j))
  // (the contact-point model of two bodies with collinear arms; no rotation: without the r^2/I
  // terms; a wall contact has 1/m_j = r_j^2/I_j = 0). Bodies: lambda_max(Kc^1/2 Z Kc^1/2) with the
  // pair's contact-point mobility Z = sum_b (I/m_b + [a_b]x J_b^-1 [a_b]x^T), Burns & Hanley's zhat.
  double single_contact_omega_max() const;

 private:
  template <class F>
  void for_each_block(F&& f) const;
  // Contact k's K and C as for_each_block visits them (sel: selected_dofs()).
  using ContactBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 12, 12>;
  void contact_block(std::size_t k, const std::array<int, 12>& sel, ContactBlock& K, ContactBlock& C) const;
  void find_general_contacts();  // fills general_*, symmetric_
  std::array<int, 12> selected_dofs() const;
  SparseMatrix assemble(bool stiffness) const;
  void setup();  // the constructor's second half, once bodies, masses and contacts are in place
  double effective_mass(const Contact& c) const;
  contact::RoundContact round_contact(std::size_t k) const;
  // Wall contact k's forces at rest (F_ntot and F_ne: the terms of a curved region wall).
  contact::ContactResponse wall_response_at_rest(std::size_t k) const;
  // Contact k's blocks in this system's body coordinates (12 x 12, before the dof selection):
  // contact::body_blocks with round arms, or (bodies) with the contact's arms, rotations about the
  // bodies' principal axes.
  contact::BodyBlocks body_blocks(std::size_t k, const contact::ContactBlocks& b) const;
  // y = S (a K + b C) S x with S = M^{-1/2} given per particle as (1/sqrt(m), 1/sqrt(I)) pairs
  // (bodies: per dof), or S = I when scale is null.
  void apply_with_scale(double a, double b, const double* scale, const double* x, double* y) const;
  // The dof intervals [begin, end) that contacts [first, last) write: their particles' rows, merged
  // across gaps of less than a page.
  std::vector<std::pair<Index, Index>> written_rows(std::size_t first, std::size_t last) const;
  void apply_range(double a, double b, const double* scale, const double* x, double* y, std::size_t first,
                   std::size_t last) const;
  ContactCoefficients coef(std::size_t k) const;  // stored coefficients of contact k (as coefficients())
  // y += S (a K + b C) S x over the contacts with full blocks whose index lies in [first, last).
  void apply_general(double a, double b, const double* scale, const double* x, double* y, std::size_t first,
                     std::size_t last) const;

  int dim_;
  bool rotation_;
  bool geometric_ = false;
  bool per_contact_ = false, resistance_ = false;
  Index dpp_;
  std::vector<double> radius_, pmass_, inertia_;
  // Networks of clumps: the member spheres' radii, two per contact (i's, j's; 0 for a wall), for
  // Yade's clump rule; empty when the network does not give them.
  std::vector<double> member_radii_;
  Vector mass_, inv_sqrt_mass_;
  std::vector<double> particle_scale_;  // (1/sqrt(m_i), 1/sqrt(I_i)) per particle: M^{-1/2} of apply_scaled
  // Bodies (contact network): per contact the arms (a_i, a_j; a_j zero on a wall) and R_eff, per
  // body its principal axes (3D, 9 each, column-major). M^{-1/2} is inv_sqrt_mass_, per dof (empty for
  // spheres: particle_scale_).
  bool bodies_ = false;
  std::vector<Vec3> arms_;
  std::vector<double> r_eff_, axes_;
  ContactSet contacts_;
  // Per law: the law's linearisation with m_eff = 1 (kn_lin, kt_lin and the dashpots per unit
  // effective mass, cn_lin / m_eff = gamma_n): a contact's dashpot is m_eff times that.
  std::vector<LinearCoefficients> law_lin_;
  // Per contact (when per_contact_): the law's isotropic blocks at that contact; extra_ when some law
  // has rolling or twisting resistance, the geometric stiffness is on or some torque arm is not r.
  std::vector<LinearCoefficients> coef_;
  std::vector<ResistanceCoefficients> extra_;
  // Contacts with full blocks: their indices (ascending), their isotropic projection, and their K
  // then C restricted to this system's dofs, (2 dpp)^2 each, column-major, i's dofs first.
  std::vector<std::size_t> general_;
  std::vector<ContactCoefficients> general_iso_;
  std::vector<double> general_blocks_;
  std::vector<std::int32_t> general_slot_;  // per contact: its index in general_, or -1 (empty if none)
  std::size_t torque_arm_contacts_ = 0;
  bool symmetric_ = true;
  bool damped_ = false;
  int threads_ = 1;
  mutable std::vector<Vector> scratch_;  // per-part scatter buffers of apply() (part 0 writes y)
  // Per part t >= 1 of apply(): the dof intervals [begin, end) its contacts write (written_rows), for
  // written_parts_ parts. Only these are zeroed and summed: the pages of the rest of scratch_[t - 1]
  // are never touched, so they cost neither time nor resident memory.
  mutable std::vector<std::vector<std::pair<Index, Index>>> written_;
  mutable int written_parts_ = 0;
  // apply()'s worker threads, started on first use and kept (one thread less than threads_).
  mutable OwnedPartsPool pool_;
  mutable std::map<std::pair<double, double>, double> gershgorin_;  // gershgorin_bound's answers
};

// --- eigenvalues ----------------------------------------------------------------------------
struct ExtremeEigen {
  double lambda = 0.0;   // largest eigenvalue of the scaled operator
  Vector vector;         // its unit eigenvector (scaled coordinates M^{1/2} x); empty if not asked for
  double residual = 0.0; // |A v - lambda v| (three-term Lanczos without the vector: its estimate)
  Index operations = 0;  // operator applications
  std::string method;    // "dense", "lanczos" or "spectra"
};

// The solvers: dense (Eigen's SelfAdjointEigenSolver on the assembled matrix), lanczos (the
// three-term recurrence of linalg/lanczos.hpp, matrix-free, three vectors of storage) and spectra
// (Spectra's SymEigsSolver: restarted Lanczos with full reorthogonalisation, matrix-free). auto:
// dense up to dense_below dofs, lanczos above.
enum class EigenMethod { automatic, dense, lanczos, spectra };
EigenMethod parse_eigen_method(const std::string& name);  // "auto", "dense", "lanczos", "spectra"

struct EigenOptions {
  EigenMethod method = EigenMethod::automatic;
  Index dense_below = 600;  // dofs at or below which auto uses the dense solver
  // Relative residual tolerance |A v - theta v| <= tol |theta| (both iterative solvers). The Ritz
  // value converges much faster than the residual (about its square for an isolated eigenvalue),
  // and the top of a lattice's spectrum is a dense cluster whose residual converges slowly: 1e-6
  // gives lambda_max to about 1e-8 relative, from below, in the tests (packing/README.md).
  double tolerance = 1e-8;
  Index ncv = 16;           // spectra: basis size (larger: fewer restarts, more reorthogonalisation)
  Index max_restarts = 2000;  // spectra
  Index max_steps = 20000;    // lanczos
  bool want_vector = true;    // lanczos: rebuilding the eigenvector costs a second pass
  std::function<void(Index steps, double relative_residual)> progress;  // lanczos: see LanczosOptions
};

// Largest eigenvalue of M^{-1/2} (a K + b C) M^{-1/2} (Spectra SymEigsSolver, matrix-free).
ExtremeEigen largest_eigen(const GlobalSystem& s, double a, double b, const EigenOptions& opts = {});
// The same from an assembled dense matrix (the tests' cross-check).
double largest_eigen_dense(const GlobalSystem& s, double a, double b);

// --- the damped limit of velocity Verlet with half-step damping (and Cundall's leapfrog) ------------
// The criterion and the bracketed root are stability/damped_limit.hpp's (DampedLimit, TopAtStep,
// half_step_root); here with the matrix-free operator's eigensolver, eigenvalues only, each solve at
// the tolerance the root asks for. rtol: the bracket's relative width [h_low, h_crit].
// dashpot_factor f: the root of 4M - 2f hC - h^2 K instead (a scheme's -1 line rescaled to this form,
// registry.hpp MinusOneLine; f = 1: velocity Verlet's; f < 0: dashpots that stabilise, K must then be
// positive semi-definite).
using dtcrit::DampedLimit;
using dtcrit::half_step_root;
using dtcrit::TopAtStep;
// lambda_max(M^-1/2 (a K + b C) M^-1/2) to a relative residual tolerance, eigenvalue only, as the
// bracketed roots ask for it (each solve of half_step_damped_limit; a -1 line without K: a = 0, b = 1).
TopAtStep top_eigenvalue(const GlobalSystem& s, double a, double b, EigenOptions opts, double tolerance);
DampedLimit half_step_damped_limit(const GlobalSystem& s, double omega_max, const EigenOptions& opts = {},
                                   double top_mode_zeta = 0.0, double rtol = 1e-10, double dashpot_factor = 1.0);
// The same by bisection on the smallest eigenvalue of the dense S(h) (the tests' cross-check).
double half_step_damped_limit_dense(const GlobalSystem& s);

}  // namespace dtcrit::packing
