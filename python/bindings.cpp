// The Python module dtcrit (pybind11): a thin layer over the library. Each function fills the same
// request the command line fills (analysis/pair_analysis.hpp PairRequest, packing/packing_request.hpp
// PackingRequest, sweep/sweep.hpp SweepOptions), and returns the JSON the command prints with --json
// as Python objects: dtcrit.pair(...) == json.loads(`dtcrit pair ... --json`). No physics here.
// std::invalid_argument (every input error of the library, naming the parameter and the value)
// becomes ValueError with the same message, options named as this module's keywords (python_spelling).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "dtcrit/analysis/pair_analysis.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/suggest.hpp"
#include "dtcrit/io/array_input.hpp"
#include "dtcrit/io/input_file.hpp"
#include "dtcrit/packing/packing_request.hpp"
#include "dtcrit/stepper/particle_system.hpp"
#include "dtcrit/stability/matrix_system.hpp"
#include "dtcrit/sweep/report.hpp"
#include "dtcrit/sweep/sweep.hpp"

namespace py = pybind11;
using namespace py::literals;

namespace dtcrit::python {

namespace {

using OptionalDouble = std::optional<double>;
using Strings = std::vector<std::string>;

// nlohmann::json -> dict / list / float / int / str / bool / None, as json.loads reads its dump.
py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: {  // the CLI's dump writes NaN and inf as null
      const double v = j.get<double>();
      return std::isfinite(v) ? py::object(py::float_(v)) : py::object(py::none());
    }
    case nlohmann::json::value_t::string: return py::str(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& e : j) out.append(to_python(e));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [key, value] : j.items()) out[py::str(key)] = to_python(value);
      return out;
    }
    default: fail("internal: a JSON value of no Python type");
  }
}

// A body given as the CLI's "key=value,..." string or as a dict {"shape": "disc", "r": 5e-4, ...}.
std::string body_spec(const py::object& body, const char* name) {
  if (py::isinstance<py::str>(body)) return body.cast<std::string>();
  if (!py::isinstance<py::dict>(body))
    fail(fmt::format("{} must be a dict such as {{'shape': 'disc', 'r': 5e-4, 'm': 0.003}} or a string "
                     "'shape=disc,r=5e-4,m=0.003'",
                     name));
  std::string spec;
  for (const auto& [key, value] : body.cast<py::dict>()) {
    const std::string k = py::str(key).cast<std::string>();
    // Numbers are numbers: a string such as "5e-4" is refused as a number would be in pair(kn="1e5").
    const bool text_key = k == "shape" || k == "vertices";
    if (!text_key && (py::isinstance<py::str>(value) || py::isinstance<py::bool_>(value)))
      fail(fmt::format("{}['{}'] = {} is not a number (give it as a float, not a {})", name, k,
                       py::repr(value).cast<std::string>(), py::isinstance<py::str>(value) ? "string" : "bool"));
    spec += fmt::format("{}{}={}", spec.empty() ? "" : ",", k,
                        py::str(py::isinstance<py::float_>(value) ? py::repr(value) : py::str(value)).cast<std::string>());
  }
  return spec;
}

// "x,y" or ["x", "y"] or None (the source's default).
std::string periodic_spec(const py::object& periodic) {
  if (periodic.is_none()) return "";
  if (py::isinstance<py::str>(periodic)) return periodic.cast<std::string>();
  std::string out;
  for (const auto& axis : periodic) {
    if (!out.empty()) out += ',';
    out += py::str(axis).cast<std::string>();  // appended, not "," + text: GCC 12 warns (-Wrestrict) when inlined
  }
  return out.empty() ? "none" : out;
}

// One attribute of tocoo()'s result as a contiguous 1-D array of T; indices must be integers
// (a float index would be truncated by the cast).
template <class T>
py::array_t<T, py::array::c_style | py::array::forcecast> coo_array(const py::object& coo, const char* attr,
                                                                    const char* name, bool integers) {
  const py::object raw = coo.attr(attr);
  const auto any = py::array::ensure(raw);
  if (!any || any.ndim() != 1)
    fail(fmt::format("{}: tocoo().{} must be a one-dimensional array", name, attr));
  if (integers && any.dtype().kind() != 'i' && any.dtype().kind() != 'u')
    fail(fmt::format("{}: tocoo().{} holds {} values; expected integer indices", name, attr,
                     py::str(any.dtype()).cast<std::string>()));
  const auto arr = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(raw);
  if (!arr) fail(fmt::format("{}: tocoo().{} cannot be read as numbers", name, attr));
  return arr;
}

