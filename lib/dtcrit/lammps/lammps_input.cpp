#include "dtcrit/lammps/lammps_input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "dtcrit/contact/lammps_mixing.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/io/input_file.hpp"
#include "dtcrit/lammps/lammps_expression.hpp"
#include "dtcrit/lammps/lammps_io.hpp"
#include "dtcrit/lammps/lammps_regions.hpp"

namespace dtcrit::packing {

namespace {

std::string joined(const std::vector<std::string>& w, std::size_t from = 0) {
  std::string out;
  for (std::size_t k = from; k < w.size(); ++k) out += (k > from ? " " : "") + w[k];
  return out;
}

std::optional<double> plain_number(const std::string& text) {
  const auto v = read_number(text);
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

// Commands that cannot change the critical step: output, neighbour lists, communication,
// bookkeeping. (run is counted; the commands that make the particles are below.)
const std::set<std::string>& skipped_commands() {
  static const std::set<std::string> s{
      "thermo", "thermo_style", "thermo_modify", "dump", "dump_modify", "undump", "neighbor", "neigh_modify",
      "comm_modify", "comm_style", "newton", "processors", "log", "print", "echo", "restart", "write_data",
      "write_restart", "write_dump", "write_coeff", "group", "timer", "balance", "atom_modify", "uncompute",
      "info", "partition", "suffix", "package", "compute_modify", "label", "minimize", "molecule", "clear_screen",
      "shell", "plugin"};
  return s;
}
// Commands that make or change the particles: with the state beside the script (--lammps-data)
// they only made that state; with the script's own read_data as the state they would change it.
const std::set<std::string>& state_commands() {
  static const std::set<std::string> s{"create_box", "create_atoms", "lattice", "read_restart", "read_dump",
                                       "set", "displace_atoms", "delete_atoms", "replicate", "mass", "velocity",
                                       "reset_atom_ids", "delete_bonds"};
  return s;
}
// Fix styles without influence on the linearised dynamics: gravity is a constant load (the state,
// not the stiffness), the others are output or bookkeeping.
const std::set<std::string>& skipped_fixes() {
  static const std::set<std::string> s{"gravity",   "print",       "ave/time", "ave/atom",      "ave/chunk",
                                       "ave/histo", "ave/correlate", "store/state", "balance", "enforce2d",
                                       "vector",    "halt",        "property/atom", "momentum"};
  return s;
}
// Fix styles that insert particles: they make the state (--lammps-data gives it).
const std::set<std::string>& inserting_fixes() {
  static const std::set<std::string> s{"pour", "deposit"};
  return s;
}
const std::set<std::string>& granular_pair_styles() {
  static const std::set<std::string> s{"gran/hooke", "gran/hooke/history", "gran/hertz/history", "granular"};
  return s;
}

// LAMMPS' quotes (input.cpp, parse() and substitute()): single, double or triple ("""). Between them
// a '#' starts no comment and a '$' is not substituted (commands such as print and fix print
// substitute their own text when they run); a triple quote may span lines.
struct Quotes {
  int open = 0;  // 0: none, 1: ', 2: ", 3: """
  // Steps over text[k], a triple quote at once: the characters taken.
  std::size_t step(std::string_view text, std::size_t k) {
    const bool triple = text.substr(k, 3) == R"(""")";
    if (open == 0) {
      if (triple) {
        open = 3;
        return 3;
      }
      if (text[k] == '"') open = 2;
      if (text[k] == '\'') open = 1;
    } else if (open == 3) {
      if (triple) {
        open = 0;
        return 3;
      }
    } else if ((open == 2 && text[k] == '"') || (open == 1 && text[k] == '\'')) {
      open = 0;
    }
    return 1;
  }
};

// A line of a script or of a file it includes, comments removed and '&' continuations joined.
struct RawLine {
  std::string file;
  long number = 0;
  std::string text;
};

[[noreturn]] void error_at(const std::string& file, long line, const std::string& what) {
  fail(fmt::format("{}:{}: {}", file, line, excerpt(what, 500)));
}

std::vector<RawLine> read_raw_lines(const std::string& path) {
  std::istringstream in(read_input_file(path, "LAMMPS input script"));
  std::vector<RawLine> out;
  std::string raw, pending;
  long number = 0, first = 0;
  Quotes quotes;  // carried over continued lines
  while (std::getline(in, raw)) {
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    for (std::size_t k = 0; k < raw.size();) {
      if (quotes.open == 0 && raw[k] == '#') {
        raw.erase(k);
        break;
      }
      k += quotes.step(raw, k);
    }
    if (pending.empty()) first = number;
    std::string trimmed = raw;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
    if (quotes.open == 3) {  // a triple quote goes on to its close ('&' is text there)
      pending += trimmed + " ";
      continue;
    }
    if (!trimmed.empty() && trimmed.back() == '&') {
      trimmed.pop_back();
      pending += trimmed + " ";
      continue;
    }
    pending += trimmed;
    if (quotes.open != 0)
      error_at(path, first, fmt::format("unbalanced quotes: a {} quote is not closed in '{}'",
                                        quotes.open == 1 ? "single" : "double", trim(pending)));
    if (!trim(pending).empty()) out.push_back({path, first, pending});
    pending.clear();
  }
  if (quotes.open == 3) error_at(path, first, "a triple quote (\"\"\") is not closed before the file ends");
  if (!pending.empty()) error_at(path, number, "the last line ends with '&' (continued) but the file ends");
  return out;
}

// The timestep write_data records in its first line ("... timestep = 25000"); nullopt without one.
std::optional<long> data_file_step(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  if (!std::getline(in, first)) return std::nullopt;
  const auto at = first.find("timestep =");
  if (at == std::string::npos) return std::nullopt;
  return read_integer<long>(trim(first.substr(at + 10)));
}

// Where a setting came from, for the `taken` list and the messages.
struct Where {
  std::string file;
  long line = 0;
  std::string text;
  std::string str() const { return fmt::format("{}:{}", file, line); }
};

// The physics a script has set up to some point: copied at each `run`.
struct Physics {
  UnitSystem units = *lammps_unit_system("lj");  // LAMMPS' default
  std::optional<Where> units_at;
  int dimension = 3;
  std::optional<Where> dimension_at;
  std::array<bool, 3> periodic{true, true, true};  // LAMMPS' default boundary p p p
  std::vector<Where> boundary_at;
  std::optional<Where> atom_style_at;
  std::vector<std::string> style_words;  // the granular style and its arguments (hybrid's sub-style)
  std::string hybrid;                    // "hybrid" / "hybrid/overlay" when the style was its sub-style
  std::optional<Where> pair_style_at;
  struct Coeff {
    Where at;
    std::string i, j;
    std::vector<std::string> w;  // after the type columns (and hybrid's sub-style name)
  };
  std::vector<Coeff> coeffs;
  std::optional<double> timestep;
  std::optional<Where> timestep_at;
  std::optional<Where> run_style_at;
  struct Fix {
    Where at;
    std::vector<std::string> w;
    int inits_before = 0;  // initialisations of the system (LAMMPS' init()) before the fix was defined
  };
  std::vector<std::pair<std::string, Fix>> fixes;  // in definition order
  std::map<std::string, std::pair<Where, std::vector<std::string>>> computes;
  // region ID -> its command (regions are redefined between runs: the one in effect counts)
  std::map<std::string, std::pair<Where, std::vector<std::string>>> regions;
  bool lattice_command = false;
  int create_box_types = 0;
  long step = 0;  // the current timestep count (run N adds N; reset_timestep sets it)
};

class Reader {
 public:
  Reader(const std::string& path, const LammpsInputOptions& options) : path_(path), options_(options) {}

