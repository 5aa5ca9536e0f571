#include "dtcrit/contact/law.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit::contact {

namespace {
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
}  // namespace

bool ContactLaw::operator==(const ContactLaw& o) const {
  return style == o.style && normal == o.normal && same(kn, o.kn) && same(cohesion, o.cohesion) && damping == o.damping &&
         same(damping_coefficient, o.damping_coefficient) && limit_damping == o.limit_damping &&
         tangential == o.tangential && same(kt, o.kt) && same(tangential_damping, o.tangential_damping) &&
         same(mu, o.mu) && rolling == o.rolling && same(k_roll, o.k_roll) && same(gamma_roll, o.gamma_roll) &&
         same(mu_roll, o.mu_roll) && twisting == o.twisting && same(k_twist, o.k_twist) &&
         same(gamma_twist, o.gamma_twist) && same(mu_twist, o.mu_twist) && same(youngs, o.youngs) &&
         same(poisson, o.poisson);
}

ContactLaw hooke_history(double kn, double kt, double gamma_n, double gamma_t, double mu) {
  ContactLaw law;
  law.style = Style::gran_hooke_history;
  law.normal = NormalModel::hooke;
  law.kn = kn;
  law.damping = DampingModel::mass_velocity;
  law.damping_coefficient = gamma_n;
  law.tangential = TangentialModel::linear_history;
  law.kt = kt;
  law.tangential_damping = gamma_t;
  law.mu = mu;
  return law;
}

void set_classic_coefficient(ContactLaw& law, std::string_view key, double value) {
  if (key == "kn") law.kn = value;
  else if (key == "kt") law.kt = value;
  else if (key == "mu") law.mu = value;
  else if (key == "gamma_n" || key == "gamma_t") {
    if (law.style == Style::granular)
      fail(fmt::format("{} = {} applies to the gran/* styles; this law is '{}'", key, value, describe(law)));
    (key == "gamma_n" ? law.damping_coefficient : law.tangential_damping) = value;
  } else {
    fail(fmt::format("contact coefficient '{}' is unknown; valid: kn, kt, gamma_n, gamma_t, mu", key));
  }
}

bool has_tangential_history(const ContactLaw& law) {
  return law.tangential != TangentialModel::linear_nohistory || law.rolling != RollingModel::none ||
         law.twisting != TwistingModel::none;
}

bool damped(const ContactLaw& law) {
  return law.damping_coefficient > 0.0 || law.tangential_damping > 0.0 || law.gamma_roll > 0.0 ||
         law.gamma_twist > 0.0;
}

ContactLaw sticking(ContactLaw law) {
  constexpr double no_limit = 1e6;
  law.mu = no_limit;
  if (law.rolling != RollingModel::none) law.mu_roll = no_limit;
  if (law.twisting == TwistingModel::sds) law.mu_twist = no_limit;
  return law;
}

ContactLaw sliding(ContactLaw law) {
  law.kt = 0.0;
  law.tangential_damping = 0.0;
  law.rolling = RollingModel::none;
  law.k_roll = law.gamma_roll = law.mu_roll = 0.0;
  law.twisting = TwistingModel::none;
  law.k_twist = law.gamma_twist = law.mu_twist = 0.0;
  return law;
}

bool frictional(const ContactLaw& law) {
  return law.kt > 0.0 || law.tangential_damping > 0.0 || law.rolling != RollingModel::none ||
         law.twisting != TwistingModel::none;
}

ContactLaw validated(const ContactLaw& law) {
  require_positive("normal stiffness kn", law.kn);
  require_non_negative("normal damping coefficient", law.damping_coefficient);
  require_non_negative("tangential stiffness kt", law.kt);
  require_non_negative("tangential damping", law.tangential_damping);
  require_non_negative("friction coefficient mu", law.mu);
  if (cohesive(law)) {
    require_non_negative(fmt::format("{} cohesion (surface energy)", to_string(law.normal)), law.cohesion);
    if (law.limit_damping)
      fail(fmt::format("limit_damping with the {} normal model: LAMMPS refuses it (pair_granular.cpp coeff())",
                       to_string(law.normal)));
  } else if (law.cohesion != 0.0) {
    fail(fmt::format("cohesion = {} needs the dmt or jkr normal model; this law is {}", law.cohesion,
                     to_string(law.normal)));
  }
  // Zero springs are accepted as LAMMPS 29 Sep 2021 accepts them (pair_granular.cpp coeff() checks no
  // value): kt = 0, k_roll = 0, k_twist = 0 leave the dashpot (and the cap) alone. Negative values,
  // which LAMMPS accepts too, are refused: a negative spring or dashpot is no contact law.
  if (law.rolling == RollingModel::sds) {
    require_non_negative("rolling stiffness k_roll", law.k_roll);
    require_non_negative("rolling damping gamma_roll", law.gamma_roll);
    require_non_negative("rolling friction mu_roll", law.mu_roll);
  }
  if (law.twisting == TwistingModel::sds) {
    require_non_negative("twisting stiffness k_twist", law.k_twist);
    require_non_negative("twisting damping gamma_twist", law.gamma_twist);
    require_non_negative("twisting friction mu_twist", law.mu_twist);
  }
  return law;
}

