// Issue 33: nothing a user feeds dtcrit crashes it or destroys a file. One input check
// (io/input_file.hpp, every reader) and one output check (io/output_file.hpp, every writer), each
// refusal tested here; the command-line property test runs every subcommand that reads files with
// each of its outputs pointed at each of its inputs. The parsers' crashes are replayed from
// tests/fuzz/regressions by test_fuzz_corpus.cpp.
#include <catch2/catch.hpp>
#include "test_support.hpp"
#include "cli_test_support.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/io/input_file.hpp"
#include "dtcrit/io/output_file.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/lammps/lammps_io.hpp"

using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A fresh, empty folder per test case.
fs::path scratch_folder(const std::string& name) {
  const auto dir = fs::temp_directory_path() / "dtcrit_hostile_tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}


void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Two touching spheres (ids 1 and 2, d = 1 mm, overlap 2 um) as a data file, a dump, a script that
// reads the data file, and a local dump of their contact.
const std::string two_spheres_data =
    "LAMMPS data file\n\n2 atoms\n1 atom types\n\n0 4e-3 xlo xhi\n0 2e-3 ylo yhi\n0 2e-3 zlo zhi\n\n"
    "Atoms # sphere\n\n1 1 1e-3 2500 1e-3 1e-3 1e-3\n2 1 1e-3 2500 1.998e-3 1e-3 1e-3\n";
const std::string two_spheres_dump =
    "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff ff\n0 4e-3\n0 2e-3\n0 2e-3\n"
    "ITEM: ATOMS id type x y z radius mass\n1 1 1e-3 1e-3 1e-3 5e-4 1.3e-6\n2 1 1.998e-3 1e-3 1e-3 5e-4 1.3e-6\n";
const std::string contact_dump =
    "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ENTRIES\n1\nITEM: BOX BOUNDS ff ff ff\n0 4e-3\n0 2e-3\n0 2e-3\n"
    "ITEM: ENTRIES index c_pl[1] c_pl[2] c_pf[1] c_pf[2] c_pf[3] c_pf[4] c_pf[5]\n1 1 2 9.98e-4 0.2 0 1e-3 0\n";
std::string script_reading(const fs::path& data) {
  return "units si\natom_style sphere\nboundary f f f\nread_data " + data.string() +
         "\npair_style gran/hooke/history 1e5 NULL 0 NULL 0.5 0\npair_coeff * *\nfix integ all nve/sphere\n"
         "timestep 1e-6\n";
}

}  // namespace

// --- the input check ---------------------------------------------------------------------------

TEST_CASE("read_input_file refuses what cannot be an input, naming the path", "[io][hostile]") {
  const auto dir = scratch_folder("input_check");
  const auto file = dir / "ok.txt";
  write(file, "text");
  CHECK(dtcrit::read_input_file(file.string(), "test file") == "text");
  CHECK_THAT(error_of([&] { dtcrit::read_input_file((dir / "none").string(), "test file"); }),
             Contains("test file '" + (dir / "none").string() + "': does not exist"));
  CHECK_THAT(error_of([&] { dtcrit::read_input_file(dir.string(), "test file"); }), Contains("is a folder, not a file"));
  // Issue 33: read_data /dev/zero read until memory ran out, then said "got an empty file".
  CHECK_THAT(error_of([&] { dtcrit::read_input_file("/dev/zero", "LAMMPS data file"); }),
             Contains("LAMMPS data file '/dev/zero': is not a regular file"));
  const auto fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(error_of([&] { dtcrit::read_input_file(fifo.string(), "test file"); }), Contains("is not a regular file"));
}