  LammpsInput read() {
    std::deque<RawLine> pending;
    for (auto& l : read_raw_lines(path_)) pending.push_back(std::move(l));
    while (!pending.empty()) {
      RawLine raw = std::move(pending.front());
      pending.pop_front();
      file_ = raw.file;
      line_ = raw.number;
      const std::vector<std::string> w = split_words(substitute(raw.text));
      if (w.empty()) continue;
      if (w[0] == "include") {
        if (w.size() != 2) error(fmt::format("expected 'include FILE', got '{}'", joined(w)));
        if (++includes_ > 100) error("more than 100 include commands (an include loop?)");
        auto lines = read_raw_lines(relative_to_script(w[1]));
        pending.insert(pending.begin(), lines.begin(), lines.end());
        continue;
      }
      command(w);
    }
    end_line_ = line_;
    return build();
  }

 private:
  [[noreturn]] void error(const std::string& what) const { error_at(file_, line_, what); }
  Where here(const std::vector<std::string>& w) const { return {file_, line_, joined(w)}; }
  std::string relative_to_script(const std::string& name) const {
    const std::filesystem::path file(name);
    return file.is_absolute() ? file.string() : (std::filesystem::path(path_).parent_path() / file).string();
  }
  void skip(const std::string& what) {
    if (std::find(skipped_.begin(), skipped_.end(), what) == skipped_.end()) skipped_.push_back(what);
  }

  // ---- variables -------------------------------------------------------------------------------
  struct Variable {
    std::string style;
    std::string value;  // the formula (equal), the value (index: the first), or the definition
  };

  // The value of a variable as ${NAME} substitutes it: equal-style formulas evaluated now (%.15g,
  // as LAMMPS prints them), index/string/internal values as they are.
  std::string variable_text(const std::string& name) const {
    const auto v = variables_.find(name);
    if (v == variables_.end()) error(fmt::format("variable '{}' is used but not defined above", name));
    const std::string& style = v->second.style;
    if (style == "equal") return fmt::format("{:.15g}", evaluate(v->second.value));
    if (style == "index" || style == "string" || style == "internal" || style == "loop" || style == "world" ||
        style == "universe" || style == "uloop" || style == "getenv")
      return v->second.value;
    error(fmt::format("variable '{}' is {}-style ('{}'): dtcrit substitutes equal, index and string variables only",
                      name, style, excerpt(v->second.value, 100)));
  }

  // The moment a formula is evaluated at: the thermo keywords known then.
  struct Moment {
    std::optional<long> step;
    long elapsed = 0;
    std::optional<double> dt;
  };

  // `formula` with v_NAME taken from `variables` (equal-style ones evaluated in turn).
  static double evaluate_in(const std::map<std::string, Variable>& variables, const std::string& formula,
                            const Moment& at, int depth = 0) {
    if (depth > 50) fail(fmt::format("formula '{}': variables refer to each other more than 50 deep", formula));
    FormulaNames names;
    names.variable = [&](const std::string& name) -> std::optional<double> {
      const auto v = variables.find(name);
      if (v == variables.end()) return std::nullopt;
      if (v->second.style == "equal") return evaluate_in(variables, v->second.value, at, depth + 1);
      return read_number(v->second.value);
    };
    names.keyword = [&](const std::string& k) -> std::optional<double> {
      if (k == "step" && at.step) return static_cast<double>(*at.step);
      if ((k == "elapsed" || k == "elaplong") && at.step) return static_cast<double>(at.elapsed);
      if (k == "dt") return at.dt;
      return std::nullopt;
    };
    return evaluate_lammps_formula(formula, names);
  }