// A dense (n x n) numpy array or a scipy.sparse matrix (anything with tocoo()). The triplets are
// checked against the shape by the library (io/array_input.hpp), also under fuzzing.
SparseMatrix to_sparse(const py::object& A, const char* name) {
  if (py::hasattr(A, "tocoo")) {
    const py::object coo = A.attr("tocoo")();
    const py::tuple shape = py::tuple(coo.attr("shape"));
    if (shape.size() != 2) fail(fmt::format("{}: tocoo().shape has {} entries; expected (rows, columns)", name, shape.size()));
    const auto rows = coo_array<std::int64_t>(coo, "row", name, true);
    const auto cols = coo_array<std::int64_t>(coo, "col", name, true);
    const auto data = coo_array<double>(coo, "data", name, false);
    auto span = [](const auto& a) { return std::span(a.data(), static_cast<std::size_t>(a.size())); };
    return sparse_from_triplets(name, shape[0].cast<std::int64_t>(), shape[1].cast<std::int64_t>(), span(rows),
                                span(cols), span(data));
  }
  const auto a = py::array_t<double, py::array::forcecast>::ensure(A);
  if (!a) fail(fmt::format("{} must be a numpy array or a scipy.sparse matrix", name));
  if (a.ndim() != 2) fail(fmt::format("{} has {} dimensions: expected a square matrix", name, a.ndim()));
  Matrix dense(a.shape(0), a.shape(1));
  for (Index i = 0; i < dense.rows(); ++i)
    for (Index j = 0; j < dense.cols(); ++j) dense(i, j) = a.at(i, j);
  return dense.sparseView(1.0, 0.0);  // keeps every non-zero entry
}

// M as a matrix, or as a vector: its diagonal (a lumped mass).
Matrix to_mass(const py::object& M) {
  if (!py::hasattr(M, "tocoo")) {
    const auto a = py::array_t<double, py::array::forcecast>::ensure(M);
    if (a && a.ndim() == 1) {
      Vector d(a.shape(0));
      for (Index i = 0; i < d.size(); ++i) d[i] = a.at(i);
      return d.asDiagonal();
    }
  }
  return Matrix(to_sparse(M, "M"));
}

py::dict critical_step(const std::string& integrator, const py::object& M, const py::object& K, const py::object& C) {
  const Matrix mass = to_mass(M);
  const SparseMatrix stiffness = to_sparse(K, "K");
  const SparseMatrix damping = C.is_none() ? SparseMatrix(mass.rows(), mass.rows()) : to_sparse(C, "C");
  const auto r = matrix_critical_step(integrator, matrix_system(mass, stiffness, damping));
  const bool conditional = r.step.stability == Stability::conditional;
  return py::dict("integrator"_a = integrator, "stability"_a = std::string(stability_keyword(r.step.stability)),
                  "h_crit"_a = conditional ? py::object(py::float_(r.step.h_crit)) : py::object(py::none()),
                  "h_crit_unit"_a = "s", "omega_max"_a = r.omega_max, "omega_max_unit"_a = "rad/s",
                  "omega_max_from"_a = r.from_damping ? "C (K = 0): largest |eigenvalue| of M^-1 C"
                                                      : "K: sqrt of the largest |eigenvalue| of M^-1 K",
                  "free_modes"_a = r.step.free_modes, "method"_a = r.step.method,
                  "checked_omega_min"_a = checked_omega_min, "checked_omega_max"_a = checked_omega_max);
}

py::list integrators() {
  py::list out;
  for (const auto& row : integrator_registry()) {
    py::list parameters;
    for (const auto& p : row.parameters)
      parameters.append(py::dict("name"_a = p.name, "default"_a = p.default_value, "min"_a = p.min, "max"_a = p.max,
                                 "meaning"_a = p.meaning));
    out.append(py::dict("name"_a = row.name, "description"_a = row.description, "parameters"_a = parameters,
                        "order"_a = row.order, "order_damped"_a = row.order_damped, "explicit"_a = row.is_explicit));
  }
  return out;
}

