#include "dtcrit/lammps/lammps_regions.hpp"

#include <cmath>

#include "dtcrit/core/check.hpp"
#include "dtcrit/core/numbers.hpp"

namespace dtcrit::packing {

namespace {

constexpr double lammps_big = 1.0e20;  // region_block.cpp / region_cylinder.cpp BIG, for INF

class Reader {
 public:
  Reader(const std::vector<std::string>& words, const RegionReadContext& context) : context_(context) {
    std::size_t first = !words.empty() && words.front() == "region" ? 1 : 0;
    words_.assign(words.begin() + static_cast<std::ptrdiff_t>(first), words.end());
    if (words_.size() < 2) fail("region: expected 'region ID STYLE ARGS...'");
    name_ = words_[0];
  }
  const std::string& name() const { return name_; }
  const std::string& style() const { return words_[1]; }
  std::size_t size() const { return words_.size(); }
  const std::string& word(std::size_t k) const { return words_[k]; }

  [[noreturn]] void error(const std::string& what) const { fail(fmt::format("region {}: {}", name_, what)); }

  void need(std::size_t count, const char* syntax) const {
    if (words_.size() < count) error(fmt::format("expected '{}'", syntax));
  }
  // A number, or the value of v_NAME at the state.
  double value(std::size_t k, const char* field) const {
    const std::string& w = words_[k];
    if (w.rfind("v_", 0) == 0) return variable(w.substr(2), field);
    const auto v = read_number(w);
    if (!v || !std::isfinite(*v)) error(fmt::format("{} = '{}' is not a finite number", field, w));
    return *v;
  }
  // A bound: a value, INF / -INF / +INF, or EDGE (the box's bound on `axis`).
  double bound(std::size_t k, const char* field, int axis, bool upper) const {
    const std::string& w = words_[k];
    if (w == "INF" || w == "+INF") return lammps_big;
    if (w == "-INF") return -lammps_big;
    if (w == "EDGE") {
      if (!context_.box) error(fmt::format("{} = EDGE needs the simulation box, which was not given", field));
      return (*context_.box)[upper ? 1 : 0][axis];
    }
    return value(k, field);
  }
  double variable(const std::string& var, const char* field) const {
    const auto it = context_.variables.find(var);
    if (it == context_.variables.end())
      error(fmt::format("{} = 'v_{}': the variable has no value at the state (the reader evaluates equal-style "
                        "variables at the state's time step)",
                        field, var));
    if (!std::isfinite(it->second)) error(fmt::format("{} = 'v_{}' = {} is not finite", field, var, it->second));
    return it->second;
  }
  int axis(std::size_t k) const {
    const std::string& w = words_[k];
    if (w == "x") return 0;
    if (w == "y") return 1;
    if (w == "z") return 2;
    error(fmt::format("axis '{}' is not x, y or z", w));
  }

