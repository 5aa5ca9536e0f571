#include "dtcrit/sweep/report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dtcrit/io/text_table.hpp"

namespace dtcrit::sweep {

namespace {

std::string order_text(const OrderFit& f) { return std::isfinite(f.order) ? fmt::format("{:.2f}", f.order) : "-"; }

std::string limit_text(double h, double scale) {
  if (std::isnan(h)) return "-";
  if (std::isinf(h)) return "none";
  if (h == 0.0) return "unstable";
  return format_number(h / scale);
}

std::string predicted_text(const PredictedLimit& p, double scale) {
  if (!p.stability) return "-";
  if (p.conditional()) return format_number(p.h / scale);
  return std::string(stability_label(*p.stability));
}

nlohmann::json number(double x) {
  if (std::isfinite(x)) return x;
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return nullptr;
}

// "mean [min, max]" over the onset phases (the mean alone hides a spread larger than its error).
std::string outcome_text(const SweepPoint& p, const std::string& name) {
  const auto it = p.outcome.find(name);
  if (it == p.outcome.end()) return "-";
  const auto ph = p.phase_outcomes.find(name);
  if (ph == p.phase_outcomes.end() || ph->second.size() < 2) return format_number(it->second);
  const auto [lo, hi] = std::minmax_element(ph->second.begin(), ph->second.end());
  return fmt::format("{} [{}, {}]", format_number(it->second), fmt::format("{:.4g}", *lo), fmt::format("{:.4g}", *hi));
}

const char* const transient_note =
    "h_blowup: every contact here is a collision lasting about t_c, so a step above the predicted limit can grow only "
    "for a few steps; h_blowup is the step at which a collision gains the blow-up factor in energy, not a stability "
    "limit (use the predicted limit)";

// Whether some fitted order falls half an order or more below its integrator's declared one.
bool below_declared(const SweepResult& r) {
  for (const auto& s : r.integrators)
    for (const auto& [q, f] : s.order)
      if (std::isfinite(f.order) && f.order < s.declared_order - 0.5) return true;
  return false;
}

const char* const event_note =
    "orders below the declared ones: no scheme here locates contact onset and release inside a step, so the "
    "contact force switches on and off up to a step late; a dashpot that jumps at onset (linear, or Hertz damping "
    "~ delta^(1/4)) leaves first order, Hertz' delta^(3/2) about 2.4 for RK4 (measured: sweep/README.md, "
    "results/benchmarks/chung_ooi/). Expect the fitted orders at fine steps, not the declared ones; the outcomes' "
    "[smallest, largest single phase] below show how much of the error is where in the step the contact began";

}  // namespace

std::string to_text(const SweepResult& r) {
  std::string out;
  out += fmt::format("case {}: {}\n", r.case_name, r.description);
  std::string params;
  for (const auto& p : r.parameters) params += fmt::format("{}{}={:g}", params.empty() ? "" : ", ", p.name, p.value);
  out += fmt::format("parameters: {}\n", params);
  out += fmt::format("{}reference: {}; h0 = {:g} s = {:g} {}; {} levels; {} onset phase(s); t_end = {:g} s\n",
                     r.tangential_matters ? "tangential history: " + r.tangential + "; " : "", r.reference, r.h0,
                     r.h0 / r.time_scale, r.time_scale_name, r.levels, r.phases, r.t_end);
  if (!r.linearisation.empty())
    out += fmt::format("predicted limits: critical_step on {} (omega_max = {:g} rad/s)\n", r.linearisation, r.omega_max);
  out += fmt::format("steps in units of {} = {:g} s; errors relative to each channel's scale\n\n", r.time_scale_name,
                     r.time_scale);

  std::vector<std::string> head{"integrator", "declared"};
  std::vector<std::string> ordered;  // channels, then outcomes with a known converged value
  for (const auto& c : r.channels) ordered.push_back(c.name);
  if (!r.integrators.empty())
    for (const auto& [q, f] : r.integrators.front().order)
      if (std::find(ordered.begin(), ordered.end(), q) == ordered.end()) ordered.push_back(q);
  for (const auto& q : ordered) head.push_back("order " + q);
  if (r.transient_contacts) head.insert(head.end(), {"h_crit pred", "h_blowup", "h_accuracy"});
  else head.insert(head.end(), {"h_crit pred", "h_crit emp", "emp/pred", "h_accuracy"});
  TextTable summary(head);
  for (const auto& s : r.integrators) {
    std::vector<std::string> row{s.spec, fmt::format("{}/{}", s.declared_order, s.declared_order_damped)};
    for (const auto& q : ordered) row.push_back(s.order.count(q) ? order_text(s.order.at(q)) : "-");
    row.push_back(predicted_text(s.predicted, r.time_scale));
    row.push_back(limit_text(s.empirical.h, r.time_scale));
    if (!r.transient_contacts)
      row.push_back(s.predicted.conditional() && s.empirical.status == EmpiricalStatus::found
                        ? fmt::format("{:.4f}", s.empirical.h / s.predicted.h)
                        : "-");
    row.push_back(s.accuracy.status == AccuracyStatus::none
                      ? "-"
                      : fmt::format("{} ({} {:g}, {})", limit_text(s.accuracy.h, r.time_scale), s.accuracy.quantity,
                                    s.accuracy.tolerance, to_string(s.accuracy.status)));
    summary.add_row(row);
  }
  out += summary.to_text();
  if (r.transient_contacts) out += std::string(transient_note) + "\n";
  if (r.transient_contacts && below_declared(r)) out += std::string(event_note) + "\n";
  out += "\n";
  for (const auto& s : r.integrators)
    if (!s.solver.ok())
      out += fmt::format("SOLVER FAILURE {}: {} of {} implicit steps did not converge; errors and orders of this row are "
                         "not trustworthy. First: {}\n",
                         s.spec, s.solver.unconverged_steps, s.solver.steps, s.solver.first_failure);
  for (const auto& s : r.integrators)
    if (s.empirical.unconverged_runs > 0)
      out += fmt::format("note {}: {} stability run(s) from h = {} {} on were judged stable with Newton not converging "
                         "in some steps; the empirical limit above that h is not a linear-stability result\n",
                         s.spec, s.empirical.unconverged_runs, format_number(s.empirical.smallest_unconverged_h / r.time_scale),
                         r.time_scale_name);

  std::vector<std::string> head2{"integrator", "h/" + r.time_scale_name};
  for (const auto& c : r.channels) head2.push_back(c.name);
  for (const auto& c : r.channels) head2.push_back("slope " + c.name);
  std::vector<std::string> outcome_names;
  if (!r.integrators.empty())
    for (const auto& [n, v] : r.integrators.front().points.front().outcome) outcome_names.push_back(n);
  for (const auto& n : outcome_names) head2.push_back(n);
  TextTable errors(head2);
  for (const auto& s : r.integrators) {
    for (std::size_t k = 0; k < s.points.size(); ++k) {
      const auto& p = s.points[k];
      std::vector<std::string> row{s.spec, format_number(p.h / r.time_scale)};
      for (const auto& c : r.channels) row.push_back(fmt::format("{:.3e}", p.error.at(c.name)));
      for (const auto& c : r.channels) {
        const auto& sl = s.order.at(c.name).slopes;
        row.push_back(k < sl.size() && std::isfinite(sl[k]) ? fmt::format("{:.2f}", sl[k]) : "");
      }
      for (const auto& n : outcome_names) row.push_back(outcome_text(p, n));
      errors.add_row(row);
    }
  }
  out += errors.to_text();
  out += "\nslope: between this step and the next finer one; order: least squares over the range where "
         "consecutive slopes agree (see --json for the range)\n";
  if (r.phases > 1 && !outcome_names.empty())
    out += fmt::format("outcomes: mean over the {} onset phases [smallest, largest single phase]\n", r.phases);
  return out;
}

std::string to_csv(const SweepResult& r) {
  TextTable t({"case", "tangential", "integrator", "level", "h", "h_over_scale", "phase", "kind", "quantity", "value"});
  auto add = [&](const std::string& spec, const std::string& level, double h, const std::string& phase,
                 const std::string& kind, const std::string& q, double value) {
    t.add_row({r.case_name, r.tangential, spec, level, std::isfinite(h) ? format_exact(h) : "",
               std::isfinite(h) ? format_exact(h / r.time_scale) : "", phase, kind, q, format_exact(value)});
  };
  for (const auto& s : r.integrators) {
    for (const auto& p : s.points) {
      const std::string lv = std::to_string(p.level);
      for (const auto& [q, v] : p.phase_errors) {
        for (std::size_t j = 0; j < v.size(); ++j) add(s.spec, lv, p.h, std::to_string(j), "error", q, v[j]);
        add(s.spec, lv, p.h, "mean", "error", q, p.error.at(q));
      }
      for (const auto& [q, v] : p.phase_outcomes) {
        for (std::size_t j = 0; j < v.size(); ++j) add(s.spec, lv, p.h, std::to_string(j), "outcome", q, v[j]);
        add(s.spec, lv, p.h, "mean", "outcome", q, p.outcome.at(q));
      }
      for (const auto& [q, v] : p.outcome_error) add(s.spec, lv, p.h, "mean", "outcome_error", q, v);
    }
    for (const auto& [q, f] : s.order) {
      add(s.spec, "", std::nan(""), "mean", "order", q, f.order);
      add(s.spec, "", std::nan(""), "mean", "order_first_h", q, f.h_hi);
      add(s.spec, "", std::nan(""), "mean", "order_last_h", q, f.h_lo);
      for (std::size_t k = 0; k < f.slopes.size(); ++k)
        add(s.spec, std::to_string(k), s.points[k].h, "mean", "slope", q, f.slopes[k]);
    }
    add(s.spec, "", std::nan(""), "", "h_crit_predicted",
        s.predicted.stability ? std::string(stability_keyword(*s.predicted.stability)) : "not available", s.predicted.h);
    add(s.spec, "", std::nan(""), "", "unconverged_steps", "", static_cast<double>(s.solver.unconverged_steps));
    add(s.spec, "", std::nan(""), "", r.transient_contacts ? "h_blowup_not_a_limit" : "h_crit_empirical",
        std::string(to_string(s.empirical.status)), s.empirical.h);
    if (s.accuracy.status != AccuracyStatus::none)
      add(s.spec, "", std::nan(""), "", "h_accuracy", s.accuracy.quantity, s.accuracy.h);
  }
  return t.to_csv();
}

nlohmann::json to_json(const SweepResult& r) {
  using nlohmann::json;
  json j;
  j["case"] = r.case_name;
  j["description"] = r.description;
  json params = json::object();
  for (const auto& p : r.parameters) params[p.name] = {{"value", p.value}, {"meaning", p.meaning}};
  j["parameters"] = params;
  j["tangential"] = r.tangential;
  j["tangential_matters"] = r.tangential_matters;
  j["transient_contacts"] = r.transient_contacts;
  if (r.transient_contacts) j["h_crit_empirical_note"] = transient_note;
  j["reference"] = r.reference;
  j["h0"] = r.h0;
  j["t_end"] = r.t_end;
  j["levels"] = r.levels;
  j["phases"] = r.phases;
  j["phase_delays"] = r.phase_delays;
  j["time_scale"] = {{"name", r.time_scale_name}, {"seconds", r.time_scale}};
  j["linearisation"] = r.linearisation.empty() ? json(nullptr) : json(r.linearisation);
  j["omega_max"] = number(r.omega_max);
  json chans = json::array();
  for (const auto& c : r.channels)
    chans.push_back({{"name", c.name},
                     {"level", c.level == Level::position ? "position" : c.level == Level::velocity ? "velocity" : "energy"},
                     {"scale", c.scale}});
  j["channels"] = chans;
  json ints = json::array();
  for (const auto& s : r.integrators) {
    json i;
    i["integrator"] = s.spec;
    i["declared_order"] = {{"undamped", s.declared_order}, {"damped", s.declared_order_damped}};
    i["explicit"] = s.is_explicit;
    i["velocity_offset_over_h"] = s.velocity_offset;
    json order = json::object(), fits = json::object();
    for (const auto& [q, f] : s.order) {
      order[q] = number(f.order);
      json slopes = json::array();
      for (double x : f.slopes) slopes.push_back(number(x));
      fits[q] = {{"order", number(f.order)}, {"slopes", slopes}, {"first_level", f.first}, {"last_level", f.last},
                 {"h_range", {number(f.h_hi), number(f.h_lo)}}};
    }
    i["order"] = order;
    i["order_fit"] = fits;
    i["h_crit_predicted"] = number(s.predicted.h);
    i["h_crit_predicted_status"] =
        s.predicted.stability ? json(std::string(stability_keyword(*s.predicted.stability))) : json(nullptr);
    i["h_crit_predicted_checked_omega"] = {checked_omega_min, checked_omega_max};
    i["solver"] = {{"implicit_steps", s.solver.steps},
                   {"unconverged_steps", s.solver.unconverged_steps},
                   {"max_newton_iterations", s.solver.max_iterations},
                   {"first_failure", s.solver.first_failure.empty() ? json(nullptr) : json(s.solver.first_failure)}};
    i["h_crit_empirical"] = number(s.empirical.h);
    i["h_crit_empirical_status"] = to_string(s.empirical.status);
    i["h_crit_empirical_is_stability_limit"] = !r.transient_contacts;
    i["h_crit_empirical_bracket"] = {number(s.empirical.lo), number(s.empirical.hi)};
    i["stability_run_steps"] = s.empirical.steps;
    i["stability_unconverged_runs"] = s.empirical.unconverged_runs;
    i["stability_smallest_unconverged_h"] = number(s.empirical.smallest_unconverged_h);
    i["stability_runs"] = s.empirical.runs;
    i["stability_steps_taken"] = s.empirical.steps_taken;
    i["accuracy"] = {{"quantity", s.accuracy.quantity},
                     {"tolerance", s.accuracy.tolerance},
                     {"h", number(s.accuracy.h)},
                     {"status", to_string(s.accuracy.status)},
                     {"converged_value", number(s.accuracy.converged)}};
    json pts = json::array();
    for (const auto& p : s.points) {
      json pt;
      pt["level"] = p.level;
      pt["h"] = p.h;
      pt["blew_up"] = p.blew_up;
      json err = json::object(), perr = json::object(), out = json::object(), pout = json::object(),
           oerr = json::object();
      for (const auto& [q, v] : p.error) err[q] = number(v);
      for (const auto& [q, v] : p.phase_errors) {
        json a = json::array();
        for (double x : v) a.push_back(number(x));
        perr[q] = a;
      }
      for (const auto& [q, v] : p.outcome) out[q] = number(v);
      for (const auto& [q, v] : p.phase_outcomes) {
        json a = json::array();
        for (double x : v) a.push_back(number(x));
        pout[q] = a;
      }
      for (const auto& [q, v] : p.outcome_error) oerr[q] = number(v);
      json range = json::object();
      for (const auto& [q, v] : p.phase_outcomes)
        if (!v.empty()) {
          const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
          range[q] = {number(*lo), number(*hi)};
        }
      pt["outcome_range"] = range;
      pt["error"] = err;
      pt["phase_errors"] = perr;
      pt["outcome"] = out;
      pt["phase_outcomes"] = pout;
      pt["outcome_error"] = oerr;
      pts.push_back(pt);
    }
    i["points"] = pts;
    i["seconds"] = s.seconds;
    i["seconds_by_part"] = {{"convergence", s.seconds_convergence},
                            {"stability", s.seconds_stability},
                            {"accuracy", s.seconds_accuracy}};
    ints.push_back(i);
  }
  j["integrators"] = ints;
  j["reference_seconds"] = r.reference_seconds;
  return j;
}

PlotSpec error_plot(const SweepResult& r, const std::string& channel) {
  PlotSpec p;
  p.title = r.tangential_matters
                ? fmt::format("{} ({} tangential history): {} error against step", r.case_name, r.tangential, channel)
                : fmt::format("{}: {} error against step", r.case_name, channel);
  p.xlabel = "h / " + r.time_scale_name;
  p.ylabel = channel + " error (relative)";
  p.logx = p.logy = true;
  double e_anchor = 0.0, h_anchor = 0.0;
  std::vector<double> level0;  // the reference slopes start at the median coarsest-step error
  std::vector<std::pair<double, const IntegratorSweep*>> limits;  // predicted limits inside the plotted range
  for (std::size_t i = 0; i < r.integrators.size(); ++i) {
    const auto& s = r.integrators[i];
    PlotSeries ser{s.spec, {}, {}, true};
    distinct_style(ser, i);
    for (const auto& pt : s.points) {
      double e = std::nan("");
      if (pt.error.count(channel)) e = pt.error.at(channel);
      else if (pt.outcome_error.count(channel)) e = pt.outcome_error.at(channel);
      else throw std::invalid_argument(fmt::format("--plot-quantity '{}' is not measured by this case", channel));
      if (!(e > 0.0) || !std::isfinite(e)) continue;
      ser.x.push_back(pt.h / r.time_scale);
      ser.y.push_back(e);
      if (pt.level == 0) {
        level0.push_back(e);
        h_anchor = pt.h / r.time_scale;
      }
    }
    if (s.predicted.conditional() && !s.points.empty() && s.predicted.h <= s.points.front().h * (1 + 1e-9) &&
        s.predicted.h >= s.points.back().h)
      limits.push_back({s.predicted.h / r.time_scale, &s});
    p.series.push_back(std::move(ser));
  }
  // The quantities' spread sets the vertical extent of the marker lines.
  double y_lo = std::numeric_limits<double>::infinity(), y_hi = 0.0;
  for (const auto& s : p.series)
    for (double y : s.y) y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  if (!(y_hi > 0.0))
    throw std::invalid_argument(fmt::format(
        "--plot-quantity '{}': no run has a positive error to plot on log axes (the output is exact at every step)",
        channel));
  const double tolerance = r.integrators.empty() ? 0.0 : r.integrators.front().accuracy.tolerance;
  const bool is_accuracy_quantity = !r.integrators.empty() && r.integrators.front().accuracy.quantity == channel;
  for (const auto& [h, s] : limits) {
    const auto i = static_cast<std::size_t>(s - r.integrators.data());
    PlotSeries line{"predicted limit of " + s->spec, {h, h}, {y_lo, y_hi}, false};
    distinct_style(line, i);
    p.series.push_back(std::move(line));
  }
  if (is_accuracy_quantity && tolerance > 0.0 && !r.integrators.front().points.empty()) {
    const auto& pts = r.integrators.front().points;
    PlotSeries tol{fmt::format("tolerance {:g} (h_accuracy)", tolerance),
                   {pts.back().h / r.time_scale, pts.front().h / r.time_scale}, {tolerance, tolerance}, false};
    tol.rgb = "#e51e10";
    tol.dash = 4;
    p.series.push_back(std::move(tol));
  }
  if (limits.empty()) p.title += " (no predicted limit inside the plotted steps)";
  if (!level0.empty()) {
    std::sort(level0.begin(), level0.end());
    e_anchor = level0[level0.size() / 2];
  }
  if (e_anchor > 0.0 && !r.integrators.empty()) {
    const auto& pts = r.integrators.front().points;
    const double h_min = pts.back().h / r.time_scale;
    for (int order : {1, 2, 4}) {
      PlotSeries ref{fmt::format("slope {}", order), {h_anchor, h_min},
                     {e_anchor, e_anchor * std::pow(h_min / h_anchor, order)}, false};
      ref.rgb = "#bbbbbb";
      ref.dash = order == 1 ? 2 : order == 2 ? 3 : 5;
      p.series.push_back(std::move(ref));
    }
  }
  return p;
}

}  // namespace dtcrit::sweep
