#pragma once
// Hertz–Mindlin (no slip) as EDEM and LIGGGHTS define it, from Young's modulus, Poisson's ratio, a
// restitution coefficient and friction, expressed as a ContactLaw (contact/law.hpp) so that every
// path of dtcrit (pair, table, packing, stepper, sweeps) runs it.
//
// LIGGGHTS-PUBLIC src/normal_model_hertz.h (NormalModel<HERTZ>::surfacesIntersect) and
// src/tangential_model_history.h; EDEM's documented "Hertz-Mindlin (no slip)" model. With
// a = sqrt(R* delta), E* and G* mixed as in law.hpp (effective_youngs, effective_shear):
//   F_n = 4/3 E* a delta - gamma_n v_n,   S_n = 2 E* a,   gamma_n = -2 sqrt(5/6) beta sqrt(S_n m*)
//   F_t = -S_t xi - gamma_t v_t,          S_t = 8 G* a,   gamma_t = -2 sqrt(5/6) beta sqrt(S_t m*)
//   beta = ln e / sqrt(ln^2 e + pi^2) (LIGGGHTS global_properties.cpp createBetaEff),  |F_t| <= mu F_n.
// In ContactLaw terms (granular semantics): normal hertz/material with kn = 4/3 E*, whose
// dF_ne/ddelta' (LAMMPS' knfac) is 4/3 E* a = 2/3 S_n, so
//   gamma_n = -2 sqrt(5/6) beta sqrt(3/2 knfac m*) = sqrt(5) |beta| sqrt(m* knfac):
// damping `tsuji` with the coefficient sqrt(5) |beta| (not Tsuji's polynomial); tangential mindlin
// with kt = 8 G* and eta_t / eta_n = sqrt(S_t / S_n) = 2 sqrt(G* / E*) (LAMMPS' x_gamma_t), which
// does not depend on the overlap. Where LIGGGHTS differs from this (sliding, arms): contact/README.md.
#include <string>
#include <string_view>

#include "dtcrit/contact/law.hpp"

namespace dtcrit::contact {

// beta = ln e / sqrt(ln^2 e + pi^2) <= 0 for the restitution e in (0, 1] (0 at e = 1).
double hertz_mindlin_beta(double restitution);

// Both bodies of one material (E [Pa], nu), restitution e in (0, 1], friction mu >= 0.
ContactLaw hertz_mindlin(double youngs, double poisson, double restitution, double mu);

// "E=7e10,nu=0.3,e=0.5,mu=0.5" (every key required; `who` names the option in errors).
ContactLaw parse_hertz_mindlin(std::string_view spec, const std::string& who = "--hertz-mindlin");

// One line for reports: the inputs and the ContactLaw they became.
std::string describe_hertz_mindlin(const ContactLaw& law, double restitution);

}  // namespace dtcrit::contact
