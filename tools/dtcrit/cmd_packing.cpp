// dtcrit packing: critical time-steps of a whole packing (lattice or LAMMPS file). The request and
// its answer are the library's (packing/packing_request.hpp), shared with the Python module.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "progress.hpp"

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/packing/packing_request.hpp"

namespace dtcrit::cli {

namespace {

struct PackingOptions {
  packing::PackingRequest request;
  std::string bodies;  // contact-network file of rigid bodies (network/README.md): run_bodies
  bool json = false;
  std::string output;
  int confirm_steps = 0;
};

// dtcrit packing --bodies FILE: an assembly of rigid bodies of any shape from a contact network.
void run_bodies(const PackingOptions& opts) {
  const packing::PackingRequest& o = opts.request;
  auto reject_unread = [&](const packing::PackingRequest&, const std::string& option, const std::string& why) {
    if (o.given.count(option)) fail(fmt::format("{} {}", option, why));
  };
  // The file gives bodies, contacts, laws and their states: every option about those is an error.
  for (const char* opt : {"--lattice", "--lammps-data", "--lammps-dump", "--lammps-input"})
    reject_unread(o, opt, "conflicts with --bodies: give one source");
  for (const char* opt : {"--kn", "--kt", "--gamma-n", "--gamma-t", "--lammps-pair", "--hertz-mindlin", "--type-law"})
    reject_unread(o, opt, "does not apply with --bodies: each contact of the file carries its law");
  for (const char* opt : {"--n", "--radius", "--density", "--compression", "--radius-spread", "--seed", "--dimension",
                          "--disc", "--periodic", "--wall", "--box-walls", "--gap-tolerance"})
    reject_unread(o, opt, "does not apply with --bodies: the file gives the bodies, their contacts and the walls (fixed bodies)");
  reject_unread(o, "--lammps-contacts", "does not apply with --bodies: the file carries the contacts' histories");
  reject_unread(o, "--geometric-stiffness", "is not available with --bodies (the turning of a normal depends on the shapes)");
  for (const char* opt : {"--youngs", "--poisson"})
    reject_unread(o, opt, "does not apply with --bodies: the Rayleigh and P-wave times need spheres");
  reject_unread(o, "--confirm", "is not available with --bodies yet (the reference stepper has no rigid bodies)");
  if (o.eigensolver != "spectra") reject_unread(o, "--ncv", "is Spectra's basis size: it needs --eigensolver spectra");
  OutputFiles files;
  files.declare("--output", opts.output);
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto t_start = std::chrono::steady_clock::now();
  auto progress = [&](std::string_view what) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::cerr << fmt::format("[{:8.2f} s] {}\n", s, what) << std::flush;
  };
  progress("reading the contact network");
  const network::ContactNetwork net = network::read_network(opts.bodies);
  progress(fmt::format("assembling the global system ({} contacts)", net.contacts.size()));
  const packing::GlobalSystem sys(net, !o.no_rotation);
  packing::PackingAnalysisOptions ao;
  ao.integrators = expand_integrator_specs(o.integrators);
  ao.eigen.tolerance = require_positive("--lanczos-tol", o.lanczos_tol);
  ao.eigen.method = packing::parse_eigen_method(o.eigensolver);
  ao.eigen.ncv = o.ncv;
  ao.amplification_dofs = o.amplification_dofs;
  ao.progress = progress;
  const auto report = packing::analyse_system("contact network " + net.source, sys, ao);
  progress("done");

