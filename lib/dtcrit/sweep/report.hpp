#pragma once
// A sweep's result as a human table, tidy CSV (one row per observation), JSON, and a log-log plot
// of error against h with reference slopes.
#include <string>

#include <nlohmann/json.hpp>

#include "dtcrit/io/plot.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace dtcrit::sweep {

// Aligned text: a summary row per integrator (fitted orders, limits, accuracy-limited step), then
// the error table per integrator and step.
std::string to_text(const SweepResult& r);

// Tidy CSV: columns case, tangential, integrator, level, h, h_over_scale, phase, kind, quantity,
// value. kind = error (relative channel error), outcome (value), outcome_error (relative error),
// order / order_first_h / order_last_h (fitted per channel, level and phase empty), slope
// (between level and level + 1), h_crit_predicted, h_crit_empirical (h_blowup_not_a_limit on collision
// cases, SweepCase::transient_contacts), h_accuracy. phase = "mean"
// for the phase average.
std::string to_csv(const SweepResult& r);

// JSON: the set-up, and per integrator `order` {channel: fitted}, `order_fit` (slopes, range),
// `h_crit_empirical`, `h_crit_predicted`, `accuracy`, and the raw `points`.
nlohmann::json to_json(const SweepResult& r);

// Error of `channel` (a channel or an outcome name) against h, one series per integrator, with
// reference slopes h^1, h^2, h^4.
PlotSpec error_plot(const SweepResult& r, const std::string& channel);

}  // namespace dtcrit::sweep
