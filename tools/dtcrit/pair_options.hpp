#pragma once
// Command-line options that describe one contact, shared by `pair`, `table` and `example`.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/estimates/material.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/io/pair_input.hpp"

namespace dtcrit::cli {

struct PairOptions {
  std::string body1, body2;
  std::optional<double> kn, kt, kt_ratio, cn, ct, ct_ratio, gamma_n, gamma_t, restitution;
  std::optional<double> youngs, poisson, density, radius, impact_velocity, impact_angle;
  std::string lammps_pair, hertz_mindlin;
  std::optional<double> overlap, normal_force, r_eff;
  std::vector<std::string> integrators{"all"};

  // Registers the options on a subcommand; with_bodies = false for commands with built-in bodies.
  void add_to(CLI::App& app, bool with_bodies = true);
  PairInput input() const;
  // The request `pair` answers (margin and accuracy are its own options, left at their defaults).
  PairRequest request() const;
  // The material heuristics' inputs, when E, nu, rho and R are all given (error if only some are).
  std::optional<Material> material() const;
};

// Stages `text` for `path` in `files` (declared there before the computation), or prints it to
// stdout when `path` is empty. Call files.commit() after the last emit.
void emit(OutputFiles& files, const std::string& path, const std::string& text);

}  // namespace dtcrit::cli
