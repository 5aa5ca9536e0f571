#pragma once
// The whole answer for one contact: estimates, material heuristics and exact integrator limits.
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/io/pair_report.hpp"

namespace dtcrit {

// integrator_specs: registry specifications ("velocity_verlet", "gs4_u0:rho=0.5,...");
// "all" expands to every registry row with default parameters.
std::vector<std::string> expand_integrator_specs(const std::vector<std::string>& specs);

// The exact limit of each integrator on the pair's linear contact system. Undamped systems use the
// integrator's scalar limit Omega_crit / omega_max (modal decomposition is exact there), computed
// once per integrator; damped systems measure the amplification matrix of the 2-DOF system.
std::vector<IntegratorLimit> integrator_limits(const ContactPointModel& model, const std::vector<std::string>& specs);

PairReport analyse_pair(std::string label, const ContactPointModel& model, const std::optional<Material>& material,
                        const std::vector<std::string>& integrator_specs);

// Everything `dtcrit pair` reads, by the names of its options (the Python module fills the same).
struct PairRequest {
  PairInput input;
  // The material heuristics (Rayleigh, P-wave, Hertz): all four or none.
  std::optional<double> youngs, poisson, density, radius, impact_velocity;
  std::vector<std::string> integrators{"all"};  // registry specs, "all" or "none"
  double margin = default_step_margin;
  std::string accuracy{};                        // "restitution=1%": also bound the step by accuracy
  // [deg] from the normal: the oblique impact whose tangential restitution, spin or rebound angle
  // --accuracy measures (with --impact-velocity and a state-dependent law).
  std::optional<double> impact_angle;
};

// The material heuristics' inputs, when E, nu, rho and R are all given (error if only some are).
std::optional<Material> requested_material(const PairRequest& request);

// The whole answer of `dtcrit pair`: the report with its defaults and recommended step (bounded by
// the accuracy request when given). to_json of it is what `dtcrit pair --json` prints.
PairReport answer_pair(const PairRequest& request);

}  // namespace dtcrit
