#include "dtcrit/io/pair_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dtcrit/io/text_table.hpp"

namespace dtcrit {

double PairReport::reference_step() const {
  for (const auto& e : estimates)
    if (e.name == "sqrt_m_over_k") return e.seconds;
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {
nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
nlohmann::json matrix_json(const Matrix& m) {
  auto out = nlohmann::json::array();
  for (Index i = 0; i < m.rows(); ++i) {
    auto row = nlohmann::json::array();
    for (Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    out.push_back(row);
  }
  return out;
}
nlohmann::json body_json(const PlanarBody& b) {
  return {{"shape", b.shape}, {"m", b.mass}, {"I", b.inertia}, {"rt", b.arm[0]}, {"rn", b.arm[1]}};
}
}  // namespace

nlohmann::json to_json(const PairReport& r) {
  const auto& law = r.model.law();
  nlohmann::json j;
  if (!r.label.empty()) j["label"] = r.label;
  j["units"] = "SI: kg, m, s, N/m, N s/m";
  j["body1"] = body_json(r.model.body1());
  j["body2"] = body_json(r.model.body2());
  j["law"] = {{"kn", law.kn}, {"kt", law.kt}, {"cn", law.cn}, {"ct", law.ct}};
  if (const auto& o = r.model.origin()) {
    j["operating_point"] = {{"law", o->law},
                            {"from", o->point.origin},
                            {"overlap", o->point.overlap},
                            {"normal_force", o->point.normal_force},
                            {"contact_radius", o->point.contact_radius},
                            {"r_eff", o->r_eff}};
    if (o->point.impact) {
      j["operating_point"]["impact_velocity"] = o->point.impact_velocity;
      j["operating_point"]["impact_duration"] = o->point.impact->duration;
      j["operating_point"]["impact_restitution"] = o->point.impact->restitution;
    }
  }
  j["zhat"] = matrix_json(r.model.zhat());
  const Vector2 w = r.model.undamped_frequencies();
  j["omega"] = {w[0], w[1]};
  j["estimates"] = nlohmann::json::object();
  for (const auto& e : r.estimates) j["estimates"][e.name] = number_or_null(e.seconds);
  j["estimate_descriptions"] = nlohmann::json::object();
  for (const auto& e : r.estimates) j["estimate_descriptions"][e.name] = e.description;
  j["integrators"] = nlohmann::json::object();
  for (const auto& i : r.integrators)
    j["integrators"][i.name] = {{"h_crit", number_or_null(i.h_crit)}, {"stability", stability_keyword(i.stability)}};
  return j;
}

std::string format_pair_table(const std::vector<PairReport>& reports) {
  std::vector<std::string> header{"quantity"};
  for (const auto& r : reports) header.push_back(r.label.empty() ? "value" : r.label);
  header.push_back("unit");
  TextTable t(header);
  auto add = [&](const std::string& name, auto&& value, const std::string& unit) {
    std::vector<std::string> row{name};
    for (const auto& r : reports) row.push_back(value(r));
    row.push_back(unit);
    t.add_row(row);
  };
  // A state-dependent law: the point it was linearised at, and the springs it gave there.
  const bool any_origin = std::any_of(reports.begin(), reports.end(), [](const PairReport& r) { return r.model.origin().has_value(); });
  if (any_origin) {
    add("overlap", [](const PairReport& r) { return r.model.origin() ? format_number(r.model.origin()->point.overlap) : std::string("-"); }, "m");
    add("normal_force", [](const PairReport& r) { return r.model.origin() ? format_number(r.model.origin()->point.normal_force) : std::string("-"); }, "N");
    add("kn (linearised)", [](const PairReport& r) { return format_number(r.model.law().kn); }, "N/m");
    add("kt (linearised)", [](const PairReport& r) { return format_number(r.model.law().kt); }, "N/m");
    add("cn (linearised)", [](const PairReport& r) { return format_number(r.model.law().cn); }, "N s/m");
    add("ct (linearised)", [](const PairReport& r) { return format_number(r.model.law().ct); }, "N s/m");
  }
  add("omega_min", [](const PairReport& r) { return format_number(r.model.undamped_frequencies()[0]); }, "rad/s");
  add("omega_max", [](const PairReport& r) { return format_number(r.model.omega_max()); }, "rad/s");
  // Estimates in the order of the first report; a report lacking one shows "-".
  auto value_of = [](const PairReport& r, const std::string& name) {
    for (const auto& e : r.estimates)
      if (e.name == name) return e.seconds;
    return std::numeric_limits<double>::quiet_NaN();
  };
  std::vector<std::string> names;
  for (const auto& r : reports)
    for (const auto& e : r.estimates)
      if (std::find(names.begin(), names.end(), e.name) == names.end()) names.push_back(e.name);
  for (const auto& n : names) add(n, [&](const PairReport& r) { return format_number(value_of(r, n)); }, "s");
  if (!reports.empty())
    for (std::size_t i = 0; i < reports.front().integrators.size(); ++i)
      add("h_crit " + reports.front().integrators[i].name,
          [&](const PairReport& r) {
            const auto& lim = r.integrators[i];
            return lim.stability == Stability::conditional ? format_number(lim.h_crit)
                                                           : std::string(stability_keyword(lim.stability));
          },
          "s");
  return t.to_text();
}

std::string format_pair_csv(const std::vector<PairReport>& reports) {
  TextTable t({"configuration", "kind", "name", "seconds", "over_sqrt_m_over_k", "stability"});
  for (const auto& r : reports) {
    const double ref = r.reference_step();
    for (const auto& e : r.estimates)
      t.add_row({r.label, "estimate", e.name, format_exact(e.seconds), format_exact(e.seconds / ref), ""});
    for (const auto& i : r.integrators)
      t.add_row({r.label, "integrator", i.name, format_exact(i.h_crit), format_exact(i.h_crit / ref),
                 std::string(stability_keyword(i.stability))});
  }
  return t.to_csv();
}

}  // namespace dtcrit
