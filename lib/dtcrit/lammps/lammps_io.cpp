#include "dtcrit/lammps/lammps_io.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

#include "dtcrit/contact/body_inertia.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/io/input_file.hpp"
#include "dtcrit/io/output_file.hpp"

namespace dtcrit::packing {

namespace {

// Lines of a stream, numbered for the messages; `path` names the source ("FILE:LINE: ...").
class LineReader {
 public:
  // first_line: the number of the stream's first line in the file (a part of a file read alone).
  LineReader(std::istream& in, const std::string& path, long first_line = 1)
      : path_(path), in_(in), line_(first_line - 1) {}
  bool next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }
  long line() const { return line_; }
  // Cut to a readable length: a message may quote a line of any length.
  [[noreturn]] void error(const std::string& what) const {
    fail(fmt::format("{}:{}: {}", path_, line_, excerpt(what, 500)));
  }
  [[noreturn]] void expected(const std::string& what, std::string_view got) const {
    error(fmt::format("expected {}, got '{}'", what, excerpt(got)));
  }
  double number(std::string_view text, const std::string& what) const {
    const auto v = read_number(text);
    if (!v || !std::isfinite(*v)) expected(what, text);
    return *v;
  }
  long integer(std::string_view text, const std::string& what) const {
    const auto v = read_integer<long>(text);
    if (!v) expected(what, text);
    return *v;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::istream& in_;
  long line_ = 0;
};

std::string strip_comment(const std::string& line) {
  const auto hash = line.find('#');
  return std::string(trim(hash == std::string::npos ? line : line.substr(0, hash)));
}

// The next line of the header or of a section's body, `s` without its comment; false at a keyword
// line (its text then in `section`, the whole line in `line`) or at the end of the file.
bool next_body_line(LineReader& in, std::string& line, std::string& s, std::string& section) {
  while (in.next(line)) {
    s = strip_comment(line);
    if (s.empty()) continue;
    if (std::isalpha(static_cast<unsigned char>(s[0]))) {
      section = s;
      return false;
    }
    return true;
  }
  return false;
}

// The header of a data file (until its first keyword line, left in `section` and `line`).
struct DataHeader {
  long atoms = -1;
  long atom_types = std::numeric_limits<int>::max();  // without an 'atom types' line: any int
  std::array<bool, 3> have_box{false, false, false};
};

void read_header(LineReader& in, Packing& p, DataHeader& h, std::string& line, std::string& s, std::string& section) {
  while (next_body_line(in, line, s, section)) {
    const auto w = split_words(s);
    if (w.size() >= 2 && w[1] == "atoms") {
      h.atoms = in.integer(w[0], "the number of atoms");
      if (h.atoms < 1) in.expected("a positive number of atoms", w[0]);
    } else if (w.size() >= 3 && w[1] == "atom" && w[2] == "types") {
      h.atom_types = in.integer(w[0], "the number of atom types");
      if (h.atom_types < 1) in.expected("a positive number of atom types", w[0]);
    } else if (w.size() == 4 && (w[2] == "xlo" || w[2] == "ylo" || w[2] == "zlo")) {
      const int axis = w[2][0] - 'x';
      if (w[3] != std::string(1, w[2][0]) + "hi") in.expected(fmt::format("'{0}lo {0}hi'", w[2][0]), s);
      p.box_lo[axis] = in.number(w[0], fmt::format("{}lo", w[2][0]));
      p.box_hi[axis] = in.number(w[1], fmt::format("{}hi", w[2][0]));
      h.have_box[static_cast<std::size_t>(axis)] = true;
    } else if (w.size() >= 4 && w[w.size() - 3] == "xy") {
      in.error("triclinic boxes (xy xz yz) are not supported; expected an orthogonal box");
    }
    // Other header lines (bonds, ellipsoids, ...) carry nothing a packing needs.
  }
  if (h.atoms < 0) fail(fmt::format("{}: the header has no 'N atoms' line", in.path()));
}

// The style of the Atoms section's lines: from its keyword line's hint ("Atoms # sphere" or
// "Atoms # hybrid"), else decided by the column count of its first line.
struct AtomStyle {
  bool hybrid = false, hint = false;
};

void read_style_hint(const LineReader& in, const std::string& line, AtomStyle& style) {
  const auto hash = line.find('#');
  if (hash == std::string::npos) return;
  const std::string name(trim(line.substr(hash + 1)));
  style.hint = true;
  if (name == "hybrid") style.hybrid = true;
  else if (name != "sphere")
    in.expected("'Atoms # sphere' (atom_style sphere) or 'Atoms # hybrid' (atom_style hybrid sphere molecular)",
                trim(line));
}

// One line of the Atoms section, `s` without its comment: the particle appended to p, its id to ids
// and (hybrid) its molecule to molecules. `first`: the section's first line (it decides the style
// when the keyword line has no hint). The one parser of Atoms lines: read_lammps_data and the
// reader of a part of the section (read_lammps_data_atoms) both call it.
void read_atom_line(const LineReader& in, const std::string& s, bool first, AtomStyle& style, long atom_types,
                    const ReadOptions& opts, Packing& p, std::vector<long>& ids, std::vector<std::int64_t>& molecules) {
  const auto w = split_words(s);
  if (!style.hint && first && (w.size() == 8 || w.size() == 11)) style.hybrid = true;
  const bool hybrid = style.hybrid;
  if (!hybrid && w.size() != 7 && w.size() != 10)
    in.expected("'id type diameter density x y z' with optional image flags 'ix iy iz' (7 or 10 columns)", s);
  if (hybrid && w.size() != 8 && w.size() != 11)
    in.expected("'id type x y z diameter density molecule' with optional image flags 'ix iy iz' (8 or 11 columns, "
                "atom_style hybrid sphere molecular)", s);
  const long id = in.integer(w[0], "an integer atom id");
  const long type = in.integer(w[1], "an integer atom type");
  // LAMMPS refuses a type beyond the header's count ("Invalid atom type in Atoms section").
  if (type < 1 || type > atom_types)
    in.expected(fmt::format("an atom type from 1 to {}{}", atom_types,
                            atom_types < std::numeric_limits<int>::max() ? " (the header's 'atom types')" : ""),
                w[1]);
  const std::size_t at_diameter = hybrid ? 5 : 2, at_x = hybrid ? 2 : 4, images = hybrid ? 8 : 7;
  const double diameter = in.number(w[at_diameter], "a diameter");
  if (!(diameter > 0.0)) in.expected("a positive diameter (atom_style sphere, finite-size particles)", w[at_diameter]);
  const double density = in.number(w[at_diameter + 1], "a density");
  if (!(density > 0.0)) in.expected("a positive density", w[at_diameter + 1]);
  Vec3 x;
  for (int d = 0; d < 3; ++d) x[d] = in.number(w[at_x + static_cast<std::size_t>(d)], fmt::format("coordinate {}", "xyz"[d]));
  if (hybrid) {
    const long molecule = in.integer(w[7], "an integer molecule ID");
    if (molecule < 0) in.expected("a molecule ID >= 0", w[7]);
    molecules.push_back(molecule);
  }
  if (w.size() == images + 3)
    for (std::size_t k = images; k < images + 3; ++k) in.integer(w[k], "an integer image flag");
  ids.push_back(id);
  p.centre.push_back(x);
  p.radius.push_back(0.5 * diameter);
  p.mass.push_back(0.0);
  p.inertia.push_back(0.0);
  p.type.push_back(static_cast<int>(type));
  // A data file's density is mass / (4/3 pi r^3) in 2D too (AtomVecSphere::data_atom_post(),
  // atom_vec_sphere.cpp); a disc differs in its inertia only (fix nve/sphere disc).
  const double r = 0.5 * diameter;
  p.mass.back() = contact::sphere_mass(r, density);
  p.inertia.back() = p.dim == 2 && opts.body_model == BodyModel::disc ? contact::disc_inertia(p.mass.back(), r)
                                                                       : contact::sphere_inertia(p.mass.back(), r);
}

void check_dimension(const ReadOptions& opts) {
  if (opts.dimension != 2 && opts.dimension != 3)
    fail(fmt::format("dimension {} must be 2 or 3", opts.dimension));
}

void finish_dimension(Packing& p, const std::string& path) {
  if (p.dim == 2) {
    const double z0 = p.centre.empty() ? 0.0 : p.centre.front().z();
    for (std::size_t i = 0; i < p.centre.size(); ++i) {
      if (p.centre[i].z() != z0)
        fail(fmt::format("{}: a 2D packing needs one z for every particle; particle {} has z = {}, the first {}", path,
                         i + 1, p.centre[i].z(), z0));
      p.centre[i].z() = 0.0;
    }
    p.periodic[2] = false;
    p.box_lo.z() = p.box_hi.z() = 0.0;
  }
}

// Mass and inertia from a density the user gave (a dump with --density) under the packing's body model:
// a disc's per area, as LAMMPS' set density/disc.
void set_mass(Packing& p, std::size_t i, double density, BodyModel model) {
  const double r = p.radius[i];
  if (p.dim == 2 && model == BodyModel::disc) {
    p.mass[i] = contact::areal_disc_mass(r, density);
    p.inertia[i] = contact::disc_inertia(p.mass[i], r);
  } else {
    p.mass[i] = contact::sphere_mass(r, density);
    p.inertia[i] = contact::sphere_inertia(p.mass[i], r);
  }
}

std::istringstream open_for_reading(const std::string& path, std::string_view what) {
  return std::istringstream(read_input_file(path, what));
}

}  // namespace

Packing read_lammps_data(const std::string& path, const ReadOptions& opts) {
  auto file = open_for_reading(path, "LAMMPS data file");
  return read_lammps_data(file, path, opts);
}

Packing read_lammps_dump(const std::string& path, const ReadOptions& opts) {
  auto file = open_for_reading(path, "LAMMPS dump file");
  return read_lammps_dump(file, path, opts);
}

Packing read_lammps_data(std::istream& stream, const std::string& path, const ReadOptions& opts) {
  check_dimension(opts);
  LineReader in(stream, path);
  std::string line;
  if (!in.next(line)) in.error("expected the title line of a LAMMPS data file, got an empty file");
  Packing p;
  p.dim = opts.dimension;  // the inertia of a disc needs it
  p.source = fmt::format("LAMMPS data file {}", path);
  std::string section;
  std::string s;
  DataHeader h;
  read_header(in, p, h, line, s, section);
  const long atoms = h.atoms, atom_types = h.atom_types;
  const std::array<bool, 3>& have_box = h.have_box;
  if (section.empty()) fail(fmt::format("{}:{}: expected an Atoms section, got the end of the file", path, in.line()));

  std::vector<long> ids;
  std::vector<std::int64_t> molecules;
  bool have_atoms = false;
  // "Atoms # hybrid" (atom_style hybrid sphere molecular, what fix rigid/small molecule needs):
  // id type x y z diameter density molecule [ix iy iz], the order write_data uses for that style.
  // Without a style hint the column count decides (7/10: sphere, 8/11: hybrid sphere molecular).
  AtomStyle style;
  std::map<long, long> molecule_section;  // atom id -> molecule, from a Molecules section
  while (!section.empty()) {
    const std::string name = section;
    section.clear();
    const bool is_atoms = name.rfind("Atoms", 0) == 0 && (name.size() == 5 || std::isspace(static_cast<unsigned char>(name[5])));
    if (is_atoms) {
      read_style_hint(in, line, style);
      if (have_atoms) in.error("expected one Atoms section, got a second");
      have_atoms = true;
    }
    // Body of the section: lines starting with a number, until the next keyword line.
    while (next_body_line(in, line, s, section)) {
      if (name == "Molecules") {  // fix property/atom mol: "id molecule" (write_data's section)
        const auto w = split_words(s);
        if (w.size() != 2) in.expected("'id molecule' (the Molecules section of fix property/atom mol)", s);
        const long id = in.integer(w[0], "an integer atom id");
        const long molecule = in.integer(w[1], "an integer molecule ID");
        if (molecule < 0) in.expected("a molecule ID >= 0", w[1]);
        if (!molecule_section.emplace(id, molecule).second) in.error(fmt::format("atom {} appears twice in Molecules", id));
        continue;
      }
      if (!is_atoms) continue;
      read_atom_line(in, s, ids.empty(), style, atom_types, opts, p, ids, molecules);
      if (static_cast<long>(p.centre.size()) > atoms)
        in.error(fmt::format("expected {} atoms as the header says, got more", atoms));
    }
  }
  if (!have_atoms) fail(fmt::format("{}:{}: expected an Atoms section, got the end of the file", path, in.line()));
  if (static_cast<long>(p.centre.size()) != atoms)
    fail(fmt::format("{}:{}: expected {} atoms as the header says, got {}", path, in.line(), atoms, p.centre.size()));
  {
    std::vector<long> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 1; k < sorted.size(); ++k)
      if (sorted[k] == sorted[k - 1]) fail(fmt::format("{}: atom id {} appears twice", path, sorted[k]));
  }
  p.id.assign(ids.begin(), ids.end());
  if (!molecule_section.empty()) {
    if (style.hybrid) fail(fmt::format("{}: molecule IDs in both the Atoms and a Molecules section", path));
    for (long id : ids) {
      const auto m = molecule_section.find(id);
      if (m == molecule_section.end()) fail(fmt::format("{}: atom {} has no line in the Molecules section", path, id));
      molecules.push_back(m->second);
    }
    if (molecule_section.size() != ids.size())
      fail(fmt::format("{}: the Molecules section has {} lines for {} atoms", path, molecule_section.size(), ids.size()));
  }
  p.molecule = std::move(molecules);
  if (opts.periodic) {
    p.periodic = *opts.periodic;
    for (int d = 0; d < 3; ++d)
      if (p.periodic[d] && !have_box[d] && d < opts.dimension)
        fail(fmt::format("{}: axis {} is periodic but the header has no {}lo {}hi line", path, "xyz"[d], "xyz"[d], "xyz"[d]));
  }
  finish_dimension(p, path);
  return p;
}

