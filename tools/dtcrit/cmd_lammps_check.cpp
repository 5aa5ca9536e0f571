// dtcrit lammps-check: predict the critical step of LAMMPS' fix nve/sphere on a packing, then run
// the user's own LAMMPS at a reference step (half of it), at 0.99 and at 1.01 of it, each twice (from
// rest and perturbed), and report how much more the two runs separate at 0.99 and 1.01 than at the
// reference step.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"
#include "packing_options.hpp"
#include "progress.hpp"

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/packing/confirmation.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/packing/lammps_probe.hpp"
#include "dtcrit/lammps/lammps_run.hpp"
#include "dtcrit/packing/packing_request.hpp"
#include "dtcrit/io/json_text.hpp"

namespace dtcrit::cli {

namespace {

namespace fs = std::filesystem;
using packing::find_executable;
using packing::shell_quoted;

struct CheckOptions {
  packing::PackingRequest packing;
  bool json = false;
  std::string lmp = "lmp";
  int mpi = 0;             // processes of mpirun; 0: run lmp directly
  int steps = 1000;
  int settle_steps = 2000;  // at the reference step, before each measured run
  std::vector<double> factors;  // more steps to probe (x h_crit), beside 0.99 and 1.01
  double perturbation = 1e-8;  // small: growth above the limit stops once contacts slide (Coulomb)
  std::string keep_probe;  // folder to keep the probe's files in
  bool lift_caps = false;  // every friction coefficient of the probe's law set to 1e4
};

// The executable a command name runs: itself when it names a path, else the first match on PATH.
std::string last_lines(const fs::path& file, std::size_t n) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::string out;
  for (std::size_t k = lines.size() > n ? lines.size() - n : 0; k < lines.size(); ++k) out += "\n    " + lines[k];
  return out;
}

// The probe's folder: kept (--keep-probe) or a fresh temporary one removed at the end.

// What dtcrit finds on the state LAMMPS settled to.
struct Settled {
  Index pair_contacts = 0, wall_contacts = 0;
  double h_crit = 0.0;
};

struct RunResult {
  packing::ProbeRun run;
  std::vector<packing::SeparationFrame> frames;
  double separation0 = 0.0;     // kinetic energy of the velocity difference at step 0 [J]
  double separation_max = 0.0;  // its maximum over the compared steps [J]
  double rest_max = 0.0;        // the run from rest's own maximum kinetic energy [J]
};

// Runs one probe script in the folder; a failing LAMMPS is an error with its last output lines.
void run_lammps(const packing::ScratchFolder& folder, const std::string& launcher, const std::string& input, const std::string& tag,
                double factor) {
  const std::string screen = "screen_" + tag + ".txt";
  const std::string command = fmt::format("cd {} && {} -in {} -log {} -screen none > {} 2>&1",
                                          shell_quoted(fs::absolute(folder.path()).string()),  // a name may begin with -
                                          launcher, input, "log_" + tag + ".lammps", shell_quoted(screen));
  const int status = std::system(command.c_str());
  const int code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code != 0)
    fail(fmt::format("LAMMPS failed (exit status {}) on the probe at {} h_crit: {} -in {}{}; its last output:{}{}", code,
                     factor, launcher, input, folder.kept() ? fmt::format(" in {}", folder.path().string()) : "",
                     last_lines(folder.path() / screen, 6),
                     folder.kept() ? "" : "\n  (rerun with --keep-probe DIR to keep the probe's files)"));
}