  // A formula where the script substitutes it: at the current step, before the next run.
  double evaluate(const std::string& formula) const {
    try {
      return evaluate_in(variables_, formula,
                         {physics_.step, 0, physics_.timestep.value_or(physics_.units.lammps_default_timestep)});
    } catch (const std::invalid_argument& e) {
      error(e.what());
    }
  }

  void define_variable(const std::vector<std::string>& w) {
    if (w.size() == 3 && w[2] == "delete") {
      variables_.erase(w[1]);
      return;
    }
    if (w.size() < 4) error(fmt::format("expected 'variable NAME STYLE VALUE', got '{}'", joined(w)));
    const std::string& name = w[1];
    const std::string& style = w[2];
    // LAMMPS keeps an existing index-style variable (variable.cpp: it lets -var on the command line win).
    if (style == "index" && variables_.count(name)) return;
    // Quotes group words in LAMMPS; a formula may be written with or without them.
    std::string value = style == "index" || style == "loop" ? w[3] : joined(w, 3);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    // The string style substitutes its text even when it is quoted (LAMMPS' variable command); the
    // others keep quoted text as it is.
    if (style == "string") value = substitute(value);
    variables_[name] = {style, value};
  }

  // ${name}, $x (one character) and $(formula) - LAMMPS' immediate evaluation - in a line, outside
  // quotes (Quotes).
  std::string substitute(const std::string& text) const {
    std::string out;
    Quotes quotes;
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (text[k] != '$' || quotes.open != 0) {
        const std::size_t taken = quotes.step(text, k);
        out.append(text, k, taken);
        k += taken - 1;
        continue;
      }
      if (k + 1 >= text.size()) error("a '$' ends the line; expected ${NAME}, $X or $(FORMULA)");
      if (text[k + 1] == '{') {
        const auto close = text.find('}', k + 2);
        if (close == std::string::npos) error("'${' without a closing '}'");
        out += variable_text(text.substr(k + 2, close - k - 2));
        k = close;
      } else if (text[k + 1] == '(') {
        int depth = 0;
        std::size_t close = k + 1;
        for (; close < text.size(); ++close) {
          if (text[close] == '(') ++depth;
          if (text[close] == ')' && --depth == 0) break;
        }
        if (close >= text.size()) error("'$(' without a closing ')'");
        std::string formula = text.substr(k + 2, close - k - 2);
        if (formula.find(":%") != std::string::npos)
          error(fmt::format("$({}): a format suffix is not read by dtcrit", formula));
        out += fmt::format("{:.20g}", evaluate(formula));
        k = close;
      } else {
        out += variable_text(text.substr(k + 1, 1));
        ++k;
      }
    }
    return out;
  }

