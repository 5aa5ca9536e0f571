#include "entry_points.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "dtcrit/dynamics/linear_system.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/io/array_input.hpp"
#include "dtcrit/io/body_spec.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/io/input_file.hpp"
#include "dtcrit/io/pair_input.hpp"
#include "dtcrit/io/vary_axis.hpp"
#include "dtcrit/network/network.hpp"
#include "dtcrit/assembly/contacts.hpp"
#include "dtcrit/system/global_system.hpp"
#include "dtcrit/lammps/lammps_contacts.hpp"
#include "dtcrit/lammps/lammps_input.hpp"
#include "dtcrit/lammps/lammps_io.hpp"

namespace dtcrit::fuzz {

namespace {

// A broken property: abort, so that libFuzzer keeps the input and the Catch2 test dies loudly.
void require(bool ok, const char* what) {
  if (!ok) {
    std::cerr << "fuzz property broken: " << what << "\n";
    std::abort();
  }
}

template <class F>
std::optional<std::string> named_errors(F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
}

packing::ContactLaws test_laws() {
  packing::ContactLaws laws;
  laws.base = contact::hooke_history(1e5, 5e4, 0.0, 0.0, 0.0);
  return laws;
}

// What `dtcrit packing` does with a file before the eigenvalue problem: read, sort, find contacts.
std::optional<std::string> packing_file(std::string_view input, bool dump) {
  if (input.empty()) return std::nullopt;
  const auto bits = static_cast<unsigned char>(input[0]);
  packing::ReadOptions ro;
  ro.dimension = bits & 1 ? 2 : 3;
  ro.body_model = bits & 2 ? packing::BodyModel::disc : packing::BodyModel::sphere;
  if (bits & 4) ro.periodic = std::array<bool, 3>{(bits & 8) != 0, (bits & 16) != 0, (bits & 32) != 0};
  if (bits & 64) ro.density = 2500.0;
  std::istringstream in{std::string(input.substr(1))};
  return named_errors([&] {
    packing::Packing p = dump ? packing::read_lammps_dump(in, "fuzz", ro) : packing::read_lammps_data(in, "fuzz", ro);
    packing::sort_spatially(p);
    const auto contacts = packing::find_contacts(p, test_laws());
    require(contacts.coordination(p.size()).size() == p.centre.size(), "one coordination number per particle");
  });
}

std::optional<std::string> lammps_data(std::string_view input) { return packing_file(input, false); }
std::optional<std::string> lammps_dump(std::string_view input) { return packing_file(input, true); }

std::optional<std::string> body_spec(std::string_view input) {
  return named_errors([&] { parse_body(input, "--body1"); });
}

std::optional<std::string> key_values(std::string_view input) {
  return named_errors([&] {
    const KeyValues kv(input, "--spec");
    // Written out and read back, a list is the same list.
    const std::string once = kv.to_string();
    require(KeyValues(once, "--spec").to_string() == once, "key=value list round trip");
    for (const char* key : {"m", "r", "shape", "x"}) {
      kv.text(key);
      if (kv.has(key)) kv.number(key);
    }
    kv.reject_unused({"m", "r", "shape", "x"});
  });
}

// Parse, then take three steps of the scheme on a damped oscillator: the parameters reach the
// coefficients.
std::optional<std::string> integrator_spec(std::string_view input) {
  return named_errors([&] {
    const auto integrator = make_integrator(input);
    const std::string canonical = canonical_integrator_spec(input);
    require(canonical_integrator_spec(canonical) == canonical, "canonical spec is a fixed point");
    integrator_info(input);
    LinearSystem sys = scalar_oscillator(1.0, 0.1);
    integrator->start(sys, 0.0, Vector::Ones(1), Vector::Zero(1), 0.1);
    for (int k = 0; k < 3; ++k) integrator->step(sys);
  });
}

// One --vary per line, then what `dtcrit table` does before the grid: the size, every key set to
// its first value, and the pair model of that configuration.
std::optional<std::string> vary(std::string_view input) {
  return named_errors([&] {
    std::vector<VaryAxis> axes;
    for (const auto& line : split(input, '\n')) axes.push_back(parse_vary_axis(line));
    grid_size(axes);
    PairInput probe;
    probe.body1 = "shape=disc,r=5e-4,m=0.003";
    probe.body2 = "shape=rect,a=1e-3,b=7.5e-4,m=0.003,e=2e-4";
    probe.law["kn"] = 8e7;
    probe.law["kt_ratio"] = 0.5;
    for (const auto& a : axes) probe.set(a.key, a.values.front());
    build_model(probe);
  });
}

std::optional<std::string> wall(std::string_view input) {
  if (input.empty()) return std::nullopt;
  const auto bits = static_cast<unsigned char>(input[0]);
  packing::LatticeSpec spec;
  spec.kind = bits & 1 ? packing::LatticeKind::square : packing::LatticeKind::sc;
  spec.n = 2;
  spec.periodic = false;
  packing::Packing p = packing::make_lattice(spec);
  p.periodic[0] = (bits & 2) != 0;
  return named_errors([&] {
    p.walls.push_back(packing::parse_wall(input.substr(1), p, test_laws().base));
    packing::find_contacts(p, test_laws());
  });
}

// A contact-network file (JSON; `dtcrit packing --bodies`), then what the command does before the
// eigenvalue problem: the global system of the bodies, and its Gershgorin bound.
std::optional<std::string> network_json(std::string_view input) {
  const auto j = nlohmann::json::parse(input, nullptr, false);
  if (j.is_discarded()) return std::string("not JSON");  // read_network's named error, before the reader
  return named_errors([&] {
    const network::ContactNetwork net = network::parse_network_json(j, "fuzz.json");
    const packing::GlobalSystem sys(packing::network_assembly(net), true);
    require(sys.dofs() >= 0, "a global system has a size");
    if (sys.dofs() > 0) require(!(sys.gershgorin_bound(1.0, 0.0) < 0.0), "Gershgorin bound of K~ is not negative");
  });
}

// The contact-network JSON as read_network reads a file: parse_json_input (depth limit, named
// overflow), then the reader and the global system, as network_json does.
std::optional<std::string> json_input(std::string_view input) {
  return named_errors([&] {
    const network::ContactNetwork net = network::parse_network_json(parse_json_input(input, "fuzz.json"), "fuzz.json");
    const packing::GlobalSystem sys(packing::network_assembly(net), true);
    require(sys.dofs() >= 0, "a global system has a size");
  });
}

// The Python module's conversions (io/array_input.hpp) on raw arrays. Byte 0, bit 1: int_values on
// the rest read as doubles (8 bytes each). Otherwise bytes 1, 2 are the shape (signed), byte 3 how
// many values to drop (a length mismatch), and the rest are triplets of 24 bytes: int64 row,
// int64 col, double value. A converted matrix has its shape and at most one entry per triplet.
std::optional<std::string> python_arrays(std::string_view input) {
  if (input.size() < 4) return std::nullopt;
  const auto bits = static_cast<unsigned char>(input[0]);
  auto read = [&](std::size_t at, auto& out) { std::memcpy(&out, input.data() + at, sizeof out); };
  if (bits & 1) {
    std::vector<double> v((input.size() - 1) / 8);
    for (std::size_t k = 0; k < v.size(); ++k) read(1 + 8 * k, v[k]);
    return named_errors([&] {
      const auto ints = int_values("types", v);
      require(ints.size() == v.size(), "one int per value");
      for (std::size_t k = 0; k < v.size(); ++k) require(ints[k] == v[k], "an int equals the value it came from");
    });
  }
  const auto rows = static_cast<std::int64_t>(static_cast<signed char>(input[1]));
  const auto cols = static_cast<std::int64_t>(static_cast<signed char>(input[2]));
  const auto drop = static_cast<std::size_t>(static_cast<unsigned char>(input[3]) % 4);
  const std::size_t n = (input.size() - 4) / 24;
  std::vector<std::int64_t> row(n), col(n);
  std::vector<double> value(n);
  for (std::size_t k = 0; k < n; ++k) read(4 + 24 * k, row[k]), read(12 + 24 * k, col[k]), read(20 + 24 * k, value[k]);
  value.resize(n - std::min(n, drop));
  return named_errors([&] {
    const SparseMatrix S = sparse_from_triplets("K", rows, cols, row, col, value);
    require(S.rows() == rows && S.cols() == cols, "the matrix has the given shape");
    require(static_cast<std::size_t>(S.nonZeros()) <= n, "at most one entry per triplet");
  });
}

// One scratch folder per process (the readers below take file names), removed at exit.
const std::filesystem::path& scratch_dir() {
  struct Scratch {
    std::filesystem::path dir;
    Scratch() : dir(std::filesystem::temp_directory_path() / ("dtcrit-fuzz-" + std::to_string(::getpid()))) {
      std::filesystem::create_directories(dir);
    }
    ~Scratch() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  };
  static const Scratch scratch;
  return scratch.dir;
}

void write_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// The CSV pair of a contact network (`dtcrit packing --bodies run_bodies.csv`): the input is the
// bodies file, a line "%%", then the contacts file (none: an empty contacts file). Then the global
// system, as for JSON.
std::optional<std::string> network_csv(std::string_view input) {
  const auto split = input.find("\n%%\n");
  const std::string_view bodies = input.substr(0, split);
  const std::string_view contacts = split == std::string_view::npos ? std::string_view{} : input.substr(split + 4);
  const auto bodies_path = scratch_dir() / "run_bodies.csv";
  write_file(bodies_path, bodies);
  write_file(network::contacts_csv_path(bodies_path.string()), contacts);
  return named_errors([&] {
    const network::ContactNetwork net = network::read_network(bodies_path.string());
    const packing::GlobalSystem sys(packing::network_assembly(net), true);
    require(sys.dofs() >= 0, "a global system has a size");
    if (sys.dofs() > 0) require(!(sys.gershgorin_bound(1.0, 0.0) < 0.0), "Gershgorin bound of K~ is not negative");
  });
}

// Contact histories (`--lammps-contacts`): the input is one dump file (a local dump of pair contacts
// or a per-atom dump of fix wall/gran's contacts) read onto a fixed packing - three touching spheres
// in a row, atom ids 1 2 3, on a floor, laws with friction - then the packing's global system with
// those histories.
std::optional<std::string> lammps_contacts(std::string_view input) {
  static const auto [p, laws] = [] {
    packing::ContactLaws laws;
    laws.base = contact::parse_lammps_pair("gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1");
    packing::Packing p;
    for (int k = 0; k < 3; ++k) p.add(packing::Vec3(0.999e-3 * k, 0.0, 0.4995e-3), 0.5e-3, 2500.0, packing::BodyModel::sphere);
    p.box_lo = packing::Vec3(-1e-3, -1e-3, 0.0);
    p.box_hi = packing::Vec3(3e-3, 1e-3, 2e-3);
    packing::PlaneWall floor;
    floor.label = "z=0";
    floor.law = laws.base;
    p.walls.push_back(floor);
    return std::pair{p, laws};
  }();
  const auto path = scratch_dir() / "contacts.dump";
  write_file(path, input);
  return named_errors([&] {
    auto cs = packing::find_contacts(p, laws);
    const auto s = packing::read_lammps_contacts({path.string()}, p, cs);
    require(s.pairs_read <= cs.pair_contacts && s.walls_read <= cs.wall_contacts, "no more histories read than contacts");
    const packing::GlobalSystem sys(packing::round_assembly(p, cs), true);
    require(sys.dofs() == 18, "three free spheres have 18 dofs");
  });
}

// A LAMMPS input script (`dtcrit packing --lammps-input`), read from a scratch folder that also holds
// packing.data (two spheres), which the script may read_data; then the packing's contacts under the
// script's laws.
std::optional<std::string> lammps_input(std::string_view input) {
  static const std::filesystem::path dir = [] {
    write_file(scratch_dir() / "packing.data",
               "LAMMPS data file\n\n2 atoms\n1 atom types\n\n0 4 xlo xhi\n0 2 ylo yhi\n"
               "0 2 zlo zhi\n\nAtoms # sphere\n\n1 1 1.0 2500 0.5 1 1\n"
               "2 1 1.0 2500 1.49 1 1 0 0 0\n");
    return scratch_dir();
  }();
  const auto script = dir / "in.fuzz";
  write_file(script, input);
  return named_errors([&] {
    const packing::LammpsInput in = packing::read_lammps_input(script.string());
    const auto contacts = packing::find_contacts(in.packing, in.laws);
    require(contacts.coordination(in.packing.size()).size() == in.packing.centre.size(),
            "one coordination number per particle");
  });
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> all{{"lammps_data", lammps_data}, {"lammps_dump", lammps_dump},
                                       {"body_spec", body_spec},     {"key_values", key_values},
                                       {"integrator_spec", integrator_spec}, {"vary", vary},
                                       {"wall", wall},               {"network_json", network_json},
                                       {"lammps_input", lammps_input}, {"network_csv", network_csv},
                                       {"lammps_contacts", lammps_contacts}, {"json_input", json_input},
                                       {"python_arrays", python_arrays}};
  return all;
}

EntryPoint find_target(std::string_view name) {
  for (const auto& t : targets())
    if (t.name == name) return t.run;
  return nullptr;
}

}  // namespace dtcrit::fuzz
