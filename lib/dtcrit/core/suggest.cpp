#include "dtcrit/core/suggest.hpp"

#include <algorithm>

namespace dtcrit {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest_name(std::string_view given, const std::vector<std::string>& valid) {
  std::string best;
  std::size_t best_distance = given.size() / 3 + 1;
  for (const auto& name : valid) {
    // The distance is at least the difference in length: a long typo (or a fuzzer's 4 kB name) costs
    // nothing instead of a table of its length times the name's.
    const std::size_t gap = given.size() > name.size() ? given.size() - name.size() : name.size() - given.size();
    if (gap >= best_distance) continue;
    const std::size_t dist = edit_distance(given, name);
    if (dist < best_distance) best_distance = dist, best = name;
  }
  return best;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& valid) {
  const std::string best = nearest_name(given, valid);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace dtcrit
