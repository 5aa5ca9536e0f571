#include "dtcrit/contact/lammps_mixing.hpp"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"

namespace dtcrit::contact {

namespace {

std::string line_text(const PairCoeffLine& l) {
  if (!l.text.empty()) return l.text;
  return fmt::format("pair_coeff {} {} {}", l.type_i, l.type_j, fmt::join(l.coefficients, " "));
}

// A type index: all digits, no sign (LAMMPS reads it with strtol and then checks the bounds).
std::optional<int> type_number(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  for (char ch : s)
    if (ch < '0' || ch > '9') return std::nullopt;
  return std::stoi(s);
}

bool history_tangential(const ContactLaw& law) { return law.tangential != TangentialModel::linear_nohistory; }

double geometric(double a, double b) { return std::sqrt(a * b); }

// pair_granular.cpp init_one() for a pair without coefficients, and what compute() then runs with
// the pair's model entries left at zero (see lammps_mixing.hpp).
ContactLaw mixed(const ContactLaw& ii, const ContactLaw& jj, int i, int j, bool any_tangential_history,
                 std::vector<std::string>& notes) {
  if (ii.normal != jj.normal || ii.damping != jj.damping || ii.tangential != jj.tangential ||
      ii.rolling != jj.rolling || ii.twisting != jj.twisting)
    fail(fmt::format("pair_coeff: types {} and {} have no pair_coeff of their own and their laws differ in form "
                     "('{}' and '{}'); LAMMPS cannot mix them either (\"Granular pair style functional forms are "
                     "different\"): set pair_coeff {} {} explicitly",
                     i, j, describe(ii), describe(jj), i, j));
  ContactLaw m;
  m.style = Style::granular;
  m.normal = NormalModel::hooke;
  m.kn = geometric(ii.kn, jj.kn);
  m.damping = DampingModel::velocity;
  m.damping_coefficient = geometric(ii.damping_coefficient, jj.damping_coefficient);
  m.kt = geometric(ii.kt, jj.kt);
  m.tangential_damping = geometric(ii.tangential_damping, jj.tangential_damping);
  m.mu = geometric(ii.mu, jj.mu);
  // compute() chooses the tangential branch by the style-wide flag: with it, the model entry 0 is
  // read as a force history incremented by -k_t v_t dt, which for a constant k_t is linear_history.
  m.tangential = any_tangential_history ? TangentialModel::linear_history : TangentialModel::linear_nohistory;
  if (any_tangential_history && m.kt == 0.0)
    fail(fmt::format("pair_coeff: types {} and {} mix to a zero tangential stiffness under a tangential history, "
                     "which LAMMPS runs as a force history that never grows (its cap then zeroes the force); dtcrit "
                     "does not model that law: set pair_coeff {} {} explicitly",
                     i, j, i, j));
  std::string lost;
  if (ii.normal != NormalModel::hooke) lost += fmt::format(" normal {} -> hooke;", to_string(ii.normal));
  if (ii.damping != DampingModel::velocity) lost += fmt::format(" damping {} -> velocity;", to_string(ii.damping));
  if (ii.tangential != m.tangential)
    lost += fmt::format(" tangential {} -> {};", to_string(ii.tangential), to_string(m.tangential));
  if (ii.rolling != RollingModel::none) lost += " rolling dropped;";
  if (ii.twisting != TwistingModel::none) lost += " twisting dropped;";
  if (cohesive(ii)) lost += " cohesion dropped;";
  if (ii.limit_damping) lost += " limit_damping dropped;";
  if (!lost.empty()) lost.pop_back();
  notes.push_back(fmt::format(
      "types {} {}: no pair_coeff; mixed as LAMMPS 29 Sep 2021 runs it: init_one() mixes the coefficients "
      "geometrically but leaves the pair's models unset (zero), so the pair is '{}'{}{} — not the law of its types "
      "(measured with lmp; set pair_coeff {} {} to get the law you mean)",
      i, j, describe(m), lost.empty() ? "" : ":", lost, i, j));
  return validated(m);
}

}  // namespace

const ContactLaw& TypeLaws::between(int i, int j) const {
  const auto it = laws.find({std::min(i, j), std::max(i, j)});
  if (it == laws.end()) fail(fmt::format("no contact law for atom types {} and {} (types: 1..{})", i, j, types));
  return it->second;
}

std::pair<int, int> lammps_type_bounds(const std::string& word, int types, const std::string& what) {
  const auto star = word.find('*');
  std::optional<int> lo, hi;
  if (star == std::string::npos) {
    lo = hi = type_number(word);
  } else {
    lo = star == 0 ? std::optional<int>(1) : type_number(word.substr(0, star));
    hi = star + 1 == word.size() ? std::optional<int>(types) : type_number(word.substr(star + 1));
  }
  if (!lo || !hi)
    fail(fmt::format("{}: atom type '{}' is not a type number or range (N, *, *N, N*, M*N)", what, word));
  if (*lo < 1 || *hi > types || *lo > *hi)
    fail(fmt::format("{}: atom type range '{}' is out of bounds (1-{})", what, word, types));
  return {*lo, *hi};
}

TypeLaws lammps_type_laws(const std::vector<std::string>& style_words, const std::vector<PairCoeffLine>& lines,
                          int types) {
  if (types < 1) fail(fmt::format("atom types = {} must be at least 1", types));
  if (style_words.empty()) fail("pair_style: no style given");
  TypeLaws out;
  out.types = types;
  const bool granular = style_words[0] == "granular";

  if (!granular) {
    // The classic styles take their coefficients from pair_style; pair_coeff only marks pairs set.
    for (const auto& l : lines) {
      lammps_type_bounds(l.type_i, types, line_text(l));
      lammps_type_bounds(l.type_j, types, line_text(l));
    }
    const ContactLaw law = parse_lammps_pair(style_words, {}, fmt::format("pair_style {}", fmt::join(style_words, " ")));
    for (const auto& l : lines)
      if (!l.coefficients.empty())
        fail(fmt::format("{}: pair_coeff of {} takes no arguments after the types, got '{}'", line_text(l),
                         style_words[0], fmt::join(l.coefficients, " ")));
    for (int i = 1; i <= types; ++i)
      for (int j = i; j <= types; ++j) out.laws[{i, j}] = law;
    return out;
  }

  std::map<std::pair<int, int>, ContactLaw> set;
  bool any_tangential_history = false;  // pair_granular.cpp's style-wide tangential_history flag
  for (const auto& l : lines) {
    const std::string what = line_text(l);
    const auto [ilo, ihi] = lammps_type_bounds(l.type_i, types, what);
    const auto [jlo, jhi] = lammps_type_bounds(l.type_j, types, what);
    const ContactLaw law = parse_lammps_pair(style_words, l.coefficients, what);
    any_tangential_history = any_tangential_history || history_tangential(law);
    int count = 0;
    for (int i = ilo; i <= ihi; ++i)
      for (int j = std::max(jlo, i); j <= jhi; ++j, ++count) set[{i, j}] = law;
    if (count == 0)
      fail(fmt::format("{}: sets no pair of types (LAMMPS sets (i, j) with i <= j only: \"Incorrect args for pair "
                       "coefficients\")",
                       what));
  }
  for (int i = 1; i <= types; ++i)
    if (!set.count({i, i}))
      fail(fmt::format("pair_coeff: atom type {} has no pair_coeff {} {} (LAMMPS: \"All pair coeffs are not set\")", i,
                       i, i));
  for (int i = 1; i <= types; ++i)
    for (int j = i; j <= types; ++j) {
      const auto it = set.find({i, j});
      out.laws[{i, j}] = it != set.end() ? it->second
                                         : mixed(set.at({i, i}), set.at({j, j}), i, j, any_tangential_history, out.notes);
    }
  return out;
}

}  // namespace dtcrit::contact
