#pragma once
// Every file dtcrit reads goes through read_input_file(), as every file it writes goes through
// OutputFiles (io/output_file.hpp): one check of what a path may be, in one place.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dtcrit {

// Inputs are read whole into memory; a larger file is refused rather than read until memory runs
// out (10^7 spheres in a LAMMPS data file take about 1.5 GB).
inline constexpr std::uintmax_t max_input_bytes = std::uintmax_t{8} << 30;  // 8 GiB

// The whole content of the input `path`; `what` names it in errors ("LAMMPS data file"). Refuses,
// naming the path: a path that does not exist, a folder, anything but a regular file (/dev/zero, a
// FIFO, a socket: they cannot be inputs, and some never end), a file above max_input_bytes, a file
// this process has declared as an output (OutputFiles::declare: the command would overwrite its own
// input), and a file that cannot be read. Reads at most the size the file had when it was checked.
std::string read_input_file(const std::string& path, std::string_view what);
// The same checks without reading (an input another program reads, e.g. a restart `lmp` converts);
// returns the file's size.
std::uintmax_t check_input_file(const std::string& path, std::string_view what);

// Text of an input quoted in a message: at most `max` bytes, the rest replaced by
// "... (N more characters)", so that a 1 MB line does not become a 1 MB message.
std::string excerpt(std::string_view text, std::size_t max = 200);

// JSON nested deeper than this is refused while parsing: values are quoted in messages and
// destroyed recursively, and a value nested 10^5 deep overflows the stack.
inline constexpr int max_json_depth = 256;

// `text` parsed as JSON, the file `path` named in every error: syntax errors, a nesting deeper than
// max_json_depth, and a number beyond a double (1e999: with the field it is the value of).
nlohmann::json parse_json_input(std::string_view text, const std::string& path);

}  // namespace dtcrit
