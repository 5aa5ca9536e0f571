#include "dtcrit/contact/lammps_syntax.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit::contact {

namespace {

// Reads the words one by one and names the position of a bad one.
class Cursor {
 public:
  Cursor(const std::vector<std::string>& w, std::string_view where, std::string_view context)
      : w_(w), where_(where), context_(context) {}
  bool done() const { return i_ >= w_.size(); }
  const std::string& peek() const { return w_[i_]; }
  std::string next(std::string_view what) {
    if (done()) fail(fmt::format("{}: '{}' ends where {} was expected", where_, context_, what));
    return w_[i_++];
  }
  bool next_is_null() const { return !done() && w_[i_] == "NULL"; }
  double number(std::string_view what) {
    const std::size_t at = i_ + 1;
    const std::string t = next(what);
    const auto v = read_number(t);
    if (!v || !std::isfinite(*v))
      fail(fmt::format("{}: {} = '{}' (word {} of '{}') is not a number", where_, what, t, at, context_));
    return *v;
  }
  [[noreturn]] void unexpected(std::string_view expected) const {
    fail(fmt::format("{}: '{}' (word {} of '{}') is not supported; expected {}", where_, w_[i_ - 1], i_, context_,
                     expected));
  }

 private:
  const std::vector<std::string>& w_;
  std::string where_, context_;
  std::size_t i_ = 0;
};

ContactLaw parse_classic(Style style, const std::vector<std::string>& w, std::string_view where) {
  // pair_gran_hooke_history.cpp settings(): kn kt gamman gammat xmu dampflag [limit_damping]
  Cursor c(w, where, fmt::format("{}", fmt::join(w, " ")));
  c.next("the style");
  ContactLaw law;
  law.style = style;
  law.normal = style == Style::gran_hertz_history ? NormalModel::hertz : NormalModel::hooke;
  // gran/hertz/history: F_n = sqrt(R delta) (kn delta - m_eff gamma_n v_n): viscoelastic damping.
  law.damping = style == Style::gran_hertz_history ? DampingModel::viscoelastic : DampingModel::mass_velocity;
  law.tangential = style == Style::gran_hooke ? TangentialModel::linear_nohistory
                   : style == Style::gran_hertz_history ? TangentialModel::mindlin
                                                         : TangentialModel::linear_history;
  law.kn = c.number("kn");
  const bool kt_null = c.next_is_null();
  if (kt_null) c.next("kt");
  law.kt = kt_null ? law.kn * 2.0 / 7.0 : c.number("kt");
  law.damping_coefficient = c.number("gamma_n");
  const bool gt_null = c.next_is_null();
  if (gt_null) c.next("gamma_t");
  law.tangential_damping = gt_null ? 0.5 * law.damping_coefficient : c.number("gamma_t");
  law.mu = c.number("xmu");
  const double dampflag = c.number("dampflag");
  if (dampflag != 0.0 && dampflag != 1.0)
    fail(fmt::format("{}: dampflag = {} must be 0 or 1", where, dampflag));
  if (dampflag == 0.0) law.tangential_damping = 0.0;
  if (!c.done()) {
    if (c.next("limit_damping") != "limit_damping") c.unexpected("limit_damping or the end");
    law.limit_damping = true;
  }
  if (!c.done()) {
    c.next("");
    c.unexpected("the end of the line");
  }
  if (law.mu > 1e4) fail(fmt::format("{}: xmu = {} exceeds LAMMPS' limit 10000", where, law.mu));
  return validated(law);
}

ContactLaw parse_granular(const std::vector<std::string>& w, std::string_view where) {
  // pair_granular.cpp coeff(): the keywords after the two type columns.
  Cursor c(w, where, fmt::format("{}", fmt::join(w, " ")));
  ContactLaw law;
  law.style = Style::granular;
  law.damping = DampingModel::viscoelastic;  // LAMMPS' default damping model
  bool have_normal = false, have_tangential = false, tangential_null = false;
  while (!c.done()) {
    const std::string key = c.next("a keyword");
    if (key == "hooke" || key == "hertz") {
      law.normal = key == "hooke" ? NormalModel::hooke : NormalModel::hertz;
      law.kn = c.number("kn");
      law.damping_coefficient = c.number("normal damping");
      have_normal = true;
    } else if (key == "hertz/material" || key == "dmt" || key == "jkr") {
      // E, damping, Poisson's ratio (and for dmt, jkr the cohesion, a surface energy), as
      // pair_granular.cpp coeff() reads them; k_n = 4/3 E* of two bodies of this material.
      law.normal = key == "jkr" ? NormalModel::jkr : key == "dmt" ? NormalModel::dmt : NormalModel::hertz_material;
      law.youngs = c.number("E");
      law.damping_coefficient = c.number("normal damping");
      law.poisson = c.number("poisson");
      if (key != "hertz/material") law.cohesion = c.number("cohesion");
      require_positive(fmt::format("{} E", key), law.youngs);
      require_in_range(fmt::format("{} poisson", key), law.poisson, -1.0, 0.5);
      law.kn = 4.0 / 3.0 * effective_youngs(law.youngs, law.poisson, law.youngs, law.poisson);
      have_normal = true;
    } else if (key == "damping") {
      const auto m = value_named(c.next("a damping model"), damping_names);
      if (!m) c.unexpected(names_list(damping_names));
      law.damping = *m;
    } else if (key == "tangential") {
      const auto m = value_named(c.next("a tangential model"), tangential_names);
      if (!m) c.unexpected(names_list(tangential_names));
      have_tangential = true;
      law.tangential = *m;
      if (*m == TangentialModel::linear_nohistory) {
        law.kt = 0.0;  // "linear_nohistory x_gamma_t mu": no kt
      } else {
        tangential_null = c.next_is_null();
        if (tangential_null) {
          if (law.tangential == TangentialModel::linear_history)
            fail(fmt::format("{}: tangential linear_history needs a number for kt, not NULL", where));
          c.next("kt");
        } else {
          law.kt = c.number("kt");
        }
      }
      law.tangential_damping = c.number("x_gamma_t");
      law.mu = c.number("tangential friction mu");
    } else if (key == "rolling") {
      const auto m = value_named(c.next("a rolling model"), rolling_names);
      if (!m) c.unexpected(names_list(rolling_names));
      law.rolling = *m;
      if (*m == RollingModel::sds) {
        law.k_roll = c.number("k_roll");
        law.gamma_roll = c.number("gamma_roll");
        law.mu_roll = c.number("mu_roll");
      }
    } else if (key == "twisting") {
      const auto m = value_named(c.next("a twisting model"), twisting_names);
      if (!m) c.unexpected(names_list(twisting_names));
      law.twisting = *m;
      if (*m == TwistingModel::sds) {
        law.k_twist = c.number("k_twist");
        law.gamma_twist = c.number("gamma_twist");
        law.mu_twist = c.number("mu_twist");
      }
    } else if (key == "limit_damping") {
      law.limit_damping = true;
    } else if (key == "cutoff") {
      c.number("cutoff");  // the neighbour cutoff: no effect on touching contacts
    } else {
      c.unexpected("hooke, hertz, hertz/material, dmt, jkr, damping, tangential, rolling, twisting, limit_damping or "
                   "cutoff");
    }
  }
  if (!have_normal)
    fail(fmt::format("{}: granular needs a normal model (hooke, hertz, hertz/material, dmt or jkr)", where));
  if (!have_tangential) fail(fmt::format("{}: granular needs a tangential model (LAMMPS requires one)", where));
  if (tangential_null) {
    if (law.normal == NormalModel::hooke || law.normal == NormalModel::hertz)
      fail(fmt::format("{}: a NULL Mindlin kt needs a material normal model (hertz/material, dmt or jkr; LAMMPS' "
                       "rule)",
                       where));
    law.kt = 8.0 * effective_shear(law.youngs, law.poisson, law.youngs, law.poisson);
  }
  if (law.damping == DampingModel::tsuji) law.damping_coefficient = tsuji_coefficient(law.damping_coefficient);
  if (law.limit_damping && cohesive(law))
    fail(fmt::format("{}: limit_damping cannot be used with the {} normal model (LAMMPS refuses it)", where,
                     to_string(law.normal)));
  return validated(law);
}

}  // namespace

