// Which options each source of `dtcrit packing` reads: check_packing_request derives "given but not
// read" from its table of stages (packing/packing_request.cpp). The matrix below is the
// specification, written by hand from what each source gives: R read, N refused as not read, C
// refused as given by the script already.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "dtcrit/core/check.hpp"
#include "dtcrit/packing/packing_request.hpp"

using namespace dtcrit;

namespace request_test {

enum class Source { lattice, data, dump, script, arrays, bodies, count };

packing::PackingRequest base_request(Source s) {
  packing::PackingRequest r;
  r.kn = 1e4;
  r.kt = 3e3;
  switch (s) {
    case Source::lattice: r.lattice = "fcc"; r.n = 2; break;
    case Source::data: r.data_file = "state.data"; break;
    case Source::dump: r.dump_file = "state.dump"; break;
    case Source::script: r.lammps_input = "in.script"; r.kn.reset(); r.kt.reset(); break;
    case Source::arrays: r.packing = packing::Packing{}; break;
    case Source::bodies: r.bodies = "bodies.json"; r.kn.reset(); r.kt.reset(); break;
    case Source::count: break;
  }
  return r;
}

// "R", "N" or "C": what check_packing_request makes of `option` given with this request.
char outcome(packing::PackingRequest r, const std::string& option) {
  r.given.insert(option);
  try {
    packing::check_packing_request(r);
    return 'R';
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    if (m.rfind(option + " is not read", 0) == 0) return 'N';
    if (m.rfind(option + " conflicts with --lammps-input", 0) == 0) return 'C';
    FAIL("unexpected refusal of " << option << ": " << m);
  }
  return '?';
}

}  // namespace request_test

using request_test::Source;

TEST_CASE("packing request: each source reads its options and refuses the others by name", "[packing][cli]") {
  // Columns: lattice (fcc, 3D, no radius spread), data file, dump, script, particle arrays (3D), --bodies.
  const std::vector<std::pair<std::string, std::string>> matrix{
      {"--n", "RNNNNN"},
      {"--radius", "RNNNNN"},
      {"--compression", "RNNNNN"},
      {"--radius-spread", "RNNNNN"},
      {"--seed", "NNNNNN"},  // without --radius-spread nothing is drawn
      {"--box-walls", "RNNCNN"},
      {"--density", "RNRCNN"},  // a data file and the arrays give the masses; a dump gives none
      {"--dimension", "NRRCNN"},
      {"--disc", "NNNCNN"},  // every column here is 3D
      {"--kn", "RRRCRN"},
      {"--kt-ratio", "RRRCRN"},
      {"--lammps-pair", "RRRCRN"},
      {"--type-law", "RRRCRN"},
      {"--periodic", "RRRCRN"},
      {"--wall", "RRRCRN"},
      {"--lammps-run", "NNNRNN"},
      {"--run-in-lammps", "NNNRNN"},
      {"--lammps-contacts", "RRRRRN"},
      {"--gap-tolerance", "RRRRRN"},
      {"--clumps", "RRRRRN"},
      {"--geometric-stiffness", "RRRRRN"},
      {"--youngs", "RRRRRN"},
      {"--write-mode", "RRRRRN"},
      {"--ncv", "NNNNNN"},  // the default eigensolver is not Spectra
      {"--integrator", "RRRRRR"},
      {"--confirm", "RRRRRR"},
  };
  for (const auto& [option, row] : matrix)
    for (int s = 0; s < static_cast<int>(Source::count); ++s) {
      INFO(option << " with source column " << s);
      CHECK(request_test::outcome(request_test::base_request(static_cast<Source>(s)), option) == row[static_cast<std::size_t>(s)]);
    }
}

TEST_CASE("packing request: the refusal names the source in use and what the option applies to", "[packing][cli]") {
  auto refusal = [](packing::PackingRequest r, const std::string& option) {
    r.given.insert(option);
    try {
      packing::check_packing_request(r);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal(request_test::base_request(Source::data), "--radius") == "--radius is not read with --lammps-data: it applies to --lattice");
  CHECK(refusal(request_test::base_request(Source::lattice), "--seed") ==
        "--seed is not read with --lattice: it applies to --lattice with --radius-spread");
  CHECK(refusal(request_test::base_request(Source::arrays), "--density") ==
        "--density is not read with a packing given particle by particle: it applies to --lattice, or to "
        "--lammps-dump (a data file gives the densities)");
  CHECK(refusal(request_test::base_request(Source::lattice), "--ncv") ==
        "--ncv is not read: it applies to --eigensolver spectra (it is Spectra's basis size)");
  packing::PackingRequest clumps = request_test::base_request(Source::data);
  clumps.clumps = "molecule";
  CHECK_THAT(refusal(clumps, "--youngs"),
             Catch::StartsWith("--youngs is not read with --lammps-data and --clumps molecule: it applies to free spheres"));
  // Read where the stage is active: a 2D data file takes --disc, a lattice with a spread takes --seed,
  // Spectra takes --ncv.
  packing::PackingRequest flat = request_test::base_request(Source::data);
  flat.dimension = 2;
  CHECK(refusal(flat, "--disc") == "accepted");
  packing::PackingRequest spread = request_test::base_request(Source::lattice);
  spread.radius_spread = 1e-3;
  CHECK(refusal(spread, "--seed") == "accepted");
  packing::PackingRequest spectra = request_test::base_request(Source::lattice);
  spectra.eigensolver = "spectra";
  CHECK(refusal(spectra, "--ncv") == "accepted");
  // Two sources stay a conflict of their own.
  packing::PackingRequest two = request_test::base_request(Source::bodies);
  CHECK(refusal(two, "--lattice") == "--lattice conflicts with --bodies: give one source");
}