TEST_CASE("every reader goes through the input check: a folder is named as a folder", "[io][hostile]") {
  // Issue 33: a folder as a data file said "empty file", as a script "no 'units si' line", as a
  // network file "not valid JSON".
  const auto dir = scratch_folder("folder_inputs");
  const std::string folder = dir.string();
  dtcrit::packing::ReadOptions ro;
  CHECK_THAT(error_of([&] { dtcrit::packing::read_lammps_data(folder, ro); }),
             Contains("LAMMPS data file '" + folder + "': is a folder"));
  CHECK_THAT(error_of([&] { dtcrit::packing::read_lammps_dump(folder, ro); }),
             Contains("LAMMPS dump file '" + folder + "': is a folder"));
  CHECK_THAT(error_of([&] { dtcrit::packing::read_lammps_input(folder); }),
             Contains("LAMMPS input script '" + folder + "': is a folder"));
  CHECK_THAT(error_of([&] { dtcrit::network::read_network(folder); }),
             Contains("contact network file '" + folder + "': is a folder"));
  fs::create_directories(dir / "x_bodies.csv");
  CHECK_THAT(error_of([&] { dtcrit::network::read_network((dir / "x_bodies.csv").string()); }),
             Contains("contact network file '" + (dir / "x_bodies.csv").string() + "': is a folder"));
}

TEST_CASE("a quoted input line is cut to a readable length", "[io][hostile]") {
  // Issue 33: a 1 MB line was echoed whole in the error.
  const auto dir = scratch_folder("long_line");
  const auto data = dir / "long.data";
  write(data, "title\n\n1" + std::string(1000000, 'x') + " atoms\n");
  const std::string message = error_of([&] { dtcrit::packing::read_lammps_data(data.string(), {}); });
  CHECK_THAT(message, Contains("the number of atoms"));
  CHECK_THAT(message, Contains("more characters)"));
  CHECK(message.size() < 800);
  CHECK(dtcrit::excerpt(std::string(10, 'a'), 4) == "aaaa... (6 more characters)");
  CHECK(dtcrit::excerpt("short", 200) == "short");
}

// --- the output check --------------------------------------------------------------------------

TEST_CASE("OutputFiles::declare refuses what cannot be an output, naming the option", "[io][hostile]") {
  const auto dir = scratch_folder("output_check");
  auto declare = [](const std::string& path, dtcrit::OutputFormat format = dtcrit::OutputFormat::text) {
    return error_of([&] {
      dtcrit::OutputFiles files;
      files.declare("--output", path, format);
    });
  };
  CHECK_THAT(declare(dir.string()), Contains("--output '" + dir.string() + "': is a folder, not a file"));
  CHECK_THAT(declare((dir / "no" / "a.txt").string()), Contains("folder '" + (dir / "no").string() + "' does not exist"));
  CHECK_THAT(declare((dir / "a.pdf").string(), dtcrit::OutputFormat::plot), Contains("a plot must end in .png or .svg"));
  fs::create_symlink(dir / "nowhere", dir / "dangling");
  CHECK_THAT(declare((dir / "dangling").string()), Contains("is a symlink to nothing"));
  const auto file = dir / "a.txt";
  CHECK(declare(file.string()).empty());  // a new path
  write(file, "x");
  CHECK(declare(file.string()).empty());  // an existing regular file
  CHECK(declare("/dev/null").empty());    // a device: written into
  dtcrit::OutputFiles twice;
  twice.declare("-o", file.string());
  CHECK_THAT(error_of([&] { twice.declare("--json-file", file.string()); }), Contains("is also the file of -o"));
}

TEST_CASE("an output is never read as an input while it is declared", "[io][hostile]") {
  const auto dir = scratch_folder("output_is_input");
  const auto file = dir / "packing.data";
  write(file, "precious");
  const auto link = dir / "link.data";
  fs::create_symlink(file, link);
  {
    dtcrit::OutputFiles files;
    files.declare("--output", link.string());  // the same file through a symlink
    CHECK_THAT(error_of([&] { dtcrit::read_input_file(file.string(), "LAMMPS data file"); }),
               Contains("is also the file of --output: the command would overwrite its own input"));
  }
  CHECK(dtcrit::read_input_file(file.string(), "LAMMPS data file") == "precious");  // declared no more
}

