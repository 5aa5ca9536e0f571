#pragma once
// The contact laws DEM codes run, as data: one ContactLaw composed of a normal, damping, tangential,
// rolling and twisting sub-model with named parameters (no positional arrays), in the exact
// semantics of LAMMPS 29 Sep 2021 (Debian's `lammps`): pair styles `gran/hooke`, `gran/hooke/history`,
// `gran/hertz/history` and `granular`. The force and its linearisation are in contact/response.hpp,
// the geometry (arms, Jacobians, effective mass) in contact/kinematics.hpp, the parser of LAMMPS'
// argument syntax in contact/lammps_syntax.hpp. See contact/README.md for the formulas and the lines
// of the LAMMPS source they follow.
//
// Every coefficient is stored as LAMMPS stores it after its own conversions (`pair_coeff` of
// `granular` turns E, nu into 4/3 E*, a restitution into the Tsuji coefficient, NULL into 8 G*), so
// that evaluation is one code path for all styles.
#include <limits>
#include <string>
#include <string_view>

#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/core/units.hpp"

namespace dtcrit::contact {

// Which LAMMPS pair style's semantics the law follows. The classic `gran/*` styles and `granular`
// differ in three details beyond their parameters: the tangential damping (classic: m_eff gamma_t,
// granular: a multiple of the normal damping), the torque arm of a pair contact (classic: r_i,
// granular: r_i - delta/2) and how the tangential history is kept in the tangent plane.
enum class Style { gran_hooke, gran_hooke_history, gran_hertz_history, granular };

enum class NormalModel {
  hooke,           // F = k_n delta
  hertz,           // F = k_n a delta, a = sqrt(R_eff delta)
  hertz_material,  // as hertz with k_n = 4/3 E*, E* from E and nu of both bodies
  dmt,             // as hertz_material, minus the adhesion 4 pi gamma R_eff (gamma: `cohesion`)
  jkr,             // F = k_n a^3/R_eff - 4 sqrt(pi gamma E a^3), E = 3/4 k_n, a(delta) the JKR contact
                   // radius: delta = a^2/R_eff - 2 sqrt(pi gamma a / E); in contact down to the pull-off
                   // overlap jkr_pulloff_overlap() < 0
};
enum class DampingModel {
  velocity,        // eta_n = c                            (c in N s/m)
  mass_velocity,   // eta_n = c m_eff                      (c in 1/s: LAMMPS' gamma_n)
  viscoelastic,    // eta_n = c m_eff a                    (c in 1/(m s))
  tsuji,           // eta_n = c sqrt(m_eff dF_ne/ddelta'), c from the restitution by Tsuji's polynomial
};
enum class TangentialModel {
  linear_nohistory,       // F_t = -min(mu |F_n|, eta_t |v_t|) v_t / |v_t|
  linear_history,         // F_t = -k_t xi - eta_t v_t, xi the tangential displacement
  mindlin,                // as linear_history with k_t a
  mindlin_rescale,        // mindlin; xi scaled by a / a_prev on unloading
  mindlin_force,          // the history is the elastic force, incremented by -k_t a v_t dt
  mindlin_rescale_force,  // mindlin_force with the unloading rescale
};
enum class RollingModel { none, sds };
enum class TwistingModel { none, marshall, sds };

struct ContactLaw {
  Style style = Style::granular;

  NormalModel normal = NormalModel::hooke;
  double kn = 0.0;  // hooke: N/m; hertz: N/m^2; hertz_material, dmt, jkr: 4/3 E* [Pa]
  double cohesion = 0.0;  // dmt, jkr: LAMMPS' cohesion, the surface energy gamma [J/m^2]
  DampingModel damping = DampingModel::viscoelastic;
  double damping_coefficient = 0.0;  // c of the damping model (units above; classic styles: gamma_n [1/s])
  bool limit_damping = false;        // LAMMPS `limit_damping`: the total normal force is never attractive

  TangentialModel tangential = TangentialModel::linear_history;
  double kt = 0.0;  // linear: N/m; mindlin*: N/m^2 (k_t a)
  // granular: eta_t = tangential_damping * eta_n (LAMMPS' x_gamma_t, dimensionless);
  // classic styles: eta_t = tangential_damping * m_eff (gamma_t, 1/s), times a for gran/hertz/history.
  double tangential_damping = 0.0;
  double mu = 0.0;  // Coulomb friction coefficient