py::object pair(const py::object& body1, const py::object& body2, OptionalDouble kn, OptionalDouble kt,
                OptionalDouble kt_ratio, OptionalDouble cn, OptionalDouble ct, OptionalDouble ct_ratio,
                OptionalDouble gamma_n, OptionalDouble gamma_t, OptionalDouble restitution, const std::string& law,
                const std::string& hertz_mindlin, OptionalDouble overlap, OptionalDouble normal_force,
                OptionalDouble r_eff, OptionalDouble impact_velocity, OptionalDouble youngs, OptionalDouble poisson,
                OptionalDouble density, OptionalDouble radius, const Strings& integrators, double margin,
                const std::string& accuracy, OptionalDouble impact_angle) {
  PairRequest r;
  r.input.body1 = body_spec(body1, "body1");
  r.input.body2 = body_spec(body2, "body2");
  r.input.lammps_pair = law;
  r.input.hertz_mindlin = hertz_mindlin;
  if (!law.empty() && !hertz_mindlin.empty()) fail("give one of law (LAMMPS' syntax) and hertz_mindlin");
  if (!hertz_mindlin.empty() && kn) fail("hertz_mindlin gives the whole law: drop kn");
  auto put = [&](const char* key, const OptionalDouble& v) {
    if (v) r.input.law[key] = *v;
  };
  put("kn", kn), put("kt", kt), put("kt_ratio", kt_ratio), put("cn", cn), put("ct", ct), put("ct_ratio", ct_ratio);
  put("gamma_n", gamma_n), put("gamma_t", gamma_t), put("restitution", restitution);
  put("overlap", overlap), put("normal_force", normal_force), put("r_eff", r_eff);
  r.youngs = youngs, r.poisson = poisson, r.density = density, r.radius = radius, r.impact_velocity = impact_velocity;
  r.integrators = integrators;
  r.margin = margin;
  r.accuracy = accuracy;
  r.impact_angle = impact_angle;
  return to_python(to_json(answer_pair(r)));
}

// The keywords of the packing functions, each one option of `dtcrit packing` mapped onto the same
// request (the CLI's option name recorded in `given`, so that the request rejects what its source
// would not read, with the CLI's message). One table for every source.
template <class T>
T keyword_value(const py::handle& value, const char* name, const char* expected) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(fmt::format("{} = {}: expected {}", name, py::repr(value).cast<std::string>(), expected));
  }
}

struct PackingKeyword {
  const char* name;
  const char* option;  // the CLI's option of the same meaning
  void (*set)(packing::PackingRequest&, const py::handle&);
};

#define DTCRIT_NUMBER(field) [](packing::PackingRequest& r, const py::handle& v) { r.field = keyword_value<double>(v, #field, "a number"); }
#define DTCRIT_INDEX(field) [](packing::PackingRequest& r, const py::handle& v) { r.field = keyword_value<Index>(v, #field, "an integer"); }
#define DTCRIT_TEXT(field, name) [](packing::PackingRequest& r, const py::handle& v) { r.field = keyword_value<std::string>(v, name, "a string"); }
#define DTCRIT_TEXTS(field, name) [](packing::PackingRequest& r, const py::handle& v) { r.field = keyword_value<Strings>(v, name, "a list of strings"); }
#define DTCRIT_FLAG(field) [](packing::PackingRequest& r, const py::handle& v) { r.field = keyword_value<bool>(v, #field, "True or False"); }