ContactLaw parse_lammps_pair(const std::vector<std::string>& style_words, const std::vector<std::string>& coeff_words,
                             std::string_view where) {
  if (style_words.empty()) fail(fmt::format("{}: no pair style given", where));
  const std::string& style = style_words[0];
  if (style == "gran/hooke" || style == "gran/hooke/history" || style == "gran/hertz/history") {
    if (!coeff_words.empty())
      fail(fmt::format("{}: pair_coeff of {} takes no arguments after the types, got '{}'", where, style,
                       fmt::join(coeff_words, " ")));
    const Style s = style == "gran/hooke" ? Style::gran_hooke
                    : style == "gran/hooke/history" ? Style::gran_hooke_history
                                                    : Style::gran_hertz_history;
    return parse_classic(s, style_words, where);
  }
  if (style == "granular") {
    if (style_words.size() > 2) fail(fmt::format("{}: pair_style granular takes at most a cutoff", where));
    return parse_granular(coeff_words, where);
  }
  fail(fmt::format("{}: pair style '{}' is not supported; supported: gran/hooke, gran/hooke/history, "
                   "gran/hertz/history, granular",
                   where, style));
}

ContactLaw parse_lammps_wall_granular(const std::vector<std::string>& words, std::string_view where) {
  ContactLaw law = parse_lammps_pair({"granular"}, words, where);
  if (law.normal == NormalModel::hertz_material || cohesive(law)) {
    const double E = law.youngs, nu = law.poisson;
    law.kn = 4.0 / 3.0 * E / (2.0 * (1.0 - nu));
    for (std::size_t k = 0; k + 2 < words.size(); ++k)
      if (words[k] == "tangential" && words[k + 1].rfind("mindlin", 0) == 0 && words[k + 2] == "NULL")
        law.kt = E / 4.0 * (2.0 - nu) * (1.0 + nu);
  }
  return validated(law);
}

ContactLaw parse_lammps_pair(std::string_view text, std::string_view where) {
  const std::vector<std::string> w = split_words(text);
  if (w.empty()) fail(fmt::format("{}: empty", where));
  if (w[0] == "granular") return parse_lammps_pair({w[0]}, std::vector<std::string>(w.begin() + 1, w.end()), where);
  return parse_lammps_pair(w, {}, where);
}

}  // namespace dtcrit::contact