  // ---- commands --------------------------------------------------------------------------------
  void command(const std::vector<std::string>& w) {
    const std::string& cmd = w[0];
    const std::size_t n = w.size();
    auto need = [&](std::size_t count, const std::string& form) {
      if (n != count) error(fmt::format("expected '{}', got '{}'", form, joined(w)));
    };
    Physics& p = physics_;
    if (cmd == "variable") {
      define_variable(w);
      skip("variable (evaluated and substituted)");
    } else if (cmd == "units") {
      need(2, "units STYLE");
      const auto u = lammps_unit_system(w[1]);
      if (!u) {
        if (w[1] == "real" || w[1] == "metal" || w[1] == "electron")
          error(fmt::format("units {}: not a mechanical unit system (its force x time^2 / mass needs LAMMPS' "
                            "conversion factor ftm2v); dtcrit reads si, cgs, micro, nano and lj",
                            w[1]));
        error(fmt::format("units '{}' is not a LAMMPS unit style dtcrit reads (si, cgs, micro, nano, lj)", w[1]));
      }
      p.units = *u;
      p.units_at = here(w);
      // LAMMPS' units command resets the time step to the units' default (update.cpp).
      p.timestep.reset();
      p.timestep_at.reset();
    } else if (cmd == "dimension") {
      need(2, "dimension 2|3");
      if (w[1] != "2" && w[1] != "3") error(fmt::format("dimension {} must be 2 or 3", w[1]));
      p.dimension = w[1] == "2" ? 2 : 3;
      p.dimension_at = here(w);
    } else if (cmd == "boundary") {
      need(4, "boundary X Y Z");
      set_boundary(w, 1);
    } else if (cmd == "change_box") {
      change_box(w);
    } else if (cmd == "atom_style") {
      if (n != 2 || w[1] != "sphere")
        error(fmt::format("atom_style '{}': dtcrit reads atom_style sphere only", joined(w, 1)));
      p.atom_style_at = here(w);
    } else if (cmd == "read_data") {
      if (n < 2) error(fmt::format("expected 'read_data FILE', got '{}'", joined(w)));
      // `fix ID NULL Molecules` hands a section to fix property/atom mol (the data reader reads the
      // Molecules section by its name); any other keyword changes what is read.
      for (std::size_t k = 2; k < n; k += 4)
        if (w[k] != "fix" || k + 3 >= n || w[k + 3] != "Molecules")
          error(fmt::format("read_data with keywords ('{}') is not read by dtcrit; expected 'read_data FILE' (with "
                            "'fix ID NULL Molecules' for fix property/atom mol)",
                            joined(w, 2)));
      if (read_data_) error(fmt::format("a second read_data (the first at {})", read_data_->str()));
      read_data_ = here(w);
      read_data_file_ = relative_to_script(w[1]);
    } else if (cmd == "pair_style") {
      pair_style(w);
    } else if (cmd == "pair_coeff") {
      pair_coeff(w);
    } else if (cmd == "timestep") {
      need(2, "timestep DT");
      const auto dt = plain_number(w[1]);
      if (!dt || !(*dt > 0.0)) error(fmt::format("timestep '{}' must be a positive number [{}]", w[1], p.units.time));
      p.timestep = *dt;
      p.timestep_at = here(w);
    } else if (cmd == "run_style") {
      if (n < 2 || w[1] != "verlet")
        error(fmt::format("run_style '{}': dtcrit answers for run_style verlet (LAMMPS' default)", joined(w, 1)));
      p.run_style_at = here(w);
    } else if (cmd == "compute") {
      if (n < 4) error("expected 'compute ID GROUP STYLE ARGS...'");
      if (w[3] == "property/local" || w[3] == "pair/local") {
        std::vector<std::string> kw;
        for (std::size_t k = 4; k < n; ++k) {
          if (w[k] == "cutoff") break;  // pair/local's optional keyword and its value
          kw.push_back(w[k]);
        }
        p.computes[w[1]] = {here(w), kw};
      } else {
        skip("compute " + w[3]);
      }
    } else if (cmd == "fix") {
      if (n < 4) error("expected 'fix ID GROUP STYLE ARGS...'");
      if (inserting_fixes().count(w[3])) state_command("fix " + w[3]);
      auto it = std::find_if(p.fixes.begin(), p.fixes.end(), [&](const auto& f) { return f.first == w[1]; });
      if (it != p.fixes.end()) it->second = {here(w), w, inits_};  // a fix redefined with its ID
      else p.fixes.push_back({w[1], {here(w), w, inits_}});
      fixes_changed_ = true;
    } else if (cmd == "unfix") {
      need(2, "unfix ID");
      auto it = std::find_if(p.fixes.begin(), p.fixes.end(), [&](const auto& f) { return f.first == w[1]; });
      if (it == p.fixes.end()) error(fmt::format("unfix {}: no fix with that ID is defined above", w[1]));
      p.fixes.erase(it);
      fixes_changed_ = true;
      skip("unfix");
    } else if (cmd == "region") {
      if (n < 3) error("expected 'region ID STYLE ARGS...'");
      if (w[2] == "delete") p.regions.erase(w[1]);
      else p.regions[w[1]] = {here(w), w};
      skip("region (insertion and box regions)");
    } else if (cmd == "run") {
      if (n < 2) error("expected 'run N'");
      const auto steps = read_integer<long>(w[1]);
      if (!steps || *steps < 0) error(fmt::format("run '{}': the number of steps must be a non-negative integer", w[1]));
      bool upto = false, pre_no = false;
      for (std::size_t k = 2; k < n; ++k) {
        upto = upto || w[k] == "upto";
        pre_no = pre_no || (w[k] == "pre" && k + 1 < n && w[k + 1] == "no");
      }
      // Each run initialises the system (LAMMPS' init()), unless `pre no` after a run with the same fixes.
      if (runs_ == 0 || !pre_no || fixes_changed_) ++inits_;
      fixes_changed_ = false;
      ++runs_;
      // The physics in effect during this run: the answer is for the last run, or the one asked for.
      if (!options_.run || *options_.run == runs_) {
        at_run_ = physics_;
        variables_at_run_ = variables_;
        run_where_ = here(w);
        inits_at_run_ = inits_;
        run_start_step_ = p.step;
      }
      p.step = upto ? *steps : p.step + *steps;
      skip("run (the physics of the run is taken, not its result)");
    } else if (cmd == "reset_timestep") {
      if (n < 2) error("expected 'reset_timestep N'");
      const auto step = read_integer<long>(w[1]);
      if (!step || *step < 0) error(fmt::format("reset_timestep '{}' must be a non-negative integer", w[1]));
      p.step = *step;
      skip("reset_timestep");
    } else if (cmd == "lattice") {
      p.lattice_command = true;
      state_command(cmd);
    } else if (cmd == "create_box") {
      if (n < 3) error("expected 'create_box N REGION ...'");
      const auto types = read_integer<int>(w[1]);
      if (!types || *types < 1) error(fmt::format("create_box '{}': the number of atom types must be >= 1", w[1]));
      p.create_box_types = *types;
      state_command(cmd);
    } else if (state_commands().count(cmd)) {
      state_command(cmd);
    } else if (skipped_commands().count(cmd)) {
      // write_data initialises the system before it writes (WriteData::command calls lmp->init()).
      if (cmd == "write_data") ++inits_;
      skip(cmd);
    } else if (cmd == "jump" || cmd == "next" || cmd == "if" || cmd == "loop") {
      error(fmt::format("{}: dtcrit reads a script top to bottom, without loops or conditions; write the commands of "
                        "the run you mean without them",
                        cmd));
    } else {
      error(fmt::format("command '{}' is not read by dtcrit (it neither skips it as output nor knows its effect on the "
                        "time step)",
                        cmd));
    }
  }

  // A command that makes or changes the particles: the state beside the script already holds its
  // effect; without one, the script's read_data would not be the state any more.
  void state_command(const std::string& what) {
    if (!options_.data_file.empty()) {
      skip(what + " (the state is --lammps-data)");
      return;
    }
    if (what == "velocity" || what == "mass") {  // neither moves a particle nor changes a sphere's mass
      skip(what);
      return;
    }
    if (!first_state_command_) first_state_command_ = Where{file_, line_, what};
  }

  void set_boundary(const std::vector<std::string>& w, std::size_t from) {
    static const std::set<std::string> valid{"p", "f", "s", "m", "fs", "fm", "sf", "sm", "mf", "ms", "ff", "ss", "mm"};
    for (std::size_t d = 0; d < 3; ++d) {
      const std::string& b = w[from + d];
      if (!valid.count(b)) error(fmt::format("boundary '{}' of axis {} is not a LAMMPS boundary", b, "xyz"[d]));
      physics_.periodic[d] = b == "p";
    }
    physics_.boundary_at.push_back(here(w));
  }

