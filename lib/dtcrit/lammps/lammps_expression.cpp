#include "dtcrit/lammps/lammps_expression.hpp"

#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit::packing {

namespace {

class Parser {
 public:
  Parser(const std::string& text, const FormulaNames& names) : text_(text), names_(names) {}

  double parse() {
    const double v = logical_or();
    skip_space();
    if (pos_ != text_.size()) error(fmt::format("unexpected '{}' at position {}", text_.substr(pos_, 20), pos_ + 1));
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    fail(fmt::format("formula '{}': {}", text_.substr(0, 200), what));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(std::string_view op) {
    skip_space();
    if (text_.compare(pos_, op.size(), op) != 0) return false;
    pos_ += op.size();
    return true;
  }
  // An operator that is not the prefix of a longer one ("<" not "<=", "|" not "||").
  bool take_alone(std::string_view op, std::string_view longer) {
    skip_space();
    if (text_.compare(pos_, longer.size(), longer) == 0) return false;
    return take(op);
  }

  // Lowest precedence first, each level left to right (LAMMPS evaluates left to right).
  double logical_or() {
    double v = logical_and();
    for (;;) {
      if (take("||")) {
        const double r = logical_and();
        v = (v != 0.0 || r != 0.0) ? 1.0 : 0.0;
      } else if (take("|^")) {
        const double r = logical_and();
        v = ((v == 0.0) != (r == 0.0)) ? 1.0 : 0.0;
      } else {
        return v;
      }
    }
  }
  double logical_and() {
    double v = equality();
    while (take("&&")) {
      const double r = equality();
      v = (v != 0.0 && r != 0.0) ? 1.0 : 0.0;
    }
    return v;
  }
  double equality() {
    double v = comparison();
    for (;;) {
      if (take("==")) v = v == comparison() ? 1.0 : 0.0;
      else if (take("!=")) v = v != comparison() ? 1.0 : 0.0;
      else return v;
    }
  }
  double comparison() {
    double v = additive();
    for (;;) {
      if (take("<=")) v = v <= additive() ? 1.0 : 0.0;
      else if (take(">=")) v = v >= additive() ? 1.0 : 0.0;
      else if (take_alone("<", "<=")) v = v < additive() ? 1.0 : 0.0;
      else if (take_alone(">", ">=")) v = v > additive() ? 1.0 : 0.0;
      else return v;
    }
  }
  double additive() {
    double v = multiplicative();
    for (;;) {
      if (take("+")) v += multiplicative();
      else if (take("-")) v -= multiplicative();
      else return v;
    }
  }
  double multiplicative() {
    double v = power();
    for (;;) {
      if (take("*")) {
        v *= power();
      } else if (take("/")) {
        const double r = power();
        if (r == 0.0) error("division by zero");
        v /= r;
      } else if (take("%")) {
        const double r = power();
        if (r == 0.0) error("modulo by zero");
        v = std::fmod(v, r);
      } else {
        return v;
      }
    }
  }
  double power() {
    double v = unary();
    while (take("^")) {
      const double r = unary();
      if (v == 0.0 && r < 0.0) error("zero to a negative power");
      v = std::pow(v, r);
    }
    return v;
  }
  // Nesting (parentheses, function arguments, chains of unary operators) is bounded: a formula is
  // user text, and unbounded recursion on "((((..." would overflow the stack.
  struct Deeper {
    explicit Deeper(Parser& p) : p_(p) {
      if (++p_.depth_ > max_depth) p_.error(fmt::format("nested more than {} deep", max_depth));
    }
    ~Deeper() { --p_.depth_; }
    Parser& p_;
  };
  static constexpr int max_depth = 200;

  double unary() {
    const Deeper deeper(*this);
    if (take("-")) return -unary();
    if (take_alone("!", "!=")) return unary() == 0.0 ? 1.0 : 0.0;
    return primary();
  }

  double primary() {
    skip_space();
    if (pos_ >= text_.size()) error("ends where a value is expected");
    if (take("(")) {
      const double v = logical_or();
      if (!take(")")) error("'(' without a closing ')'");
      return v;
    }
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    error(fmt::format("unexpected '{}' at position {}", c, pos_ + 1));
  }

  double number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t k = pos_ + 1;
      if (k < text_.size() && (text_[k] == '+' || text_[k] == '-')) ++k;
      if (k < text_.size() && std::isdigit(static_cast<unsigned char>(text_[k]))) {
        pos_ = k;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      }
    }
    const std::string word = text_.substr(start, pos_ - start);
    const auto v = read_number(word);
    if (!v) error(fmt::format("'{}' is not a number", word));
    return *v;
  }

