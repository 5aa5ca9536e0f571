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

}  // namespace dtcrit