std::string_view to_string(Style s) { return name_of(s, style_names); }
std::string_view to_string(NormalModel m) { return name_of(m, normal_names); }
std::string_view to_string(DampingModel m) { return name_of(m, damping_names); }
std::string_view to_string(TangentialModel m) { return name_of(m, tangential_names); }
std::string_view to_string(RollingModel m) { return name_of(m, rolling_names); }
std::string_view to_string(TwistingModel m) { return name_of(m, twisting_names); }

std::string describe(const ContactLaw& law, const UnitSystem& u) {
  switch (law.style) {
    case Style::gran_hooke:
    case Style::gran_hooke_history:
    case Style::gran_hertz_history:
    {
      // LAMMPS doc pair_gran: Kn, Kt in force/distance and gamma in 1/time for hooke; for hertz the
      // forces carry sqrt(overlap R_eff), so Kn, Kt are pressures and gamma is 1/(time distance).
      const bool hertz = law.style == Style::gran_hertz_history;
      const std::string k_unit = hertz ? u.force + "/" + u.length + "^2" : u.stiffness();
      const std::string g_unit = hertz ? "1/(" + u.length + " " + u.time + ")" : u.rate();
      return fmt::format("{} kn = {:g} {}, kt = {:g} {}, gamma_n = {:g} {}, gamma_t = {:g} {}, mu = {:g}{}",
                         to_string(law.style), law.kn, k_unit, law.kt, k_unit, law.damping_coefficient, g_unit,
                         law.tangential_damping, g_unit, law.mu, law.limit_damping ? ", limit_damping" : "");
    }
    case Style::granular: break;
  }
  std::string s = fmt::format("granular {} kn = {:g}", to_string(law.normal), law.kn);
  if (!std::isnan(law.youngs)) s += fmt::format(" (E = {:g}, nu = {:g})", law.youngs, law.poisson);
  if (cohesive(law)) s += fmt::format(" cohesion = {:g}", law.cohesion);
  s += fmt::format(", damping {} {:g}, tangential {} kt = {:g} x_gamma_t = {:g} mu = {:g}", to_string(law.damping),
                   law.damping_coefficient, to_string(law.tangential), law.kt, law.tangential_damping, law.mu);
  if (law.rolling == RollingModel::sds)
    s += fmt::format(", rolling sds {:g} {:g} {:g}", law.k_roll, law.gamma_roll, law.mu_roll);
  if (law.twisting == TwistingModel::marshall) s += ", twisting marshall";
  if (law.twisting == TwistingModel::sds)
    s += fmt::format(", twisting sds {:g} {:g} {:g}", law.k_twist, law.gamma_twist, law.mu_twist);
  if (law.limit_damping) s += ", limit_damping";
  return s;
}

double pulloff_overlap(const ContactLaw& law, double r_eff) {
  if (law.normal != NormalModel::jkr || law.cohesion == 0.0) return 0.0;
  // pair_granular.cpp compute(), the JKR touch test (dist_pulloff), in closed form: -a_c^2/(3 R).
  const double E = 0.75 * law.kn;
  const double a_c = std::cbrt(9.0 * std::numbers::pi * law.cohesion * r_eff * r_eff / (4.0 * E));
  return -a_c * a_c / (3.0 * r_eff);
}

double elastic_normal_force_radius_derivative(const ContactLaw& law, double elastic_normal_force, double r_eff) {
  const double adhesion = 4.0 * std::numbers::pi * law.cohesion;  // dmt: F_ne = Hertz - 4 pi gamma R_eff
  switch (law.normal) {
    case NormalModel::hooke: return 0.0;
    case NormalModel::hertz:
    case NormalModel::hertz_material: return elastic_normal_force / (2.0 * r_eff);
    case NormalModel::dmt: return (elastic_normal_force + adhesion * r_eff) / (2.0 * r_eff) - adhesion;
    case NormalModel::jkr: break;
  }
  fail("normal model jkr against a wall whose radius of curvature changes along it (a cone region's side): "
       "the change of the JKR force with R_eff is not derived in dtcrit");
}

double effective_youngs(double E1, double nu1, double E2, double nu2) {
  return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
}

double effective_shear(double E1, double nu1, double E2, double nu2) {
  return 1.0 / (2.0 * (2.0 - nu1) * (1.0 + nu1) / E1 + 2.0 * (2.0 - nu2) * (1.0 + nu2) / E2);
}

double tsuji_coefficient(double e) {
  require_in_range("restitution (tsuji damping)", e, 0.0, 1.0);
  return tsuji_polynomial(e);
}

double tsuji_polynomial(double x) {
  return 1.2728 - 4.2783 * x + 11.087 * x * x - 22.348 * std::pow(x, 3) + 27.467 * std::pow(x, 4) -
         18.022 * std::pow(x, 5) + 4.8218 * std::pow(x, 6);
}

}  // namespace dtcrit::contact
