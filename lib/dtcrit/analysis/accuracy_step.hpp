#pragma once
// The accuracy-limited step of one contact's impact, from the sweep engine, for the integrator asked
// for: a state-dependent law's own collision at the impact speed (make_law_head_on_case: what
// `dtcrit sweep --case hertz-head-on` runs; oblique, for the tangential outputs:
// make_law_oblique_case), else the linear `head-on` case with the pair's normal effective mass, k_n
// and restitution.
// Only for collinear contacts (both arms along the normal, r_t = 0), where the normal motion does
// not couple to rotation and the pair's impact is exactly that 1-DOF collision.
#include <optional>
#include <string>
#include <utility>

#include "dtcrit/model/contact_point_model.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace dtcrit {

struct AccuracyStep {
  std::string quantity;   // restitution, peak_overlap or contact_duration
  double tolerance = 0.0;  // relative
  double h = 0.0;          // [s]
  sweep::AccuracyStatus status = sweep::AccuracyStatus::none;  // bisected, or above_grid (h = t_c/8, a lower bound)
};

// "restitution=1%" or "restitution=0.01" -> {"restitution", 0.01}.
std::pair<std::string, double> parse_accuracy(const std::string& text);

// quantity tangential_restitution, spin or rebound_angle: body 1 strikes body 2 at impact_angle [deg]
// from the normal (sweep::make_law_oblique_case, round bodies and a state-dependent law only).
AccuracyStep pair_accuracy_step(const ContactPointModel& model, const std::string& integrator,
                                const std::string& quantity, double tolerance,
                                std::optional<double> impact_angle = std::nullopt);

}  // namespace dtcrit
