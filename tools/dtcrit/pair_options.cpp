#include "pair_options.hpp"

#include <iostream>

#include "dtcrit/io/output_file.hpp"

namespace dtcrit::cli {

void PairOptions::add_to(CLI::App& app, bool with_bodies) {
  if (with_bodies) {
    app.add_option("--body1", body1,
                   "first body: shape=sphere|disc|rect|ellipse|polygon|custom and its keys [SI: m, kg, kg/m^3], e.g. "
                   "shape=sphere,r=5e-4,rho=2500 or shape=disc,r=5e-4,m=0.003");
    app.add_option("--body2", body2, "second body, same form as --body1");
  }
  auto* kn_opt = app.add_option("--kn", kn, "normal stiffness [N/m]");
  app.add_option("--kt", kt, "tangential stiffness [N/m]");
  app.add_option("--kt-ratio", kt_ratio, "tangential stiffness as a ratio kt/kn [-]");
  app.add_option("--cn", cn, "normal dashpot [N s/m]");
  app.add_option("--ct", ct, "tangential dashpot [N s/m]");
  app.add_option("--ct-ratio", ct_ratio, "tangential dashpot as a ratio ct/cn [-]");
  app.add_option("--gamma-n", gamma_n, "normal damping in LAMMPS' convention [1/s]: cn = m_eff gamma_n");
  app.add_option("--gamma-t", gamma_t, "tangential damping in LAMMPS' convention [1/s]: ct = m_eff gamma_t");
  app.add_option("--restitution", restitution, "normal coefficient of restitution e [-] in (0, 1] (sets cn)");
  app.add_option("--youngs", youngs, "Young's modulus E [Pa], for the Rayleigh, P-wave and Hertz heuristics");
  app.add_option("--poisson", poisson, "Poisson ratio nu [-], for the material heuristics");
  app.add_option("--density", density, "density rho [kg/m^3], for the material heuristics");
  app.add_option("--radius", radius, "sphere radius R [m], for the material heuristics");
  app.add_option("--impact-velocity", impact_velocity,
                 "approach speed [m/s], the relative speed of the two bodies along the normal (not each body's; "
                 "dtcrit sweep's v is each sphere's): with --lammps-pair, linearise at the peak overlap of a head-on "
                 "impact at this speed (integrated); with the material, the Hertz contact time");
  app.add_option("--impact-angle", impact_angle,
                 "with --accuracy tangential_restitution, spin or rebound_angle: body 1 strikes body 2 (at rest) at "
                 "--impact-velocity, this many degrees from the normal [deg]");
  auto* lammps_opt = app.add_option("--lammps-pair", lammps_pair,
                 "the contact law in LAMMPS' syntax, e.g. \"gran/hertz/history 1e9 NULL 1e4 NULL 0.5 1\" or "
                 "\"granular hertz/material 7e10 0.3 0.3 tangential mindlin NULL 1.0 0.5\" (instead of --kn ...)");
  app.add_option("--hertz-mindlin", hertz_mindlin,
                 "Hertz-Mindlin as EDEM and LIGGGHTS define it, E=PA,nu=NU,e=RESTITUTION,mu=MU (both bodies one "
                 "material; instead of --kn ... or --lammps-pair), linearised as --lammps-pair")
      ->excludes(lammps_opt)
      ->excludes(kn_opt);
  app.add_option("--overlap", overlap, "with --lammps-pair: linearise at this overlap [m]");
  app.add_option("--normal-force", normal_force, "with --lammps-pair: linearise where the elastic normal force is this [N]");
  app.add_option("--r-eff", r_eff,
                 "with --lammps-pair: the effective radius R_eff [m] (default: from disc/sphere bodies)");
  app.add_option("--integrator", integrators,
                 "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
}

PairInput PairOptions::input() const {
  PairInput in{body1, body2, {}, lammps_pair, hertz_mindlin};
  auto put = [&](const char* key, const std::optional<double>& v) {
    if (v) in.law[key] = *v;
  };
  put("kn", kn), put("kt", kt), put("kt_ratio", kt_ratio), put("cn", cn), put("ct", ct), put("ct_ratio", ct_ratio);
  put("gamma_n", gamma_n), put("gamma_t", gamma_t), put("restitution", restitution);
  put("overlap", overlap), put("normal_force", normal_force), put("r_eff", r_eff);
  in.lammps_pair = lammps_pair;
  if (!lammps_pair.empty() || !hertz_mindlin.empty()) put("impact_velocity", impact_velocity);
  return in;
}

PairRequest PairOptions::request() const {
  PairRequest r;
  r.input = input();
  r.youngs = youngs, r.poisson = poisson, r.density = density, r.radius = radius, r.impact_velocity = impact_velocity;
  r.integrators = integrators;
  r.impact_angle = impact_angle;
  return r;
}

std::optional<Material> PairOptions::material() const { return requested_material(request()); }

void emit(OutputFiles& files, const std::string& path, const std::string& text) {
  if (path.empty()) std::cout << text << std::flush;
  else files.write_text(path, text);
}

}  // namespace dtcrit::cli
