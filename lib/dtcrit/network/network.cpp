#include "dtcrit/network/network.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <vector>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include "dtcrit/contact/hertz_mindlin.hpp"
#include "dtcrit/contact/lammps_syntax.hpp"
#include "dtcrit/core/check.hpp"
#include "dtcrit/core/key_values.hpp"
#include "dtcrit/core/numbers.hpp"
#include "dtcrit/io/input_file.hpp"
#include "dtcrit/io/json_text.hpp"

namespace dtcrit::network {

using nlohmann::json;
using Eigen::Index;

std::int32_t ContactNetwork::free_bodies() const {
  return static_cast<std::int32_t>(std::count_if(bodies.begin(), bodies.end(), [](const Body& b) { return !b.fixed; }));
}

contact::ContactLaw parse_law(const std::string& text, const std::string& where) {
  const std::string prefix = "hertz_mindlin";
  if (text.rfind(prefix, 0) == 0 && (text.size() == prefix.size() || text[prefix.size()] == ' ')) {
    // "hertz_mindlin E=.. nu=.. e=.. mu=..": the words of --hertz-mindlin, separated by spaces
    // (a CSV cell cannot hold its commas).
    std::string spec;
    for (const auto& w : split_words(text.substr(prefix.size()))) spec += (spec.empty() ? "" : ",") + w;
    return contact::parse_hertz_mindlin(spec, where);
  }
  return contact::parse_lammps_pair(text, where);
}

namespace {

// Names one entry of the file in messages: "FILE: body 3 (id 17)".
struct Entry {
  std::string file, kind;
  std::size_t index;
  std::string id;
  std::string name() const {
    return fmt::format("{}: {} {}{}", file, kind, index, id.empty() ? "" : fmt::format(" (id {})", excerpt(id)));
  }
  // Field names and ids come from the file: cut to a readable length, as values are (shown()).
  [[noreturn]] void error(const std::string& field, const std::string& what) const {
    fail(fmt::format("{}: field '{}': {}", name(), excerpt(field), excerpt(what, 500)));
  }
};

// A value as the file gave it, for messages (a CSV cell may hold bytes that are not UTF-8).
// Cut to a readable length (a value may be a whole array of the file). dump() recurses: a value
// given by the API (not read by parse_json_input) may be nested deep enough to overflow the stack.
std::string shown(const json& v) {
  std::vector<std::pair<const json*, int>> todo{{&v, 1}};
  while (!todo.empty()) {
    const auto [x, depth] = todo.back();
    todo.pop_back();
    if (depth > max_json_depth) return fmt::format("a value nested more than {} levels deep", max_json_depth);
    if (x->is_structured())
      for (const auto& child : *x) todo.emplace_back(&child, depth + 1);
  }
  return excerpt(json_text(v, -1));
}

std::string id_text(const json& v, const Entry& e, const std::string& field) {
  if (v.is_number_integer()) return v.dump();  // every digit: get<long long>() would wrap a uint64
  if (v.is_string() && !v.get<std::string>().empty()) return v.get<std::string>();
  e.error(field, fmt::format("{} is not an id (an integer or a non-empty string)", shown(v)));
}

const json& required(const json& obj, const std::string& field, const Entry& e) {
  const auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) e.error(field, "missing");
  return *it;
}

double number(const json& v, const Entry& e, const std::string& field) {
  if (!v.is_number()) e.error(field, fmt::format("{} is not a number", shown(v)));
  const double x = v.get<double>();
  if (!std::isfinite(x)) e.error(field, fmt::format("{} is not finite", x));
  return x;
}

// A vector of `n` numbers (2D: 2, 3D: 3 for points; 4 for quaternions).
Eigen::VectorXd numbers(const json& v, std::size_t n, const Entry& e, const std::string& field) {
  if (!v.is_array() || v.size() != n)
    e.error(field, fmt::format("{} must be an array of {} numbers", shown(v), n));
  Eigen::VectorXd out(static_cast<Index>(n));
  for (std::size_t k = 0; k < n; ++k) out[static_cast<Index>(k)] = number(v[k], e, field);
  return out;
}

Vec3 point(const json& v, int dim, const Entry& e, const std::string& field) {
  const Eigen::VectorXd x = numbers(v, static_cast<std::size_t>(dim), e, field);
  Vec3 p = Vec3::Zero();
  for (int d = 0; d < dim; ++d) p[d] = x[d];
  return p;
}

void reject_unknown(const json& obj, const std::set<std::string>& known, const Entry& e) {
  for (const auto& [key, value] : obj.items())
    if (!known.count(key)) e.error(key, "unknown field (a typo?)");
}

// A rigid body's principal moments obey I_a + I_b >= I_c (I_a + I_b - I_c = 2 sum m z^2 >= 0):
// (1, 1, 5) is no body. Equality is a flat body (a disc, a plate); the tolerance, 1e-6 of the
// largest, admits moments rounded to six digits.
void check_rigid_moments(const Vec3& m, const Entry& e) {
  const double largest = m.maxCoeff();
  for (int k = 0; k < 3; ++k)
    if (m.sum() - 2.0 * m[k] < -1e-6 * largest)
      e.error("inertia", fmt::format("principal moments {}, {}, {}: no rigid body has them ({} > the sum of the other "
                                     "two)",
                                     m[0], m[1], m[2], m[k]));
}

Body parse_body(const json& b, int dim, const Entry& e) {
  if (!b.is_object()) e.error("", "a body must be an object");
  reject_unknown(b, {"id", "mass", "inertia", "orientation", "centre", "fixed"}, e);
  Body body;
  body.id = id_text(required(b, "id", e), e, "id");
  if (const auto it = b.find("fixed"); it != b.end()) {
    if (!it->is_boolean()) e.error("fixed", fmt::format("{} must be true or false", shown(*it)));
    body.fixed = it->get<bool>();
  }
  if (const auto it = b.find("centre"); it != b.end() || !body.fixed) body.centre = point(required(b, "centre", e), dim, e, "centre");
  if (body.fixed) return body;  // mass and inertia of an immovable body are not read
  body.mass = number(required(b, "mass", e), e, "mass");
  if (!(body.mass > 0.0)) e.error("mass", fmt::format("{} must be positive", body.mass));
  const json& I = required(b, "inertia", e);
  if (dim == 2) {
    if (b.contains("orientation")) e.error("orientation", "2D bodies have a scalar inertia and no orientation");
    body.moments = Vec3(0.0, 0.0, number(I, e, "inertia"));
    if (!(body.moments[2] > 0.0)) e.error("inertia", fmt::format("{} must be positive", body.moments[2]));
    return body;
  }
  if (const auto q = b.find("orientation"); q != b.end()) {
    // Principal moments in the body frame, rotated to the world by the unit quaternion (w, x, y, z).
    const Eigen::VectorXd m = numbers(I, 3, e, "inertia");
    for (int k = 0; k < 3; ++k)
      if (!(m[k] > 0.0))
        e.error("inertia", fmt::format("principal moment {} = {} must be positive (with an orientation, inertia is "
                                       "the three principal moments)",
                                       k + 1, m[k]));
    const Eigen::VectorXd qv = numbers(*q, 4, e, "orientation");
    if (std::abs(qv.norm() - 1.0) > unit_tolerance)
      e.error("orientation", fmt::format("quaternion norm {} is not 1 (tolerance {:g})", qv.norm(), unit_tolerance));
    const Eigen::Quaterniond quat(qv[0], qv[1], qv[2], qv[3]);
    body.moments = m;
    body.axes = quat.normalized().toRotationMatrix();
    check_rigid_moments(body.moments, e);
    return body;
  }
  if (!I.is_array() || I.size() != 3)
    e.error("inertia", fmt::format("{} must be the 3x3 world-frame tensor [[..], [..], [..]] (or the principal moments "
                                   "with an 'orientation')",
                                   shown(I)));
  Mat3 J;
  for (int r = 0; r < 3; ++r) J.row(r) = numbers(I[static_cast<std::size_t>(r)], 3, e, "inertia").transpose();
  const double scale = J.cwiseAbs().maxCoeff();
  if (!((J - J.transpose()).cwiseAbs().maxCoeff() <= symmetry_tolerance * scale))
    e.error("inertia", fmt::format("the tensor is not symmetric (tolerance {:g} of its largest entry)", symmetry_tolerance));
  const Eigen::SelfAdjointEigenSolver<Mat3> es(0.5 * (J + J.transpose()));
  if (!(es.eigenvalues()[0] > 0.0))
    e.error("inertia", fmt::format("the tensor is not positive definite (eigenvalues {}, {}, {})", es.eigenvalues()[0],
                                   es.eigenvalues()[1], es.eigenvalues()[2]));
  body.moments = es.eigenvalues();
  body.axes = es.eigenvectors();
  check_rigid_moments(body.moments, e);
  return body;
}

class LawTable {
 public:
  explicit LawTable(ContactNetwork& net) : net_(net) {}
  std::int32_t index(const std::string& text, const Entry& e) {
    if (const auto it = index_.find(text); it != index_.end()) return it->second;
    contact::ContactLaw law;
    try {
      law = contact::validated(parse_law(text, "law"));
    } catch (const std::invalid_argument& ex) {
      e.error("law", ex.what());
    }
    const auto k = static_cast<std::int32_t>(net_.laws.size());
    net_.laws.push_back(law);
    net_.law_texts.push_back(text);
    index_.emplace(text, k);
    return k;
  }

