// The dtcrit side of the stepper's side-by-side benchmark with LAMMPS (record_stepper.sh runs it).
//
//   stepper_vs_lammps N STEPS [--threads T] [--lammps-dir DIR]
//
// Builds the packing of tests/benchmarks/stepper_fcc_packing.hpp with N spheres, and
//  - with --lammps-dir: writes DIR/data.stepper_N (atom_style sphere: diameters, density,
//    positions, velocities) and DIR/in.stepper_N, the same simulation for LAMMPS (walls as
//    fix wall/gran, gravity as fix gravity, fix nve/sphere, same step, skin and half-skin check),
//    and exits;
//  - otherwise runs STEPS steps of the registry's velocity_verlet with force() on T threads (default 1) and
//    prints the wall time of the steps (the start-up force call and neighbour build excluded, as
//    LAMMPS' "Loop time" excludes its setup), particle-steps per second, and the contact counts
//    and neighbour-list builds to compare with LAMMPS' at the same step, and the sums of the final
//    positions and velocities (%.17g: a changed trajectory shows).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "dtcrit/integrators/registry.hpp"
#include "stepper_fcc_packing.hpp"

namespace {

using namespace dtcrit;

long parse_count(const char* name, const char* text) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0)
    throw std::invalid_argument(fmt::format("{} = '{}' must be a positive integer", name, text));
  return value;
}

