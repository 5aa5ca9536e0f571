#include "dtcrit/packing/lammps_input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/packing/lammps_io.hpp"
#include "dtcrit/io/input_file.hpp"

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

// Commands that cannot change the critical step of the packing read_data gives: output, neighbour
// lists, communication, bookkeeping, and the runs themselves (dtcrit answers for the data file's state).
const std::set<std::string>& skipped_commands() {
  static const std::set<std::string> s{
      "thermo", "thermo_style", "thermo_modify", "dump", "dump_modify", "undump", "run", "neighbor",
      "neigh_modify", "comm_modify", "comm_style", "newton", "processors", "log", "print", "echo", "restart",
      "write_data", "write_restart", "write_dump", "write_coeff", "reset_timestep", "group", "region", "velocity",
      "timer", "balance", "atom_modify", "uncompute", "unfix", "info", "partition", "suffix", "package"};
  return s;
}
// Fix styles without influence on the linearised dynamics: gravity is a constant load (the state,
// not the stiffness), the others are output or bookkeeping.
const std::set<std::string>& skipped_fixes() {
  static const std::set<std::string> s{"gravity", "print", "ave/time", "ave/atom", "ave/chunk", "ave/histo",
                                       "ave/correlate", "store/state", "balance", "enforce2d", "vector"};
  return s;
}

struct Line {
  long number = 0;
  std::vector<std::string> w;
};

class Script {
 public:
  explicit Script(const std::string& path) : path_(path) {}
  // The message is cut to a readable length: it may quote a line of any length.
  [[noreturn]] void error(long line, const std::string& what) const {
    fail(fmt::format("{}:{}: {}", path_, line, excerpt(what, 500)));
  }
  const std::string& path() const { return path_; }

  // Lines with comments removed, '&' continuations joined and variables substituted.
  std::vector<Line> read() {
    std::istringstream in(read_input_file(path_, "LAMMPS input script"));
    std::vector<Line> out;
    std::string raw, pending;
    long number = 0, first = 0;
    while (std::getline(in, raw)) {
      ++number;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      if (raw.find_first_of("\"'") != std::string::npos && raw.find('#') != std::string::npos &&
          raw.find_first_of("\"'") < raw.find('#'))
        error(number, "quoted text before a '#' is not read by dtcrit; remove the quotes or the comment");
      if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
      if (pending.empty()) first = number;
      std::string trimmed = raw;
      while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
      if (!trimmed.empty() && trimmed.back() == '&') {
        trimmed.pop_back();
        pending += trimmed + " ";
        continue;
      }
      pending += trimmed;
      Line l{first, split_words(substitute(pending, first))};
      pending.clear();
      if (l.w.empty()) continue;
      if (l.w[0] == "variable") define_variable(l);
      out.push_back(std::move(l));
    }
    if (!pending.empty()) error(number, "the last line ends with '&' (continued) but the file ends");
    return out;
  }

 private:
  // ${name} and $x (one character); LAMMPS' immediate $(expression) is not evaluated here.
  std::string substitute(const std::string& text, long line) const {
    std::string out;
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (text[k] != '$') {
        out += text[k];
        continue;
      }
      if (k + 1 >= text.size()) error(line, "a '$' ends the line; expected ${NAME} or $X");
      std::string name;
      if (text[k + 1] == '{') {
        const auto close = text.find('}', k + 2);
        if (close == std::string::npos) error(line, "'${' without a closing '}'");
        name = text.substr(k + 2, close - k - 2);
        k = close;
      } else if (text[k + 1] == '(') {
        error(line, "immediate variables $(...) are not evaluated by dtcrit; define the value with 'variable NAME "
                    "equal NUMBER'");
      } else {
        name = text.substr(k + 1, 1);
        ++k;
      }
      const auto v = variables_.find(name);
      if (v == variables_.end()) error(line, fmt::format("variable '{}' is used but not defined above", name));
      if (!v->second.plain)
        error(line, fmt::format("variable '{}' = '{}' is not a plain number or word; dtcrit substitutes constants only",
                                name, v->second.value));
      out += v->second.value;
    }
    return out;
  }

  void define_variable(const Line& l) {
    if (l.w.size() < 4) error(l.number, fmt::format("expected 'variable NAME STYLE VALUE', got '{}'", joined(l.w)));
    const std::string& name = l.w[1];
    const std::string& style = l.w[2];
    if (style != "equal" && style != "index" && style != "string")
      error(l.number, fmt::format("variable style '{}' is not read by dtcrit (equal, index and string constants are)",
                                  style));
    // A constant: one word that is a number (equal) or any single word (index, string). Anything
    // else is kept and becomes an error where it is used.
    const std::string value = joined(l.w, 3);
    const bool plain = l.w.size() == 4 && (style != "equal" || plain_number(value).has_value());
    variables_[name] = {value, plain};
  }

  struct Variable {
    std::string value;
    bool plain = false;
  };
  std::string path_;
  std::map<std::string, Variable> variables_;
};

