#pragma once
// A packing of discs (2D) or spheres (3D): centres, radii, masses, inertias and types, an
// axis-aligned box with per-axis periodicity, plane walls and region walls (LAMMPS regions,
// assembly/region_wall.hpp). Built by the lattice generators
// below or read from LAMMPS files (lammps/lammps_io.hpp); its contacts and global M, K, C are in
// assembly/contacts.hpp and system/global_system.hpp.
//
// Mass conventions. 3D: m = rho 4/3 pi r^3, I = 2/5 m r^2 (LAMMPS atom_style sphere,
// fix nve/sphere). 2D: LAMMPS keeps the sphere mass and inertia for 2d simulations unless told
// otherwise, and so does dtcrit by default (BodyModel::sphere); BodyModel::disc gives
// m = rho pi r^2 (rho an areal density, LAMMPS' set density/disc) and I = 1/2 m r^2
// (fix nve/sphere disc).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtcrit/core/enum_names.hpp"
#include "dtcrit/core/types.hpp"
#include "dtcrit/contact/law.hpp"
#include "dtcrit/assembly/region_wall.hpp"

namespace dtcrit::packing {

using Vec3 = Eigen::Vector3d;

enum class BodyModel { sphere, disc };

// A plane wall: the particles live on the side (x - point) . normal > 0. A particle touches it
// when its overlap r - (x - point) . normal is positive (within the gap tolerance). The wall is
// immovable; its contacts use `law` when given, else the particle-particle law of the particle's
// type with itself.
struct PlaneWall {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  // unit
  std::optional<contact::ContactLaw> law;
  std::string label{};  // as given, e.g. "z=0"
};

struct Packing {
  int dim = 3;
  std::vector<Vec3> centre;  // z = 0 in 2D
  std::vector<double> radius, mass, inertia;
  std::vector<int> type;     // LAMMPS atom types, >= 1
  // LAMMPS atom ids (data and dump files; 1..N in the order of add() for lattices), kept through
  // sort_spatially: contact files name particles by them. Empty: 1..N in storage order.
  std::vector<std::int64_t> id;
  // LAMMPS molecule IDs (data files of atom_style hybrid sphere molecular), kept through
  // sort_spatially; `--clumps molecule` makes each molecule one rigid body (assembly/clumps.hpp).
  // Empty when the source has none.
  std::vector<std::int64_t> molecule;
  Vec3 box_lo = Vec3::Zero(), box_hi = Vec3::Zero();
  std::array<bool, 3> periodic{false, false, false};
  std::vector<PlaneWall> walls;
  // Walls that are LAMMPS regions (fix wall/gran/region). A wall contact's index -(j + 1) counts the
  // plane walls first, then these: wall w >= walls.size() is region_walls[w - walls.size()]. One
  // region may touch a particle several times (faces, caps), each its own contact.
  std::vector<RegionWall> region_walls;
  std::string source;        // "fcc lattice 10x10x10", "data file packing.data", ...

