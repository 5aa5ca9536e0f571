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
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/step_recommendation.hpp"

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
  std::vector<std::string> defaults;      // defaults applied to the input (applied_defaults), echoed
  std::optional<StepRecommendation> recommendation;  // the step to use (recommend_step), printed last

  // sqrt(m/k) of the estimate of that name: the unit the tables divide by.
  double reference_step() const;
};

// The defaults build_model applied to `input`, in words ("ct = cn / 2 (...)"); empty if none.
std::vector<std::string> applied_defaults(const PairInput& input);

// Every report starts with the effective inputs: per body m, I and the arm (r_t, r_n), then k_n,
// k_t, c_n, c_t and LAMMPS' gamma_n, gamma_t (c / m_eff, translational effective mass).
nlohmann::json to_json(const PairReport& report);

// The recommended step on the report's integrators: velocity_verlet when it was computed (LAMMPS'
// scheme), else the first one; nullopt when the report has no integrator (--integrator none).
std::optional<StepRecommendation> recommend_step(const PairReport& report, double margin);
// Rows are quantities, columns the reports (configurations).
std::string format_pair_table(const std::vector<PairReport>& reports);
// Tidy CSV: one row per (configuration, quantity): kind input (unit given), estimate or integrator.
std::string format_pair_csv(const std::vector<PairReport>& reports);

}  // namespace dtcrit
