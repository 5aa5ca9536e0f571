#include "dtcrit/io/pair_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/body_spec.hpp"

namespace dtcrit {

const std::vector<std::string>& pair_law_keys() {
  static const std::vector<std::string> keys{"kn", "kt", "kt_ratio", "cn", "gamma_n", "restitution",
                                             "ct", "gamma_t", "ct_ratio"};
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
    fail(fmt::format("unknown input '{}'; valid: {}, body1.KEY, body2.KEY", key, fmt::join(pair_law_keys(), ", ")));
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