void run(const CheckOptions& c) {
  // The request as lammps-check asks it: the limit of velocity Verlet (LAMMPS' fix nve/sphere) only.
  packing::PackingRequest o = c.packing;
  o.integrators = {"velocity_verlet"};
  packing::check_packing_request(o);
  using packing::reject_unread;
  reject_unread(o, "--no-rotation", "does not apply: LAMMPS' fix nve/sphere integrates the rotations");
  reject_unread(o, "--lammps-contacts",
                "does not apply: LAMMPS starts every contact history of the probe at zero (a data file carries none), "
                "so the prediction is made at zero histories too");
  if (c.steps < 1) fail(fmt::format("--steps {} must be at least 1", c.steps));
  if (c.settle_steps < 0) fail(fmt::format("--settle-steps {} must be 0 or more", c.settle_steps));
  for (double f : c.factors)
    if (!(f > 0.0) || !std::isfinite(f) || f == packing::probe_reference_factor || f == 0.99 || f == 1.01)
      fail(fmt::format("--factors {}: each must be a positive multiple of h_crit other than 0.5, 0.99 and 1.01 (probed "
                       "anyway)",
                       f));
  if (!(c.perturbation > 0.0) || !std::isfinite(c.perturbation))
    fail(fmt::format("--perturbation {} must be a positive number", c.perturbation));
  if (c.mpi < 0) fail(fmt::format("--mpi {} must be a number of processes >= 1", c.mpi));
  // The user's LAMMPS first: no answer without it, so no computation either.
  const std::string lmp = find_executable(c.lmp);
  if (lmp.empty())
    fail(fmt::format("--lmp '{}': LAMMPS not found{} (install it, e.g. Debian's lammps package: "
                     "DTCRIT_WITH_LAMMPS=1 tools/setup.sh, or give --lmp PATH)",
                     c.lmp, c.lmp.find('/') == std::string::npos ? " on PATH" : " or not executable"));
  std::string mpirun;
  if (c.mpi > 0) {
    mpirun = find_executable("mpirun");
    if (mpirun.empty()) fail(fmt::format("--mpi {}: mpirun not found on PATH", c.mpi));
  }
  if (!c.keep_probe.empty()) {
    const fs::path keep(c.keep_probe);
    if (fs::exists(keep) && (!fs::is_directory(keep) || !fs::is_empty(keep)))
      fail(fmt::format("--keep-probe '{}' exists and is not an empty folder", c.keep_probe));
    const fs::path parent = keep.has_parent_path() ? keep.parent_path() : fs::path(".");
    if (!fs::is_directory(parent)) fail(fmt::format("--keep-probe '{}': folder '{}' does not exist", c.keep_probe, parent.string()));
  }

  const auto progress = terminal_progress();
  // The prediction: LAMMPS' fix nve/sphere is velocity Verlet (with damping, its exact damped limit).
  const packing::PackingAnswer problem = packing::answer_packing(o, progress);
  const packing::Packing& p = problem.packing;
  const packing::GlobalSystem& sys = *problem.system;
  const packing::PackingReport& report = problem.report;
  const bool discs = packing::probe_discs(p);  // fix nve/sphere disc (2D)
  const auto lim_it = std::find_if(report.integrators.begin(), report.integrators.end(),
                                   [](const auto& l) { return l.name == "velocity_verlet"; });
  if (lim_it == report.integrators.end()) fail("no limit of velocity_verlet in the analysis");
  const packing::PackingIntegratorLimit& lim = *lim_it;
  if (lim.stability != Stability::conditional || !lim.converged || !std::isfinite(lim.h_crit))
    fail(fmt::format("no finite critical step of velocity_verlet to check ({})", lim.method));
  // The contacts as LAMMPS will see them: every one closed, or a jkr contact the probe touches first.
  const packing::ProbeContacts seen = packing::probe_contacts(p, sys.contacts());
  const double d_min = seen.smallest_overlap;

  // LAMMPS' commands for the law and the walls: the script's own, or written from the law. A law
  // from --kn has no friction coefficient: the probe's contacts stick, as the analysis assumes, with
  // the largest xmu LAMMPS accepts (1e4: PairGranHookeHistory::settings(), pair_gran_hooke_history.cpp).
  const bool from_coefficients = !problem.script && o.lammps_pair.empty() && o.hertz_mindlin.empty();
  std::vector<std::string> law_commands =
      problem.script ? problem.script->law_commands
                     : packing::lammps_law_commands(p, problem.laws, o.lammps_pair, from_coefficients ? 1e4 : -1.0);
  if (problem.script)  // the script's gravity holds its settled packing where the data file has it
    law_commands.insert(law_commands.end(), problem.script->load_commands.begin(), problem.script->load_commands.end());
  // --lift-caps: no contact slides or reaches its rolling or twisting cap in the probe, as in the
  // linearisation (sticking); the user's own run keeps its caps, which can stop the growth above h_crit.
  std::vector<std::string> lift_notes;
  if (c.lift_caps) law_commands = packing::with_friction_caps_lifted(law_commands, 1e4, lift_notes);

  const double amplitude = c.perturbation * d_min * report.omega_max;
  const double e0 = packing::probe_kick_energy(p, amplitude);  // expected; S(0) is measured
  // fix halt stops either run once its kinetic energy passes e_halt: 1e12 x E0 (1e6 in amplitude,
  // where confirm_with_stepper stops too) plus the energy of every particle moving at (A x omega_max),
  // A = min(100 largest overlaps, 0.1 smallest radius): far above the packing's own relaxation
  // (displacements of the order of the overlaps), and before a blow-up carries particles through
  // each other and the walls (LAMMPS then crawls: a 27-sphere box compressed by 5 % ran for minutes).
  double d_max = 0.0, m_total = 0.0, r_min = p.radius.front();
  for (const auto& contact : sys.contacts().contacts) d_max = std::max(d_max, contact.overlap);
  for (double m : p.mass) m_total += m;
  for (double r : p.radius) r_min = std::min(r_min, r);
  const double halt_amplitude = std::min(100.0 * d_max, 0.1 * r_min);  // [m]
  const double e_halt = 1e12 * e0 + 0.5 * m_total * std::pow(halt_amplitude * report.omega_max, 2);
  // Frames dumped: every step up to 2e5 particle rows per run, sparser beyond (growth is exponential).
  const int dump_every = std::max(1, static_cast<int>(std::ceil(static_cast<double>(c.steps) * p.size() / 2e5)));

  const packing::ScratchFolder folder("dtcrit-probe", c.keep_probe);
  packing::write_lammps_data((folder.path() / "probe.data").string(), p);
  std::string launcher = "OMP_NUM_THREADS=1 ";
  if (c.mpi > 0) launcher += fmt::format("{} -np {} ", shell_quoted(mpirun), c.mpi);
  launcher += shell_quoted(lmp);

  // The state LAMMPS settles to is analysed again: a packing that gains contacts while it settles is
  // stiffer than the one predicted for.
  const bool reanalyse = c.settle_steps > 0 && (problem.script || !o.data_file.empty());
  // Each step run from rest and perturbed: the reference step well below the limit (over the time of
  // the 1.01 run), then 0.99 and 1.01 of the prediction and any --factors, judged against it.
  std::vector<packing::ProbeStep> steps;
  std::vector<RunResult> results;
  std::vector<std::string> probe_notes = lift_notes;  // what the probe writes differently from the script, and why
  if (seen.open_cohesive > 0)
    probe_notes.push_back(fmt::format(
        "{} jkr contacts analysed as touching lie within their pull-off distance (overlap <= 0): LAMMPS starts the "
        "contacts of a data file untouched and keeps such a pair only once it has touched, so the probe touches them "
        "first (every radius grown by {:.6g} {} for one force evaluation, run 0, then restored)",
        seen.open_cohesive, seen.touch_growth, report.units.length));
  std::vector<double> factors{packing::probe_reference_factor, 0.99, 1.01};
  factors.insert(factors.end(), c.factors.begin(), c.factors.end());
  for (double factor : factors) {
    RunResult r;
    r.run.factor = factor;
    r.run.h = factor * lim.h_crit;
    // The reference covers the time of the 1.01 run; a longer --factors run is judged against all of it.
    const double time_factor = factor == packing::probe_reference_factor ? 1.01 / factor : 1.0;
    r.run.steps = static_cast<int>(std::ceil(c.steps * time_factor - 1e-9));
    r.run.dump_every = static_cast<int>(std::ceil(dump_every * time_factor - 1e-9));
    r.run.settle_steps = c.settle_steps;
    r.run.settle_h = packing::probe_reference_factor * lim.h_crit;
    r.run.touch_growth = seen.touch_growth;
    const std::string tag = fmt::format("{:.2f}", factor);
    if (std::any_of(results.begin(), results.end(), [&](const RunResult& o) { return fmt::format("{:.2f}", o.run.factor) == tag; }))
      fail(fmt::format("--factors {}: two probed steps share the tag {} (give factors that differ by 0.01 or more)", factor, tag));
    for (const bool perturbed : {false, true}) {
      const std::string run_tag = (perturbed ? "perturbed_" : "rest_") + tag;
      const std::string input = "in.probe_" + run_tag;
      packing::ProbeRun run = r.run;
      run.kick = perturbed ? amplitude : 0.0;
      // Every run writes its settled state, so that the two runs of a step do the same operations
      // (write_data re-sorts the atoms, which changes the forces' rounding); the reference's run from
      // rest gives the state analysed again.
      if (reanalyse) run.settled_data = "settled_" + run_tag + ".data";
      {
        const std::string units = problem.script ? problem.script->units.name : "si";
        const std::string dump = "velocities_" + run_tag + ".dump";
        std::string script = packing::probe_script(p, law_commands, "probe.data", dump, run, e_halt, units);
        if (problem.script) {
          // Its tsuji walls' restitutions, for the probe's own count of LAMMPS initialisations (its run
          // and write_data lines, which the wall lines written below do not change).
          std::vector<std::string> notes;
          const auto commands = packing::probe_wall_commands(law_commands, problem.script->wall_laws,
                                                             packing::probe_initialisations(script), notes);
          if (!notes.empty()) script = packing::probe_script(p, commands, "probe.data", dump, run, e_halt, units);
          for (const auto& n : notes)
            if (std::find(probe_notes.begin(), probe_notes.end(), n) == probe_notes.end()) probe_notes.push_back(n);
        }
        std::ofstream in(folder.path() / input);
        in << script;
        if (!in) fail(fmt::format("cannot write {}", (folder.path() / input).string()));
      }
      progress(fmt::format("LAMMPS at {} h_crit = {:.6g} {}, {} steps, {}{}", factor, r.run.h, report.units.time,
                           r.run.steps, perturbed ? "perturbed" : "from rest",
                           factor == packing::probe_reference_factor ? " (the reference step)" : ""));
      run_lammps(folder, launcher, input, run_tag, factor);
    }
    r.frames = packing::read_probe_separation((folder.path() / ("velocities_rest_" + tag + ".dump")).string(),
                                              (folder.path() / ("velocities_perturbed_" + tag + ".dump")).string(),
                                              discs ? 0.5 : 0.4);
    // judge_probe_step refuses frames without a separation at step 0, naming the step.
    const bool halted = !r.frames.empty() && r.frames.back().step + r.run.dump_every <= r.run.steps;
    steps.push_back(packing::judge_probe_step(r.frames, factor, halted, results.empty() ? r.frames : results.front().frames,
                                              packing::probe_reference_factor));
    r.separation0 = r.frames.front().separation_energy;
    for (const auto& f : r.frames) {
      r.separation_max = std::max(r.separation_max, f.separation_energy);
      r.rest_max = std::max(r.rest_max, f.rest_energy);
    }
    results.push_back(std::move(r));
  }
  auto verdict = packing::probe_verdict(steps[0], steps[1], steps[2], c.lift_caps);
  std::optional<Settled> settled;
  if (reanalyse) {
    packing::PackingRequest again = o;
    again.data_file = (folder.path() / fmt::format("settled_rest_{:.2f}.data", packing::probe_reference_factor)).string();
    again.lammps_restart.clear();
    again.run_in_lammps = false;
    progress("dtcrit on the state LAMMPS settled to");
    const packing::PackingAnswer a = packing::answer_packing(again, progress);
    const auto it = std::find_if(a.report.integrators.begin(), a.report.integrators.end(),
                                 [](const auto& l) { return l.name == "velocity_verlet"; });
    settled = Settled{a.system->contacts().pair_contacts, a.system->contacts().wall_contacts,
                      it != a.report.integrators.end() && it->converged ? it->h_crit : std::nan("")};
    if (!verdict.confirmed && std::isfinite(settled->h_crit) && settled->h_crit < 0.99 * lim.h_crit)
      verdict.text += fmt::format(". The packing LAMMPS settled to is not the one analysed: it has {} pair and {} wall "
                                  "contacts (analysed: {} and {}) and its own limit is {:.6g} {}, {:.4g} of the "
                                  "prediction: analyse the state your run is in (write_data after it has settled)",
                                  settled->pair_contacts, settled->wall_contacts, sys.contacts().pair_contacts,
                                  sys.contacts().wall_contacts, settled->h_crit, report.units.time,
                                  settled->h_crit / lim.h_crit);
  }

  std::string source = problem.script ? "--lammps-input " + problem.script->path : p.source;
  if (c.json) {
    nlohmann::json j;
    j["inputs"] = packing::inputs_json(p, problem.laws, problem.defaults, report.units);
    j["source"] = source;
    j["contact_histories"] = problem.history_line;
    j["prediction"] = {{"integrator", "velocity_verlet"},
                       {"lammps_fix", "nve/sphere"},
                       {"h_crit", lim.h_crit},
                       {"h_crit_unit", report.units.time},
                       {"method", lim.method},
                       {"omega_max", report.omega_max},
                       {"omega_max_unit", "rad/" + report.units.time},
                       {"damped", report.damped}};
    if (problem.diverging && problem.diverging->converged) {
      j["prediction"]["h_diverge"] = problem.diverging->h;
      j["prediction"]["h_diverge_upper_bound"] = problem.diverging->upper_bound;
    }
    j["probe"] = {{"lmp", lmp},
                  {"launcher", launcher},
                  {"mpi_processes", c.mpi},
                  {"steps", c.steps},
                  {"perturbation", c.perturbation},
                  {"friction_caps_lifted", c.lift_caps},
                  {"velocity_amplitude", amplitude},
                  {"velocity_amplitude_unit", report.units.length + "/" + report.units.time},
                  {"expected_kick_energy", e0},
                  {"settle_steps", c.settle_steps},
                  {"energy_unit", report.units.energy},
                  {"halt_energy", e_halt},
                  {"dump_every", dump_every},
                  {"measure", "separation energy 1/2 sum m |v - v_rest|^2 + 1/2 I |w - w_rest|^2 of the perturbed "
                              "run against the run from rest; growth = sqrt(max / value at step 0); excess = growth / "
                              "the reference step's growth over the same physical time; same_time_excess = the "
                              "largest sqrt(E(t) / S(0)) / sqrt(E_ref(t) / S_ref(0)) at equal physical times t, E the "
                              "largest S over the twentieth of the run before t"},
                  {"reference_factor", packing::probe_reference_factor},
                  {"law_commands", law_commands},
                  {"folder", folder.kept() ? nlohmann::json(folder.path().string()) : nlohmann::json(nullptr)}};
    j["runs"] = nlohmann::json::array();
    auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    for (std::size_t k = 0; k < results.size(); ++k) {
      const RunResult& r = results[k];
      const packing::ProbeStep& st = steps[k];
      j["runs"].push_back({{"factor", r.run.factor},
                           {"reference", k == 0},
                           {"h", r.run.h},
                           {"h_unit", report.units.time},
                           {"steps", r.run.steps},
                           {"steps_compared", st.steps_compared},
                           {"halted", st.halted},
                           {"initial_separation_energy", r.separation0},
                           {"max_separation_energy", finite(r.separation_max)},
                           {"max_rest_run_kinetic_energy", finite(r.rest_max)},
                           {"energy_unit", report.units.energy},
                           {"growth", finite(st.growth)},
                           {"reference_growth", finite(st.reference_growth)},
                           {"excess", finite(st.excess)},
                           {"same_time_excess", finite(st.same_time_excess)},
                           {"late_rise", finite(st.late_rise)},
                           {"course", std::string(packing::to_string(st.course))}});
    }
    if (settled)
      j["settled"] = {{"pair_contacts", settled->pair_contacts},
                      {"wall_contacts", settled->wall_contacts},
                      {"analysed_pair_contacts", sys.contacts().pair_contacts},
                      {"analysed_wall_contacts", sys.contacts().wall_contacts},
                      {"h_crit", std::isfinite(settled->h_crit) ? nlohmann::json(settled->h_crit) : nlohmann::json(nullptr)},
                      {"h_crit_unit", report.units.time}};
    j["verdict"] = verdict.confirmed ? "CONFIRMED" : "NOT CONFIRMED";
    j["message"] = verdict.text;
    j["warnings"] = nlohmann::json::array();
    if (!problem.bound_warning.empty()) j["warnings"].push_back(problem.bound_warning);
    j["notes"] = probe_notes;
    std::cout << json_text(j) << "\n";
    return;
  }
  std::string t;
  if (problem.script) {
    t += fmt::format("LAMMPS input {} (units {}): the physics of {}, applied to the state of {}\n",
                     problem.script->path, problem.script->units.name, problem.script->run_taken,
                     problem.script->data_file);
    for (const auto& line : problem.script->taken) t += "  " + line + "\n";
    t += "\n";
  }
  t += problem.history_line + "\n";
  const UnitSystem& u = report.units;
  t += packing::inputs_text(p, problem.laws, problem.defaults, u);
  t += fmt::format("prediction: LAMMPS' fix nve/sphere is velocity Verlet{}\n", report.damped ? " (damped: its exact damped limit)" : "");
  t += fmt::format("  omega_max                   {:.6g} rad/{}\n  h_crit velocity_verlet      {:.6g} {} ({})\n",
                   report.omega_max, u.time, lim.h_crit, u.time, lim.method);
  if (problem.diverging && problem.diverging->converged)
    t += fmt::format("  h_diverge (all sliding)     {:.6g} {} = {:.4g} h_crit (every contact sliding: normal springs and "
                     "dashpots only{})\n",
                     problem.diverging->h, u.time, problem.diverging->h / lim.h_crit,
                     problem.diverging->upper_bound ? "; an upper bound" : "");
  t += "\n";
  t += fmt::format("LAMMPS probe: {} -in ..., {} particles, {} steps per run at 0.99 and 1.01 h_crit and the same time "
                   "at the reference step {} h_crit, two runs per step (from rest and perturbed){}\n",
                   launcher, p.size(), c.steps, packing::probe_reference_factor,
                   folder.kept() ? fmt::format(", files kept in {}", folder.path().string()) : "");
  for (const auto& l : packing::lammps_region_commands(p)) t += "  " + l + "\n";
  for (const auto& l : law_commands) t += "  " + l + "\n";
  if (c.settle_steps > 0)
    t += fmt::format("  each run first settles for {} steps at the reference step (--settle-steps): LAMMPS rebuilds the "
                     "contact histories the data file does not carry\n",
                     c.settle_steps);
  t += fmt::format("  then the perturbed run gets random velocities up to {:.4g} {}/{} (--perturbation {:g} x smallest "
                   "overlap {:.4g} {} x omega_max) and spins up to that / r, expected kinetic energy {:.6g} {}\n",
                   amplitude, u.length, u.time, c.perturbation, d_min, u.length, e0, u.energy);
  const std::string& energy = u.energy;
  t += fmt::format("  measured: separation energy S = 1/2 sum m |v - v_rest|^2 + 1/2 I |w - w_rest|^2 [{}] of the "
                   "perturbed run against the run from rest, I = {} m r^2 (LAMMPS' dumps, every {} step(s)); a "
                   "packing not at rest relaxes alike in both and cancels out; fix halt at KE > {:.3g} {}\n",
                   energy, discs ? "1/2" : "2/5", dump_every, e_halt, energy);
  t += fmt::format("  growth = sqrt(max S / S(0)); excess = growth / the reference step's growth over the same time (what "
                   "LAMMPS does beyond what the packing does anyway: a flowing packing separates its two runs by itself); "
                   "same time = the largest sqrt(E(t) / S(0)) over the reference's at the same physical time t, E the "
                   "largest S over the twentieth of the run before t (a damped packing's reference decays)\n");
  t += fmt::format("  {:<6} {:>12} {:>7} {:>12} {:>12} {:>14} {:>10} {:>10} {:>10}  {}\n", "factor", "h [" + u.time + "]",
                   "steps", "S(0) [" + energy + "]", "max S", "max KE rest", "growth", "excess", "same time", "course");
  for (std::size_t k = 0; k < results.size(); ++k)
    t += fmt::format("  {:<6.2f} {:>12.6g} {:>7} {:>12.4g} {:>12.4g} {:>14.4g} {:>10.4g} {:>10.4g} {:>10.4g}  {}{}\n",
                     results[k].run.factor, results[k].run.h, steps[k].steps_compared, results[k].separation0,
                     results[k].separation_max, results[k].rest_max, steps[k].growth, steps[k].excess,
                     steps[k].same_time_excess,
                     k == 0 ? "reference" : packing::to_string(steps[k].course), steps[k].halted ? " (halted)" : "");
  if (settled)
    t += fmt::format("  the state LAMMPS settled to (settled_rest_0.50.data): {} pair and {} wall contacts (analysed: {} and {}); "
                     "dtcrit's h_crit on it {:.6g} {} ({:.6g} of the prediction)\n",
                     settled->pair_contacts, settled->wall_contacts, sys.contacts().pair_contacts,
                     sys.contacts().wall_contacts, settled->h_crit, u.time, settled->h_crit / lim.h_crit);
  if (!problem.bound_warning.empty()) t += "\nwarning: " + problem.bound_warning + "\n";
  for (const auto& n : probe_notes) t += "note: " + n + "\n";
  if (c.lift_caps)
    t += "\nwith --lift-caps: LAMMPS ran every contact sticking (friction coefficients 1e4), as the linearisation "
         "does; this checks the linear limit, not your run, whose Coulomb, rolling and twisting caps can stop the "
         "growth above h_crit (friction and rolling resistance then numerically wrong)\n";
  t += fmt::format("\n{}\n", verdict.text);
  std::cout << t << std::flush;
}

}  // namespace

