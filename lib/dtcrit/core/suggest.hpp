#pragma once
// "did you mean ...?" for a mistyped name: the nearest of the valid names by edit distance
// (insertions, deletions, substitutions and swaps of neighbours: "raito" is one swap from "ratio").
#include <string>
#include <string_view>
#include <vector>

namespace dtcrit {

std::size_t edit_distance(std::string_view a, std::string_view b);

// The valid name nearest to given, if within a third of given's length (plus one); else empty.
std::string nearest_name(std::string_view given, const std::vector<std::string>& valid);

// " (did you mean 'kt_ratio'?)" when a valid name is near given, else "" (to append to a message).
std::string did_you_mean(std::string_view given, const std::vector<std::string>& valid);

}  // namespace dtcrit
