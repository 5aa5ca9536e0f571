#include "dtcrit/io/input_file.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/io/output_file.hpp"

namespace dtcrit {

namespace fs = std::filesystem;

std::uintmax_t check_input_file(const std::string& path, std::string_view what) {
  auto refuse = [&](const std::string& why) { fail(fmt::format("{} '{}': {}", what, excerpt(path), why)); };
  if (path.empty()) refuse("no file named");
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // of what a symlink points to
  if (!fs::exists(status)) {
    if (ec && ec != std::errc::no_such_file_or_directory) refuse(fmt::format("cannot be examined ({})", ec.message()));
    refuse("does not exist");
  }
  if (fs::is_directory(status)) refuse("is a folder, not a file");
  if (!fs::is_regular_file(status)) refuse("is not a regular file (a device, a FIFO or a socket cannot be an input)");
  if (const std::string option = declared_output_option(path); !option.empty())
    refuse(fmt::format("is also the file of {}: the command would overwrite its own input", option));
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) refuse(fmt::format("cannot be examined ({})", ec.message()));
  return size;
}

std::string read_input_file(const std::string& path, std::string_view what) {
  auto refuse = [&](const std::string& why) { fail(fmt::format("{} '{}': {}", what, excerpt(path), why)); };
  const std::uintmax_t size = check_input_file(path, what);
  if (size > max_input_bytes)
    refuse(fmt::format("is {} bytes; inputs are read whole, up to {} bytes", size, max_input_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("cannot be opened (permissions?)");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.bad()) refuse("read error");
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string excerpt(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return fmt::format("{}... ({} more characters)", text.substr(0, cut), text.size() - cut);
}

nlohmann::json parse_json_input(std::string_view text, const std::string& path) {
  using nlohmann::json;
  std::string last_key;  // the field a number that overflows belongs to
  const json::parser_callback_t watch = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth > max_json_depth)
      fail(fmt::format("{}: the JSON is nested more than {} levels deep; a dtcrit file needs a few", path,
                       max_json_depth));
    if (event == json::parse_event_t::key) last_key = parsed.is_string() ? parsed.get<std::string>() : "";
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), watch);
  } catch (const json::parse_error& e) {
    fail(fmt::format("{}: not valid JSON: {}", path, excerpt(e.what())));
  } catch (const json::out_of_range& e) {  // 406: a number beyond a double
    const std::string field = last_key.empty() ? "" : fmt::format("field '{}': ", excerpt(last_key));
    fail(fmt::format("{}: {}a number beyond the range of a double ({})", path, field, excerpt(e.what())));
  }
}

}  // namespace dtcrit
