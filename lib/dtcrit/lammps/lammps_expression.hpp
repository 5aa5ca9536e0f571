#pragma once
// LAMMPS' equal-style formulas (`variable NAME equal FORMULA`), as the scripts users copy write
// them: `30*0.5`, `10^5`, `sqrt($a*2*${kn}/${min_mass}/(1+0.25*$a))`, `(step-5000)*(4.0*PI/5000)`.
// Read as LAMMPS 29 Sep 2021 defines them (variable.html): numbers, PI and the logical constants,
// v_NAME references, thermo keywords the caller can give a value (step, elapsed, dt, time), the
// math functions of one and two arguments, and the operators with LAMMPS' precedence - unary minus
// and ! first, then ^ (left to right), * / %, + -, comparisons, == !=, &&, || and |^ - evaluated left
// to right. Anything else (c_ID, f_ID, group and special functions, atom values) is an error that
// names it: dtcrit cannot know its value without running the simulation.
#include <functional>
#include <optional>
#include <string>

namespace dtcrit::packing {

// name -> value for a v_NAME reference (name without "v_") or a thermo keyword; nullopt: unknown.
// `what` is filled with the reason when the name is known but has no value (e.g. "step: ...").
struct FormulaNames {
  std::function<std::optional<double>(const std::string& variable)> variable;
  std::function<std::optional<double>(const std::string& keyword)> keyword;
};

// Throws std::invalid_argument "formula 'TEXT': ..." naming the token it cannot evaluate.
double evaluate_lammps_formula(const std::string& text, const FormulaNames& names);

}  // namespace dtcrit::packing