void add_lammps_check_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "lammps-check",
      "predict the critical step of LAMMPS' fix nve/sphere on a packing, then run your LAMMPS at 0.99 and 1.01 of it "
      "and at a reference step of half of it (each from rest and perturbed), and report how much more the two runs "
      "separate at 0.99 and 1.01 than at the reference step");
  auto c = std::make_shared<CheckOptions>();
  add_packing_request_options(cmd, c->packing);
  cmd->add_flag("--json", c->json, "print one JSON object");
  cmd->add_option("--lmp", c->lmp, "the LAMMPS executable (a name on PATH or a path)")->capture_default_str();
  cmd->add_option("--mpi", c->mpi, "run LAMMPS as mpirun -np P LMP");
  cmd->add_option("--steps", c->steps, "steps of each LAMMPS run")->capture_default_str();
  cmd->add_option("--perturbation", c->perturbation,
                  "the perturbed run's random velocities, up to this fraction of (smallest overlap x omega_max), and spins up to that / r [-]")
      ->capture_default_str();
  cmd->add_option("--factors", c->factors,
                  "more steps to probe, as multiples of the predicted h_crit (e.g. 1.05,1.2,2), each judged like 1.01 "
                  "against the reference step: LAMMPS' growth against the step [-]")
      ->delimiter(',');
  cmd->add_option("--settle-steps", c->settle_steps,
                  "steps at the reference step before each measured run, in which LAMMPS rebuilds the contact "
                  "histories a data file does not carry and the packing comes to rest [-]")
      ->capture_default_str();
  cmd->add_flag("--lift-caps", c->lift_caps,
                "write the probe's law with every friction coefficient (sliding, rolling, twisting) at 1e4, so that "
                "no contact slides or reaches a cap, as in the linearisation: confirms the linear limit where your "
                "run's caps stop LAMMPS' growth above it (your script is not changed)");
  cmd->add_option("--keep-probe", c->keep_probe,
                  "keep the probe's data file, input scripts, logs and energy files in this (new or empty) folder");
  cmd->footer(
      "The packing and the law are given as for dtcrit packing (--lammps-input in.file, or --lammps-data FILE with "
      "--kn ... or --lammps-pair ...). Exit status 0 for either verdict; non-zero when there is no answer.");
  cmd->callback([c, cmd] {
    record_given(cmd, c->packing);
    run(*c);
  });
}

}  // namespace dtcrit::cli
