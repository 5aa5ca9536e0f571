#pragma once
// The options of every command that analyses a packing (`dtcrit packing`, `dtcrit lammps-check`):
// which packing (lattice, LAMMPS data or dump file, or the user's LAMMPS input script), which contact
// law, walls, periodicity, contact histories and eigensolver; registered once, checked once and
// turned into the packing and its global system once.
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "dtcrit/io/step_recommendation.hpp"
#include "dtcrit/packing/global_system.hpp"
#include "dtcrit/packing/lammps_contacts.hpp"
#include "dtcrit/packing/lammps_input.hpp"
#include "dtcrit/packing/packing_analysis.hpp"

namespace dtcrit::cli {

// Fields after `given` are read by `dtcrit packing` only; the others by every packing command.
struct PackingOptions {
  std::string lattice, data_file, dump_file;
  std::string lammps_input;                   // the user's input script: packing, law, walls, timestep
  std::vector<std::string> lammps_contacts;   // contact and wall-contact dumps: the contacts' histories
  Index n = 0;
  double radius = 1e-3, density = 2500.0, compression = 0.0, radius_spread = 0.0;
  unsigned seed = 1;
  int dimension = 3;
  bool disc = false;
  std::optional<double> kn, kt, gamma_n;
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
  bool json = false;
  std::string output;
  std::string eigensolver = "auto";
  double lanczos_tol = packing::EigenOptions{}.tolerance;
  Index ncv = packing::EigenOptions{}.ncv;
  Index amplification_dofs = 48;
  bool box_walls = false;
  int confirm_steps = 0;
  std::string write_matrices;  // folder for M.mtx, K.mtx, C.mtx, dofs.json
  std::string write_mode;      // LAMMPS dump of the top mode
  std::set<std::string> given;  // the options given on the command line (long names)
};

// Registers the shared options (source, law, walls, periodicity, histories, eigensolver) on `cmd`.
void add_packing_source_options(CLI::App* cmd, PackingOptions& o);
// Fills o.given from the options CLI11 parsed (call first in the callback).
void record_given(const CLI::App* cmd, PackingOptions& o);

// The combinations that cannot be answered (one source, the law's options, options the chosen source
// would not read): each a named error, before any computation.
void check_packing_options(const PackingOptions& o);

// An option the chosen mode would not read is an error, not a silent default.
void reject_unread(const PackingOptions& o, const std::string& option, const std::string& why);

using Progress = std::function<void(std::string_view)>;
// Stage messages with the time since the command started, on stderr when it is a terminal.
Progress terminal_progress();

// The packing, its laws and its global system, with everything a report echoes.
struct PackingProblem {
  packing::Packing p;
  packing::ContactLaws laws;
  std::optional<packing::LammpsInput> script;
  std::vector<std::string> defaults;  // the defaults applied, for the report
  bool lattice = false;
  std::string bound_warning;          // box_bound_warning(), "" when none
  std::optional<packing::ContactHistorySummary> histories;
  std::string history_line;           // histories_text()
  std::unique_ptr<packing::GlobalSystem> sys;
};
PackingProblem prepare_packing(const PackingOptions& o, const Progress& progress);

// The eigensolver options and the progress of analyse_packing; the caller sets the integrators.
packing::PackingAnalysisOptions analysis_options(const PackingOptions& o, const Progress& progress);

// The effective inputs, echoed at the top of every report (text and JSON).
std::string inputs_text(const packing::Packing& p, const packing::ContactLaws& laws,
                        const std::vector<std::string>& defaults);
nlohmann::json inputs_json(const packing::Packing& p, const packing::ContactLaws& laws,
                           const std::vector<std::string>& defaults);
std::string periodic_text(const packing::Packing& p);

}  // namespace dtcrit::cli