bool is_section_line(std::string_view line) {
  const std::string s = strip_comment(std::string(line));
  return !s.empty() && std::isalpha(static_cast<unsigned char>(s[0]));
}

DataFileLayout read_lammps_data_layout(const std::string& path, const ReadOptions& opts) {
  check_dimension(opts);
  DataFileLayout layout;
  layout.size = check_input_file(path, "LAMMPS data file");
  std::ifstream file(path, std::ios::binary);
  if (!file) fail(fmt::format("LAMMPS data file '{}': cannot be opened (permissions?)", excerpt(path)));
  LineReader in(file, path);
  std::string line, s, section;
  if (!in.next(line)) in.error("expected the title line of a LAMMPS data file, got an empty file");
  Packing box;
  DataHeader h;
  read_header(in, box, h, line, s, section);
  layout.atoms = h.atoms, layout.atom_types = h.atom_types;
  layout.box_lo = box.box_lo, layout.box_hi = box.box_hi;
  if (opts.periodic)
    for (int d = 0; d < 3; ++d)
      if ((*opts.periodic)[static_cast<std::size_t>(d)] && !h.have_box[static_cast<std::size_t>(d)] && d < opts.dimension)
        fail(fmt::format("{}: axis {} is periodic but the header has no {}lo {}hi line", path, "xyz"[d], "xyz"[d], "xyz"[d]));
  // The sections before Atoms (Masses, Pair Coeffs, ...) are skipped, as read_lammps_data does.
  while (!section.empty()) {
    const std::string name = section;
    section.clear();
    if (name.rfind("Atoms", 0) == 0 && (name.size() == 5 || std::isspace(static_cast<unsigned char>(name[5])))) {
      AtomStyle style;
      read_style_hint(in, line, style);
      layout.atoms_begin = static_cast<std::uint64_t>(file.tellg());
      layout.atoms_first_line = in.line() + 1;
      layout.hybrid = style.hybrid;
      if (!style.hint && next_body_line(in, line, s, section)) {  // the first line's columns decide
        const auto w = split_words(s);
        layout.hybrid = w.size() == 8 || w.size() == 11;
      }
      return layout;
    }
    while (next_body_line(in, line, s, section)) {
    }
  }
  fail(fmt::format("{}:{}: expected an Atoms section, got the end of the file", path, in.line()));
}

