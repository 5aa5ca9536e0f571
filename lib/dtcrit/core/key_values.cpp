#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/suggest.hpp"

#include <cctype>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit {

std::string_view trim(std::string_view text) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto pos = text.find(separator, start);
    const auto piece = text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start);
    if (!piece.empty()) out.emplace_back(piece);
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

std::vector<std::string> split_words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

KeyValues::KeyValues(std::string_view spec, std::string who) : who_(std::move(who)) {
  for (const auto& piece : split(spec, ',')) {
    const std::string_view item = trim(piece);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    const std::string key(trim(item.substr(0, eq == std::string_view::npos ? 0 : eq)));
    if (key.empty()) fail(fmt::format("{}: '{}' is not of the form key=value", who_, item));
    if (values_.count(key)) fail(fmt::format("{}: key '{}' given twice", who_, key));
    values_[key] = std::string(trim(item.substr(eq + 1)));
  }
}

std::vector<std::string> KeyValues::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, value] : values_) out.push_back(key);
  return out;
}

std::optional<std::string> KeyValues::text(const std::string& key) const {
  used_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> KeyValues::number(const std::string& key) const {
  auto t = text(key);
  if (!t) return std::nullopt;
  return parse_number(fmt::format("{} {}", who_, key), *t);
}

double KeyValues::required_number(const std::string& key) const {
  auto v = number(key);
  if (!v) fail(fmt::format("{}: missing {}=", who_, key));
  return *v;
}

std::string KeyValues::required_text(const std::string& key) const {
  auto v = text(key);
  if (!v) fail(fmt::format("{}: missing {}=", who_, key));
  return *v;
}

void KeyValues::reject_unused(const std::vector<std::string>& accepted) const {
  for (const auto& [key, value] : values_)
    if (!used_.count(key))
      fail(fmt::format("{}: key '{}' (= {}) is not used here{}; accepted keys: {}", who_, key, value,
                       did_you_mean(key, accepted),
                       fmt::join(accepted, ", ")));
}

std::string KeyValues::to_string() const {
  std::string out;
  for (const auto& [key, value] : values_) {
    if (!out.empty()) out += ',';
    out += key + "=" + value;
  }
  return out;
}

}  // namespace dtcrit