 private:
  ContactNetwork& net_;
  std::map<std::string, std::int32_t> index_;
};

// Whether the law reads the contact's radius of curvature (Hertz contact radius, rolling, twisting).
bool reads_r_eff(const contact::ContactLaw& law) {
  return contact::overlap_dependent(law) || law.rolling != contact::RollingModel::none ||
         law.twisting != contact::TwistingModel::none;
}

Contact parse_contact(const json& c, int dim, const std::map<std::string, std::int32_t>& ids,
                      const ContactNetwork& net, LawTable& laws, const Entry& e) {
  if (!c.is_object()) e.error("", "a contact must be an object");
  reject_unknown(c, {"bodies", "point", "points", "normal", "law", "overlap", "r_eff", "history"}, e);
  Contact out;
  const json& pair = required(c, "bodies", e);
  if (!pair.is_array() || pair.size() != 2) e.error("bodies", fmt::format("{} must be [i, j], two body ids", shown(pair)));
  std::int32_t k[2];
  for (std::size_t s = 0; s < 2; ++s) {
    const std::string id = id_text(pair[s], e, "bodies");
    const auto it = ids.find(id);
    if (it == ids.end()) e.error("bodies", fmt::format("no body has the id {}", id));
    k[s] = it->second;
  }
  if (k[0] == k[1]) e.error("bodies", "a body cannot touch itself");
  if (net.bodies[static_cast<std::size_t>(k[0])].fixed && net.bodies[static_cast<std::size_t>(k[1])].fixed)
    e.error("bodies", "both bodies are fixed: the contact moves nothing");
  out.i = k[0], out.j = k[1];
  if (c.contains("points")) {
    if (c.contains("point")) e.error("points", "give 'point' (one for both bodies) or 'points' (one per body), not both");
    const json& two = c["points"];
    if (!two.is_array() || two.size() != 2)
      e.error("points", fmt::format("{} must be [point on i, point on j]", shown(two)));
    out.point_i = point(two[0], dim, e, "points");
    out.point_j = point(two[1], dim, e, "points");
  } else {
    out.point_i = out.point_j = point(required(c, "point", e), dim, e, "point");
  }
  out.normal = point(required(c, "normal", e), dim, e, "normal");
  const double len = out.normal.norm();
  if (!(std::abs(len - 1.0) <= unit_tolerance))
    e.error("normal", fmt::format("|n| = {} is not 1 (tolerance {:g})", len, unit_tolerance));
  out.normal /= len;
  const json& law = required(c, "law", e);
  if (!law.is_string()) e.error("law", fmt::format("{} must be a string: LAMMPS pair words or hertz_mindlin ...", shown(law)));
  out.law = laws.index(law.get<std::string>(), e);
  out.overlap = number(required(c, "overlap", e), e, "overlap");
  if (!(out.overlap >= 0.0)) e.error("overlap", fmt::format("{} must be non-negative", out.overlap));
  const contact::ContactLaw& l = net.laws[static_cast<std::size_t>(out.law)];
  if (const auto it = c.find("r_eff"); it != c.end()) {
    out.r_eff = number(*it, e, "r_eff");
    if (!(out.r_eff > 0.0)) e.error("r_eff", fmt::format("{} must be positive", out.r_eff));
  } else if (reads_r_eff(l)) {
    e.error("r_eff", fmt::format("missing: the law '{}' reads the contact's radius of curvature", contact::describe(l)));
  }
  if (const auto it = c.find("history"); it != c.end()) {
    const Entry h{e.file, e.kind, e.index, e.id};
    if (!it->is_object()) e.error("history", "must be an object {\"xi_t\": [..], \"xi_r\": [..], \"xi_tw\": ..}");
    reject_unknown(*it, {"xi_t", "xi_r", "xi_tw"}, h);
    if (const auto x = it->find("xi_t"); x != it->end()) out.history.xi_t = point(*x, dim, e, "history.xi_t");
    if (const auto x = it->find("xi_r"); x != it->end()) out.history.xi_r = point(*x, dim, e, "history.xi_r");
    if (const auto x = it->find("xi_tw"); x != it->end()) {
      if (dim == 2) e.error("history.xi_tw", "2D contacts have no twist");
      out.history.xi_tw = number(*x, e, "history.xi_tw");
    }
    out.has_history = true;
  }
  return out;
}

ContactNetwork build(const json& j, const std::string& bodies_file, const std::string& contacts_file) {
  ContactNetwork net;
  net.source = bodies_file == contacts_file ? bodies_file : bodies_file + " + " + contacts_file;
  const Entry top{bodies_file, "file", 0, ""};
  auto top_error = [&](const std::string& field, const std::string& what) {
    fail(fmt::format("{}: field '{}': {}", bodies_file, excerpt(field), excerpt(what, 500)));
  };
  if (!j.is_object()) fail(fmt::format("{}: the top level must be an object with dimension, bodies, contacts", bodies_file));
  for (const auto& [key, value] : j.items())
    if (key != "dimension" && key != "bodies" && key != "contacts") top_error(key, "unknown field (a typo?)");
  if (!j.contains("dimension")) top_error("dimension", "missing");
  const json& dj = j["dimension"];
  // Compared as the integer the file wrote (get<int>() would narrow 4294967298 to 2).
  if (!dj.is_number_integer() || (dj != 2 && dj != 3)) top_error("dimension", fmt::format("{} must be 2 or 3", shown(dj)));
  net.dimension = dj == 2 ? 2 : 3;
  if (!j.contains("bodies") || !j["bodies"].is_array()) top_error("bodies", "missing, or not an array");
  if (!j.contains("contacts") || !j["contacts"].is_array()) top_error("contacts", "missing, or not an array");
  std::map<std::string, std::int32_t> ids;
  for (std::size_t k = 0; k < j["bodies"].size(); ++k) {
    const json& b = j["bodies"][k];
    Entry e{bodies_file, "body", k, ""};
    if (b.is_object() && b.contains("id") && (b["id"].is_number_integer() || b["id"].is_string()))
      e.id = id_text(b["id"], e, "id");
    Body body = parse_body(b, net.dimension, e);
    if (!ids.emplace(body.id, static_cast<std::int32_t>(k)).second)
      e.error("id", fmt::format("the id {} is also body {}'s", body.id, ids[body.id]));
    net.bodies.push_back(std::move(body));
  }
  if (net.free_bodies() == 0) top_error("bodies", "no body is free to move");
  LawTable laws(net);
  for (std::size_t k = 0; k < j["contacts"].size(); ++k)
    net.contacts.push_back(
        parse_contact(j["contacts"][k], net.dimension, ids, net, laws, Entry{contacts_file, "contact", k, ""}));
  return net;
}

// --- CSV ------------------------------------------------------------------------------------
// One header line of column names, then one row per entry; empty cells are missing fields.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> lines;  // file line of each row
};

