#pragma once
// JSON as dtcrit prints, writes and quotes it. Strings that come from the user's input (file names,
// cells of a CSV file) need not be UTF-8; nlohmann's dump() throws on them, which would turn a valid
// input into an error. Here the bad bytes are shown as U+FFFD instead.
#include <string>

#include <nlohmann/json.hpp>

namespace dtcrit {

inline std::string json_text(const nlohmann::json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dtcrit
