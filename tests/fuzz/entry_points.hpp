#pragma once
// The parsers under fuzzing, each behind one function of the raw input bytes: the libFuzzer targets
// (fuzz_target.cpp, preset `fuzz`) and the regression test of the default suite
// (tests/test_fuzz_corpus.cpp) call the same functions.
//
// A named error (std::invalid_argument) is the expected answer to bad input: the function returns
// its message. Anything else - another exception, a crash, a hang, a sanitizer report, or a broken
// property checked inside (a round trip) - is a finding.
//
// Inputs of the file readers and of the wall target start with one option byte (bits):
//   lammps_data, lammps_dump: 1 dimension 2 (else 3), 2 disc bodies, 4 override periodicity with
//                             bits 8/16/32 (x/y/z), 64 density 2500 (dumps without a mass column);
//                             the rest is the file. '@' (64): 3D, spheres, as written, density given.
//   wall:                     1 a 2D packing (else 3D), 2 periodic in x; the rest is the --wall spec.
// network_csv: the bodies file, a line "%%", the contacts file. lammps_contacts: one dump file, read
// onto three touching spheres (atom ids 1 2 3) on a floor. json_input: a network JSON file through
// the file reader's parser (depth limit). python_arrays: raw arrays for the Python module's
// conversions (layout in entry_points.cpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtcrit::fuzz {

using EntryPoint = std::optional<std::string> (*)(std::string_view input);

struct Target {
  std::string name;  // also the folder of its corpus: tests/fuzz/corpus/<name>/
  EntryPoint run;
};

// lammps_data, lammps_dump, body_spec, key_values, integrator_spec, vary, wall, network_json,
// network_csv, lammps_input, lammps_contacts, json_input, python_arrays.
const std::vector<Target>& targets();
EntryPoint find_target(std::string_view name);  // nullptr if unknown

}  // namespace dtcrit::fuzz