Packing read_lammps_data_atoms(std::string text, const std::string& path, long first_line, const DataFileLayout& layout,
                               const ReadOptions& opts) {
  check_dimension(opts);
  std::istringstream stream(std::move(text));
  LineReader in(stream, path, first_line);
  Packing p;
  p.dim = opts.dimension;
  p.source = fmt::format("LAMMPS data file {}", path);
  p.box_lo = layout.box_lo, p.box_hi = layout.box_hi;
  AtomStyle style{layout.hybrid, true};
  std::vector<long> ids;
  std::vector<std::int64_t> molecules;
  std::string line, s;
  while (in.next(line)) {
    s = strip_comment(line);
    if (s.empty()) continue;
    if (std::isalpha(static_cast<unsigned char>(s[0]))) in.expected("a line of the Atoms section", s);
    read_atom_line(in, s, false, style, layout.atom_types, opts, p, ids, molecules);
  }
  p.id.assign(ids.begin(), ids.end());
  return p;
}

Packing read_lammps_dump(std::istream& stream, const std::string& path, const ReadOptions& opts) {
  check_dimension(opts);
  LineReader in(stream, path);
  std::string line;
  Packing last;
  bool have_snapshot = false;
  bool pending = in.next(line);
  if (!pending) fail(fmt::format("{}:1: expected 'ITEM: TIMESTEP', got an empty file", path));
  while (pending) {
    if (trim(line).empty()) {
      pending = in.next(line);
      continue;
    }
    if (trim(line) != "ITEM: TIMESTEP") in.expected("'ITEM: TIMESTEP'", line);
    if (!in.next(line)) in.expected("a timestep", "end of file");
    in.integer(trim(line), "an integer timestep");
    if (!in.next(line) || trim(line) != "ITEM: NUMBER OF ATOMS") in.expected("'ITEM: NUMBER OF ATOMS'", line);
    if (!in.next(line)) in.expected("the number of atoms", "end of file");
    const long n = in.integer(trim(line), "the number of atoms");
    if (n < 1) in.expected("a positive number of atoms", line);
    if (!in.next(line)) in.expected("'ITEM: BOX BOUNDS'", "end of file");
    const auto bw = split_words(line);
    if (bw.size() < 3 || bw[0] != "ITEM:" || bw[1] != "BOX" || bw[2] != "BOUNDS")
      in.expected("'ITEM: BOX BOUNDS xx yy zz'", line);
    if (bw.size() >= 6 && bw[3] == "xy") in.error("triclinic boxes (BOX BOUNDS xy xz yz) are not supported");
    if (bw.size() != 6) in.expected("three boundary flags such as 'pp pp ff' after BOX BOUNDS", line);
    Packing p;
    p.dim = opts.dimension;  // the inertia of a disc needs it
    p.source = fmt::format("LAMMPS dump {}", path);
    for (int d = 0; d < 3; ++d) {
      const std::string& f = bw[3 + static_cast<std::size_t>(d)];
      if (f.size() != 2) in.expected("a boundary flag of two letters (pp, ff, fs, sm, ...)", f);
      p.periodic[d] = f == "pp";
    }
    for (int d = 0; d < 3; ++d) {
      if (!in.next(line)) in.expected("the box bounds 'lo hi'", "end of file");
      const auto w = split_words(line);
      if (w.size() != 2) in.expected(fmt::format("the bounds of axis {} as 'lo hi'", "xyz"[d]), line);
      p.box_lo[d] = in.number(w[0], "a box bound");
      p.box_hi[d] = in.number(w[1], "a box bound");
    }
    if (!in.next(line)) in.expected("'ITEM: ATOMS ...'", "end of file");
    const auto cols = split_words(line);
    if (cols.size() < 3 || cols[0] != "ITEM:" || cols[1] != "ATOMS") in.expected("'ITEM: ATOMS <columns>'", line);
    std::map<std::string, std::size_t> at;
    for (std::size_t k = 2; k < cols.size(); ++k) at[cols[k]] = k - 2;
    const std::size_t ncol = cols.size() - 2;
    std::array<std::size_t, 3> pos{};
    std::array<bool, 3> scaled{};
    for (int d = 0; d < 3; ++d) {
      const std::string a(1, "xyz"[d]);
      if (at.count(a)) pos[d] = at[a], scaled[d] = false;
      else if (at.count(a + "u")) pos[d] = at[a + "u"], scaled[d] = false;
      else if (at.count(a + "s")) pos[d] = at[a + "s"], scaled[d] = true;
      else in.expected(fmt::format("a position column {0}, {0}u or {0}s", a), line);
    }
    const bool has_radius = at.count("radius") > 0, has_diameter = at.count("diameter") > 0;
    if (!has_radius && !has_diameter) in.expected("a radius or diameter column", line);
    const std::size_t rcol = has_radius ? at["radius"] : at["diameter"];
    const double rfac = has_radius ? 1.0 : 0.5;
    const bool has_mass = at.count("mass") > 0, has_type = at.count("type") > 0, has_id = at.count("id") > 0;
    if (!has_mass && !opts.density)
      in.error("the ATOMS columns have no mass: expected a 'mass' column, or give the density (--density)");
    if (has_mass && opts.density)
      in.error(fmt::format("the ATOMS columns have a mass column, so the density {} (--density) would not be used",
                           *opts.density));
    for (long k = 0; k < n; ++k) {
      if (!in.next(line)) in.expected(fmt::format("{} atom lines", n), "end of file");
      const auto w = split_words(line);
      if (w.size() != ncol) in.expected(fmt::format("{} columns as ITEM: ATOMS names", ncol), line);
      Vec3 x;
      for (int d = 0; d < 3; ++d) {
        x[d] = in.number(w[pos[d]], fmt::format("coordinate {}", "xyz"[d]));
        if (scaled[d]) x[d] = p.box_lo[d] + x[d] * (p.box_hi[d] - p.box_lo[d]);
      }
      const double r = rfac * in.number(w[rcol], has_radius ? "a radius" : "a diameter");
      if (!(r > 0.0)) in.expected("a positive radius", w[rcol]);
      int type = 1;
      if (has_type) {
        const long t = in.integer(w[at["type"]], "an integer atom type");
        if (t < 1 || t > std::numeric_limits<int>::max()) in.expected("an atom type from 1 to 2147483647", w[at["type"]]);
        type = static_cast<int>(t);
      }
      p.id.push_back(has_id ? in.integer(w[at["id"]], "an integer atom id") : static_cast<long>(p.centre.size()) + 1);
      p.centre.push_back(x);
      p.radius.push_back(r);
      p.type.push_back(type);
      p.mass.push_back(0.0);
      p.inertia.push_back(0.0);
      const std::size_t i = p.centre.size() - 1;
      if (has_mass) {
        const double m = in.number(w[at["mass"]], "a mass");
        if (!(m > 0.0)) in.expected("a positive mass", w[at["mass"]]);
        p.mass[i] = m;
        p.inertia[i] = (opts.dimension == 2 && opts.body_model == BodyModel::disc ? 0.5 : 0.4) * m * r * r;
      } else {
        set_mass(p, i, *opts.density, opts.body_model);
      }
    }
    {
      std::vector<std::int64_t> sorted = p.id;
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t k = 1; k < sorted.size(); ++k)
        if (sorted[k] == sorted[k - 1]) in.error(fmt::format("atom id {} appears twice in this snapshot", sorted[k]));
    }
    last = std::move(p);
    have_snapshot = true;
    pending = in.next(line);
  }
  if (!have_snapshot) fail(fmt::format("{}: expected a snapshot (ITEM: TIMESTEP ...), found none", path));
  if (opts.periodic) last.periodic = *opts.periodic;
  finish_dimension(last, path);
  return last;
}