// "gran/hertz/history" style words of a classic wall, or the granular model words, up to the wall
// style keyword; returns the index of that keyword.
std::size_t wall_style_index(const Line& l, const Script& s) {
  for (std::size_t k = 5; k < l.w.size(); ++k)
    if (l.w[k] == "xplane" || l.w[k] == "yplane" || l.w[k] == "zplane" || l.w[k] == "zcylinder" || l.w[k] == "region")
      return k;
  s.error(l.number, "fix wall/gran without a wall style (xplane, yplane, zplane, zcylinder or region)");
}

// The wall's law as fix_wall_gran.cpp's constructor builds it (LAMMPS 29 Sep 2021): the classic
// styles take the pair style's arguments; `granular` the pair_coeff words, except two conversions of
// its own: hertz/material stores 4/3 E/(2(1 - nu)) (the pair: 4/3 E* with E* = E/(2(1 - nu^2))), and a
// NULL Mindlin kt is E/4 (2 - nu)(1 + nu) (the pair: 8 G* = 2E/((2 - nu)(1 + nu))). Both are kept
// as LAMMPS runs them.
contact::ContactLaw wall_law(const Line& l, std::size_t style_at, const Script& s) {
  const std::string where = fmt::format("{}:{}", s.path(), l.number);
  const std::string& style = l.w[4];
  const std::vector<std::string> args(l.w.begin() + 5, l.w.begin() + static_cast<long>(style_at));
  if (style == "hooke" || style == "hooke/history" || style == "hertz/history") {
    std::vector<std::string> sw{"gran/" + style};
    sw.insert(sw.end(), args.begin(), args.end());
    return contact::parse_lammps_pair(sw, {}, where);
  }
  if (style != "granular")
    s.error(l.number, fmt::format("fix wall/gran style '{}' is not known (hooke, hooke/history, hertz/history, granular)",
                                  style));
  contact::ContactLaw law = contact::parse_lammps_pair({"granular"}, args, where);
  if (law.normal == contact::NormalModel::hertz_material) {
    const double E = law.youngs, nu = law.poisson;
    law.kn = 4.0 / 3.0 * E / (2.0 * (1.0 - nu));
    for (std::size_t k = 0; k + 2 < args.size(); ++k)
      if (args[k] == "tangential" && args[k + 1].rfind("mindlin", 0) == 0 && args[k + 2] == "NULL")
        law.kt = E / 4.0 * (2.0 - nu) * (1.0 + nu);
  }
  return contact::validated(law);
}

}  // namespace

