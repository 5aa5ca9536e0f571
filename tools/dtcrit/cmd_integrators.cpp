// dtcrit integrators: the registry, one row per scheme.
#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"

#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/text_table.hpp"

namespace dtcrit::cli {

void add_integrators_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("integrators", "list the integrators dtcrit knows, with their parameters and orders");
  cmd->callback([] {
    TextTable t({"name", "parameters", "order", "order damped", "kind", "description"});
    for (const auto& row : integrator_registry()) {
      std::string params;
      for (const auto& p : row.parameters) params += fmt::format("{}{}={:g}", params.empty() ? "" : ",", p.name, p.default_value);
      t.add_row({row.name, params.empty() ? "-" : params, std::to_string(row.order), std::to_string(row.order_damped),
                 row.is_explicit ? "explicit" : "implicit", row.description});
    }
    std::cout << t.to_text();
  });
}

}  // namespace dtcrit::cli