// Shared by every source: the law, walls and the analysis.
const std::vector<PackingKeyword> common_keywords{
    {"kn", "--kn", DTCRIT_NUMBER(kn)},
    {"kt", "--kt", DTCRIT_NUMBER(kt)},
    {"kt_ratio", "--kt-ratio", DTCRIT_NUMBER(kt_ratio)},
    {"gamma_n", "--gamma-n", DTCRIT_NUMBER(gamma_n)},
    {"gamma_t", "--gamma-t", DTCRIT_NUMBER(gamma_t)},
    {"law", "--lammps-pair", DTCRIT_TEXT(lammps_pair, "law")},
    {"hertz_mindlin", "--hertz-mindlin", DTCRIT_TEXT(hertz_mindlin, "hertz_mindlin")},
    {"type_laws", "--type-law", DTCRIT_TEXTS(type_laws, "type_laws")},
    {"walls", "--wall", DTCRIT_TEXTS(walls, "walls")},
    {"periodic", "--periodic", [](packing::PackingRequest& r, const py::handle& v) {
       r.periodic = periodic_spec(py::reinterpret_borrow<py::object>(v));
     }},
    {"gap_tolerance", "--gap-tolerance", DTCRIT_NUMBER(gap_tolerance)},
    {"rotation", "--no-rotation", [](packing::PackingRequest& r, const py::handle& v) {
       r.no_rotation = !keyword_value<bool>(v, "rotation", "True or False");
     }},
    {"geometric_stiffness", "--geometric-stiffness", DTCRIT_FLAG(geometric_stiffness)},
    {"integrators", "--integrator", DTCRIT_TEXTS(integrators, "integrators")},
    {"margin", "--margin", DTCRIT_NUMBER(margin)},
    {"youngs", "--youngs", DTCRIT_NUMBER(youngs)},
    {"poisson", "--poisson", DTCRIT_NUMBER(poisson)},
    {"eigensolver", "--eigensolver", DTCRIT_TEXT(eigensolver, "eigensolver")},
    {"rtol", "--rtol", DTCRIT_NUMBER(rtol)},
    {"lanczos_tol", "--lanczos-tol", DTCRIT_NUMBER(lanczos_tol)},
    {"ncv", "--ncv", DTCRIT_INDEX(ncv)},
    {"amplification_dofs", "--amplification-dofs", DTCRIT_INDEX(amplification_dofs)},
    {"crossing_check_dofs", "--crossing-check-dofs", DTCRIT_INDEX(crossing_check_dofs)},
    {"scan_dofs", "--scan-dofs", DTCRIT_INDEX(scan_dofs)},
    {"certify_dofs", "--certify-dofs", DTCRIT_INDEX(certify_dofs)},
    {"confirm", "--confirm", [](packing::PackingRequest& r, const py::handle& v) {
       r.confirm_steps = keyword_value<int>(v, "confirm", "a number of steps");
     }},
};
// Of one source each.
const std::vector<PackingKeyword> lattice_keywords{
    {"radius", "--radius", DTCRIT_NUMBER(radius)},
    {"density", "--density", DTCRIT_NUMBER(density)},
    {"compression", "--compression", DTCRIT_NUMBER(compression)},
    {"radius_spread", "--radius-spread", DTCRIT_NUMBER(radius_spread)},
    {"seed", "--seed", [](packing::PackingRequest& r, const py::handle& v) {
       r.seed = keyword_value<unsigned>(v, "seed", "a non-negative integer");
     }},
    {"disc", "--disc", DTCRIT_FLAG(disc)},
    {"box_walls", "--box-walls", DTCRIT_FLAG(box_walls)},
};
const std::vector<PackingKeyword> lammps_keywords{
    {"contacts", "--lammps-contacts", DTCRIT_TEXTS(lammps_contacts, "contacts")},
    {"dimension", "--dimension", [](packing::PackingRequest& r, const py::handle& v) {
       r.dimension = keyword_value<int>(v, "dimension", "2 or 3");
     }},
    {"disc", "--disc", DTCRIT_FLAG(disc)},
    {"density", "--density", DTCRIT_NUMBER(density)},
    {"run", "--lammps-run", [](packing::PackingRequest& r, const py::handle& v) {
       r.lammps_run = keyword_value<int>(v, "run", "a run number (1-based)");
     }},
    {"clumps", "--clumps", DTCRIT_TEXT(clumps, "clumps")},
    {"run_in_lammps", "--run-in-lammps", DTCRIT_FLAG(run_in_lammps)},
};

#undef DTCRIT_NUMBER
#undef DTCRIT_INDEX
#undef DTCRIT_TEXT
#undef DTCRIT_TEXTS
#undef DTCRIT_FLAG

// Applies the keywords (None: not given, the CLI's default) of `function`, which reads the common
// ones and `own`; any other name is a TypeError with a suggestion.
void apply_keywords(packing::PackingRequest& r, const py::kwargs& keywords, const char* function,
                    const std::vector<PackingKeyword>& own = {}) {
  std::vector<std::string> names;
  for (const auto* table : {&common_keywords, &own})
    for (const auto& k : *table) names.emplace_back(k.name);
  for (const auto& [key, value] : keywords) {
    const std::string name = py::str(key).cast<std::string>();
    const PackingKeyword* found = nullptr;
    for (const auto* table : {&common_keywords, &own})
      for (const auto& k : *table)
        if (name == k.name) found = &k;
    if (!found)
      throw py::type_error(fmt::format("{}() got an unexpected keyword argument '{}'{}", function, name,
                                       did_you_mean(name, names)));
    // None, "" and an empty list of laws, walls or dumps: not given (the defaults of the signatures).
    const std::string_view option = found->option;
    const bool empty_list = (option == "--type-law" || option == "--wall" || option == "--lammps-contacts") &&
                            py::isinstance<py::sequence>(value) && py::len(value) == 0;
    if (value.is_none() || empty_list || (py::isinstance<py::str>(value) && py::len(value) == 0)) continue;
    found->set(r, value);
    r.given.insert(found->option);
  }
  if (!r.lammps_pair.empty() && !r.hertz_mindlin.empty()) fail("give one of law (LAMMPS' syntax) and hertz_mindlin");
  if (!r.hertz_mindlin.empty() && r.kn)
    fail("--hertz-mindlin gives the whole law: drop --kn, --kt, --gamma-n and --gamma-t");
}