  // change_box GROUP ... boundary X Y Z ...: the boundary is physics; the other keywords move the
  // box and the particles (the state).
  void change_box(const std::vector<std::string>& w) {
    bool other = false;
    for (std::size_t k = 2; k < w.size(); ++k) {
      if (w[k] == "boundary") {
        if (k + 3 >= w.size()) error("change_box ... boundary needs three values");
        set_boundary(w, k + 1);
        k += 3;
      } else {
        other = true;
      }
    }
    if (other) state_command("change_box");
  }

  void pair_style(const std::vector<std::string>& w) {
    Physics& p = physics_;
    if (w.size() < 2) error("expected 'pair_style STYLE ARGS...'");
    std::vector<std::string> style(w.begin() + 1, w.end());
    std::string hybrid;
    if (style[0] == "hybrid" || style[0] == "hybrid/overlay" || style[0] == "hybrid/scaled") {
      hybrid = style[0];
      std::vector<std::string> subs;
      // The sub-style names: the words that are neither numbers nor the granular styles' own words.
      for (std::size_t k = 1; k < style.size(); ++k)
        if (std::isalpha(static_cast<unsigned char>(style[k][0])) && !plain_number(style[k]) && style[k] != "NULL" &&
            style[k] != "limit_damping")
          subs.push_back(style[k]);
      if (subs.size() != 1)
        error(fmt::format("pair_style {} with the sub-styles '{}': dtcrit reads one granular sub-style", hybrid,
                          joined(subs)));
      if (hybrid == "hybrid/scaled") error("pair_style hybrid/scaled: scaled sub-styles are not read by dtcrit");
      style.erase(style.begin());
    }
    if (!granular_pair_styles().count(style[0]))
      error(fmt::format("pair style '{}' is not supported; supported: gran/hooke, gran/hooke/history, "
                        "gran/hertz/history, granular (alone or as the one sub-style of hybrid)",
                        style[0]));
    // LAMMPS keeps the coefficients when the style stays the same, and drops them otherwise.
    if (p.style_words.empty() || p.style_words[0] != style[0]) p.coeffs.clear();
    p.style_words = style;
    p.hybrid = hybrid;
    p.pair_style_at = here(w);
  }

  void pair_coeff(const std::vector<std::string>& w) {
    Physics& p = physics_;
    if (!p.pair_style_at) error("pair_coeff before pair_style");
    if (w.size() < 3) error("expected 'pair_coeff I J ARGS...'");
    std::vector<std::string> args(w.begin() + 3, w.end());
    if (!p.hybrid.empty()) {
      if (args.empty() || args[0] != p.style_words[0])
        error(fmt::format("pair_coeff {} {}: under pair_style {} the sub-style name '{}' comes first", w[1], w[2],
                          p.hybrid, p.style_words[0]));
      args.erase(args.begin());
    }
    p.coeffs.push_back({here(w), w[1], w[2], args});
  }

