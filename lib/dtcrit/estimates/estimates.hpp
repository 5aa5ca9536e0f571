#pragma once
// Critical time-step estimates for one contact, each under a stable name. The closed forms of
// Burns & Hanley are test oracles; reports list them where they apply.
#include <optional>
#include <string>
#include <vector>

#include "dtcrit/model/contact_point_model.hpp"

namespace dtcrit {

struct Estimate {
  std::string name;         // stable identifier, e.g. "burns2016"
  double seconds;           // the step (or time) it gives [s]
  std::string description;  // what it is, and which mass and stiffness it used
};

// Every estimate of the contact-point model that applies to this pair:
//   burns2016            pi / (2 max|lambda(Q)|), Q of eq. (15), damping included
//   two_over_omega_max   2 / omega_max, undamped central difference (Belytschko)
//   sqrt_m_over_k        sqrt(m / k) with the smaller body mass and the larger stiffness
//   collision_time       duration of the damped normal mode, pi / sqrt(kn Dhat - (cn Dhat / 2)^2)
//   collision_time_over_50  MercuryDPM's and MFIX's recommended step t_c / 50
//   eq22_collinear       eq. (22), when Bhat = 0 (decoupled normal and tangential modes)
//   eq27_undamped        eq. (27) with the corrected prefactor 1/2, when cn = ct = 0
//   eq28_two_discs       eq. (28), two undamped discs
//   eq29_equal_discs     eq. (29), pi / (2 sqrt 6) sqrt(m/k): equal undamped discs, kn = kt = k
std::vector<Estimate> pair_estimates(const ContactPointModel& model);

// The closed forms on their own (for tests and studies). Each returns nullopt where it does not apply.
std::optional<double> eq22_collinear_damped(const ContactPointModel& model);
std::optional<double> eq27_undamped(const ContactPointModel& model);
std::optional<double> eq28_two_discs(const ContactPointModel& model);
std::optional<double> eq29_equal_discs(const ContactPointModel& model);
double burns2016(const ContactPointModel& model);
// The squared undamped frequencies of eqs. (23)/(25) with the prefactor as printed (1/sqrt 2) or as it
// must be (1/2): {lambda_1, lambda_3}. Kept to document the misprint.
Vector2 eq23_25_eigenvalues(const ContactPointModel& model, double prefactor);

// Whether the pair is collinear (Bhat = 0 to round-off).
bool is_collinear(const ContactPointModel& model);

}  // namespace dtcrit
