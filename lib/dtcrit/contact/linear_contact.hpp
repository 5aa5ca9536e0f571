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
// Its inverse, LAMMPS' rate gamma = c / m_eff of a dashpot c [1/s].
inline double lammps_gamma_from_dashpot(double c, double m_eff) { return c / m_eff; }

// The same conversions in LAMMPS' rate gamma_n = c / m_eff. A head-on collision under
// gran/hooke/history is the damped oscillator of the overlap, delta'' + gamma_n delta' +
// (k_n/m_eff) delta = 0: omega_0 = sqrt(k_n/m_eff), zeta = gamma_n / (2 omega_0), and (contact
// ending when delta returns to zero, as in LAMMPS) e = exp(-zeta pi / sqrt(1 - zeta^2)).
double restitution_from_gamma_n(double gamma_n, double kn, double m_eff);
// Its inverse: gamma_n = -2 ln(e) sqrt(k_n/m_eff) / sqrt(pi^2 + ln^2 e), for 0 < e <= 1.
double gamma_n_from_restitution(double e, double kn, double m_eff);
// Duration of that collision: t_c = pi / (omega_0 sqrt(1 - zeta^2)), for zeta < 1 (throws otherwise).
double collision_time(double gamma_n, double kn, double m_eff);

}  // namespace dtcrit