  Index size() const { return static_cast<Index>(centre.size()); }
  Vec3 box_length() const { return box_hi - box_lo; }
  std::size_t wall_count() const { return walls.size() + region_walls.size(); }
  std::int64_t atom_id(Index i) const { return id.empty() ? i + 1 : id[static_cast<std::size_t>(i)]; }
  // Appends a particle with the mass and inertia of `model` (see the header comment).
  void add(const Vec3& c, double r, double density, BodyModel model, int type = 1);
};

// A packing given particle by particle (the Python module's arrays): centres (z = 0 in 2D), radii
// and masses; inertias when given (else the body model's: sphere 2/5 m r^2, 2D disc 1/2 m r^2, as
// add()); types when given (else 1); the box [lo, hi] when given (else the particles' bounding box,
// x - r to x + r). Sizes are checked here (errors name the argument), the rest by validate().
struct ParticleArrays {
  int dim = 3;
  std::vector<Vec3> centre;
  std::vector<double> radius, mass, inertia;
  std::vector<int> type;
  std::optional<std::array<Vec3, 2>> box;
  BodyModel body_model = BodyModel::sphere;
};
Packing make_packing(ParticleArrays particles);

// Checks sizes, positive radii / masses / inertias, a box that holds every periodic axis
// (box_hi > box_lo), 2D data with z = 0 and z not periodic, unit wall normals, walls not normal to
// a periodic axis, each region wall (region_wall.hpp validate()), region walls in 3D only. Throws std::invalid_argument naming the first problem.
void validate(const Packing& p);

// Reorders the particles by the cells of a grid of spacing 2 r_max (z, then y, then x), so that
// touching particles sit near each other in memory. The matrix-free operator reads both partners
// of every contact: on a randomly ordered packing (a LAMMPS file after mixing) it ran 6-7x slower
// than in this order (results/benchmarks/operator_order.md). Every answer is invariant under the order.
void sort_spatially(Packing& p);

// --- lattices ---------------------------------------------------------------------------------
enum class LatticeKind { square, hex, sc, bcc, fcc };
inline constexpr EnumName<LatticeKind> lattice_names[] = {{LatticeKind::square, "square"},
                                                          {LatticeKind::hex, "hex"},
                                                          {LatticeKind::sc, "sc"},
                                                          {LatticeKind::bcc, "bcc"},
                                                          {LatticeKind::fcc, "fcc"}};
// "square", "hex", "sc", "bcc", "fcc"; anything else throws, listing the valid names.
LatticeKind parse_lattice(std::string_view name);
std::string_view to_string(LatticeKind kind);
int lattice_dimension(LatticeKind kind);
// Nearest neighbours of a bulk site: 4, 6, 6, 8, 12.
int lattice_coordination(LatticeKind kind);

struct LatticeSpec {
  LatticeKind kind = LatticeKind::fcc;
  Index n = 4;                 // unit cells per side (see particles_per_cell)
  double radius = 1e-3;        // nominal radius r [m]
  double density = 2500.0;     // rho [kg/m^3] (areal [kg/m^2] for BodyModel::disc)
  double compression = 0.0;    // nearest-neighbour distance d = 2 r (1 - compression)
  double radius_spread = 0.0;  // radii r (1 + s U(-1, 1)), seeded; keep s < compression to close all
  unsigned seed = 1;
  BodyModel body_model = BodyModel::sphere;  // 2D only
  bool periodic = true;        // periodic box on every axis (the bulk crystal)
};
// Particles per unit cell: square 1, hex 2 (rectangular cell a x a sqrt 3), sc 1, bcc 2, fcc 4.
int particles_per_cell(LatticeKind kind);
// The lattice of n^dim unit cells, sites at (cell + basis) a, box [0, n a) x ... with
// a the cubic (rectangular) lattice constant for nearest-neighbour distance d.
Packing make_lattice(const LatticeSpec& spec);

// Six (3D) or four (2D) walls around the particles' bounding box, each pressed into the outermost
// particles by `overlap` [m] (a wall at distance r - overlap from the extreme centre along its
// axis). With overlap equal to the particle overlap of a compressed simple cubic or square lattice
// of equal radii, every particle is in equilibrium.
void add_box_walls(Packing& p, double overlap, const std::optional<contact::ContactLaw>& law = std::nullopt);

// "z=0", "x=1.5e-2" or with its own law "z=0,kn=1e5,kt=5e4,gamma_n=10,gamma_t=5" (keys not given
// take their value from `base`, the particle law, except gamma_t: gamma_n / 2 when gamma_n is given alone): a wall normal to that axis, facing the side
// where the packing's centroid lies. Unknown keys throw.
PlaneWall parse_wall(std::string_view spec, const Packing& p, const contact::ContactLaw& base);

}  // namespace dtcrit::packing