TEST_CASE("an output that is a device or a symlink to one is written into, not replaced", "[io][hostile]") {
  // Issue 33: -o /dev/null (or a symlink to it) was replaced by a regular file (a rename over it).
  const auto dir = scratch_folder("device_output");
  const auto link = dir / "null";
  fs::create_symlink("/dev/null", link);
  {
    dtcrit::OutputFiles files;
    files.declare("--output", link.string());
    files.write_text(link.string(), "report\n");
    files.commit();
  }
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(fs::is_character_file(fs::status("/dev/null")));
  for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path() == link);  // no temporary left beside it
}

TEST_CASE("an output that is a symlink to a regular file replaces the file and keeps the link", "[io][hostile]") {
  const auto dir = scratch_folder("symlink_output");
  const auto file = dir / "report.txt", link = dir / "latest.txt";
  write(file, "old");
  fs::create_symlink(file, link);
  dtcrit::write_file_atomically(link.string(), [](std::ostream& out) { out << "new"; });
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(contents(file) == "new");
}

// --- wrong input accepted ----------------------------------------------------------------------

namespace {

std::string network_error(const std::string& text) {
  return error_of([&] { dtcrit::network::parse_network_json(dtcrit::parse_json_input(text, "net.json"), "net.json"); });
}

const std::string one_body_3d =
    R"({"dimension": 3, "bodies": [{"id": 1, "mass": 1, "inertia": [1, 1, 5], "orientation": [1, 0, 0, 0],)"
    R"( "centre": [0, 0, 0]}, {"id": 2, "fixed": true}], "contacts": []})";

}  // namespace

TEST_CASE("contact-network JSON: narrowed integers, impossible moments, overflow and depth are named", "[io][hostile]") {
  // Issue 33: "dimension": 4294967298 was read as 2.
  CHECK_THAT(network_error(R"({"dimension": 4294967298, "bodies": [], "contacts": []})"),
             Contains("net.json: field 'dimension': 4294967298 must be 2 or 3"));
  // (1, 1, 5) violates I1 + I2 >= I3: no rigid body has these moments.
  CHECK_THAT(network_error(one_body_3d), Contains("field 'inertia': principal moments 1, 1, 5: no rigid body has them"));
  // A flat body (a disc: I3 = I1 + I2) is a body.
  std::string disc = one_body_3d;
  disc.replace(disc.find("[1, 1, 5]"), 9, "[1, 1, 2]");
  CHECK_THAT(network_error(disc), !Contains("no rigid body"));
  // Issue 33: "mass": 1e999 named neither the file nor the field.
  CHECK_THAT(network_error(R"({"dimension": 2, "bodies": [{"id": 1, "mass": 1e999}], "contacts": []})"),
             Contains("net.json: field 'mass': a number beyond the range of a double"));
  // Names and values from the file are cut: an unknown field of 10^6 characters.
  const std::string long_field =
      network_error(R"({"dimension": 2, "bodies": [{"id": 1, ")" + std::string(1000000, 'f') + R"(": 1}], "contacts": []})");
  CHECK_THAT(long_field, Contains("unknown field (a typo?)"));
  CHECK(long_field.size() < 800);
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  CHECK_THAT(network_error(R"({"dimension": 2, "bodies": )" + deep + R"(, "contacts": []})"),
             Contains("net.json: the JSON is nested more than 256 levels deep"));
}

TEST_CASE("a data file's atom type beyond the header's 'atom types' is refused, as LAMMPS does", "[io][hostile]") {
  std::string data = two_spheres_data;
  data.replace(data.find("2 1 1e-3"), 8, "2 3 1e-3");
  std::istringstream in(data);
  CHECK_THAT(error_of([&] { dtcrit::packing::read_lammps_data(in, "p.data", {}); }),
             Contains("p.data:13: expected an atom type from 1 to 1 (the header's 'atom types'), got '3'"));
  // Without an 'atom types' line any type from 1 to INT_MAX is read (as before).
  std::string no_count = two_spheres_data;
  no_count.erase(no_count.find("1 atom types\n"), 13);
  std::istringstream in2(no_count);
  CHECK(dtcrit::packing::read_lammps_data(in2, "p.data", {}).size() == 2);
}

