#pragma once
// "key=value,key=value" specifications (bodies, integrator parameters, walls, table axes). A key
// that nothing reads is an error (cf. pbrt-v4's ReportUnused): call reject_unused() when done.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dtcrit {

// The text without the white space (std::isspace) at either end.
std::string_view trim(std::string_view text);
// Splits on a separator, keeping empty pieces out.
std::vector<std::string> split(std::string_view text, char separator);
// Splits on whitespace (the words of a LAMMPS line or argument list).
std::vector<std::string> split_words(std::string_view text);

class KeyValues {
 public:
  KeyValues() = default;
  // `who` names the specification in error messages ("--body1"). White space around keys and
  // values is dropped (" beta = 0.3" reads as beta=0.3), empty items are skipped.
  KeyValues(std::string_view spec, std::string who);

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::optional<std::string> text(const std::string& key) const;
  std::optional<double> number(const std::string& key) const;
  double required_number(const std::string& key) const;
  std::string required_text(const std::string& key) const;
  void set(const std::string& key, const std::string& value) { values_[key] = value; }
  const std::string& who() const { return who_; }
  // The keys given, in alphabetical order.
  std::vector<std::string> keys() const;
  // Throws if a key was given that no text()/number() call read, listing the accepted ones.
  void reject_unused(const std::vector<std::string>& accepted) const;
  std::string to_string() const;

 private:
  std::string who_;
  std::map<std::string, std::string> values_;
  mutable std::set<std::string> used_;
};

}  // namespace dtcrit