void write_lammps_data(const std::string& path, const Packing& p, const std::vector<std::array<double, 6>>* velocities) {
  validate(p);
  if (velocities && velocities->size() != p.centre.size())
    fail(fmt::format("write_lammps_data: {} velocities for {} particles", velocities->size(), p.centre.size()));
  write_file_atomically(path, [&](std::ostream& out) {
    int types = 1;
    for (int t : p.type) types = std::max(types, t);
    out << "LAMMPS data file written by dtcrit (" << p.source << ")\n\n";
    out << p.size() << " atoms\n" << types << " atom types\n\n";
    Vec3 lo = p.box_lo, hi = p.box_hi;
    for (int d = 0; d < 3; ++d)
      if (!(hi[d] > lo[d])) {  // no box recorded on this axis: the particles' extent
        lo[d] = hi[d] = p.centre[0][d];
        for (Index i = 0; i < p.size(); ++i) {
          lo[d] = std::min(lo[d], p.centre[i][d] - p.radius[i]);
          hi[d] = std::max(hi[d], p.centre[i][d] + p.radius[i]);
        }
        if (!(hi[d] > lo[d])) lo[d] -= 0.5, hi[d] += 0.5;
      }
    for (int d = 0; d < 3; ++d)
      out << fmt::format("{} {} {}lo {}hi\n", lo[d], hi[d], "xyz"[d], "xyz"[d]);
    out << "\nAtoms # sphere\n\n";
    for (Index i = 0; i < p.size(); ++i) {
      const double r = p.radius[i];
      const double vol = contact::sphere_volume(r);  // LAMMPS' density, in 2D too (read above)
      out << fmt::format("{} {} {} {} {} {} {} 0 0 0\n", p.atom_id(i), p.type[i], 2.0 * r, p.mass[i] / vol, p.centre[i].x(),
                         p.centre[i].y(), p.centre[i].z());
    }
    out << "\nVelocities\n\n";
    for (Index i = 0; i < p.size(); ++i) {
      if (!velocities) {
        out << fmt::format("{} 0 0 0 0 0 0\n", p.atom_id(i));
        continue;
      }
      const auto& v = (*velocities)[static_cast<std::size_t>(i)];
      out << fmt::format("{} {} {} {} {} {} {}\n", p.atom_id(i), v[0], v[1], v[2], v[3], v[4], v[5]);
    }
  });
}

}  // namespace dtcrit::packing