TEST_CASE("two particles at one centre are refused with their atom ids", "[io][hostile]") {
  std::string data = two_spheres_data;
  data.replace(data.find("1.998e-3 1e-3 1e-3"), 18, "1e-3 1e-3 1e-3");
  std::istringstream in(data);
  const auto p = dtcrit::packing::read_lammps_data(in, "p.data", {});
  dtcrit::packing::ContactLaws laws;
  laws.base = dtcrit::contact::hooke_history(1e5, 5e4, 0.0, 0.0, 0.0);
  for (const auto& find : {dtcrit::packing::find_contacts, dtcrit::packing::find_contacts_brute_force})
    CHECK_THAT(error_of([&] { find(p, laws, {}); }), Contains("atoms 1 and 2 have the same centre (0.001, 0.001, 0.001)"));
  // Members of one molecule (a rigid clump; LAMMPS excludes their pairs) may coincide.
  auto clump = p;
  clump.molecule = {1, 1};
  for (const auto& find : {dtcrit::packing::find_contacts, dtcrit::packing::find_contacts_brute_force})
    CHECK(find(clump, laws, {}).pair_contacts == 0);
}

TEST_CASE("contact dumps of another packing are errors and some unmatched rows a named warning", "[io][hostile]") {
  const auto dir = scratch_folder("contact_dumps");
  std::istringstream in(two_spheres_data);
  const auto p = dtcrit::packing::read_lammps_data(in, "p.data", {});
  dtcrit::packing::ContactLaws laws;
  laws.base = dtcrit::contact::hooke_history(1e5, 5e4, 0.0, 0.0, 0.5);
  auto read = [&](const std::string& rows, int n) {
    const auto path = dir / "c.dump";
    std::string text = contact_dump;
    text.replace(text.find("ENTRIES\n1\n"), 10, "ENTRIES\n" + std::to_string(n) + "\n");
    write(path, text.substr(0, text.rfind("1 1 2")) + rows);
    auto cs = dtcrit::packing::find_contacts(p, laws);
    return dtcrit::packing::read_lammps_contacts({path.string()}, p, cs);
  };
  const std::string row12 = "1 1 2 9.98e-4 0.2 0 1e-3 0\n";
  CHECK(read(row12, 1).warnings.empty());
  CHECK_THAT(error_of([&] { read("1 1 5 9.98e-4 0.2 0 1e-3 0\n", 1); }),
             Contains("c.dump:10: atom 5 is not in the packing (LAMMPS data file p.data, 2 atoms)"));
  CHECK_THAT(error_of([&] { read("1 1.5 2 9.98e-4 0.2 0 1e-3 0\n", 1); }),
             Contains("expected an integer atom id in column c_pl[1], got 1.5"));
  CHECK_THAT(error_of([&] { read(row12 + "2 1 2 9.98e-4 0.2 0 2e-3 0\n", 2); }),
             Contains("c.dump:11: the contact of atom 1 with atom 2 is listed again with a different force (first at "));
  const auto repeated = read(row12 + "2 2 1 9.98e-4 0.2 0 -1e-3 0\n", 2);  // the same force, seen from atom 2
  CHECK(repeated.repeated_rows == 1);
  CHECK(repeated.pairs_read == 1);
  // A packing with a third sphere far away: 1 of 2 rows unmatched is a warning, 2 of 3 an error.
  std::string three = two_spheres_data;
  three.replace(three.find("2 atoms"), 7, "3 atoms");
  three += "3 1 1e-3 2500 3.5e-3 1e-3 1e-3\n";
  std::istringstream in3(three);
  const auto p3 = dtcrit::packing::read_lammps_data(in3, "p3.data", {});
  auto read3 = [&](const std::string& rows, int n) {
    const auto path = dir / "c3.dump";
    std::string text = contact_dump;
    text.replace(text.find("ENTRIES\n1\n"), 10, "ENTRIES\n" + std::to_string(n) + "\n");
    write(path, text.substr(0, text.rfind("1 1 2")) + rows);
    auto cs = dtcrit::packing::find_contacts(p3, laws);
    return dtcrit::packing::read_lammps_contacts({path.string()}, p3, cs);
  };
  const auto some = read3(row12 + "2 1 3 9.9e-4 0.1 0 0 0\n", 2);
  REQUIRE(some.warnings.size() == 1);
  CHECK_THAT(some.warnings[0], Contains("c3.dump: 1 of its 2 pair contacts are not contacts of the packing"));
  CHECK_THAT(error_of([&] { read3(row12 + "2 1 3 9.9e-4 0.1 0 0 0\n3 2 3 9.9e-4 0.1 0 0 0\n", 3); }),
             Contains("2 of its 3 pair contacts are not contacts of the packing, more than the 1 that are"));
  CHECK_THAT(error_of([&] { read3("1 1 3 9.9e-4 0.1 0 0 0\n", 1); }),
             Contains("none of its 1 pair contacts is a contact of the packing"));
  // A pair apart (dist >= r1 + r2), as compute pair/local lists pairs within the force cutoff: no
  // contact, not counted as unmatched.
  const auto apart = read3(row12 + "2 1 3 2.5e-3 0 0 0 0\n3 2 3 1.5e-3 0 0 0 0\n", 3);
  CHECK(apart.pairs_apart == 2);
  CHECK(apart.pairs_unmatched == 0);
  CHECK(apart.warnings.empty());
}

