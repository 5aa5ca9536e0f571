#include "dtcrit/io/pair_input.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/suggest.hpp"
#include "dtcrit/io/body_spec.hpp"
#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/kinematics.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"

namespace dtcrit {

const std::vector<std::string>& pair_law_keys() {
  static const std::vector<std::string> keys{"kn",      "kt",       "kt_ratio",     "cn",              "gamma_n",
                                             "restitution", "ct",   "gamma_t",      "ct_ratio",        "overlap",
                                             "normal_force", "impact_velocity", "r_eff"};
  return keys;
}

void PairInput::set(const std::string& key, double value) {
  for (auto* body : {&body1, &body2}) {
    const std::string prefix = body == &body1 ? "body1." : "body2.";
    if (key.rfind(prefix, 0) == 0) {
      KeyValues spec(*body, prefix.substr(0, 5));
      spec.set(key.substr(prefix.size()), fmt::format("{:.17g}", value));
      *body = spec.to_string();
      return;
    }
  }
  if (std::find(pair_law_keys().begin(), pair_law_keys().end(), key) == pair_law_keys().end())
    fail(fmt::format("unknown input '{}'{}; valid: {}, body1.KEY, body2.KEY", key, did_you_mean(key, pair_law_keys()),
                     fmt::join(pair_law_keys(), ", ")));
  law[key] = value;
}

namespace {
std::optional<double> get(const std::map<std::string, double>& law, const std::string& key) {
  auto it = law.find(key);
  if (it == law.end()) return std::nullopt;
  return it->second;
}
// At most one of the named inputs may be given.
void at_most_one(const std::map<std::string, double>& law, const std::vector<std::string>& keys, const char* what) {
  int n = 0;
  for (const auto& k : keys) n += law.count(k) ? 1 : 0;
  if (n > 1) fail(fmt::format("give the {} as one of {}, not several", what, fmt::join(keys, ", ")));
}
}  // namespace

namespace {

// The radius of curvature a body offers at its contact: a disc's or sphere's radius; a flat face
// (rect) none (infinite); other shapes unknown (NaN: r_eff must then be given).
double contact_curvature_radius(const PlanarBody& b) {
  if (b.shape == "disc" || b.shape == "sphere") return b.arm_length();
  if (b.shape == "rect") return std::numeric_limits<double>::infinity();
  return std::numeric_limits<double>::quiet_NaN();
}

// --lammps-pair or --hertz-mindlin: the law linearised at the contact's state.
ContactPointModel build_law_model(const PairInput& input, const PlanarBody& b1, const PlanarBody& b2) {
  const char* option = input.lammps_pair.empty() ? "--hertz-mindlin" : "--lammps-pair";
  if (!input.lammps_pair.empty() && !input.hertz_mindlin.empty())
    fail("--lammps-pair and --hertz-mindlin each give the whole law: give one of them");
  for (const char* key : {"kn", "kt", "kt_ratio", "cn", "gamma_n", "restitution", "ct", "gamma_t", "ct_ratio"})
    if (input.law.count(key))
      fail(fmt::format("{} = {} cannot be combined with {}, which gives the whole law", key, input.law.at(key),
                       option));
  const contact::ContactLaw law = input.lammps_pair.empty()
                                      ? contact::parse_hertz_mindlin(input.hertz_mindlin, "--hertz-mindlin")
                                      : contact::parse_lammps_pair(input.lammps_pair, "--lammps-pair");
  const double m_eff = contact::effective_mass(b1.mass, b2.mass);  // LAMMPS' translational m_eff
  double r_eff = 0.0;
  if (auto r = get(input.law, "r_eff")) {
    r_eff = require_positive("r_eff", *r);
  } else {
    const double r1 = contact_curvature_radius(b1), r2 = contact_curvature_radius(b2);
    if (std::isnan(r1) || std::isnan(r2)) {
      if (contact::overlap_dependent(law))
        fail(fmt::format("the effective radius of a {}-{} contact is not known: give r_eff", b1.shape, b2.shape));
    } else if (std::isinf(r1) && std::isinf(r2)) {
      if (contact::overlap_dependent(law)) fail("two flat faces have no Hertz contact radius: give r_eff");
    } else {
      r_eff = std::isinf(r1) ? r2 : std::isinf(r2) ? r1 : contact::effective_radius(r1, r2);
    }
  }
  // The normal contact-point mass moves in the impact (1 / zhat_nn; m_eff for collinear discs).
  const ContactPointModel geometry(b1, b2, LinearContactLaw{1.0, 0.0, 0.0, 0.0});
  contact::OperatingPointInput state;
  state.overlap = get(input.law, "overlap");
  state.normal_force = get(input.law, "normal_force");
  state.impact_velocity = get(input.law, "impact_velocity");
  const contact::OperatingPoint point =
      contact::operating_point(law, m_eff, geometry.normal_effective_mass(), r_eff, state);
  ContactPointModel model(b1, b2, contact::linearised_law(law, point, m_eff, r_eff));
  LawOrigin origin{contact::describe(law), law, point, r_eff, 0.0};
  // Hertz laws: F = kn sqrt(R) delta^(3/2), so kn = 4/3 E* (hertz/material stores exactly that).
  if (law.normal != contact::NormalModel::hooke) origin.e_star = 0.75 * law.kn;
  model.set_origin(std::move(origin));
  return model;
}

}  // namespace

ContactPointModel build_model(const PairInput& input) {
  if (input.body1.empty()) fail("missing body1: give --body1 shape=...,");
  if (input.body2.empty()) fail("missing body2: give --body2 shape=...,");
  for (const auto& [key, value] : input.law) {
    if (std::find(pair_law_keys().begin(), pair_law_keys().end(), key) == pair_law_keys().end())
      fail(fmt::format("unknown contact-law input '{}'", key));
    if (std::isnan(value)) fail(fmt::format("{} = {} is not a number", key, value));
  }
  const PlanarBody b1 = parse_body(input.body1, "body1");
  const PlanarBody b2 = parse_body(input.body2, "body2");
  if (!input.lammps_pair.empty() || !input.hertz_mindlin.empty()) return build_law_model(input, b1, b2);
  for (const char* key : {"overlap", "normal_force", "impact_velocity", "r_eff"})
    if (input.law.count(key))
      fail(fmt::format("{} = {} is the state of a contact law given with --lammps-pair or --hertz-mindlin; a linear spring has none",
                       key, input.law.at(key)));
  const auto& law = input.law;

  LinearContactLaw c;
  const auto kn = get(law, "kn");
  if (!kn) fail("missing the normal stiffness kn");
  c.kn = require_positive("normal stiffness kn", *kn);

  at_most_one(law, {"kt", "kt_ratio"}, "tangential stiffness");
  if (auto kt = get(law, "kt")) c.kt = require_non_negative("tangential stiffness kt", *kt);
  else if (auto r = get(law, "kt_ratio")) c.kt = require_non_negative("stiffness ratio kt_ratio", *r) * c.kn;
  else fail("missing the tangential stiffness: give kt or kt_ratio (kt/kn)");

  // Damping conversions need the pair's effective masses.
  const ContactPointModel undamped(b1, b2, c);
  at_most_one(law, {"cn", "gamma_n", "restitution"}, "normal damping");
  if (auto cn = get(law, "cn")) c.cn = require_non_negative("normal dashpot cn", *cn);
  else if (auto g = get(law, "gamma_n"))
    c.cn = dashpot_from_lammps_gamma(require_non_negative("gamma_n", *g), undamped.translational_effective_mass());
  else if (auto e = get(law, "restitution"))
    c.cn = dashpot_from_damping_ratio(damping_ratio_from_restitution(*e), c.kn, undamped.normal_effective_mass());

  at_most_one(law, {"ct", "gamma_t", "ct_ratio"}, "tangential damping");
  if (auto ct = get(law, "ct")) c.ct = require_non_negative("tangential dashpot ct", *ct);
  else if (auto g = get(law, "gamma_t"))
    c.ct = dashpot_from_lammps_gamma(require_non_negative("gamma_t", *g), undamped.translational_effective_mass());
  else if (auto r = get(law, "ct_ratio")) c.ct = require_non_negative("damping ratio ct_ratio", *r) * c.cn;
  else c.ct = default_ct_ratio * c.cn;  // LAMMPS' gran/hooke/history with NULL: gamma_t = gamma_n / 2

  return ContactPointModel(b1, b2, c);
}

}  // namespace dtcrit