  // The effective inputs: bodies, the laws and how many contacts use each, histories.
  std::vector<std::size_t> uses(net.laws.size(), 0);
  std::size_t with_history = 0;
  for (const auto& c : net.contacts) ++uses[static_cast<std::size_t>(c.law)], with_history += c.has_history;
  double m0 = std::numeric_limits<double>::infinity(), m1 = 0.0, i0 = m0, i1 = 0.0;
  for (const auto& b : net.bodies) {
    if (b.fixed) continue;
    m0 = std::min(m0, b.mass), m1 = std::max(m1, b.mass);
    for (int d = net.dimension == 2 ? 2 : 0; d < 3; ++d) i0 = std::min(i0, b.moments[d]), i1 = std::max(i1, b.moments[d]);
  }
  const auto fixed = static_cast<Index>(net.bodies.size()) - net.free_bodies();
  const std::string history_line =
      with_history ? fmt::format("contact histories: {} of {} contacts carry one (from the file)", with_history, net.contacts.size())
                   : "contact histories: none in the file (zero, sticking)";
  const auto rec = recommend_from(report.integrators, o.margin);
  std::string text;
  if (opts.json) {
    auto j = to_json(report);
    nlohmann::json laws = nlohmann::json::array();
    for (std::size_t k = 0; k < net.laws.size(); ++k)
      laws.push_back({{"text", net.law_texts[k]}, {"description", contact::describe(net.laws[k])}, {"contacts", uses[k]}});
    j["inputs"] = {{"file", net.source},
                   {"dimension", net.dimension},
                   {"free_bodies", net.free_bodies()},
                   {"fixed_bodies", fixed},
                   {"mass_range_kg", {m0, m1}},
                   {"principal_moment_range_kg_m2", {i0, i1}},
                   {"laws", laws},
                   {"rotation", !o.no_rotation}};
    j["contact_histories"] = {{"read", with_history > 0}, {"summary", history_line}};
    if (rec) j["recommended_step"] = to_json(*rec);
    text = j.dump(2) + "\n";
  } else {
    text = history_line + "\ninputs:\n";
    text += fmt::format("  {}D, {} free bodies (m {:g}..{:g} kg, principal moments {:g}..{:g} kg m^2), {} fixed (walls)\n",
                        net.dimension, net.free_bodies(), m0, m1, i0, i1, fixed);
    for (std::size_t k = 0; k < net.laws.size(); ++k)
      text += fmt::format("  law '{}' ({} contacts): {}\n", net.law_texts[k], uses[k], contact::describe(net.laws[k]));
    text += "  arms: from each body's centre of mass to the contact point; torque arm = velocity arm\n\n";
    text += format_packing_table(report);
    if (rec) text += "\n" + format_recommendation(*rec);
  }
  if (opts.output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  files.write_text(opts.output, text);
  files.commit();
}

void run(const PackingOptions& o) {
  if (!o.bodies.empty()) return run_bodies(o);
  const auto& r = o.request;
  if (r.lattice.empty() && r.data_file.empty() && r.dump_file.empty() && r.lammps_input.empty())
    fail("give exactly one of --lattice, --lammps-data, --lammps-dump, --lammps-input and --bodies");
  // Every output is checked before the computation and written only once the report is complete.
  OutputFiles files;
  files.declare("--output", o.output);
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto t_start = std::chrono::steady_clock::now();
  auto progress = [&](std::string_view what) {
    if (!tty) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::cerr << fmt::format("[{:8.2f} s] {}\n", s, what) << std::flush;
  };
  const packing::PackingAnswer a = packing::answer_packing(o.request, progress);
  nlohmann::json confirmation = nlohmann::json::array();
  std::string confirmation_text;
  if (o.confirm_steps > 0) {
    // The stepper with the same law, mu so large that every contact sticks, from a perturbation of
    // 1e-4 of the smallest overlap.
    packing::ContactLaws sticking = a.laws;
    for (contact::ContactLaw* law : {&sticking.base}) {
      law->mu = 1e6;
      if (law->rolling != contact::RollingModel::none) law->mu_roll = 1e6;
      if (law->twisting == contact::TwistingModel::sds) law->mu_twist = 1e6;
    }
    double dmin = std::numeric_limits<double>::infinity();
    for (const auto& c : a.system->contacts().contacts) dmin = std::min(dmin, c.overlap);
    if (!(dmin > 0.0)) fail("--confirm needs every contact closed (overlap > 0): compress the packing");
    // Forces on the unperturbed packing: a packing off equilibrium relaxes, which the growth
    // measure (separation from an unperturbed run) takes out.
    const double residual = packing::equilibrium_residual(a.packing, sticking);
    confirmation_text = fmt::format(
        "\nconfirmation with the reference stepper: growth of the separation between a run perturbed by 1e-4 of\n"
        "the smallest overlap and an unperturbed one (initial force residual {:.2g} kn x smallest overlap{}):\n",
        residual, residual < 1e-9 ? ", in equilibrium" : ", the packing relaxes; its motion cancels out");
    std::size_t runs = 0, done = 0;
    for (const auto& lim : a.report.integrators) runs += lim.stability == Stability::conditional ? 2 : 0;
    const auto confirm_start = std::chrono::steady_clock::now();
    for (const auto& lim : a.report.integrators) {
      if (lim.stability != Stability::conditional || !lim.converged) continue;
      for (double f : {0.99, 1.01}) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - confirm_start).count();
        progress(fmt::format("stepper: {} at {} h_crit (run {}/{}{}{})", lim.name, f, done + 1, runs,
                             done ? ", " : "", time_left(spent, done, runs)));
        ++done;
        const auto run = packing::confirm_with_stepper(a.packing, sticking, lim.name, lim.h_crit, f, o.confirm_steps, 1e-4 * dmin,
                                                       7, 0.0, &a.system->contacts());
        confirmation.push_back({{"integrator", run.integrator}, {"factor", run.factor}, {"h", run.h},
                                {"steps", run.steps}, {"growth", std::isfinite(run.growth) ? nlohmann::json(run.growth) : nlohmann::json(nullptr)},
                                {"unconverged_steps", run.unconverged_steps},
                                {"equilibrium_residual", residual}});
        confirmation_text += fmt::format("  {:<24} {:.2f} h_crit = {:.6g} s: {} steps, max growth {:.4g}{}\n", run.integrator,
                                         run.factor, run.h, run.steps, run.growth,
                                         run.unconverged_steps ? fmt::format(" (SOLVER FAILURE: Newton did not converge "
                                                                             "in {} steps)", run.unconverged_steps)
                                                               : "");
      }
    }
    if (confirmation.empty()) confirmation_text += "  none of the integrators is conditionally stable: nothing to confirm\n";
  }
  if (!a.bound_warning.empty()) std::cerr << "dtcrit: warning: " << a.bound_warning << "\n";
  std::string text;
  if (o.json) {
    auto j = to_json(a);
    if (o.confirm_steps > 0) j["confirmation"] = confirmation;
    text = j.dump(2) + "\n";
  } else {
    text = format_packing_answer(a, confirmation_text);
  }
  if (o.output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  files.write_text(o.output, text);
  files.commit();
}

}  // namespace