  RollingModel rolling = RollingModel::none;
  double k_roll = 0.0, gamma_roll = 0.0, mu_roll = 0.0;  // sds: N/m, N s/m, -
  TwistingModel twisting = TwistingModel::none;
  double k_twist = 0.0, gamma_twist = 0.0, mu_twist = 0.0;  // sds: N m/rad, N m s/rad, m

  // Material inputs of hertz_material, dmt and jkr (reports only; kn already holds 4/3 E*).
  double youngs = std::numeric_limits<double>::quiet_NaN();
  double poisson = std::numeric_limits<double>::quiet_NaN();

  bool operator==(const ContactLaw& o) const;  // NaN fields compare equal to NaN
};

// LAMMPS `gran/hooke/history kn kt gamma_n gamma_t mu 1` (no NULLs: every value explicit).
ContactLaw hooke_history(double kn, double kt, double gamma_n, double gamma_t, double mu);

// The five numbers of `gran/hooke/history kn kt gamma_n gamma_t mu 1` as a named form of
// hooke_history(): the reference stepper's tests and sweep cases speak in them.
struct HookeParams {
  double kn = 0.0, kt = 0.0, gamma_n = 0.0, gamma_t = 0.0, mu = 0.0;
  operator ContactLaw() const { return hooke_history(kn, kt, gamma_n, gamma_t, mu); }  // NOLINT: by design
};

// Overrides one coefficient by the name of a gran/hooke/history argument: kn, kt, gamma_n, gamma_t
// or mu (per-wall and per-type laws given as key=value lists). gamma_n and gamma_t need a classic
// gran/* law (granular's damping coefficients mean something else); an unknown key throws.
void set_classic_coefficient(ContactLaw& law, std::string_view key, double value);

// True when the law carries a tangential, rolling or twisting history (a spring, not only dashpots).
bool has_tangential_history(const ContactLaw& law);
// Whether the stiffness depends on the overlap: exactly when the law reads the contact radius a
// (hertz, hertz_material, dmt: sqrt(R_eff delta); jkr: the JKR radius) — every normal model but
// hooke, viscoelastic damping, mindlin tangential, marshall twisting.
// (Inline: the reference stepper asks per contact and force call.)
inline bool overlap_dependent(const ContactLaw& law) {
  return law.normal != NormalModel::hooke ||
         (law.tangential != TangentialModel::linear_history && law.tangential != TangentialModel::linear_nohistory) ||
         law.damping == DampingModel::viscoelastic || law.twisting == TwistingModel::marshall;
}
// Whether the normal model is adhesive (dmt, jkr): attractive at small overlaps, and LAMMPS then caps
// friction with |F_ne + 2 F_pulloff| instead of |F_ntot|.
inline bool cohesive(const ContactLaw& law) { return law.normal == NormalModel::dmt || law.normal == NormalModel::jkr; }
// jkr: the (negative) overlap down to which a contact that has touched persists, LAMMPS' pull-off
// delta_c = a_c^2/R_eff - 2 sqrt(pi gamma a_c / E), a_c^3 = 9 pi gamma R_eff^2 / (4 E), E = 3/4 k_n:
// -a_c^2 / (3 R_eff), where the JKR force reaches its most attractive value -3 pi gamma R_eff.
// 0 for every other normal model (contact iff delta > 0). r_eff: the pair's R_eff, a wall's r_i.
double pulloff_overlap(const ContactLaw& law, double r_eff);
// d F_ne / d R_eff at a fixed overlap, from the elastic normal force F_ne at R_eff: what a wall whose
// radius of curvature changes along it (the side of a LAMMPS cone region) adds to the stiffness.
// hooke: 0; hertz, hertz/material: F_ne = k_n sqrt(R_eff delta) delta, so F_ne / (2 R_eff); dmt: that
// of its Hertz part F_ne + 4 pi gamma R_eff, less 4 pi gamma. jkr (a(delta) depends on R_eff
// implicitly): refused by name, not derived.
double elastic_normal_force_radius_derivative(const ContactLaw& law, double elastic_normal_force, double r_eff);
// Whether the law reads the rolling velocity and the twisting rate (rolling or twisting resistance).
inline bool uses_resistance_rates(const ContactLaw& law) {
  return law.rolling != RollingModel::none || law.twisting != TwistingModel::none;
}
// Whether the law has any dashpot (normal, tangential, rolling or twisting damping).
bool damped(const ContactLaw& law);
// Checks every coefficient (finite, non-negative, kn > 0, what a model needs; dmt and jkr refuse
// limit_damping, as LAMMPS' coeff() does); names the bad value.
ContactLaw validated(const ContactLaw& law);
// The law with its contacts held sticking: mu, and mu_roll / mu_twist where it has rolling /
// twisting (sds) resistance, raised to 1e6, so that no friction limit is reached. The analysis linearises every contact sticking; a run meant to confirm
// it (--confirm) uses this law.
ContactLaw sticking(ContactLaw law);
// The law with every contact sliding at its caps: tangential, rolling and twisting forces held at
// their Coulomb limits, where neither their springs nor their dashpots act on further motion
// (LAMMPS rescales them to the cap, pair_granular.cpp and the classic styles): normal spring and
// dashpot only. The limit of a packing under these laws is where its normal contacts alone make a
// run diverge (the second step of a frictional packing).
ContactLaw sliding(ContactLaw law);
// Whether the law has any tangential, rolling or twisting spring or dashpot: sliding(law) differs.
bool frictional(const ContactLaw& law);

// Names as LAMMPS spells them ("gran/hertz/history", "hertz/material", "mindlin_rescale/force", ...).
// One table per model gives both directions (core/enum_names.hpp): to_string, the granular reader's
// parsing and the list of valid names in its errors. A new sub-model is one row here and its physics
// in response.cpp.
inline constexpr EnumName<Style> style_names[] = {{Style::gran_hooke, "gran/hooke"},
                                                  {Style::gran_hooke_history, "gran/hooke/history"},
                                                  {Style::gran_hertz_history, "gran/hertz/history"},
                                                  {Style::granular, "granular"}};
inline constexpr EnumName<NormalModel> normal_names[] = {{NormalModel::hooke, "hooke"},
                                                         {NormalModel::hertz, "hertz"},
                                                         {NormalModel::hertz_material, "hertz/material"},
                                                         {NormalModel::dmt, "dmt"},
                                                         {NormalModel::jkr, "jkr"}};
inline constexpr EnumName<DampingModel> damping_names[] = {{DampingModel::velocity, "velocity"},
                                                           {DampingModel::mass_velocity, "mass_velocity"},
                                                           {DampingModel::viscoelastic, "viscoelastic"},
                                                           {DampingModel::tsuji, "tsuji"}};
inline constexpr EnumName<TangentialModel> tangential_names[] = {
    {TangentialModel::linear_nohistory, "linear_nohistory"},
    {TangentialModel::linear_history, "linear_history"},
    {TangentialModel::mindlin, "mindlin"},
    {TangentialModel::mindlin_rescale, "mindlin_rescale"},
    {TangentialModel::mindlin_force, "mindlin/force"},
    {TangentialModel::mindlin_rescale_force, "mindlin_rescale/force"}};
inline constexpr EnumName<RollingModel> rolling_names[] = {{RollingModel::none, "none"}, {RollingModel::sds, "sds"}};
inline constexpr EnumName<TwistingModel> twisting_names[] = {
    {TwistingModel::none, "none"}, {TwistingModel::marshall, "marshall"}, {TwistingModel::sds, "sds"}};

std::string_view to_string(Style s);
std::string_view to_string(NormalModel m);
std::string_view to_string(DampingModel m);
std::string_view to_string(TangentialModel m);
std::string_view to_string(RollingModel m);
std::string_view to_string(TwistingModel m);
// One line a user recognises: the LAMMPS style and its coefficients as dtcrit holds them.
std::string describe(const ContactLaw& law, const UnitSystem& units = si_units());

// --- LAMMPS' material mixing rules (pair_granular.cpp mix_stiffnessE / mix_stiffnessG) ---------
// E* = 1 / ((1 - nu1^2)/E1 + (1 - nu2^2)/E2)
double effective_youngs(double E1, double nu1, double E2, double nu2);
// G* = 1 / (2(2 - nu1)(1 + nu1)/E1 + 2(2 - nu2)(1 + nu2)/E2)
double effective_shear(double E1, double nu1, double E2, double nu2);
// Tsuji's damping coefficient from the restitution e (pair_granular.cpp coeff()): the sixth-degree
// polynomial 1.2728 - 4.2783 e + 11.087 e^2 - 22.348 e^3 + 27.467 e^4 - 18.022 e^5 + 4.8218 e^6.
double tsuji_coefficient(double restitution);

}  // namespace dtcrit::contact