  // ---- the answer ------------------------------------------------------------------------------
  LammpsInput build() {
    LammpsInput r;
    r.path = path_;
    r.runs = runs_;
    const Physics& p = at_run_ ? *at_run_ : physics_;
    if (options_.run && (*options_.run < 1 || *options_.run > runs_))
      fail(fmt::format("--lammps-run {}: {} has {} run command{}", *options_.run, path_, runs_, runs_ == 1 ? "" : "s"));
    r.run_taken = at_run_ ? fmt::format("run {} of {} ({}: {})", options_.run.value_or(runs_), runs_,
                                        run_where_.str(), run_where_.text)
                          : "the end of the script (it has no run command)";
    file_ = path_;
    line_ = end_line_;
    std::vector<Where> taken;
    auto take = [&](const std::optional<Where>& w) {
      if (w) taken.push_back(*w);
    };

    // Units, dimension, boundary.
    r.units = p.units;
    r.units_default = !p.units_at;
    take(p.units_at);
    take(p.dimension_at);
    for (const auto& b : p.boundary_at) taken.push_back(b);
    take(p.atom_style_at);
    take(p.run_style_at);

    // The state.
    if (!options_.data_file.empty()) {
      r.data_file = options_.data_file;
      r.state_from = "--lammps-data";
    } else if (read_data_) {
      if (first_state_command_)
        error_at(first_state_command_->file, first_state_command_->line,
                 fmt::format("{} changes the particles after read_data ({}); give the state at the moment of interest "
                             "as --lammps-data FILE (write_data in the script)",
                             first_state_command_->text, read_data_->str()));
      r.data_file = read_data_file_;
      r.state_from = fmt::format("read_data at {} (the particles before the script's runs)", read_data_->str());
      taken.push_back(*read_data_);
    } else {
      if (first_state_command_)
        error_at(first_state_command_->file, first_state_command_->line,
                 fmt::format("the script makes its particles itself ({}): give the state as --lammps-data FILE (add "
                             "'write_data FILE' to the script at the moment of interest), or let the installed LAMMPS "
                             "run the script to its end with --run-in-lammps",
                             first_state_command_->text));
      error("no read_data line: give the state as --lammps-data FILE (write_data)");
    }

    // The integrator and the other fixes in effect.
    std::optional<Where> integrator_at;
    bool disc = false;
    struct WallFix {
      Where at;
      std::vector<std::string> w;
      std::size_t style_at;
      int inits;  // LAMMPS' initialisations of the fix up to the run taken (at least the run's own)
    };
    std::vector<WallFix> wall_fixes;
    for (const auto& entry : p.fixes) {
      const Physics::Fix& f = entry.second;  // not a structured binding: lambdas below capture it
      const auto& w = f.w;
      const std::string& style = w[3];
      auto error_here = [&](const std::string& what) { error_at(f.at.file, f.at.line, what); };
      if (style == "wall/gran" || style == "wall/gran/region") {
        if (w[2] != "all")
          error_here(fmt::format("fix {} on group '{}': dtcrit's walls act on every particle (group all)", style, w[2]));
        if (w.size() < 6) error_here(fmt::format("expected 'fix ID all {} STYLE ARGS... WALLSTYLE ...'", style));
        wall_fixes.push_back({f.at, w, wall_style_index(f.at, w), std::max(1, inits_at_run_ - f.inits_before)});
        taken.push_back(f.at);
      } else if (style == "nve/sphere") {
        if (w[2] != "all")
          error_here(fmt::format("fix nve/sphere on group '{}': dtcrit integrates every particle (group all)", w[2]));
        for (std::size_t k = 4; k < w.size(); ++k) {
          if (w[k] == "disc") disc = true;
          else error_here(fmt::format("fix nve/sphere keyword '{}' is not read by dtcrit (disc is)", w[k]));
        }
        if (integrator_at)
          error_here(fmt::format("a second integration fix (the first at {})", integrator_at->str()));
        integrator_at = f.at;
        taken.push_back(f.at);
      } else if (skipped_fixes().count(style) || inserting_fixes().count(style)) {
        if (style == "gravity") r.load_commands.push_back(f.at.text);
        skip("fix " + style);
      } else if ((style == "rigid/small" || style.rfind("rigid", 0) == 0) && p.dimension == 2) {
        error_here(fmt::format("fix {} in 2D: rigid clumps of discs are not modelled by dtcrit (its clumps are 3D "
                               "rigid bodies of spheres, --clumps molecule)",
                               style));
      } else if (style == "rigid/small") {
        // fix ID all rigid/small molecule [mol TEMPLATE] [gravity FIX]: each molecule one rigid body,
        // integrated by LAMMPS' rigid/small (the registry's rigid_small; assembly/clumps.hpp).
        if (w[2] != "all")
          error_here(fmt::format("fix rigid/small on group '{}': dtcrit integrates every particle (group all)", w[2]));
        if (w.size() < 5 || w[4] != "molecule")
          error_here(fmt::format("fix rigid/small bodystyle '{}': dtcrit makes the bodies by molecule ID (molecule)",
                                 w.size() < 5 ? "" : w[4]));
        for (std::size_t k = 5; k < w.size(); k += 2) {
          if (w[k] != "mol" && w[k] != "gravity")
            error_here(fmt::format("fix rigid/small keyword '{}' is not read by dtcrit (mol and gravity are: an "
                                   "insertion template and a load); a thermostat, barostat or other keyword changes "
                                   "the critical step",
                                   w[k]));
          if (k + 1 >= w.size()) error_here(fmt::format("fix rigid/small keyword '{}' without its value", w[k]));
        }
        if (integrator_at)
          error_here(fmt::format("a second integration fix (the first at {})", integrator_at->str()));
        integrator_at = f.at;
        r.integrator = "rigid_small";
        r.rigid_molecules = true;
        taken.push_back(f.at);
      } else if (style == "rigid" || style.rfind("rigid/", 0) == 0) {
        error_here(fmt::format("fix {}: dtcrit's rigid bodies are those of fix rigid/small molecule (the registry's "
                               "rigid_small); another rigid fix integrates differently",
                               style));
      } else {
        error_here(fmt::format("fix {} is not read by dtcrit: the answer is for fix nve/sphere (velocity Verlet) with "
                               "fix wall/gran walls; a fix that integrates, constrains, damps or moves particles (nve, "
                               "rigid, viscous, langevin, freeze, setforce, ...) changes the critical step",
                               style));
      }
    }
    if (!p.pair_style_at) error("no pair_style line in effect");
    if (!integrator_at)
      error("no fix nve/sphere (or rigid/small molecule) in effect: the script integrates nothing dtcrit can answer for");
    if (disc && p.dimension != 2) error_at(integrator_at->file, integrator_at->line, "fix nve/sphere disc needs dimension 2");
    r.timestep = p.timestep.value_or(p.units.lammps_default_timestep);
    r.timestep_default = !p.timestep;
    take(p.timestep_at);

    ReadOptions ro;
    ro.dimension = p.dimension;
    ro.body_model = disc ? BodyModel::disc : BodyModel::sphere;
    ro.periodic = p.periodic;
    r.packing = read_lammps_data(r.data_file, ro);

    // Laws per type pair.
    r.law_commands.push_back(p.pair_style_at->text);
    taken.push_back(*p.pair_style_at);
    build_laws(r, p, taken);

    // Walls.
    std::optional<RegionReadContext> regions;  // made once, for the first region wall
    for (const WallFix& f : wall_fixes) {
      const contact::ContactLaw law = wall_law(r, f.at, f.w, f.style_at, f.inits);
      r.wall_laws[f.w[1]] = law;
      if (f.w[3] != "wall/gran/region") {
        add_walls(r, p, f.at, f.w, f.style_at, law);
        continue;
      }
      if (!regions) regions = region_context(r, p);
      add_region_wall(r, p, *regions, f.at, f.w, f.style_at, law);
    }

    for (const auto& [id, c] : p.computes) {
      r.computes[id] = c.second;
      taken.push_back(c.first);
    }
    std::stable_sort(taken.begin(), taken.end(), [](const Where& a, const Where& b) {
      return a.file == b.file ? a.line < b.line : a.file < b.file;
    });
    for (const auto& t : taken) r.taken.push_back(fmt::format("{}:{}: {}", t.file, t.line, t.text));
    r.skipped = skipped_;
    r.packing.source = fmt::format("LAMMPS input {} (state: {})", path_, r.data_file);
    validate(r.packing);
    return r;
  }

