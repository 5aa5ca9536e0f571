#include "dtcrit/sweep/exchange.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dtcrit/core/check.hpp"

namespace dtcrit::sweep {

namespace {

using nlohmann::json;

// Field by field, in the order of sweep.hpp; a field added there must be added here (the round-trip
// test compares every field).
json pack(const OrderFit& f) { return {f.order, f.slopes, f.first, f.last, f.h_hi, f.h_lo}; }
OrderFit unpack_order(const json& j) {
  OrderFit f;
  f.order = j.at(0).get<double>();
  f.slopes = j.at(1).get<std::vector<double>>();
  f.first = j.at(2).get<int>();
  f.last = j.at(3).get<int>();
  f.h_hi = j.at(4).get<double>();
  f.h_lo = j.at(5).get<double>();
  return f;
}

json pack(const SolverStatus& s) { return {s.steps, s.unconverged_steps, s.max_iterations, s.worst_residual, s.first_failure}; }
SolverStatus unpack_solver(const json& j) {
  SolverStatus s;
  s.steps = j.at(0).get<long>();
  s.unconverged_steps = j.at(1).get<long>();
  s.max_iterations = j.at(2).get<int>();
  s.worst_residual = j.at(3).get<double>();
  s.first_failure = j.at(4).get<std::string>();
  return s;
}

json pack(const SweepPoint& p) {
  return {p.level, p.h, p.phase_errors, p.error, p.phase_outcomes, p.outcome, p.outcome_error, p.blew_up, pack(p.solver)};
}
SweepPoint unpack_point(const json& j) {
  SweepPoint p;
  p.level = j.at(0).get<int>();
  p.h = j.at(1).get<double>();
  p.phase_errors = j.at(2).get<std::map<std::string, std::vector<double>>>();
  p.error = j.at(3).get<std::map<std::string, double>>();
  p.phase_outcomes = j.at(4).get<std::map<std::string, std::vector<double>>>();
  p.outcome = j.at(5).get<std::map<std::string, double>>();
  p.outcome_error = j.at(6).get<std::map<std::string, double>>();
  p.blew_up = j.at(7).get<bool>();
  p.solver = unpack_solver(j.at(8));
  return p;
}

json pack(const IntegratorSweep& s) {
  json points = json::array(), order = json::object();
  for (const auto& p : s.points) points.push_back(pack(p));
  for (const auto& [name, f] : s.order) order[name] = pack(f);
  const json predicted = {s.predicted.stability ? static_cast<int>(*s.predicted.stability) : -1, s.predicted.h};
  const json empirical = {to_string(s.empirical.status), s.empirical.h,     s.empirical.lo,
                          s.empirical.hi,     s.empirical.steps, s.empirical.unconverged_runs,
                          s.empirical.smallest_unconverged_h, s.empirical.runs, s.empirical.steps_taken};
  const json accuracy = {s.accuracy.quantity, s.accuracy.tolerance, to_string(s.accuracy.status), s.accuracy.h,
                         s.accuracy.converged};
  return {s.spec,  s.declared_order, s.declared_order_damped, s.is_explicit, s.velocity_offset, points, order,
          predicted, empirical,      accuracy,                pack(s.solver), s.seconds,
          s.seconds_convergence, s.seconds_stability, s.seconds_accuracy};
}
IntegratorSweep unpack_sweep(const json& j) {
  IntegratorSweep s;
  s.spec = j.at(0).get<std::string>();
  s.declared_order = j.at(1).get<int>();
  s.declared_order_damped = j.at(2).get<int>();
  s.is_explicit = j.at(3).get<bool>();
  s.velocity_offset = j.at(4).get<double>();
  for (const auto& p : j.at(5)) s.points.push_back(unpack_point(p));
  for (const auto& [name, f] : j.at(6).items()) s.order[name] = unpack_order(f);
  const int stability = j.at(7).at(0).get<int>();
  if (stability >= 0) s.predicted.stability = static_cast<Stability>(stability);
  s.predicted.h = j.at(7).at(1).get<double>();
  const json& e = j.at(8);
  s.empirical.status = parse_empirical_status(e.at(0).get<std::string>());
  s.empirical.h = e.at(1).get<double>();
  s.empirical.lo = e.at(2).get<double>();
  s.empirical.hi = e.at(3).get<double>();
  s.empirical.steps = e.at(4).get<long>();
  s.empirical.unconverged_runs = e.at(5).get<long>();
  s.empirical.smallest_unconverged_h = e.at(6).get<double>();
  s.empirical.runs = e.at(7).get<long>();
  s.empirical.steps_taken = e.at(8).get<long>();
  const json& a = j.at(9);
  s.accuracy.quantity = a.at(0).get<std::string>();
  s.accuracy.tolerance = a.at(1).get<double>();
  s.accuracy.status = parse_accuracy_status(a.at(2).get<std::string>());
  s.accuracy.h = a.at(3).get<double>();
  s.accuracy.converged = a.at(4).get<double>();
  s.solver = unpack_solver(j.at(10));
  s.seconds = j.at(11).get<double>();
  s.seconds_convergence = j.at(12).get<double>();
  s.seconds_stability = j.at(13).get<double>();
  s.seconds_accuracy = j.at(14).get<double>();
  return s;
}

}  // namespace

std::string to_bytes(const std::vector<IntegratorSweep>& sweeps) {
  json all = json::array();
  for (const auto& s : sweeps) all.push_back(pack(s));
  const std::vector<std::uint8_t> bytes = json::to_cbor(all);
  return std::string(bytes.begin(), bytes.end());
}

std::vector<IntegratorSweep> integrator_sweeps_from_bytes(std::string_view bytes) {
  std::vector<IntegratorSweep> out;
  try {
    const json all = json::from_cbor(bytes.begin(), bytes.end());
    for (const auto& s : all) out.push_back(unpack_sweep(s));
  } catch (const json::exception& e) {
    fail(fmt::format("integrator sweeps: {} bytes that are not a to_bytes() record: {}", bytes.size(), e.what()));
  }
  return out;
}

}  // namespace dtcrit::sweep