 private:
  std::vector<std::string> words_;
  const RegionReadContext& context_;
  std::string name_;
};

// region.cpp options(): the keywords after the style's arguments.
void read_options(const Reader& r, std::size_t k, RegionWall& w) {
  std::array<std::string, 3> move{"NULL", "NULL", "NULL"};
  bool moved = false;
  while (k < r.size()) {
    const std::string& key = r.word(k);
    auto need = [&](std::size_t n, const char* syntax) {
      if (k + n >= r.size()) r.error(fmt::format("keyword '{}' expects '{}'", key, syntax));
    };
    if (key == "side") {
      need(1, "side in|out");
      const std::string& v = r.word(k + 1);
      if (v == "in") w.interior = true;
      else if (v == "out") w.interior = false;
      else r.error(fmt::format("side '{}' is not in or out", v));
      k += 2;
    } else if (key == "units") {
      need(1, "units box|lattice");
      const std::string& v = r.word(k + 1);
      if (v != "box" && v != "lattice") r.error(fmt::format("units '{}' is not box or lattice", v));
      k += 2;
    } else if (key == "open") {
      need(1, "open N");
      const std::string& v = r.word(k + 1);
      const auto face = read_integer<int>(v);
      if (!face || *face < 1 || *face > 6) r.error(fmt::format("open face '{}' is not an integer from 1 to 6", v));
      w.open[static_cast<std::size_t>(*face - 1)] = true;
      k += 2;
    } else if (key == "move") {
      need(3, "move v_x|NULL v_y|NULL v_z|NULL");
      for (int d = 0; d < 3; ++d) {
        const std::string& v = r.word(k + 1 + static_cast<std::size_t>(d));
        if (v != "NULL" && v.rfind("v_", 0) != 0) r.error(fmt::format("move value '{}' is neither v_NAME nor NULL", v));
        move[static_cast<std::size_t>(d)] = v;
      }
      moved = true;
      k += 4;
    } else if (key == "rotate") {
      need(7, "rotate v_theta Px Py Pz Rx Ry Rz");
      const std::string& v = r.word(k + 1);
      if (v.rfind("v_", 0) != 0) r.error(fmt::format("rotate angle '{}' is not a variable v_NAME", v));
      w.rotated = true;
      w.angle = r.variable(v.substr(2), "rotate angle");
      w.rotation_point = Vec3(r.value(k + 2, "rotate Px"), r.value(k + 3, "rotate Py"), r.value(k + 4, "rotate Pz"));
      const Vec3 axis(r.value(k + 5, "rotate Rx"), r.value(k + 6, "rotate Ry"), r.value(k + 7, "rotate Rz"));
      if (axis.norm() == 0.0) r.error("rotate axis (0, 0, 0) has no direction");
      w.rotation_axis = axis / axis.norm();
      k += 8;
    } else {
      r.error(fmt::format("keyword '{}' is not read by dtcrit (side, units, open, move, rotate are)", key));
    }
  }
  if (moved)
    for (int d = 0; d < 3; ++d)
      if (move[static_cast<std::size_t>(d)] != "NULL")
        w.displacement[d] = r.variable(move[static_cast<std::size_t>(d)].substr(2), "move");
}

}  // namespace

RegionWall parse_lammps_region(const std::vector<std::string>& words, const RegionReadContext& context) {
  const Reader r(words, context);
  RegionWall w;
  w.name = r.name();
  const std::string& style = r.style();
  std::size_t options_at = 0;
  if (style == "plane") {
    r.need(8, "region ID plane px py pz nx ny nz");
    w.style = RegionStyle::plane;
    w.point = Vec3(r.value(2, "px"), r.value(3, "py"), r.value(4, "pz"));
    const Vec3 n(r.value(5, "nx"), r.value(6, "ny"), r.value(7, "nz"));
    if (n.norm() == 0.0) r.error("normal (0, 0, 0) has no direction");
    w.normal = n / n.norm();  // region_plane.cpp: the normal is made unit
    options_at = 8;
  } else if (style == "block") {
    r.need(8, "region ID block xlo xhi ylo yhi zlo zhi");
    w.style = RegionStyle::block;
    const char* lo_names[] = {"xlo", "ylo", "zlo"};
    const char* hi_names[] = {"xhi", "yhi", "zhi"};
    for (int d = 0; d < 3; ++d) {
      w.lo[d] = r.bound(2 + 2 * static_cast<std::size_t>(d), lo_names[d], d, false);
      w.hi[d] = r.bound(3 + 2 * static_cast<std::size_t>(d), hi_names[d], d, true);
      if (w.lo[d] > w.hi[d]) r.error(fmt::format("{} = {} exceeds {} = {}", lo_names[d], w.lo[d], hi_names[d], w.hi[d]));
    }
    options_at = 8;
  } else if (style == "cylinder" || style == "cone") {
    const bool cone = style == "cone";
    r.need(cone ? 9 : 8, cone ? "region ID cone dim c1 c2 radlo radhi lo hi" : "region ID cylinder dim c1 c2 radius lo hi");
    w.style = cone ? RegionStyle::cone : RegionStyle::cylinder;
    w.axis = r.axis(2);
    w.c1 = r.value(3, "c1");
    w.c2 = r.value(4, "c2");
    std::size_t k = 5;
    if (cone) {
      w.radius_lo = r.value(k++, "radlo");
      w.radius_hi = r.value(k++, "radhi");
      if (w.radius_lo < 0.0 || w.radius_hi < 0.0 || (w.radius_lo == 0.0 && w.radius_hi == 0.0))
        r.error(fmt::format("radlo = {}, radhi = {}: both must be >= 0 and one > 0", w.radius_lo, w.radius_hi));
    } else {
      w.radius = r.value(k++, "radius");
      if (!(w.radius > 0.0)) r.error(fmt::format("radius = {} must be positive", w.radius));
    }
    w.axis_lo = r.bound(k, "lo", w.axis, false);
    w.axis_hi = r.bound(k + 1, "hi", w.axis, true);
    if (!(w.axis_lo < w.axis_hi)) r.error(fmt::format("lo = {} must be below hi = {}", w.axis_lo, w.axis_hi));
    options_at = k + 2;
  } else if (style == "sphere") {
    r.need(6, "region ID sphere x y z radius");
    w.style = RegionStyle::sphere;
    w.centre = Vec3(r.value(2, "x"), r.value(3, "y"), r.value(4, "z"));
    w.radius = r.value(5, "radius");
    if (!(w.radius > 0.0)) r.error(fmt::format("radius = {} must be positive", w.radius));
    options_at = 6;
  } else if (style == "union" || style == "intersect") {
    r.need(3, "region ID union|intersect N reg-ID1 reg-ID2 ...");
    w.style = style == "union" ? RegionStyle::union_of : RegionStyle::intersection;
    const auto n = read_integer<int>(r.word(2));
    if (!n || *n < 1) r.error(fmt::format("N = '{}' is not a positive integer", r.word(2)));
    r.need(3 + static_cast<std::size_t>(*n), "region ID union|intersect N reg-ID1 reg-ID2 ...");
    for (int m = 0; m < *n; ++m) {
      const std::string& id = r.word(3 + static_cast<std::size_t>(m));
      const auto it = context.regions.find(id);
      if (it == context.regions.end()) r.error(fmt::format("sub-region '{}' is not defined", id));
      w.members.push_back(it->second);
    }
    options_at = 3 + static_cast<std::size_t>(*n);
  } else {
    r.error(fmt::format("style '{}' is not read by dtcrit (plane, block, cylinder, cone, sphere, union, intersect are)",
                        style));
  }
  // The options may set units lattice explicitly or leave LAMMPS' default (lattice).
  bool lattice_units = true;
  for (std::size_t k = options_at; k + 1 < r.size(); ++k)
    if (r.word(k) == "units") lattice_units = r.word(k + 1) != "box";
  read_options(r, options_at, w);
  const bool combined = w.style == RegionStyle::union_of || w.style == RegionStyle::intersection;
  if (combined && (w.rotated || !w.displacement.isZero(0.0)))
    r.error("a union or intersection cannot rotate or move (LAMMPS: 'Region union or intersect cannot be dynamic')");
  if (combined && !w.interior) r.error("side out of a union or intersection is not read by dtcrit");
  if (lattice_units && context.lattice_command && !combined)
    r.error("units lattice (LAMMPS' default) after a lattice command scales by the lattice spacing, which dtcrit does "
            "not read: give 'units box'");
  const int faces = w.style == RegionStyle::block                                           ? 6
                    : w.style == RegionStyle::cylinder || w.style == RegionStyle::cone ? 3
                                                                                        : 0;
  for (int f = faces; f < 6; ++f)
    if (w.open[static_cast<std::size_t>(f)])
      r.error(fmt::format("open {}: a {} has {} faces to open", f + 1, style, faces == 0 ? "no" : std::to_string(faces)));
  w.label = fmt::format("region {} ({}{})", w.name, style, w.interior ? "" : ", side out");
  validate(w);
  return w;
}

}  // namespace dtcrit::packing