TEST_CASE("with region walls a pair contact dump is read and a wall contact dump refused by name", "[io][hostile]") {
  // Before, any --lammps-contacts with a region wall was refused, although only wall rows need the
  // plane walls' matching: LAMMPS' drum (a cylinder region) could not be read with its pair dump.
  const auto dir = scratch_folder("region_contact_dumps");
  std::istringstream in(two_spheres_data);
  auto p = dtcrit::packing::read_lammps_data(in, "p.data", {});
  dtcrit::packing::RegionWall floor;
  floor.name = "floor";
  floor.style = dtcrit::packing::RegionStyle::plane;
  floor.point = Eigen::Vector3d(0.0, 0.0, 0.0);
  floor.normal = Eigen::Vector3d::UnitZ();
  p.region_walls.push_back(floor);
  dtcrit::packing::ContactLaws laws;
  laws.base = dtcrit::contact::hooke_history(1e5, 5e4, 0.0, 0.0, 0.5);
  const auto pairs = dir / "c.dump";
  write(pairs, contact_dump);
  auto cs = dtcrit::packing::find_contacts(p, laws);
  const auto s = dtcrit::packing::read_lammps_contacts({pairs.string()}, p, cs);
  CHECK(s.pairs_read == 1);
  CHECK(s.warnings.empty());
  const auto walls = dir / "w.dump";
  write(walls, "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff ff\n0 4e-3\n0 2e-3\n0 2e-3\n"
               "ITEM: ATOMS id f_w[1] f_w[2] f_w[3] f_w[4]\n1 0 0 0 0\n2 0 0 0 0\n");
  auto cs2 = dtcrit::packing::find_contacts(p, laws);
  CHECK_THAT(error_of([&] { dtcrit::packing::read_lammps_contacts({walls.string()}, p, cs2); }),
             Contains("w.dump: wall contact histories with region wall 'floor': they are matched to plane walls only"));
}

// --- the property: no output is an input -------------------------------------------------------