py::object answer(const packing::PackingRequest& r) { return to_python(to_json(packing::answer_packing(r))); }

// (n, d) array of positions -> centres (z = 0 in 2D).
std::pair<int, std::vector<packing::Vec3>> positions_of(const py::array_t<double, py::array::forcecast>& x) {
  if (x.ndim() != 2 || (x.shape(1) != 2 && x.shape(1) != 3))
    fail(fmt::format("positions must be an (N, 2) or (N, 3) array; got shape ({})",
                     fmt::join(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()), ", ")));
  std::vector<packing::Vec3> c;
  for (py::ssize_t i = 0; i < x.shape(0); ++i)
    c.emplace_back(x.at(i, 0), x.at(i, 1), x.shape(1) == 3 ? x.at(i, 2) : 0.0);
  return {static_cast<int>(x.shape(1)), c};
}

template <class T>
std::vector<T> vector_of(const py::object& a, const char* name) {
  if (a.is_none()) return {};
  // c_style: data() is read as size() contiguous values (a strided view is copied first).
  const auto arr = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!arr || arr.ndim() != 1) fail(fmt::format("{} must be a one-dimensional array, one entry per particle", name));
  return std::vector<T>(arr.data(), arr.data() + arr.size());
}

py::object packing_from_arrays(const py::array_t<double, py::array::forcecast>& positions, const py::object& radii,
                               const py::object& masses, const py::object& inertia, const py::object& types,
                               const py::object& box, bool disc, const py::kwargs& keywords) {
  packing::ParticleArrays a;
  std::tie(a.dim, a.centre) = positions_of(positions);
  a.radius = vector_of<double>(radii, "radii");
  a.mass = vector_of<double>(masses, "masses");
  a.inertia = vector_of<double>(inertia, "inertia");
  a.type = int_values("types", vector_of<double>(types, "types"));  // 1.7 or 2**33 + 1 is no type
  a.body_model = disc ? packing::BodyModel::disc : packing::BodyModel::sphere;
  if (!box.is_none()) {
    const auto b = py::array_t<double, py::array::forcecast>::ensure(box);
    if (!b || b.ndim() != 2 || b.shape(0) != 2 || b.shape(1) != a.dim)
      fail(fmt::format("box must be [lo, hi], two points of {} coordinates", a.dim));
    a.box = std::array<packing::Vec3, 2>{};
    for (int s = 0; s < 2; ++s)
      (*a.box)[s] = packing::Vec3(b.at(s, 0), b.at(s, 1), a.dim == 3 ? b.at(s, 2) : 0.0);
  }
  packing::PackingRequest r;
  r.packing = packing::make_packing(std::move(a));
  apply_keywords(r, keywords, "packing");
  if (!r.periodic.empty() && r.periodic != "none" && box.is_none())
    fail(fmt::format("periodic = '{}' needs the box ([lo, hi]) the particles repeat in", r.periodic));
  return answer(r);
}

// The kind of LAMMPS file at `path`: "dump" (its first word is ITEM:...), "input" (a line starts
// with read_data or create_box) or "data". Read through the library's input check, as every input
// is: a folder, /dev/zero or a FIFO is named, not read until memory runs out.
std::string lammps_format(const std::string& path) {
  std::istringstream in(read_input_file(path, "LAMMPS file"));
  bool first = true;
  for (std::string line; std::getline(in, line);) {
    const auto words = split_words(line);
    if (words.empty() || words[0][0] == '#') continue;
    if (first && words[0].rfind("ITEM:", 0) == 0) return "dump";
    first = false;
    if (words[0] == "read_data" || words[0] == "create_box") return "input";
  }
  return "data";
}

py::object packing_from_lammps(const std::string& path, const std::string& format, const py::kwargs& keywords) {
  packing::PackingRequest r;
  if (format == "input") r.lammps_input = path;
  else if (format == "data") r.data_file = path;
  else if (format == "dump") r.dump_file = path;
  else if (format == "restart") r.lammps_restart = path;
  else fail(fmt::format("format = '{}': expected 'input', 'data', 'dump' or 'restart'", format));
  apply_keywords(r, keywords, "packing_from_lammps", lammps_keywords);
  return answer(r);
}

