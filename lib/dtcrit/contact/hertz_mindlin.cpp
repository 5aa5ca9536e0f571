#include "dtcrit/contact/hertz_mindlin.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"

namespace dtcrit::contact {

double hertz_mindlin_beta(double restitution) {
  require_in_range("restitution e (Hertz-Mindlin)", restitution, 0.0, 1.0);
  if (!(restitution > 0.0)) fail(fmt::format("restitution e = {} must be above 0 (Hertz-Mindlin)", restitution));
  const double ln_e = std::log(restitution);
  return ln_e / std::sqrt(ln_e * ln_e + std::numbers::pi * std::numbers::pi);
}

ContactLaw hertz_mindlin(double youngs, double poisson, double restitution, double mu) {
  require_positive("Young's modulus E (Hertz-Mindlin)", youngs);
  if (!(poisson > -1.0 && poisson <= 0.5))
    fail(fmt::format("Poisson's ratio nu = {} must lie in (-1, 0.5] (Hertz-Mindlin)", poisson));
  require_non_negative("friction coefficient mu (Hertz-Mindlin)", mu);
  const double beta = hertz_mindlin_beta(restitution);
  const double e_star = effective_youngs(youngs, poisson, youngs, poisson);
  const double g_star = effective_shear(youngs, poisson, youngs, poisson);
  ContactLaw law;
  law.style = Style::granular;
  law.normal = NormalModel::hertz_material;
  law.kn = 4.0 / 3.0 * e_star;
  law.damping = DampingModel::tsuji;                     // eta_n = c sqrt(m* knfac)
  law.damping_coefficient = std::sqrt(5.0) * std::abs(beta);  // = -2 sqrt(5/6) beta sqrt(S_n / knfac), S_n = 3/2 knfac
  law.tangential = TangentialModel::mindlin;             // k_t a = S_t
  law.kt = 8.0 * g_star;
  law.tangential_damping = 2.0 * std::sqrt(g_star / e_star);  // sqrt(S_t / S_n)
  law.mu = mu;
  law.youngs = youngs;
  law.poisson = poisson;
  return validated(law);
}

ContactLaw parse_hertz_mindlin(std::string_view spec, const std::string& who) {
  const KeyValues kv(spec, who);
  const auto E = kv.number("E"), nu = kv.number("nu"), e = kv.number("e"), mu = kv.number("mu");
  kv.reject_unused({"E", "nu", "e", "mu"});
  if (!E || !nu || !e || !mu) fail(fmt::format("{} needs E=, nu=, e= and mu= (got '{}')", who, spec));
  try {
    return hertz_mindlin(*E, *nu, *e, *mu);
  } catch (const std::invalid_argument& err) {
    fail(fmt::format("{}: {}", who, err.what()));
  }
}

std::string describe_hertz_mindlin(const ContactLaw& law, double restitution) {
  return fmt::format("Hertz-Mindlin (EDEM, LIGGGHTS) E = {:g} Pa, nu = {:g}, e = {:g}, mu = {:g}: {}", law.youngs,
                     law.poisson, restitution, law.mu, describe(law));
}

}  // namespace dtcrit::contact