Csv read_csv(const std::string& path) {
  std::istringstream in(read_input_file(path, "contact network file"));
  Csv csv;
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string t(trim(line));
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> cells;  // empty cells kept: they are missing fields
    std::size_t start = 0;
    for (std::size_t pos; (pos = t.find(',', start)) != std::string::npos; start = pos + 1)
      cells.emplace_back(trim(t.substr(start, pos - start)));
    cells.emplace_back(trim(t.substr(start)));
    if (csv.header.empty()) {
      csv.header = cells;
      std::set<std::string> seen;
      for (const auto& h : cells)
        if (!seen.insert(h).second) fail(fmt::format("{}:{}: column '{}' appears twice", path, n, excerpt(h)));
      continue;
    }
    if (cells.size() != csv.header.size())
      fail(fmt::format("{}:{}: {} cells, the header has {} columns", path, n, cells.size(), csv.header.size()));
    csv.rows.push_back(std::move(cells));
    csv.lines.push_back(n);
  }
  if (csv.header.empty()) fail(fmt::format("{}: no header line", path));
  return csv;
}

// A cell as JSON: a number when it reads as one, else the text.
json cell(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) return v;
  return text;
}

// An id cell as JSON: an integer when it is all digits and fits in 64 bits, else the text (so a
// body and the contacts that name it agree either way).
json id_cell(const std::string& text) {
  if (text.find_first_not_of("0123456789") == std::string::npos)
    if (const auto v = read_integer<long long>(text)) return *v;
  return text;
}

}  // namespace