py::object packing_from_lattice(const std::string& kind, Index n, const py::kwargs& keywords) {
  packing::PackingRequest r;
  r.lattice = kind;
  r.n = n;
  apply_keywords(r, keywords, "packing_from_lattice", lattice_keywords);
  return answer(r);
}

py::object packing_from_network(const std::string& path, const py::kwargs& keywords) {
  packing::PackingRequest r;
  r.bodies = path;
  apply_keywords(r, keywords, "packing_from_network");
  return answer(r);
}

py::object sweep(const std::string& case_name, const Strings& integrators, const std::string& tangential, bool quick,
                 int levels, int phases, double h0, const std::string& reference, int reference_refinement,
                 std::optional<bool> stability, long stability_steps, double growth, bool accuracy,
                 const std::string& accuracy_quantity, double tolerance, const py::kwargs& params) {
  std::string spec;  // the case parameters, as --set key=value,...
  for (const auto& [key, value] : params) {
    const std::string name = py::str(key).cast<std::string>();
    if (!py::isinstance<py::int_>(value) && !py::isinstance<py::float_>(value))
      fail(fmt::format("case parameter {} = {} must be a number", name, py::repr(value).cast<std::string>()));
    spec += fmt::format("{}{}={}", spec.empty() ? "" : ",", name, py::str(value).cast<std::string>());
  }
  if (case_name.empty()) fail(fmt::format("--case is required; valid cases: {}", fmt::join(sweep::case_names(), ", ")));
  sweep::CaseOptions co{KeyValues(spec, "--set"), tangential, quick};
  stepper::parse_tangential_history(tangential);  // validates the word
  const auto c = sweep::make_case(case_name, co);
  sweep::SweepOptions so;
  so.integrators = expand_integrator_specs(integrators);
  so.levels = levels;
  so.phases = phases;
  so.h0 = h0;
  so.reference = reference;
  so.reference_refinement = reference_refinement;
  so.stability = !stability ? -1 : *stability ? 1 : 0;
  so.stability_steps = stability_steps;
  so.growth = growth;
  so.accuracy = accuracy;
  so.accuracy_quantity = accuracy_quantity;
  so.tolerance = tolerance;
  sweep::SweepResult result;
  {
    py::gil_scoped_release release;  // minutes on the larger cases
    result = sweep::run_sweep(*c, tangential, so);
  }
  return to_python(sweep::to_json(result));
}

py::list sweep_cases() {
  py::list out;
  for (const auto& name : sweep::case_names()) {
    py::dict parameters;
    const auto c = sweep::make_case(name, sweep::CaseOptions{});
    for (const auto& p : c->parameters())
      parameters[py::str(p.name)] = py::dict("default"_a = p.value, "meaning"_a = p.meaning);
    out.append(py::dict("name"_a = name, "summary"_a = sweep::case_summary(name), "parameters"_a = parameters));
  }
  return out;
}

// The library's errors name options as the command line spells them (--kn, --lammps-pair); a Python
// caller gave keywords, so each option this module takes is named as its keyword (kn=, law=).
std::string python_spelling(const std::string& message) {
  // The packing functions' keywords by their options (the keyword tables); the pair's keywords and the
  // arrays are spelt as their options.
  static const std::map<std::string, std::string> renamed = [] {
    std::map<std::string, std::string> m{{"no-rotation", "rotation=False"}};
    for (const auto* table : {&common_keywords, &lattice_keywords, &lammps_keywords})
      for (const auto& k : *table) {
        std::string option = std::string(k.option).substr(2);
        if (option != "no-rotation") m.emplace(option, k.name);
      }
    return m;
  }();
  static const std::set<std::string> keywords = [] {
    std::set<std::string> k{"cn", "ct", "ct_ratio", "restitution", "overlap", "normal_force", "r_eff", "impact_velocity",
                            "radius", "accuracy", "body1", "body2", "types", "inertia", "box", "rotation=False"};
    for (const auto& [option, name] : renamed) k.insert(name);
    return k;
  }();
  auto word = [](char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; };
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    const bool starts = message.compare(i, 2, "--") == 0 && i + 2 < message.size() &&
                        std::islower(static_cast<unsigned char>(message[i + 2])) &&
                        (i == 0 || !word(message[i - 1]));
    if (starts) {
      std::size_t j = i + 2;
      while (j < message.size() && word(message[j])) ++j;
      while (j > i + 2 && message[j - 1] == '-') --j;
      const std::string option = message.substr(i + 2, j - i - 2);
      const auto r = renamed.find(option);
      std::string key = r != renamed.end() ? r->second : option;
      std::replace(key.begin(), key.end(), '-', '_');
      if (keywords.count(key)) {
        // "--kt = 3" reads "kt = 3"; "--kt (tangential ...)" reads "kt= (tangential ...)".
        const bool assigned = key.find('=') != std::string::npos || message.compare(j, 2, " =") == 0;
        out += assigned ? key : key + "=";
        i = j;
        continue;
      }
    }
    out += message[i++];
  }
  return out;
}

}  // namespace

}  // namespace dtcrit::python