TEST_CASE("every subcommand refuses an output that is one of its inputs and leaves every file as it was",
          "[cli][hostile]") {
  // The subcommands that read files are `packing` and `lammps-check`; lammps-check writes its report
  // to the terminal and its probe only into --keep-probe, which must be a new or empty folder (so
  // it holds no input; test_lammps_check.cpp), and pair, table, sweep, example and integrators read
  // no file. So the property is packing's: each input it can read, each output option aimed at it,
  // directly and through a symlink.
  const auto dir = scratch_folder("cli_output_is_input");
  const fs::path data = dir / "packing.data", dump = dir / "packing.dump", script = dir / "in.packing",
                 contacts = dir / "contacts.dump", bodies = dir / "net.json", csv_bodies = dir / "net_bodies.csv",
                 csv_contacts = dir / "net_contacts.csv", matrices = dir / "matrices", k_file = matrices / "K.mtx";
  fs::create_directories(matrices);
  write(data, two_spheres_data);
  write(k_file, two_spheres_data);
  write(dump, two_spheres_dump);
  write(script, script_reading(data));
  write(contacts, contact_dump);
  write(bodies, contents(fs::path(DTCRIT_SOURCE_DIR) / "tests/data/network/plate_plate.json"));
  const std::string csv = contents(fs::path(DTCRIT_SOURCE_DIR) / "tests/fuzz/corpus/network_csv/two_bodies_3d.csv");
  write(csv_bodies, csv.substr(0, csv.find("%%\n")));
  write(csv_contacts, csv.substr(csv.find("%%\n") + 3));
  const auto link = dir / "link";

  std::map<fs::path, std::string> before;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) before[e.path()] = contents(e.path());

  const std::string law = " --kn 1e5 --kt 3e4";
  struct Case {
    std::string args;       // the command with its inputs
    std::vector<fs::path> inputs;
  };
  const std::vector<Case> cases{
      {"packing --lammps-data " + data.string() + law, {data}},
      {"packing --lammps-dump " + dump.string() + law, {dump}},
      {"packing --lammps-input " + script.string(), {script, data}},
      {"packing --lammps-data " + data.string() + law + " --lammps-contacts " + contacts.string(), {contacts}},
      {"packing --bodies " + bodies.string(), {bodies}},
      {"packing --bodies " + csv_bodies.string(), {csv_bodies, csv_contacts}},
  };
  int refused = 0;
  for (const auto& c : cases) {
    for (const auto& input : c.inputs) {
      std::vector<std::string> outputs{"-o", "--write-mode"};
      if (c.args.find("--bodies") != std::string::npos) outputs = {"-o"};  // --write-mode is refused with --bodies
      for (const auto& option : outputs) {
        for (bool through_link : {false, true}) {
          fs::remove(link);
          if (through_link) fs::create_symlink(input, link);
          const std::string target = through_link ? link.string() : input.string();
          CAPTURE(c.args, option, target);
          const CliRun r = run_cli(c.args + " " + option + " " + target);
          CHECK(r.status != 0);
          CHECK_THAT(r.out, Contains("is also the file of " + std::string(option == "-o" ? "--output" : option)));
          CHECK_THAT(r.out, !Contains("omega_max"));  // refused before the analysis
          ++refused;
        }
      }
    }
  }
  // --write-matrices FOLDER writes FOLDER/K.mtx: a data file of that name is an input too.
  const CliRun m = run_cli("packing --lammps-data " + k_file.string() + law + " --write-matrices " + matrices.string());
  CHECK(m.status != 0);
  CHECK_THAT(m.out, Contains("is also the file of --write-matrices"));
  CHECK(refused == 2 * (2 * 1 + 2 * 1 + 2 * 2 + 2 * 1 + 1 * 1 + 1 * 2));

  fs::remove(link);
  std::map<fs::path, std::string> after;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) after[e.path()] = contents(e.path());
  CHECK(after == before);  // every input as it was, and nothing left behind (no .partial)
}

TEST_CASE("an output through a symlink to /dev/stdout writes the report into the pipe and keeps the link", "[cli][hostile]") {
  const auto dir = scratch_folder("cli_device_output");
  const auto link = dir / "out";
  fs::create_symlink("/dev/stdout", link);
  const CliRun r = run_cli("packing --lattice sc --n 2 --kn 1e5 --kt 3e4 --compression 1e-3 --json -o " + link.string(),
                           false);
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out).contains("omega_max"));
  CHECK(fs::is_symlink(fs::symlink_status(link)));
}
