#include "dtcrit/io/pair_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dtcrit/contact/linear_contact.hpp"
#include "dtcrit/core/check.hpp"
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

struct Input {
  std::string name;
  double value;
  std::string unit;
};
// The effective inputs of one contact, in the order every report shows them.
std::vector<Input> effective_inputs(const ContactPointModel& model) {
  std::vector<Input> out;
  for (const auto* b : {&model.body1(), &model.body2()}) {
    const std::string who = b == &model.body1() ? "body1 " : "body2 ";
    out.push_back({who + "m", b->mass, "kg"});
    out.push_back({who + "I", b->inertia, "kg m^2"});
    out.push_back({who + "arm rt", b->arm[0], "m"});
    out.push_back({who + "arm rn", b->arm[1], "m"});
  }
  const auto& law = model.law();
  const double m_eff = model.translational_effective_mass();
  out.push_back({"kn", law.kn, "N/m"});
  out.push_back({"kt", law.kt, "N/m"});
  out.push_back({"cn", law.cn, "N s/m"});
  out.push_back({"ct", law.ct, "N s/m"});
  out.push_back({"gamma_n = cn/m_eff", lammps_gamma_from_dashpot(law.cn, m_eff), "1/s"});
  out.push_back({"gamma_t = ct/m_eff", lammps_gamma_from_dashpot(law.ct, m_eff), "1/s"});
  return out;
}
}  // namespace

std::vector<std::string> applied_defaults(const PairInput& input) {
  if (!input.lammps_pair.empty() || !input.hertz_mindlin.empty()) return {};  // the LAMMPS law carries its own damping, defaults as LAMMPS'
  const auto given = [&](std::initializer_list<const char*> keys) {
    for (const char* k : keys)
      if (input.law.count(k)) return true;
    return false;
  };
  const bool normal = given({"cn", "gamma_n", "restitution"}), tangential = given({"ct", "gamma_t", "ct_ratio"});
  if (!normal && !tangential) return {"cn = ct = 0 (no damping given)"};
  if (!normal) return {"cn = 0 (no normal damping given)"};
  if (!tangential)
    return {fmt::format("ct = {:g} cn (no tangential damping given; LAMMPS: gamma_t = gamma_n / 2)", default_ct_ratio)};
  return {};
}

std::optional<StepRecommendation> recommend_step(const PairReport& r, double margin) {
  return recommend_from(r.integrators, margin);
}

nlohmann::json to_json(const PairReport& r) {
  const auto& law = r.model.law();
  nlohmann::json j;
  if (!r.label.empty()) j["label"] = r.label;
  j["units"] = "SI: kg, m, s, N/m, N s/m";
  j["body1"] = body_json(r.model.body1());
  j["body2"] = body_json(r.model.body2());
  const double m_eff = r.model.translational_effective_mass();
  j["law"] = {{"kn", law.kn},           {"kt", law.kt},           {"cn", law.cn},
              {"ct", law.ct},           {"gamma_n", lammps_gamma_from_dashpot(law.cn, m_eff)},
              {"gamma_t", lammps_gamma_from_dashpot(law.ct, m_eff)},
              {"m_eff", m_eff}};
  j["defaults_applied"] = r.defaults;
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
    j["integrators"][i.name] = {{"h_crit", number_or_null(i.h_crit)},
                                {"stability", stability_keyword(i.stability)},
                                {"checked_omega_min", checked_omega_min},
                                {"checked_omega_max", checked_omega_max}};
  if (r.recommendation) j["recommended_step"] = to_json(*r.recommendation);
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
  // The effective inputs first, so that no default hides in the answer.
  if (!reports.empty()) {
    const auto names = effective_inputs(reports.front().model);
    for (std::size_t i = 0; i < names.size(); ++i)
      add(names[i].name, [&](const PairReport& r) { return format_number(effective_inputs(r.model)[i].value); },
          names[i].unit);
  }
  // A state-dependent law: the point it was linearised at.
  if (std::any_of(reports.begin(), reports.end(), [](const PairReport& r) { return r.model.origin().has_value(); })) {
    add("overlap", [](const PairReport& r) { return r.model.origin() ? format_number(r.model.origin()->point.overlap) : std::string("-"); }, "m");
    add("normal_force", [](const PairReport& r) { return r.model.origin() ? format_number(r.model.origin()->point.normal_force) : std::string("-"); }, "N");
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
                                                           : std::string(stability_label(lim.stability));
          },
          "s");
  std::string text = t.to_text();
  // Defaults applied, per configuration when they differ.
  std::vector<std::string> notes;
  for (const auto& r : reports)
    for (const auto& d : r.defaults)
      if (std::find(notes.begin(), notes.end(), d) == notes.end()) notes.push_back(d);
  for (const auto& n : notes) text += "default: " + n + "\n";
  bool first = true;
  for (const auto& r : reports)
    if (r.recommendation) {
      if (first) text += "\n";
      if (reports.size() > 1) text += r.label + ": ";
      text += format_recommendation(*r.recommendation);
      first = false;
    }
  return text;
}

std::string format_pair_csv(const std::vector<PairReport>& reports) {
  TextTable t({"configuration", "kind", "name", "value", "unit", "over_sqrt_m_over_k", "stability"});
  for (const auto& r : reports) {
    const double ref = r.reference_step();
    for (const auto& in : effective_inputs(r.model))
      t.add_row({r.label, "input", in.name, format_exact(in.value), in.unit, "", ""});
    for (const auto& d : r.defaults) t.add_row({r.label, "default", d, "", "", "", ""});
    for (const auto& e : r.estimates)
      t.add_row({r.label, "estimate", e.name, format_exact(e.seconds), "s", format_exact(e.seconds / ref), ""});
    for (const auto& i : r.integrators)
      t.add_row({r.label, "integrator", i.name, format_exact(i.h_crit), "s", format_exact(i.h_crit / ref),
                 std::string(stability_keyword(i.stability))});
    if (const auto& rec = r.recommendation)
      t.add_row({r.label, "recommended_step", rec->integrator, format_exact(rec->recommended()), "s",
                 format_exact(rec->recommended() / ref), std::string(stability_keyword(rec->stability))});
  }
  return t.to_csv();
}

}  // namespace dtcrit
