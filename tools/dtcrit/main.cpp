// dtcrit: critical time-steps and integrator stability for DEM simulations.
#include <algorithm>
#include <cctype>
#include <exception>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "dtcrit/core/suggest.hpp"

#ifdef DTCRIT_WITH_MPI
#include "dtcrit/distributed/runtime.hpp"
#endif

namespace {

// "unknown option --kt-raito; did you mean --kt-ratio?" for the first unknown --option among the
// arguments left over, the nearest long option of the command within a third of its length;
// empty when no argument left over looks like an option.
std::string unknown_option(const CLI::App& app) {
  const CLI::App* command = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
  std::vector<std::string> extras = command->remaining();
  if (extras.empty()) extras = app.remaining();
  for (const auto& arg : extras) {
    if (arg.rfind("--", 0) != 0) continue;
    const std::string given = arg.substr(0, arg.find('='));
    std::vector<std::string> names;
    for (const auto* opt : command->get_options())
      for (const auto& name : opt->get_lnames()) names.push_back("--" + name);
    const std::string best = dtcrit::nearest_name(given, names);
    const std::string where = command == &app ? "dtcrit --help" : "dtcrit " + command->get_name() + " --help";
    return best.empty() ? "unknown option " + given + "; " + where + " lists the options"
                        : "unknown option " + given + "; did you mean " + best + "?";
  }
  return "";
}

// CLI11's parse errors in the style of our own messages: the parameter, the value, what is wrong.
std::string our_style(const CLI::ParseError& e, const CLI::App& app) {
  std::string commands;
  for (const auto* sub : app.get_subcommands({})) commands += (commands.empty() ? "" : ", ") + sub->get_name();
  const std::string what = e.what();
  std::smatch m;
  // "Could not convert: --kn = 1e5x" and "The value 1e5x is not an allowed value for --kn"
  if (std::regex_match(what, m, std::regex(R"(Could not convert: -*([^ ]+) = (.*))")))
    return m[1].str() + " = '" + m[2].str() + "' is not a number";
  if (std::regex_match(what, m, std::regex(R"(The value (.*) is not an allowed value for -*(.+))")))
    return m[2].str() + " = '" + m[1].str() + "' is not a number";
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::string unknown = unknown_option(app);
    if (!unknown.empty()) return unknown;
  }
  if (app.get_subcommands().empty()) {  // no command recognised
    const auto extras = app.remaining();
    if (!extras.empty() && extras.front().rfind('-', 0) != 0)
      return "unknown command '" + extras.front() + "'; commands: " + commands;
    if (dynamic_cast<const CLI::RequiredError*>(&e))
      return "a command is required; commands: " + commands + " (dtcrit COMMAND --help)";
  }
  return what;
}

// An option that takes a value must not take the next option as it: CLI11 accepts
// `--keep-probe --json` as the folder "--json" (and `--write-mode --json` wrote a file of that name).
// Returns the message for the first such value, empty when there is none.
std::string option_taken_as_value(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (command == &app && arg.rfind('-', 0) != 0) {
      for (const auto* sub : app.get_subcommands({}))
        if (sub->get_name() == arg) command = sub;
      continue;
    }
    if (arg.rfind("--", 0) != 0 || arg.find('=') != std::string::npos || k + 1 >= argc) continue;
    const CLI::Option* opt = command->get_option_no_throw(arg);
    if (opt == nullptr || opt->get_items_expected_min() < 1) continue;
    const std::string next = argv[k + 1];
    if (next.size() > 2 && next.rfind("--", 0) == 0 && std::isalpha(static_cast<unsigned char>(next[2])))
      return arg + " needs a value, got the option " + next + " (a value that begins with -- is written ./" + next +
             " for a path)";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
#ifdef DTCRIT_WITH_MPI
  // The distributed build: PETSc, SLEPc and MPI for the whole run (mpirun -np P dtcrit packing ...).
  const dtcrit::distributed::Runtime runtime;
  const bool speaks = dtcrit::distributed::rank() == 0;  // one copy of every message
#else
  const bool speaks = true;
#endif
  CLI::App app{"dtcrit: critical time-steps and integrator stability for DEM simulations.\n"
               "All quantities in SI units (kg, m, s, N/m, N s/m)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "dtcrit 0.1.0");
  dtcrit::cli::add_pair_command(app);
  dtcrit::cli::add_table_command(app);
  dtcrit::cli::add_example_command(app);
  dtcrit::cli::add_integrators_command(app);
  dtcrit::cli::add_sweep_command(app);
  dtcrit::cli::add_packing_command(app);
  dtcrit::cli::add_lammps_check_command(app);
  try {
    if (const std::string taken = option_taken_as_value(app, argc, argv); !taken.empty()) {
      if (speaks) std::cerr << "dtcrit: error: " << taken << "\n";
      return 1;
    }
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (speaks) std::cerr << "dtcrit: error: " << our_style(e, app) << "\n";
    return e.get_exit_code() != 0 ? e.get_exit_code() : 1;
  } catch (const std::exception& e) {
    if (speaks) std::cerr << "dtcrit: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