PYBIND11_MODULE(_dtcrit, m) {
  using namespace dtcrit::python;
  using dtcrit::Index;
  m.doc() = "dtcrit: critical time-steps and integrator stability for DEM simulations (SI units).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, python_spelling(e.what()).c_str());
    }
  });

  m.def("lammps_format", &lammps_format, py::arg("path"),
        "The kind of LAMMPS file at path: \"dump\" (starts with ITEM:), \"input\" (has a read_data command line) "
        "or \"data\" (anything else: a write_data file). The path is checked as every input is (a regular file).");
  m.def("integrators", &integrators,
        "The integrator registry: one dict per scheme (name, description, parameters with default, min, max and "
        "meaning, order, order_damped, explicit), as `dtcrit integrators`.");

  m.def("critical_step", &critical_step, py::arg("integrator"), py::arg("M"), py::arg("K"), py::arg("C") = py::none(),
        R"(The exact critical step of one integrator on the linear system M a + C v + K x = 0.

integrator: a registry spec ("velocity_verlet", "gs4_u0:rho=0.5", ...; dtcrit.integrators()).
M: mass matrix [kg], symmetric positive definite: a vector (its diagonal), a dense numpy array or a
   scipy.sparse matrix. A non-diagonal M is taken to unit mass by its Cholesky factor (every
   registry scheme is equivariant under that change of coordinates).
K: stiffness [N/m], C: damping [N s/m] (None: undamped); dense or scipy.sparse, the size of M.
Returns a dict: stability ("conditional", "unconditional": stable up to Omega = h omega_max =
checked_omega_max, "unstable": already at checked_omega_min), h_crit [s] (None unless
conditional), omega_max [rad/s] (the scan's scale), free_modes (zero-frequency undamped modes set
aside), method. The limit comes from the integrator's own amplification matrix (dense: meant for
systems up to a few hundred dofs).)");

  m.def("pair", &pair, py::arg("body1"), py::arg("body2"), py::kw_only(), py::arg("kn") = py::none(),
        py::arg("kt") = py::none(), py::arg("kt_ratio") = py::none(), py::arg("cn") = py::none(),
        py::arg("ct") = py::none(), py::arg("ct_ratio") = py::none(), py::arg("gamma_n") = py::none(),
        py::arg("gamma_t") = py::none(), py::arg("restitution") = py::none(), py::arg("law") = "",
        py::arg("hertz_mindlin") = "", py::arg("overlap") = py::none(), py::arg("normal_force") = py::none(),
        py::arg("r_eff") = py::none(), py::arg("impact_velocity") = py::none(), py::arg("youngs") = py::none(),
        py::arg("poisson") = py::none(), py::arg("density") = py::none(), py::arg("radius") = py::none(),
        py::arg("integrators") = Strings{"all"}, py::arg("margin") = dtcrit::default_step_margin,
        py::arg("accuracy") = "", py::arg("impact_angle") = py::none(),
        R"(Critical time-steps of one contact: the content of `dtcrit pair --json`.

body1, body2: dicts {"shape": "disc", "r": 5e-4, "m": 0.003} or the CLI's strings
  "shape=disc,r=5e-4,m=0.003" (shapes disc, sphere, rect, ellipse, polygon, custom).
kn, kt [N/m] (or kt_ratio = kt/kn); damping cn, ct [N s/m], gamma_n, gamma_t [1/s] (c = m_eff gamma)
  or restitution (normal e); without ct, ct_ratio or gamma_t: ct = cn / 2 (LAMMPS).
law: the contact law in LAMMPS' syntax instead ("gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1"),
  linearised at overlap [m], normal_force [N] or impact_velocity [m/s]; r_eff [m].
hertz_mindlin: "E=5e10,nu=0.22,e=0.5,mu=0.5" (EDEM, LIGGGHTS), linearised the same way.
youngs [Pa], poisson, density [kg/m^3], radius [m]: the material heuristics (all four).
integrators: registry specs, ["all"] or ["none"]; margin: recommended step = margin x the limit;
accuracy: e.g. "restitution=1%", or "spin=1%" (tangential_restitution, rebound_angle) with impact_angle
  [deg]: body 1 striking body 2 that far from the normal, at impact_velocity along it.)");

  m.def("packing", &packing_from_arrays, py::arg("positions"), py::arg("radii"), py::arg("masses"), py::kw_only(),
        py::arg("inertia") = py::none(), py::arg("types") = py::none(), py::arg("box") = py::none(),
        py::arg("disc") = false,
      R"(Critical time-steps of a packing given particle by particle: the content of `dtcrit packing --json`.

positions: (N, 3) spheres or (N, 2) discs [m]; radii [m], masses [kg]: N each.
inertia [kg m^2]: default 2/5 m r^2 (sphere; disc=True in 2D: 1/2 m r^2); types: LAMMPS atom types (default 1).
box: [lo, hi] (needed with periodic; default the particles' bounding box).
The law: kn, kt [N/m] (or kt_ratio = kt / kn), gamma_n, gamma_t [1/s] (gran/hooke/history; gamma_t default gamma_n / 2), or
law = LAMMPS' pair_style arguments ("gran/hertz/history 1e8 NULL 3e4 NULL 0.5 1", linearised at each
contact's overlap), or hertz_mindlin = "E=...,nu=...,e=...,mu=..."; type_laws: ["types=1-2,kn=..."].
periodic: "x,y" or ["x", "y"]; walls: ["z=0", "z=0,kn=1e6,kt=5e5"]; gap_tolerance (default 0);
rotation: rotational dofs; integrators: registry specs, ["all"] or ["none"]; margin: recommended step
= margin x the limit; youngs [Pa], poisson: Rayleigh / P-wave times; eigensolver: auto, dense,
lanczos, spectra; rtol, lanczos_tol, ncv, amplification_dofs, crossing_check_dofs, scan_dofs, certify_dofs: as the CLI's
options; confirm: steps of the reference stepper at 0.99 and 1.01 of every limit (--confirm).)");

  m.def("packing_from_lammps", &packing_from_lammps, py::arg("path"), py::kw_only(), py::arg("format"),
        "The packing of a LAMMPS file (format 'input': an input script, as --lammps-input; 'data': as "
        "--lammps-data; 'dump': as --lammps-dump; 'restart': a binary restart, as --lammps-restart), with the "
        "keywords of packing() and contacts, dimension, disc, density, run, clumps, run_in_lammps (as "
        "--run-in-lammps). dtcrit.packing_from_lammps chooses the format from the file when not given.");
  m.def("packing_from_lattice", &packing_from_lattice, py::arg("kind"), py::arg("n"),
        "The packing of a lattice (as --lattice KIND --n N): the keywords of packing() and radius [m], density "
        "[kg/m^3], compression, radius_spread, seed, disc, box_walls.");
  m.def("packing_from_network", &packing_from_network, py::arg("path"),
        "A contact network of rigid bodies of any shape (as --bodies PATH: FILE.json or a CSV pair): the analysis "
        "keywords of packing() (integrators, margin, rotation, eigensolver, rtol, lanczos_tol, ncv, amplification_dofs, "
        "crossing_check_dofs, scan_dofs, certify_dofs, confirm).");

  m.def("sweep", &sweep, py::arg("case"), py::arg("integrators") = Strings{"all"}, py::kw_only(),
        py::arg("tangential") = "traditional", py::arg("quick") = false, py::arg("levels") = 0, py::arg("phases") = 0,
        py::arg("h0") = 0.0, py::arg("reference") = "", py::arg("reference_refinement") = -1,
        py::arg("stability") = py::none(), py::arg("stability_steps") = 20000L, py::arg("growth") = 1e4,
        py::arg("accuracy") = true, py::arg("accuracy_quantity") = "", py::arg("tolerance") = 0.01,
        R"(Convergence orders, stability limits and the accuracy-limited step of integrators on a named DEM
case: the content of `dtcrit sweep --json`. Further keywords are the case's parameters (--set), e.g.
dtcrit.sweep("head-on", ["velocity_verlet"], quick=True, restitution=0.5); dtcrit.sweep_cases()
lists them. stability: None (the case's default), True or False.)");

  m.def("sweep_cases", &sweep_cases, "The sweep cases: name, summary and parameters (default, meaning).");
}