  double name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
            text_[pos_] == '[' || text_[pos_] == ']'))
      ++pos_;
    const std::string word = text_.substr(start, pos_ - start);
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '(') return function(word);
    if (word.rfind("v_", 0) == 0) {
      const std::string var = word.substr(2);
      if (names_.variable)
        if (const auto v = names_.variable(var)) return *v;
      error(fmt::format("variable '{}' is not defined as a number dtcrit can evaluate", var));
    }
    if (word == "PI") return std::numbers::pi;
    if (word == "version") return 20210929.0;  // LAMMPS 29 Sep 2021, the version dtcrit reads
    if (word == "on" || word == "true" || word == "yes") return 1.0;
    if (word == "off" || word == "false" || word == "no") return 0.0;
    if (word.rfind("c_", 0) == 0 || word.rfind("f_", 0) == 0)
      error(fmt::format("'{}' is a compute or fix value: dtcrit cannot know it without running the simulation", word));
    if (names_.keyword)
      if (const auto v = names_.keyword(word)) return *v;
    error(fmt::format("'{}' is not a value dtcrit can evaluate without running the simulation (numbers, PI, v_NAME, "
                      "step, elapsed, elaplong, dt, time and math functions are)",
                      word));
  }

  double function(const std::string& f) {
    take("(");
    std::vector<double> args;
    if (!take(")")) {
      for (;;) {
        args.push_back(logical_or());
        if (take(")")) break;
        if (!take(",")) error(fmt::format("{}(: expected ',' or ')'", f));
      }
    }
    static const std::map<std::string, double (*)(double)> one{
        {"sqrt", [](double x) { return std::sqrt(x); }}, {"exp", [](double x) { return std::exp(x); }},
        {"ln", [](double x) { return std::log(x); }},    {"log", [](double x) { return std::log10(x); }},
        {"abs", [](double x) { return std::fabs(x); }},  {"sin", [](double x) { return std::sin(x); }},
        {"cos", [](double x) { return std::cos(x); }},   {"tan", [](double x) { return std::tan(x); }},
        {"asin", [](double x) { return std::asin(x); }}, {"acos", [](double x) { return std::acos(x); }},
        {"atan", [](double x) { return std::atan(x); }}, {"ceil", [](double x) { return std::ceil(x); }},
        {"floor", [](double x) { return std::floor(x); }},
        {"round", [](double x) { return std::nearbyint(x); }}};
    if (const auto it = one.find(f); it != one.end()) {
      if (args.size() != 1) error(fmt::format("{}() takes one argument, got {}", f, args.size()));
      // LAMMPS refuses these arguments (variable.cpp: "Sqrt of negative value", "Log of zero/negative value").
      if (f == "sqrt" && args[0] < 0.0) error(fmt::format("sqrt({:g}) of a negative value", args[0]));
      if ((f == "ln" || f == "log") && args[0] <= 0.0) error(fmt::format("{}({:g}) of a value <= 0", f, args[0]));
      if ((f == "asin" || f == "acos") && std::fabs(args[0]) > 1.0)
        error(fmt::format("{}({:g}) of a value outside [-1, 1]", f, args[0]));
      return it->second(args[0]);
    }
    if (f == "atan2") {
      if (args.size() != 2) error(fmt::format("atan2() takes two arguments, got {}", args.size()));
      return std::atan2(args[0], args[1]);
    }
    if (f == "ternary") {
      if (args.size() != 3) error(fmt::format("ternary() takes three arguments, got {}", args.size()));
      return args[0] != 0.0 ? args[1] : args[2];
    }
    error(fmt::format("function '{}()' is not evaluated by dtcrit (sqrt, exp, ln, log, abs, sin, cos, tan, asin, acos, "
                      "atan, atan2, ceil, floor, round and ternary are)",
                      f));
  }

  const std::string& text_;
  const FormulaNames& names_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

double evaluate_lammps_formula(const std::string& text, const FormulaNames& names) {
  const double v = Parser(text, names).parse();
  if (!std::isfinite(v)) fail(fmt::format("formula '{}': the value is not finite", text.substr(0, 200)));
  return v;
}

}  // namespace dtcrit::packing