void add_packing_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("packing",
                                 "critical time-steps of a whole packing (lattice, LAMMPS file, or a contact network of "
                                 "rigid bodies)");
  auto o = std::make_shared<PackingOptions>();
  packing::PackingRequest& r = o->request;
  cmd->add_option("--lattice", r.lattice, "regular lattice: square, hex (2D discs), sc, bcc, fcc (3D spheres)");
  cmd->add_option("--n", r.n, "lattice unit cells per side (square, sc: 1 particle per cell; hex, bcc: 2; fcc: 4)");
  cmd->add_option("--lammps-data", r.data_file, "LAMMPS data file (write_data, atom_style sphere)");
  cmd->add_option("--lammps-dump", r.dump_file, "LAMMPS text dump with radius (or diameter) and positions; last snapshot");
  cmd->add_option("--lammps-input", r.lammps_input,
                  "your LAMMPS input script (units si): read_data, boundary, pair_style/pair_coeff, fix wall/gran "
                  "planes, timestep, fix nve/sphere; answers whether its timestep is safe for the packing");
  cmd->add_option("--bodies", o->bodies,
                  "contact network of rigid bodies of any shape: FILE.json, or a CSV pair ...bodies....csv + "
                  "...contacts....csv (bodies with mass, inertia tensor, centre, fixed; contacts with point, normal, "
                  "law, overlap; lib/dtcrit/network/README.md)");
  cmd->add_option("--lammps-contacts", r.lammps_contacts,
                  "contact histories: a local dump of compute property/local patom1 patom2 + compute pair/local dist "
                  "force p1 p2 p3 [p5 p6 p7], or a per-atom dump of fix wall/gran ... contacts (f_ID[1..8]); repeatable");
  cmd->add_option("--radius", r.radius, "lattice particle radius [m]")->capture_default_str();
  cmd->add_option("--density", r.density, "lattice density, or density for a dump without a mass column [kg/m^3]")
      ->capture_default_str();
  cmd->add_option("--compression", r.compression,
                  "lattice: nearest-neighbour distance 2r(1 - c), so every contact overlaps by 2rc")
      ->capture_default_str();
  cmd->add_option("--radius-spread", r.radius_spread, "lattice: radii r(1 + s U(-1,1)) (polydisperse)")
      ->capture_default_str();
  cmd->add_option("--seed", r.seed, "seed of --radius-spread")->capture_default_str();
  cmd->add_option("--dimension", r.dimension, "files: 2 (discs, z dropped) or 3")->capture_default_str();
  cmd->add_flag("--disc", r.disc,
                "2D bodies as discs: m = rho pi r^2, I = m r^2 / 2 (LAMMPS set density/disc, fix nve/sphere disc); "
                "default: LAMMPS' sphere mass and inertia");
  auto* lammps_opt = cmd->add_option("--lammps-pair", r.lammps_pair,
                  "the contact law in LAMMPS' syntax instead of --kn ...: \"gran/hertz/history 1e9 NULL 1e4 NULL 0.5 "
                  "1\" or \"granular hertz/material 7e10 0.3 0.3 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 50 "
                  "0.3\"; linearised at each contact's overlap");
  cmd->add_flag("--geometric-stiffness", r.geometric_stiffness,
                "add the turning of each contact normal under its normal force (-F_n/|x_i - x_j| across the normal)");
  auto* kn_opt = cmd->add_option("--kn", r.kn, "normal stiffness k_n [N/m] (LAMMPS gran/hooke/history)");
  cmd->add_option("--hertz-mindlin", r.hertz_mindlin,
                  "Hertz-Mindlin as EDEM and LIGGGHTS define it, E=PA,nu=NU,e=RESTITUTION,mu=MU (instead of --kn ... "
                  "or --lammps-pair); linearised at each contact's overlap")
      ->excludes(lammps_opt)
      ->excludes(kn_opt);
  cmd->add_option("--kt", r.kt, "tangential stiffness k_t [N/m]");
  cmd->add_option("--gamma-n", r.gamma_n, "normal damping per unit effective mass [1/s]: c_n = m_eff gamma_n (default 0)");
  cmd->add_option("--gamma-t", r.gamma_t, "tangential damping per unit effective mass [1/s] (default gamma_n / 2, "
                                           "as LAMMPS' gran/hooke/history with NULL)");
  cmd->add_option("--margin", r.margin,
                  "recommended step = margin x the limit of velocity_verlet (or of the first --integrator when "
                  "velocity_verlet is not among them); results/GUIDE.md says why 0.8")
      ->capture_default_str();
  cmd->add_option("--type-law", r.type_laws,
                  "law of one pair of atom types, e.g. types=1-2,kn=2e5,kt=1e5 (other keys: gamma_n, gamma_t; "
                  "keys not given are the base law's); repeatable");
  cmd->add_option("--periodic", r.periodic,
                  "periodic axes, e.g. x,y, or none (lattices default to all, data files to none, dumps to BOX BOUNDS)");
  cmd->add_option("--wall", r.walls,
                  "plane wall, e.g. z=0 (faces the packing) or z=0,kn=1e6,kt=5e5; repeatable");
  cmd->add_option("--gap-tolerance", r.gap_tolerance,
                  "contact when |x_i - x_j| < (r_i + r_j)(1 + tol) (default 1e-9 for lattices, 0 for files)");
  cmd->add_flag("--no-rotation", r.no_rotation, "translational degrees of freedom only");
  cmd->add_option("--integrator", r.integrators,
                  "integrator whose exact limit to report (repeatable; 'all' = every registry row, 'none')")
      ->capture_default_str();
  cmd->add_option("--youngs", r.youngs, "Young's modulus E [Pa], for the Rayleigh and P-wave times");
  cmd->add_option("--poisson", r.poisson, "Poisson ratio nu, for the Rayleigh time");
  cmd->add_flag("--box-walls", r.box_walls,
                "lattice with --periodic none: six (four) walls pressed in by the compression overlap 2 r c, so that a "
                "compressed sc or square lattice is in equilibrium");
  cmd->add_option("--confirm", o->confirm_steps,
                  "run the reference stepper this many steps at 0.99 and 1.01 h_crit of each integrator from a small "
                  "perturbation and report the growth (no periodic axes; contacts held sticking)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("-o,--output", o->output, "write to this file instead of the terminal");
  cmd->add_option("--lanczos-tol", r.lanczos_tol, "relative residual tolerance of the iterative eigensolvers")->capture_default_str();
  cmd->add_option("--eigensolver", r.eigensolver,
                  "omega_max by: auto (dense up to 600 dofs, else lanczos), dense, lanczos (three-term, matrix-free), "
                  "spectra (Spectra's restarted Lanczos, matrix-free)")
      ->capture_default_str();
  cmd->add_option("--ncv", r.ncv, "Spectra's Lanczos basis size (--eigensolver spectra)")->capture_default_str();
  cmd->add_option("--amplification-dofs", r.amplification_dofs,
                  "damped packings up to this many dofs: amplification matrix for every integrator")
      ->capture_default_str();
  cmd->footer(
      "Damping: --gamma-n sets the normal dashpot per unit effective mass; without --gamma-t, gamma_t = gamma_n / 2 "
      "(LAMMPS' gran/hooke/history with NULL), also in --type-law and --wall. The report starts with "
      "the effective inputs and the defaults applied, and ends with the recommended step. --lammps-pair gives the "
      "whole law in LAMMPS' syntax instead.");
  cmd->callback([o, cmd] {
    for (const CLI::Option* opt : cmd->get_options())
      if (opt->count() > 0) o->request.given.insert(opt->get_name());
    run(*o);
  });
}

}  // namespace dtcrit::cli
