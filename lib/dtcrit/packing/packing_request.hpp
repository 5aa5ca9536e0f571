#pragma once
// Everything `dtcrit packing` reads, by the names of its options, and its whole answer: the packing
// (lattice, LAMMPS file or script, or one the caller built), the laws, walls, contacts and
// histories, the global system and the analysis, rendered as the command's text or JSON. The CLI
// and the Python module both go through answer_packing, so they give the same answer.
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
#include "dtcrit/packing/clumps.hpp"
#include "dtcrit/packing/contacts.hpp"
#include "dtcrit/packing/global_system.hpp"
#include "dtcrit/packing/lammps_contacts.hpp"
#include "dtcrit/packing/lammps_input.hpp"
#include "dtcrit/packing/packing.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

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
  std::optional<Packing> packing;             // a packing the caller built (the Python module's arrays)
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
  double lanczos_tol = EigenOptions{}.tolerance;
  Index ncv = EigenOptions{}.ncv;
  Index amplification_dofs = 48;
  Index crossing_check_dofs = PackingAnalysisOptions{}.crossing_check_dofs;
  Index certify_dofs = PackingAnalysisOptions{}.certify_dofs;
  bool box_walls = false;
  // "molecule": each molecule ID of the data file one rigid body, as fix rigid/small molecule
  // (packing/clumps.hpp); "" analyses free spheres.
  std::string clumps;
  std::set<std::string> given;  // the options given (the CLI's long names, "--radius"): defaults are marked
};

// The second step of a frictional packing: the limit of the script's integrator with every contact
// sliding at its caps (contact::sliding: normal springs and dashpots only). Between h_crit and this
// step, tangential and rolling motion grows until contacts slide; above it the normal contacts alone
// make the run diverge. A linearisation's estimate of where a run blows up, not a bound: contacts
// that open and contacts that do not reach their caps are not followed.
struct DivergingStep {
  std::string integrator;
  double h = 0.0;
  bool converged = false;
  bool upper_bound = false;  // the -1 crossing with complex crossings unchecked (PackingIntegratorLimit)
  std::string method;
};

struct PackingAnswer {
  Packing packing;                       // as analysed (spatially sorted, walls added)
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
  // The script's timestep against the exact limit of its integrator (with --lammps-input).
  std::string timestep_verdict;          // SAFE, UNSAFE or UNKNOWN
  std::string timestep_text;
  nlohmann::json timestep_json;
};

// The combinations that cannot be answered (one source, the law's options, options the chosen source
// would not read): each a named error, before any computation. answer_packing calls it first.
void check_packing_request(const PackingRequest& request);

// An option given (request.given) that the chosen mode would not read is an error, not a silent default.
void reject_unread(const PackingRequest& request, const std::string& option, const std::string& why);

// The eigensolver options of the request (--eigensolver, --lanczos-tol, --ncv), checked.
EigenOptions eigen_options(const PackingRequest& request);

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

// What `dtcrit packing --json` prints (without --confirm's runs, which the CLI adds).
nlohmann::json to_json(const PackingAnswer& answer);
// What `dtcrit packing` prints; `after_table` (the confirmation runs) goes below the table.
std::string format_packing_answer(const PackingAnswer& answer, const std::string& after_table = "");

}  // namespace dtcrit::packing