ContactNetwork parse_network_json(const json& j, const std::string& file) { return build(j, file, file); }

std::string contacts_csv_path(const std::string& bodies_path) {
  const auto slash = bodies_path.find_last_of('/');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  const auto pos = bodies_path.rfind("bodies");
  if (pos == std::string::npos || pos < name_start) return "";
  return bodies_path.substr(0, pos) + "contacts" + bodies_path.substr(pos + 6);
}

ContactNetwork read_network_csv(const std::string& bodies_path, const std::string& contacts_path) {
  const Csv bodies = read_csv(bodies_path), contacts = read_csv(contacts_path);
  auto has = [](const Csv& c, const std::string& name) {
    return std::find(c.header.begin(), c.header.end(), name) != c.header.end();
  };
  const int dim = has(bodies, "z") ? 3 : 2;
  const std::vector<std::string> axes = dim == 3 ? std::vector<std::string>{"x", "y", "z"} : std::vector<std::string>{"x", "y"};
  for (const auto& col : bodies.header) {
    static const std::set<std::string> known{"id", "mass", "x", "y", "z", "fixed", "inertia", "Ixx", "Iyy", "Izz", "Ixy",
                                             "Ixz", "Iyz", "I1", "I2", "I3", "qw", "qx", "qy", "qz"};
    if (!known.count(col)) fail(fmt::format("{}: unknown column '{}'", bodies_path, excerpt(col)));
  }
  for (const auto& col : contacts.header) {
    static const std::set<std::string> known{
        "i",     "j",     "px",      "py",    "pz",    "pix",   "piy",   "piz",   "pjx",   "pjy",  "pjz",
        "nx",    "ny",    "nz",      "law",   "overlap", "r_eff", "xi_tx", "xi_ty", "xi_tz", "xi_rx", "xi_ry",
        "xi_rz", "xi_tw"};
    if (!known.count(col)) fail(fmt::format("{}: unknown column '{}'", contacts_path, excerpt(col)));
  }
  // Rows as the JSON entries they stand for; a vector with one empty cell is missing (the JSON
  // reader then names the field).
  auto get = [](const Csv& c, std::size_t r, const std::string& name) -> std::string {
    const auto it = std::find(c.header.begin(), c.header.end(), name);
    return it == c.header.end() ? "" : c.rows[r][static_cast<std::size_t>(it - c.header.begin())];
  };
  auto vec = [&](const Csv& c, std::size_t r, const std::vector<std::string>& names) -> json {
    json a = json::array();
    for (const auto& n : names) {
      const std::string t = get(c, r, n);
      if (t.empty()) return nullptr;
      a.push_back(cell(t));
    }
    return a;
  };
  auto suffixed = [&](const std::string& prefix, const std::string& first = "") {
    std::vector<std::string> out;
    for (const auto& a : axes) out.push_back(prefix + a + first);
    return out;
  };
  json j;
  j["dimension"] = dim;
  j["bodies"] = json::array();
  for (std::size_t r = 0; r < bodies.rows.size(); ++r) {
    json b = json::object();
    auto put = [&](const std::string& key, const json& v) {
      if (!v.is_null() && !(v.is_string() && v.get<std::string>().empty())) b[key] = v;
    };
    const std::string id = get(bodies, r, "id");
    put("id", id_cell(id));
    const std::string fixed = get(bodies, r, "fixed");
    if (!fixed.empty()) put("fixed", json(fixed == "1" || fixed == "true"));
    if (!fixed.empty() && fixed != "0" && fixed != "1" && fixed != "true" && fixed != "false")
      fail(fmt::format("{}:{}: body {}: field 'fixed': '{}' must be 0, 1, true or false", bodies_path, bodies.lines[r], r, fixed));
    put("mass", cell(get(bodies, r, "mass")));
    put("centre", vec(bodies, r, axes));
    if (dim == 2) {
      put("inertia", cell(get(bodies, r, "inertia")));
    } else if (has(bodies, "I1")) {
      put("inertia", vec(bodies, r, {"I1", "I2", "I3"}));
      put("orientation", vec(bodies, r, {"qw", "qx", "qy", "qz"}));
    } else {
      const json t = vec(bodies, r, {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"});
      if (!t.is_null())
        put("inertia", json::array({json::array({t[0], t[3], t[4]}), json::array({t[3], t[1], t[5]}),
                                    json::array({t[4], t[5], t[2]})}));
    }
    j["bodies"].push_back(b);
  }
  j["contacts"] = json::array();
  for (std::size_t r = 0; r < contacts.rows.size(); ++r) {
    json c = json::object();
    auto put = [&](const std::string& key, const json& v) {
      if (!v.is_null() && !(v.is_string() && v.get<std::string>().empty())) c[key] = v;
    };
    auto id = [&](const std::string& col) { return id_cell(get(contacts, r, col)); };
    if (!get(contacts, r, "i").empty() && !get(contacts, r, "j").empty()) c["bodies"] = json::array({id("i"), id("j")});
    put("point", vec(contacts, r, suffixed("p")));
    const json pi = vec(contacts, r, suffixed("pi")), pj = vec(contacts, r, suffixed("pj"));
    if (!pi.is_null() || !pj.is_null()) c["points"] = json::array({pi, pj});
    put("normal", vec(contacts, r, suffixed("n")));
    put("law", json(get(contacts, r, "law")));
    put("overlap", cell(get(contacts, r, "overlap")));
    put("r_eff", cell(get(contacts, r, "r_eff")));
    json h = json::object();
    if (const json t = vec(contacts, r, suffixed("xi_t")); !t.is_null()) h["xi_t"] = t;
    if (const json t = vec(contacts, r, suffixed("xi_r")); !t.is_null()) h["xi_r"] = t;
    if (const std::string t = get(contacts, r, "xi_tw"); !t.empty()) h["xi_tw"] = cell(t);
    if (!h.empty()) c["history"] = h;
    j["contacts"].push_back(c);
  }
  return build(j, bodies_path, contacts_path);
}

ContactNetwork read_network(const std::string& path) {
  auto ends_with = [&](const std::string& s) { return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0; };
  if (ends_with(".csv")) {
    const std::string contacts = contacts_csv_path(path);
    if (contacts.empty())
      fail(fmt::format("{}: a CSV network is a pair of files named ...bodies....csv and ...contacts....csv; this name has "
                       "no 'bodies'",
                       path));
    return read_network_csv(path, contacts);
  }
  return parse_network_json(parse_json_input(read_input_file(path, "contact network file"), path), path);
}

}  // namespace dtcrit::network
