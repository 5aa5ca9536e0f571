#pragma once
// One contact's answer: the model's matrices, every estimate and every chosen integrator's exact
// limit, rendered as an aligned table, tidy CSV or JSON.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/estimates/estimates.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/stability/amplification.hpp"

namespace dtcrit {

struct IntegratorLimit {
  std::string name;       // integrator specification
  Stability stability;    // printed as stability_keyword() only by the printers
  double h_crit;          // seconds; NaN unless conditional
};

struct PairReport {
  std::string label;
  ContactPointModel model;
  std::vector<Estimate> estimates;        // model estimates, then material heuristics
  std::vector<IntegratorLimit> integrators;

  // sqrt(m/k) of the estimate of that name: the unit the tables divide by.
  double reference_step() const;
};

nlohmann::json to_json(const PairReport& report);
// Rows are quantities, columns the reports (configurations).
std::string format_pair_table(const std::vector<PairReport>& reports);
// Tidy CSV: one row per (configuration, quantity).
std::string format_pair_csv(const std::vector<PairReport>& reports);

}  // namespace dtcrit
