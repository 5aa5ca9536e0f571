#pragma once
// Everything `dtcrit packing` reads, by the names of its options, and its whole answer. The CLI and
// the Python module both go through answer_packing, so they give the same answer. It runs one fixed
// pipeline:
//   source   (a lattice, a LAMMPS data file, dump, script or restart, particles the caller built, or
//             a contact network of rigid bodies) -> the packing with its laws and walls
//   contacts (found, with the histories of LAMMPS' contact dumps)
//   limits   (the global system and every integrator's exact limit: analyse_packing, the clumps'
//             analysis, or a caller's analyser such as the distributed one)
//   checks   (packing_checks.hpp: the second step of a frictional packing, the script's timestep,
//             the confirmation runs; and the recommended step)
//   outputs  (to_json, format_packing_answer).
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/assembly/clumps.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/assembly/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/packing/packing_checks.hpp"

namespace dtcrit::packing {

struct PackingRequest {
  // The source: exactly one of these.
  std::string lattice, data_file, dump_file;
  std::string lammps_input;                   // the user's input script: packing, law, walls, timestep
  // With lammps_input, data_file is the state beside the script (its write_data); lammps_run picks
  // the run whose physics is taken (1-based; default the last).
  std::optional<int> lammps_run;
  // A LAMMPS binary restart as the state (instead of data_file): converted by the installed `lmp
  // -restart2data` into a temporary data file, removed after reading.
  std::string lammps_restart;
  // With lammps_input: run the script in the installed `lmp` (a private copy of its folder) and take
  // the state at its end, with its pair contacts' histories (lammps/lammps_run.hpp).
  bool run_in_lammps = false;
  std::optional<Packing> packing;             // a packing the caller built (the Python module's arrays)
  // A contact network of rigid bodies of any shape (FILE.json or a CSV pair, network/README.md): the
  // file gives bodies, contacts, laws and histories.
  std::string bodies;
  std::vector<std::string> lammps_contacts;   // contact and wall-contact dumps: the contacts' histories
  Index n = 0;
  double radius = 1e-3, density = 2500.0, compression = 0.0, radius_spread = 0.0;
  unsigned seed = 1;
  int dimension = 3;
  bool disc = false;
  std::optional<double> kn, kt, gamma_n;
  std::optional<double> kt_ratio;  // k_t / k_n, instead of kt (as dtcrit pair)
  std::optional<double> gamma_t;  // default gamma_n / 2 (LAMMPS)
  std::string lammps_pair, hertz_mindlin;
  bool geometric_stiffness = false;
  double margin = default_step_margin;
  std::vector<std::string> type_laws, walls;
  std::string periodic;
  std::optional<double> gap_tolerance;
  bool no_rotation = false;
  std::vector<std::string> integrators{"all"};
  std::optional<double> youngs, poisson;
  std::string eigensolver = "auto";
  // The relative precision of every limit (the width of its bracket [h_low, h_crit]); the residual
  // tolerance of omega_max's solve follows from it unless lanczos_tol is given.
  double rtol = 1e-6;
  std::optional<double> lanczos_tol;
  Index ncv = EigenOptions{}.ncv;
  Index amplification_dofs = 48;
  Index crossing_check_dofs = PackingAnalysisOptions{}.crossing_check_dofs;
  Index scan_dofs = PackingAnalysisOptions{}.scan_dofs;
  Index certify_dofs = PackingAnalysisOptions{}.certify_dofs;
  bool box_walls = false;
  // "molecule": each molecule ID of the data file one rigid body, as fix rigid/small molecule
  // (assembly/clumps.hpp); "" analyses free spheres.
  std::string clumps;
  // Confirmation (checks stage): this many steps at 0.99 and 1.01 of every conditionally stable limit
  // (the reference stepper on sphere packings and clumps, fixed-arm linear dynamics on networks); 0: none.
  int confirm_steps = 0;
  std::set<std::string> given;  // the options given (the CLI's long names, "--radius"): defaults are marked
};

// A contact network's inputs as the report echoes them.
struct NetworkInputs {
  std::string source;
  int dimension = 3;
  Index free_bodies = 0, fixed_bodies = 0;
  double mass_min = 0.0, mass_max = 0.0, moment_min = 0.0, moment_max = 0.0;  // of the free bodies
  struct Law {
    std::string text, description;
    std::size_t contacts = 0;  // contacts that use it
  };
  std::vector<Law> laws;
  std::size_t contacts = 0, with_history = 0;
};

struct PackingAnswer {
  Packing packing;                       // as analysed (spatially sorted, walls added); empty for a network
  std::optional<NetworkInputs> network;  // with --bodies
  ContactLaws laws;
  std::optional<LammpsInput> script;
  std::unique_ptr<const GlobalSystem> system;  // empty after a distributed analysis
  PackingReport report;
  std::vector<std::string> defaults;     // defaults applied, in words
  std::optional<ContactHistorySummary> histories;
  std::vector<std::string> history_files;
  std::string history_line;              // what was read of the contact histories, in words
  std::string bound_warning;             // particles at unwalled, non-periodic box bounds ("" if none)
  std::optional<StepRecommendation> recommendation;
  std::optional<ClumpSummary> clumps;  // with --clumps molecule: the rigid bodies made
  std::optional<DivergingStep> diverging;  // with --lammps-input and frictional laws (serial path)
  std::optional<TimestepCheck> timestep;  // with --lammps-input: the script's timestep against its limit
  std::optional<PackingConfirmation> confirmation;  // with confirm_steps > 0
};

// The combinations that cannot be answered (one source, the law's options, options the chosen source
// would not read): each a named error, before any computation. answer_packing calls it first.
void check_packing_request(const PackingRequest& request);

// An option given (request.given) that the chosen mode would not read is an error, not a silent default.
void reject_unread(const PackingRequest& request, const std::string& option, const std::string& why);

// The eigensolver options of the request (--eigensolver, --lanczos-tol, --ncv), checked.
EigenOptions eigen_options(const PackingRequest& request);

// Pieces of answer_packing for a caller that reads the packing its own way (the distributed build's
// parallel reader, where no process holds the whole packing):
// --periodic's axes ("x,z", "none").
std::array<bool, 3> parse_periodic(const std::string& text);
// The laws of a request without a script (--kn, --kt or --kt-ratio, --gamma-n, --gamma-t,
// --lammps-pair, --hertz-mindlin, --type-law), with the defaults applied to them, in words.
ContactLaws request_laws(const PackingRequest& request, std::vector<std::string>& defaults);
// The analysis options of the request: integrators (the script's own added), heuristics, solver.
PackingAnalysisOptions analysis_options(const PackingRequest& request, const std::optional<LammpsInput>& script,
                                        const std::function<void(std::string_view)>& progress);
// Particles within their radius of a box bound, per axis neither periodic nor walled, and the
// warning about them ("" when none): a periodic simulation there has contacts this analysis misses.
std::array<Index, 3> box_bound_counts(const Packing& p);
std::string box_bound_text(const std::array<Index, 3>& counts);
// What was read of the contact histories, in words.
std::string histories_text(const std::optional<ContactHistorySummary>& histories, const std::vector<std::string>& files);

// The effective inputs, echoed at the top of every report (text and JSON).
// In the packing's units (SI unless a LAMMPS script says otherwise).
std::string inputs_text(const Packing& p, const ContactLaws& laws, const std::vector<std::string>& defaults,
                        const UnitSystem& units = si_units());
nlohmann::json inputs_json(const Packing& p, const ContactLaws& laws, const std::vector<std::string>& defaults,
                           const UnitSystem& units = si_units());

// The analysis stage of answer_packing, once the packing and its contacts are built. By default one
// GlobalSystem and analyse_packing; the distributed build passes its own (the same report over MPI
// ranks), which leaves `system` empty.
struct AnalysedPacking {
  PackingReport report;
  std::unique_ptr<const GlobalSystem> system;
};
using PackingAnalyser = std::function<AnalysedPacking(const Packing&, ContactSet, const PackingAnalysisOptions&)>;

// Checks the request (an option the chosen source would not read is an error naming it), builds
// the packing, and analyses it; progress (may be empty) receives the stage messages.
PackingAnswer answer_packing(const PackingRequest& request,
                             const std::function<void(std::string_view)>& progress = {},
                             const PackingAnalyser& analyse = {});

// What `dtcrit packing --json` prints.
nlohmann::json to_json(const PackingAnswer& answer);
// What `dtcrit packing` prints; `after_table` (e.g. the distributed run's figures) goes below the
// table and the confirmation runs.
std::string format_packing_answer(const PackingAnswer& answer, const std::string& after_table = "");

}  // namespace dtcrit::packing