  // Every pair of types gets its law as LAMMPS sets it up: the last pair_coeff that covers it, or
  // init_one()'s mixing (contact/lammps_mixing.hpp, with a note on what LAMMPS then runs).
  void build_laws(LammpsInput& r, const Physics& p, std::vector<Where>& taken) const {
    std::set<int> present(r.packing.type.begin(), r.packing.type.end());
    const int ntypes = std::max(p.create_box_types, present.empty() ? 1 : *present.rbegin());
    if (p.coeffs.empty()) error_at(p.pair_style_at->file, p.pair_style_at->line, "no pair_coeff line in effect");
    std::vector<contact::PairCoeffLine> lines;
    for (const auto& c : p.coeffs) {
      lines.push_back({c.i, c.j, c.w, fmt::format("{}: {}", c.at.str(), c.at.text)});
      taken.push_back(c.at);
      r.law_commands.push_back(c.at.text);
    }
    const contact::TypeLaws laws = contact::lammps_type_laws(p.style_words, lines, ntypes);
    bool first = true;
    for (int a : present)
      for (int b : present) {
        if (a > b) continue;
        const contact::ContactLaw& law = laws.between(a, b);
        if (first) r.laws.base = law;
        first = false;
        r.laws.by_types[{a, b}] = law;
      }
    r.notes = laws.notes;
    r.laws.validate();
  }

  // "gran/hertz/history" style words of a classic wall, or the granular model words, up to the
  // wall style keyword; returns the index of that keyword.
  std::size_t wall_style_index(const Where& at, const std::vector<std::string>& w) const {
    for (std::size_t k = 5; k < w.size(); ++k)
      if (w[k] == "xplane" || w[k] == "yplane" || w[k] == "zplane" || w[k] == "zcylinder" || w[k] == "region") return k;
    error_at(at.file, at.line, "fix wall/gran without a wall style (xplane, yplane, zplane, zcylinder or region)");
  }

  // The wall's law as fix_wall_gran.cpp's constructor builds it (LAMMPS 29 Sep 2021): the classic
  // styles take the pair style's arguments; `granular` the pair_coeff words with the fix's own
  // conversions of the material models (contact::parse_lammps_wall_granular).
  // LAMMPS 29 Sep 2021 also converts a `damping tsuji` restitution in FixWallGran::init(), in place, so
  // each initialisation of the system applies Tsuji's polynomial once more (tests/data/lammps/
  // in.chung_ooi_3_two_runs): `inits` of them by the run taken.
  static contact::ContactLaw wall_law(LammpsInput& r, const Where& at, const std::vector<std::string>& w,
                                      std::size_t style_at, int inits) {
    contact::ContactLaw law = wall_law_words(at, w, style_at);
    if (law.damping != contact::DampingModel::tsuji || inits < 2) return law;
    const double once = law.damping_coefficient;
    for (int k = 1; k < inits; ++k) law.damping_coefficient = contact::tsuji_polynomial(law.damping_coefficient);
    r.notes.push_back(fmt::format(
        "fix {} ({}): LAMMPS 29 Sep 2021 converts a wall's damping tsuji restitution again at each initialisation "
        "(FixWallGran::init(), each run and write_data); by the run taken it has been initialised {} times, so its "
        "damping coefficient is Tsuji's polynomial applied {} times: {:.6g} (once: {:.6g}), what LAMMPS runs and "
        "dtcrit analyses",
        w[1], at.str(), inits, inits, law.damping_coefficient, once));
    return contact::validated(law);
  }
  static contact::ContactLaw wall_law_words(const Where& at, const std::vector<std::string>& w, std::size_t style_at) {
    const std::string where = at.str();
    const std::string& style = w[4];
    const std::vector<std::string> args(w.begin() + 5, w.begin() + static_cast<long>(style_at));
    if (style == "hooke" || style == "hooke/history" || style == "hertz/history") {
      std::vector<std::string> sw{"gran/" + style};
      sw.insert(sw.end(), args.begin(), args.end());
      return contact::parse_lammps_pair(sw, {}, where);
    }
    if (style != "granular")
      error_at(at.file, at.line,
               fmt::format("fix wall/gran style '{}' is not known (hooke, hooke/history, hertz/history, granular)", style));
    return contact::parse_lammps_wall_granular(args, where);
  }

  // One wall per non-NULL bound of a planar wall/gran fix, facing the inside of [lo, hi].
  void add_walls(LammpsInput& r, const Physics& p, const Where& at, const std::vector<std::string>& w,
                 std::size_t style_at, const contact::ContactLaw& law) const {
    auto error_here = [&](const std::string& what) { error_at(at.file, at.line, what); };
    const std::string& ws = w[style_at];
    if (ws == "zcylinder" || ws == "region")
      error_here(fmt::format("fix {} {}: dtcrit's walls are planes (xplane, yplane, zplane)", w[3], ws));
    if (style_at + 2 >= w.size()) error_here(fmt::format("expected '{} LO HI'", ws));
    for (std::size_t k = style_at + 3; k < w.size(); ++k)
      if (w[k] != "contacts")
        error_here(fmt::format("fix wall/gran keyword '{}': dtcrit's walls are immovable (wiggle and shear are not "
                               "read)",
                               w[k]));
    const int axis = ws[0] - 'x';
    if (axis >= p.dimension) error_here(fmt::format("{} in a {}D simulation", ws, p.dimension));
    if (p.periodic[static_cast<std::size_t>(axis)])
      error_here(fmt::format("{} on the periodic axis {} (LAMMPS refuses it too)", ws, "xyz"[axis]));
    r.law_commands.push_back(at.text);
    for (int side = 0; side < 2; ++side) {
      const std::string& bound = w[style_at + 1 + static_cast<std::size_t>(side)];
      if (bound == "NULL") continue;
      const auto v = plain_number(bound);
      if (!v) error_here(fmt::format("{} bound '{}' must be a number or NULL", ws, bound));
      PlaneWall wall;
      wall.point = Vec3::Zero();
      wall.point[axis] = *v;
      wall.normal = Vec3::Zero();
      wall.normal[axis] = side == 0 ? 1.0 : -1.0;
      wall.law = law;
      wall.label = fmt::format("{}={} (fix {} {}, {})", "xyz"[axis], bound, w[1], side == 0 ? "lo" : "hi", at.str());
      r.wall_fixes[w[1]].push_back(static_cast<int>(r.packing.walls.size()));
      r.packing.walls.push_back(std::move(wall));
    }
  }