void write_lammps_case(const bench::StepperPacking& p, Index n, long steps, const std::filesystem::path& dir) {
  const stepper::ParticleSystem& sys = *p.sys;
  const auto& walls = sys.walls();
  // The generator's walls: (x lo, x hi, y lo, y hi, z lo, z hi), normals along the axes.
  double plane[6];
  for (int w = 0; w < 6; ++w) {
    const int axis = w / 2;
    if (walls[w].normal[axis] != (w % 2 == 0 ? 1.0 : -1.0))
      throw std::logic_error("stepper_vs_lammps: the packing's walls are not the six axis planes");
    plane[w] = walls[w].point[axis];
  }
  const double margin = 4.0 * sys.radius(0);
  const std::string tag = fmt::format("stepper_{}", n);
  {
    std::ofstream data(dir / ("data." + tag));
    data << fmt::format("LAMMPS data file: dtcrit stepper benchmark packing, {} spheres (stepper_vs_lammps)\n\n", n);
    data << fmt::format("{} atoms\n1 atom types\n\n", n);
    const char* axes[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a)
      data << fmt::format("{:.17g} {:.17g} {}lo {}hi\n", plane[2 * a] - margin, plane[2 * a + 1] + margin, axes[a],
                          axes[a]);
    data << "\nAtoms # sphere\n\n";
    for (Index i = 0; i < n; ++i) {
      const stepper::Vec3 c = sys.centre(p.x, i);
      data << fmt::format("{} 1 {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n", i + 1, 2.0 * sys.radius(i), p.density,
                          c.x(), c.y(), c.z());
    }
    data << "\nVelocities\n\n";
    for (Index i = 0; i < n; ++i) {
      const stepper::Vec3 v = sys.centre(p.v, i), w = sys.spin(p.v, i);
      data << fmt::format("{} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n", i + 1, v.x(), v.y(), v.z(), w.x(),
                          w.y(), w.z());
    }
    if (!data) throw std::runtime_error(fmt::format("cannot write {}", (dir / ("data." + tag)).string()));
  }
  const auto& L = p.law;
  const std::string law = fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} 1", L.kn, L.kt, L.gamma_n, L.gamma_t, L.mu);
  std::ofstream in(dir / ("in." + tag));
  in << fmt::format(
      "# dtcrit stepper benchmark, {n} spheres, {steps} steps: written by stepper_vs_lammps (record_stepper.sh)\n"
      "units           si\n"
      "atom_style      sphere\n"
      "boundary        f f f\n"
      "comm_modify     vel yes\n"
      "read_data       data.{tag}\n"
      "pair_style      gran/hooke/history {law}\n"
      "pair_coeff      * *\n"
      "fix             integ all nve/sphere\n"
      "fix             grav all gravity 9.81 vector 0 0 -1\n"
      "fix             wx all wall/gran hooke/history {law} xplane {:.17g} {:.17g}\n"
      "fix             wy all wall/gran hooke/history {law} yplane {:.17g} {:.17g}\n"
      "fix             wz all wall/gran hooke/history {law} zplane {:.17g} {:.17g}\n"
      "timestep        {h:.17g}\n"
      "neighbor        {skin:.17g} bin\n"
      "neigh_modify    delay 0 every 1 check yes\n"
      "# contacts as dtcrit counts them: pairs with rsq < (ri + rj)^2 (contact/atom counts each pair on both\n"
      "# atoms), wall contacts where a sphere is closer to a plane than its radius\n"
      "compute         cc all contact/atom\n"
      "compute         pairs2 all reduce sum c_cc\n"
      "compute         rad all property/atom radius\n"
      "variable        wall atom \"(x-({xl:.17g})<c_rad)+(({xh:.17g})-x<c_rad)+(y-({yl:.17g})<c_rad)+(({yh:.17g})-y<c_rad)+(z-({zl:.17g})<c_rad)+(({zh:.17g})-z<c_rad)\"\n"
      "compute         walls all reduce sum v_wall\n"
      "thermo_style    custom step atoms c_pairs2 c_walls\n"
      "thermo          {steps}\n"
      "run             {steps}\n"
      "print           \"CONTACTS pairs $(c_pairs2/2) walls $(c_walls)\"\n",
      plane[0], plane[1], plane[2], plane[3], plane[4], plane[5], fmt::arg("n", n), fmt::arg("steps", steps),
      fmt::arg("tag", tag), fmt::arg("law", law), fmt::arg("h", p.h), fmt::arg("skin", p.sys->skin()),
      fmt::arg("xl", plane[0]), fmt::arg("xh", plane[1]), fmt::arg("yl", plane[2]), fmt::arg("yh", plane[3]),
      fmt::arg("zl", plane[4]), fmt::arg("zh", plane[5]));
  if (!in) throw std::runtime_error(fmt::format("cannot write {}", (dir / ("in." + tag)).string()));
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 3) {
    std::fprintf(stderr, "usage: stepper_vs_lammps N STEPS [--threads T] [--lammps-dir DIR]\n");
    return 2;
  }
  const Index n = parse_count("N", argv[1]);
  const long steps = parse_count("STEPS", argv[2]);
  long threads = 1;
  std::string lammps_dir;
  for (int a = 3; a < argc; ++a) {
    const std::string opt = argv[a];
    if (a + 1 >= argc) throw std::invalid_argument(fmt::format("option {} needs a value", opt));
    if (opt == "--threads") threads = parse_count("--threads", argv[++a]);
    else if (opt == "--lammps-dir") lammps_dir = argv[++a];
    else throw std::invalid_argument(fmt::format("unknown option '{}'", opt));
  }
  bench::StepperPacking p = bench::fcc_packing(n, stepper::TangentialHistory::traditional);
  if (!lammps_dir.empty()) {
    write_lammps_case(p, n, steps, lammps_dir);
    return 0;
  }
  p.sys->set_threads(static_cast<int>(threads));
  p.sys->set_contact_reports(false);
  const std::unique_ptr<Integrator> vv = make_integrator("velocity_verlet");
  vv->start(*p.sys, 0.0, p.x, p.v, p.h);
  const std::size_t builds0 = p.sys->neighbour_builds();
  const auto t0 = std::chrono::steady_clock::now();
  for (long k = 0; k < steps; ++k) vv->step(*p.sys);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  long pairs = 0, wall_contacts = 0;
  for (const auto& key : p.sys->history_keys()) (key.j < n ? pairs : wall_contacts) += 1;
  fmt::print("N {} steps {} threads {} seconds {:.6g} particle_steps_per_s {:.6g} pair_contacts {} wall_contacts {} "
             "contacts_per_particle {:.6f} neighbour_builds {} sum_x {:.17g} sum_v {:.17g}\n",
             n, steps, threads, seconds, static_cast<double>(n) * static_cast<double>(steps) / seconds, pairs,
             wall_contacts, static_cast<double>(pairs + wall_contacts) / static_cast<double>(n),
             p.sys->neighbour_builds() - builds0, vv->position().sum(), vv->velocity().sum());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "stepper_vs_lammps: %s\n", e.what());
  return 1;
}