LammpsInput read_lammps_input(const std::string& path) {
  Script script(path);
  const std::vector<Line> lines = script.read();
  LammpsInput r;
  r.path = path;
  auto taken = [&](const Line& l) { r.taken.push_back(fmt::format("{}:{}: {}", path, l.number, joined(l.w))); };
  auto skip = [&](const std::string& what) {
    if (std::find(r.skipped.begin(), r.skipped.end(), what) == r.skipped.end()) r.skipped.push_back(what);
  };

  std::optional<long> units_line, data_line, style_line, integrator_line, timestep_line;
  int dimension = 3;
  std::array<bool, 3> periodic{true, true, true};  // LAMMPS' default boundary p p p
  bool disc = false;
  std::vector<std::string> style_words;
  struct Coeff {
    long line;
    std::vector<std::string> w;  // after the two type columns
  };
  std::optional<Coeff> all_coeff;
  std::map<std::pair<int, int>, Coeff> type_coeffs;
  struct WallFix {
    Line line;
    std::size_t style_at;
  };
  std::vector<WallFix> wall_fixes;

  for (const Line& l : lines) {
    const std::string& cmd = l.w[0];
    const std::size_t n = l.w.size();
    auto need = [&](std::size_t count, const std::string& form) {
      if (n != count) script.error(l.number, fmt::format("expected '{}', got '{}'", form, joined(l.w)));
    };
    if (cmd == "variable") {
      skip("variable (constants substituted)");
    } else if (cmd == "units") {
      need(2, "units STYLE");
      if (l.w[1] != "si")
        script.error(l.number, fmt::format("units {}: dtcrit reads SI scripts only (units si); every number it "
                                           "reports is SI",
                                           l.w[1]));
      units_line = l.number;
      taken(l);
    } else if (cmd == "dimension") {
      need(2, "dimension 2|3");
      if (l.w[1] != "2" && l.w[1] != "3") script.error(l.number, fmt::format("dimension {} must be 2 or 3", l.w[1]));
      dimension = l.w[1] == "2" ? 2 : 3;
      taken(l);
    } else if (cmd == "boundary") {
      need(4, "boundary X Y Z");
      for (int d = 0; d < 3; ++d) {
        const std::string& b = l.w[static_cast<std::size_t>(d) + 1];
        static const std::set<std::string> valid{"p", "f", "s", "m", "fs", "fm", "sf", "sm", "mf", "ms", "ff", "ss", "mm"};
        if (!valid.count(b)) script.error(l.number, fmt::format("boundary '{}' of axis {} is not a LAMMPS boundary", b, "xyz"[d]));
        periodic[static_cast<std::size_t>(d)] = b == "p";
      }
      taken(l);
    } else if (cmd == "atom_style") {
      if (n != 2 || l.w[1] != "sphere")
        script.error(l.number, fmt::format("atom_style '{}': dtcrit reads atom_style sphere only", joined(l.w, 1)));
      taken(l);
    } else if (cmd == "read_data") {
      if (n != 2)
        script.error(l.number, fmt::format("read_data with keywords ('{}') is not read by dtcrit; expected 'read_data "
                                           "FILE'",
                                           joined(l.w, 2)));
      if (data_line) script.error(l.number, fmt::format("a second read_data (the first at line {})", *data_line));
      const std::filesystem::path file(l.w[1]);
      r.data_file = file.is_absolute() ? file.string() : (std::filesystem::path(path).parent_path() / file).string();
      data_line = l.number;
      taken(l);
    } else if (cmd == "pair_style") {
      if (n < 2) script.error(l.number, "expected 'pair_style STYLE ARGS...'");
      if (style_line) script.error(l.number, fmt::format("a second pair_style (the first at line {})", *style_line));
      const std::string& s = l.w[1];
      if (s != "gran/hooke" && s != "gran/hooke/history" && s != "gran/hertz/history" && s != "granular")
        script.error(l.number, fmt::format("pair style '{}' is not supported; supported: gran/hooke, "
                                           "gran/hooke/history, gran/hertz/history, granular",
                                           s));
      style_words.assign(l.w.begin() + 1, l.w.end());
      style_line = l.number;
      r.law_commands.push_back(joined(l.w));
      taken(l);
    } else if (cmd == "pair_coeff") {
      if (!style_line) script.error(l.number, "pair_coeff before pair_style");
      if (n < 3) script.error(l.number, "expected 'pair_coeff I J ARGS...'");
      Coeff c{l.number, std::vector<std::string>(l.w.begin() + 3, l.w.end())};
      if (l.w[1] == "*" && l.w[2] == "*") {
        all_coeff = c;
      } else {
        const auto a = read_integer<int>(l.w[1]), b = read_integer<int>(l.w[2]);
        if (!a || !b || *a < 1 || *b < 1)
          script.error(l.number, fmt::format("pair_coeff types '{} {}': dtcrit reads '* *' or two single types (no "
                                             "ranges such as 1*2)",
                                             l.w[1], l.w[2]));
        const int i = *a, j = *b;
        type_coeffs[{std::min(i, j), std::max(i, j)}] = c;
      }
      r.law_commands.push_back(joined(l.w));
      taken(l);
    } else if (cmd == "timestep") {
      need(2, "timestep DT");
      const auto dt = plain_number(l.w[1]);
      if (!dt || !(*dt > 0.0)) script.error(l.number, fmt::format("timestep '{}' must be a positive number [s]", l.w[1]));
      r.timestep = *dt;
      timestep_line = l.number;
      taken(l);
    } else if (cmd == "run_style") {
      if (n < 2 || l.w[1] != "verlet")
        script.error(l.number, fmt::format("run_style '{}': dtcrit answers for run_style verlet (LAMMPS' default)",
                                           joined(l.w, 1)));
      taken(l);
    } else if (cmd == "compute") {
      if (n < 4) script.error(l.number, "expected 'compute ID GROUP STYLE ARGS...'");
      if (l.w[3] == "property/local" || l.w[3] == "pair/local") {
        std::vector<std::string> kw;
        for (std::size_t k = 4; k < n; ++k) {
          if (l.w[k] == "cutoff") break;  // pair/local's optional keyword and its value
          kw.push_back(l.w[k]);
        }
        r.computes[l.w[1]] = kw;
        taken(l);
      } else {
        skip("compute " + l.w[3]);
      }
    } else if (cmd == "fix") {
      if (n < 4) script.error(l.number, "expected 'fix ID GROUP STYLE ARGS...'");
      const std::string& style = l.w[3];
      if (style == "wall/gran") {
        if (l.w[2] != "all")
          script.error(l.number, fmt::format("fix wall/gran on group '{}': dtcrit's walls act on every particle (group "
                                             "all)",
                                             l.w[2]));
        if (n < 6) script.error(l.number, "expected 'fix ID all wall/gran STYLE ARGS... WALLSTYLE ...'");
        wall_fixes.push_back({l, wall_style_index(l, script)});
        r.law_commands.push_back(joined(l.w));
        taken(l);
      } else if (style == "nve/sphere") {
        if (l.w[2] != "all")
          script.error(l.number, fmt::format("fix nve/sphere on group '{}': dtcrit integrates every particle (group all)",
                                             l.w[2]));
        for (std::size_t k = 4; k < n; ++k) {
          if (l.w[k] == "disc") disc = true;
          else script.error(l.number, fmt::format("fix nve/sphere keyword '{}' is not read by dtcrit (disc is)", l.w[k]));
        }
        if (integrator_line) script.error(l.number, fmt::format("a second integration fix (the first at line {})", *integrator_line));
        integrator_line = l.number;
        taken(l);
      } else if (skipped_fixes().count(style)) {
        if (style == "gravity") r.load_commands.push_back(joined(l.w));
        skip("fix " + style);
      } else {
        script.error(l.number, fmt::format("fix {} is not read by dtcrit: the answer is for fix nve/sphere (velocity "
                                           "Verlet) with fix wall/gran planes; a fix that integrates, constrains, "
                                           "damps or moves particles (nve, rigid, viscous, langevin, freeze, setforce, "
                                           "...) changes the critical step",
                                           style));
      }
    } else if (skipped_commands().count(cmd)) {
      skip(cmd);
    } else if (cmd == "create_atoms" || cmd == "create_box" || cmd == "lattice" || cmd == "read_restart" ||
               cmd == "read_dump") {
      script.error(l.number, fmt::format("{}: dtcrit takes the particles from read_data only; write_data the "
                                         "packing and read it",
                                         cmd));
    } else if (cmd == "set" || cmd == "displace_atoms" || cmd == "delete_atoms" || cmd == "change_box" ||
               cmd == "replicate" || cmd == "mass") {
      script.error(l.number, fmt::format("{} changes the particles after read_data; dtcrit reads them from the data "
                                         "file as they are",
                                         cmd));
    } else {
      script.error(l.number, fmt::format("command '{}' is not read by dtcrit (it neither skips it as output nor "
                                         "knows its effect on the time step)",
                                         cmd));
    }
  }
  const long end = static_cast<long>(lines.empty() ? 0 : lines.back().number);
  if (!units_line) script.error(end, "no 'units si' line (LAMMPS' default units are lj; dtcrit reads SI scripts)");
  if (!data_line) script.error(end, "no read_data line: dtcrit needs the packing from a data file");
  if (!style_line) script.error(end, "no pair_style line");
  if (!integrator_line) script.error(end, "no fix nve/sphere: the script integrates nothing dtcrit can answer for");
  if (disc && dimension != 2) script.error(*integrator_line, "fix nve/sphere disc needs dimension 2");
  if (!timestep_line) {
    r.timestep = lammps_si_default_timestep;
    r.timestep_default = true;
  }

  ReadOptions ro;
  ro.dimension = dimension;
  ro.body_model = disc ? BodyModel::disc : BodyModel::sphere;
  ro.periodic = periodic;
  r.packing = read_lammps_data(r.data_file, ro);

  // Laws: pair_coeff * * is the base; single type pairs override it. Without * *, every pair of the
  // data file's types needs its own line (LAMMPS would mix them; dtcrit does not reproduce the mixing).
  const std::string where = fmt::format("{}:{}", path, *style_line);
  std::set<int> types(r.packing.type.begin(), r.packing.type.end());
  if (all_coeff) {
    r.laws.base = contact::parse_lammps_pair(style_words, all_coeff->w, fmt::format("{}:{}", path, all_coeff->line));
  } else {
    if (type_coeffs.empty()) script.error(*style_line, "no pair_coeff line");
    for (int a : types)
      for (int b : types)
        if (a <= b && !type_coeffs.count({a, b}))
          script.error(type_coeffs.begin()->second.line,
                       fmt::format("no pair_coeff for types {} {} (nor '* *'): LAMMPS would mix them, dtcrit does not; "
                                   "give the pair explicitly",
                                   a, b));
    const Coeff& first = type_coeffs.begin()->second;
    r.laws.base = contact::parse_lammps_pair(style_words, first.w, fmt::format("{}:{}", path, first.line));
  }
  for (const auto& [key, c] : type_coeffs)
    r.laws.by_types[key] = contact::parse_lammps_pair(style_words, c.w, fmt::format("{}:{}", path, c.line));
  r.laws.validate();
  (void)where;

  // Walls: one per non-NULL bound of each planar wall/gran fix, facing the inside of [lo, hi].
  for (const WallFix& f : wall_fixes) {
    const Line& l = f.line;
    const std::string& ws = l.w[f.style_at];
    if (ws == "zcylinder" || ws == "region")
      script.error(l.number, fmt::format("fix wall/gran {}: dtcrit's walls are planes (xplane, yplane, zplane)", ws));
    if (f.style_at + 2 >= l.w.size()) script.error(l.number, fmt::format("expected '{} LO HI'", ws));
    for (std::size_t k = f.style_at + 3; k < l.w.size(); ++k)
      if (l.w[k] != "contacts")
        script.error(l.number, fmt::format("fix wall/gran keyword '{}': dtcrit's walls are immovable (wiggle and shear "
                                           "are not read)",
                                           l.w[k]));
    const int axis = ws[0] - 'x';
    if (axis >= dimension) script.error(l.number, fmt::format("{} in a {}D simulation", ws, dimension));
    if (periodic[static_cast<std::size_t>(axis)])
      script.error(l.number, fmt::format("{} on the periodic axis {} (LAMMPS refuses it too)", ws, "xyz"[axis]));
    const contact::ContactLaw law = wall_law(l, f.style_at, script);
    for (int side = 0; side < 2; ++side) {
      const std::string& bound = l.w[f.style_at + 1 + static_cast<std::size_t>(side)];
      if (bound == "NULL") continue;
      const auto v = plain_number(bound);
      if (!v) script.error(l.number, fmt::format("{} bound '{}' must be a number or NULL", ws, bound));
      PlaneWall w;
      w.point = Vec3::Zero();
      w.point[axis] = *v;
      w.normal = Vec3::Zero();
      w.normal[axis] = side == 0 ? 1.0 : -1.0;
      w.law = law;
      w.label = fmt::format("{}={} (fix {} {}, {}:{})", "xyz"[axis], bound, l.w[1], side == 0 ? "lo" : "hi", path, l.number);
      r.wall_fixes[l.w[1]].push_back(static_cast<int>(r.packing.walls.size()));
      r.packing.walls.push_back(std::move(w));
    }
  }
  r.packing.source = fmt::format("LAMMPS input {} (read_data {})", path, r.data_file);
  validate(r.packing);
  return r;
}

}  // namespace dtcrit::packing
