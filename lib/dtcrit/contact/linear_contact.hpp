#pragma once
// The linear spring-dashpot contact law in the normal (n) and tangential (t) directions, and the
// conversions from the damping inputs users actually have.
namespace dtcrit {

struct LinearContactLaw {
  double kn = 0.0;  // normal stiffness [N/m]
  double kt = 0.0;  // tangential stiffness [N/m]
  double cn = 0.0;  // normal dashpot [N s/m]
  double ct = 0.0;  // tangential dashpot [N s/m]
};

// Checks kn > 0, kt >= 0, cn >= 0, ct >= 0, all finite.
LinearContactLaw validated(const LinearContactLaw& law);

// Damping ratio of a linear spring-dashpot with effective mass m: zeta = c / (2 sqrt(k m)).
double damping_ratio(double c, double k, double m);
// The dashpot c for a damping ratio zeta.
double dashpot_from_damping_ratio(double zeta, double k, double m);
// Coefficient of restitution of a linear spring-dashpot, contact ending when the overlap returns to
// zero: e = exp(-zeta pi / sqrt(1 - zeta^2)) for zeta < 1, and 0 for zeta >= 1.
double restitution_from_damping_ratio(double zeta);
// Its inverse: zeta = -ln(e) / sqrt(pi^2 + ln^2 e), for 0 < e <= 1.
double damping_ratio_from_restitution(double e);
// LAMMPS gran/hooke convention: the dashpot of a contact is c = m_eff * gamma, gamma in 1/s.
inline double dashpot_from_lammps_gamma(double gamma, double m_eff) { return gamma * m_eff; }

}  // namespace dtcrit