  // fix ID all wall/gran/region STYLE ARGS... region NAME [contacts]: the region as it is at the
  // state's time step (region_wall.hpp), with the fix's law.
  void add_region_wall(LammpsInput& r, const Physics& p, const RegionReadContext& context, const Where& at,
                       const std::vector<std::string>& w, std::size_t style_at, const contact::ContactLaw& law) const {
    auto error_here = [&](const std::string& what) { error_at(at.file, at.line, what); };
    if (w[style_at] != "region") error_here(fmt::format("fix wall/gran/region: expected 'region NAME', got '{}'", w[style_at]));
    if (style_at + 1 >= w.size()) error_here("fix wall/gran/region: 'region' without a region ID");
    for (std::size_t k = style_at + 2; k < w.size(); ++k)
      if (w[k] != "contacts")
        error_here(fmt::format("fix wall/gran/region keyword '{}' is not read by dtcrit (contacts is)", w[k]));
    const std::string& name = w[style_at + 1];
    const auto region = p.regions.find(name);
    if (region == p.regions.end())
      error_here(fmt::format("fix wall/gran/region: region '{}' is not defined at the run taken", name));
    RegionWall wall;
    try {
      wall = parse_lammps_region(region->second.second, context);
    } catch (const std::invalid_argument& e) {
      error_at(region->second.first.file, region->second.first.line, e.what());
    }
    wall.law = law;
    wall.label = fmt::format("region {} (fix {}, {}; {})", name, w[1], at.str(), region->second.first.str());
    r.law_commands.push_back(at.text);  // the probe writes the region itself, as it is at the state
    r.wall_fixes[w[1]].push_back(static_cast<int>(r.packing.walls.size() + r.packing.region_walls.size()));
    r.packing.region_walls.push_back(std::move(wall));
  }

  // What every region wall is read with: the box, the variables at the state, and the regions in
  // effect at the run taken, which union and intersect name.
  RegionReadContext region_context(const LammpsInput& r, const Physics& p) const {
    RegionReadContext context;
    context.lattice_command = p.lattice_command;
    context.box = std::array<Vec3, 2>{r.packing.box_lo, r.packing.box_hi};
    context.variables = variables_at_state(r);
    for (const auto& [id, def] : p.regions) {
      const auto& words = def.second;
      if (words.size() > 2 && (words[2] == "union" || words[2] == "intersect")) continue;
      try {
        context.regions[id] = parse_lammps_region(words, context);
      } catch (const std::invalid_argument&) {
        // An insertion region no wall uses may hold what a wall cannot (e.g. a prism).
      }
    }
    return context;
  }

  // Every equal-style variable that has a value at the state's time step: step from the data
  // file's header (write_data records it), elapsed since the start of the run taken.
  std::map<std::string, double> variables_at_state(const LammpsInput& r) const {
    const auto step = data_file_step(r.data_file);
    std::map<std::string, double> values;
    const auto& variables = at_run_ ? variables_at_run_ : variables_;
    for (const auto& [name, v] : variables) {
      if (v.style != "equal") {
        if (const auto x = read_number(v.value)) values[name] = *x;
        continue;
      }
      try {
        values[name] = evaluate_in(variables, v.value, {step, step ? *step - run_start_step_ : 0, std::nullopt});
      } catch (const std::invalid_argument&) {
        // Not a value at the state (an atom value, or step-dependent without a step in the data
        // file): a region that uses it is refused by parse_lammps_region, naming it.
      }
    }
    return values;
  }

  std::string path_;
  LammpsInputOptions options_;
  std::string file_;
  long line_ = 0, end_line_ = 0;
  int includes_ = 0;
  std::map<std::string, Variable> variables_;
  Physics physics_;
  std::optional<Physics> at_run_;
  std::map<std::string, Variable> variables_at_run_;
  Where run_where_;
  long run_start_step_ = 0;
  int runs_ = 0;
  // LAMMPS' system initialisations so far (each run, write_data), and at the run taken: a wall's
  // `damping tsuji` is converted again at each (wall_law).
  int inits_ = 0, inits_at_run_ = 0;
  bool fixes_changed_ = false;  // a fix defined or removed since the last run
  std::optional<Where> read_data_;
  std::string read_data_file_;
  std::optional<Where> first_state_command_;
  std::vector<std::string> skipped_;
};

}  // namespace

LammpsInput read_lammps_input(const std::string& path, const LammpsInputOptions& options) {
  if (options.run && *options.run < 1) fail(fmt::format("--lammps-run {} must be >= 1", *options.run));
  return Reader(path, options).read();
}

}  // namespace dtcrit::packing
