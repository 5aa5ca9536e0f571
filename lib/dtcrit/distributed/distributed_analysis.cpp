#include "dtcrit/distributed/distributed_analysis.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <slepceps.h>

#include "dtcrit/core/check.hpp"
#include "dtcrit/distributed/local_part.hpp"
#include "dtcrit/distributed/partition.hpp"
#include "dtcrit/distributed/runtime.hpp"
#include "dtcrit/integrators/registry.hpp"
#include "dtcrit/io/text_table.hpp"
#include "dtcrit/linalg/lanczos.hpp"

namespace dtcrit::distributed {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
static_assert(std::is_same_v<PetscScalar, double>, "dtcrit needs PETSc built with real double scalars");
static_assert(std::is_trivially_copyable_v<contact::ContactLaw>);

// --- messages: trivially copyable values and vectors of them, one byte buffer per rank -------------
class Writer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* b = reinterpret_cast<const char*>(&v);
    bytes.insert(bytes.end(), b, b + sizeof(T));
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(v.size());
    const auto* b = reinterpret_cast<const char*>(v.data());
    bytes.insert(bytes.end(), b, b + v.size() * sizeof(T));
  }
  // field(): the one name for both directions, so that one list of members serves pack and unpack.
  template <class T>
  void field(const T& v) { put(v); }
  template <class T>
  void field(const std::vector<T>& v) { put_vector(v); }
  std::vector<char> bytes;
};

class Reader {
 public:
  explicit Reader(const std::vector<char>& b) : p_(b.data()), end_(b.data() + b.size()) {}
  template <class T>
  T get() {
    T v;
    take(&v, sizeof(T));
    return v;
  }
  template <class T>
  std::vector<T> get_vector() {
    std::vector<T> v(get<std::uint64_t>());
    take(v.data(), v.size() * sizeof(T));
    return v;
  }
  template <class T>
  void field(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    take(&v, sizeof(T));
  }
  template <class T>
  void field(std::vector<T>& v) { v = get_vector<T>(); }

 private:
  void take(void* out, std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) fail("distributed: a message from rank 0 is shorter than expected");
    if (n) std::memcpy(out, p_, n);
    p_ += n;
  }
  const char* p_;
  const char* end_;
};

// MPI counts are int: large messages go in pieces of 2^30 bytes.
constexpr std::size_t kPiece = std::size_t{1} << 30;

void send_bytes(const std::vector<char>& b, int to) {
  std::uint64_t n = b.size();
  MPI_Send(&n, 1, MPI_UINT64_T, to, 0, PETSC_COMM_WORLD);
  for (std::size_t at = 0; at < b.size(); at += kPiece)
    MPI_Send(b.data() + at, static_cast<int>(std::min(kPiece, b.size() - at)), MPI_BYTE, to, 1, PETSC_COMM_WORLD);
}

std::vector<char> receive_bytes(int from) {
  std::uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, 0, PETSC_COMM_WORLD, MPI_STATUS_IGNORE);
  std::vector<char> b(n);
  for (std::size_t at = 0; at < b.size(); at += kPiece)
    MPI_Recv(b.data() + at, static_cast<int>(std::min(kPiece, b.size() - at)), MPI_BYTE, from, 1, PETSC_COMM_WORLD,
             MPI_STATUS_IGNORE);
  return b;
}

// The wire order of a LocalPart (const for Writer, not for Reader): one list, so that pack() and
// unpack() cannot disagree.
static_assert(sizeof(Index) == sizeof(std::int64_t));  // `owned` goes over the wire as 8 bytes
template <class Io, class Part>
  requires std::is_same_v<std::remove_const_t<Part>, LocalPart>
void fields(Io& io, Part& l) {
  io.field(l.owned);
  io.field(l.first_global);
  io.field(l.global);
  io.field(l.original);
  io.field(l.centre);
  io.field(l.radius);
  io.field(l.mass);
  io.field(l.inertia);
  io.field(l.type);
  io.field(l.contacts);
}

// The wire order of Globals.
template <class Io, class G>
  requires std::is_same_v<std::remove_const_t<G>, Globals>
void fields(Io& io, G& g) {
  io.field(g.dim);
  io.field(g.box_lo), io.field(g.box_hi), io.field(g.periodic);
  io.field(g.particles);
  io.field(g.laws);
}

template <class Message>
std::vector<char> pack(const Message& m) {
  Writer w;
  fields(w, m);
  return std::move(w.bytes);
}

template <class Message>
Message unpack(const std::vector<char>& b) {
  Reader r(b);
  Message m;
  fields(r, m);
  return m;
}

std::vector<char> broadcast_bytes(std::vector<char> b) {
  std::uint64_t n = b.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, PETSC_COMM_WORLD);
  b.resize(n);
  for (std::size_t at = 0; at < b.size(); at += kPiece)
    MPI_Bcast(b.data() + at, static_cast<int>(std::min(kPiece, b.size() - at)), MPI_BYTE, 0, PETSC_COMM_WORLD);
  return b;
}

// Rank 0: the part of every rank, one at a time (only one rank's message exists at once). Ghosts are
// the partners of owned particles held by other ranks, in ascending global index.
class Splitter {
 public:
  Splitter(const packing::Packing& p, const packing::ContactSet& cs, const std::vector<int>& owner, int P)
      : p_(p), cs_(cs), owner_(owner) {
    const std::size_t n = p.centre.size();
    new_index_.resize(n), original_.resize(n);
    count_.assign(static_cast<std::size_t>(P), 0), first_.assign(static_cast<std::size_t>(P), 0);
    for (std::size_t i = 0; i < n; ++i) ++count_[static_cast<std::size_t>(owner[i])];
    for (int r = 1; r < P; ++r)
      first_[static_cast<std::size_t>(r)] = first_[static_cast<std::size_t>(r - 1)] + count_[static_cast<std::size_t>(r - 1)];
    std::vector<std::int64_t> next = first_;
    for (std::size_t i = 0; i < n; ++i) {
      new_index_[i] = next[static_cast<std::size_t>(owner[i])]++;
      original_[static_cast<std::size_t>(new_index_[i])] = static_cast<std::int64_t>(i);
    }
    // Contacts by rank: a contact between ranks goes to both.
    by_rank_.resize(static_cast<std::size_t>(P));
    for (std::size_t k = 0; k < cs.contacts.size(); ++k) {
      const packing::Contact& c = cs.contacts[k];
      const int ri = owner[static_cast<std::size_t>(c.i)];
      by_rank_[static_cast<std::size_t>(ri)].push_back(static_cast<std::uint32_t>(k));
      if (c.j >= 0 && owner[static_cast<std::size_t>(c.j)] != ri)
        by_rank_[static_cast<std::size_t>(owner[static_cast<std::size_t>(c.j)])].push_back(static_cast<std::uint32_t>(k));
    }
  }

  LocalPart part(int r) const {
    const auto ur = static_cast<std::size_t>(r);
    LocalPart l;
    l.owned = count_[ur];
    l.first_global = first_[ur];
    for (std::int64_t g = first_[ur]; g < first_[ur] + count_[ur]; ++g) {
      l.global.push_back(g);
      l.original.push_back(original_[static_cast<std::size_t>(g)]);  // ascending: new_index_ keeps the order
    }
    std::vector<std::int64_t> ghosts;
    for (auto k : by_rank_[ur]) {
      const packing::Contact& c = cs_.contacts[k];
      for (std::int32_t b : {c.i, c.j})
        if (b >= 0 && owner_[static_cast<std::size_t>(b)] != r) ghosts.push_back(new_index_[static_cast<std::size_t>(b)]);
    }
    std::sort(ghosts.begin(), ghosts.end());
    ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
    l.global.insert(l.global.end(), ghosts.begin(), ghosts.end());
    auto local_of = [&](std::int64_t g) -> std::int32_t {
      if (g >= first_[ur] && g < first_[ur] + count_[ur]) return static_cast<std::int32_t>(g - first_[ur]);
      return static_cast<std::int32_t>(l.owned + (std::lower_bound(ghosts.begin(), ghosts.end(), g) - ghosts.begin()));
    };
    for (std::int64_t g : l.global) {
      const auto i = static_cast<std::size_t>(original_[static_cast<std::size_t>(g)]);
      for (int d = 0; d < 3; ++d) l.centre.push_back(p_.centre[i][d]);
      l.radius.push_back(p_.radius[i]);
      l.mass.push_back(p_.mass[i]);
      l.inertia.push_back(p_.inertia[i]);
      l.type.push_back(p_.type[i]);
    }
    for (auto k : by_rank_[ur]) {
      const packing::Contact& c = cs_.contacts[k];
      l.contacts.push_back({local_of(new_index_[static_cast<std::size_t>(c.i)]),
                            c.j >= 0 ? local_of(new_index_[static_cast<std::size_t>(c.j)]) : c.j,
                            c.law,
                            {c.normal.x(), c.normal.y(), c.normal.z()},
                            c.overlap});
    }
    return l;
  }

 private:
  const packing::Packing& p_;
  const packing::ContactSet& cs_;
  const std::vector<int>& owner_;
  std::vector<std::int64_t> new_index_, original_, count_, first_;
  std::vector<std::vector<std::uint32_t>> by_rank_;
};

// --- the operator ---------------------------------------------------------------------------------
struct ShellContext {
  const packing::GlobalSystem* sys = nullptr;  // null on a rank without particles
  VecScatter gather = nullptr;                  // global x -> owned and ghost entries
  Vec local = nullptr;
  std::vector<double> y_local;
  Index owned_dofs = 0;
  double a = 1.0, b = 0.0;
  Index applications = 0;
  // OperatorKind::assembled: M^-1/2 K M^-1/2 and M^-1/2 C M^-1/2 as MPIAIJ (C null when undamped).
  Mat K = nullptr, C = nullptr;
  Vec scratch = nullptr;
};

PetscErrorCode shell_mult(Mat A, Vec x, Vec y) {
  ShellContext* c = nullptr;
  PetscCall(MatShellGetContext(A, &c));
  if (c->K) {  // y = a K~ x + b C~ x on the assembled matrices
    ++c->applications;
    PetscCall(MatMult(c->K, x, y));
    PetscCall(VecScale(y, c->a));
    if (c->C && c->b != 0.0) {
      PetscCall(MatMult(c->C, x, c->scratch));
      PetscCall(VecAXPY(y, c->b, c->scratch));
    }
    return 0;
  }
  PetscCall(VecScatterBegin(c->gather, x, c->local, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(c->gather, x, c->local, INSERT_VALUES, SCATTER_FORWARD));
  ++c->applications;
  PetscScalar* ya = nullptr;
  PetscCall(VecGetArray(y, &ya));
  if (c->sys) {
    const PetscScalar* xa = nullptr;
    PetscCall(VecGetArrayRead(c->local, &xa));
    c->sys->apply_scaled(c->a, c->b, xa, c->y_local.data());
    PetscCall(VecRestoreArrayRead(c->local, &xa));
    std::copy(c->y_local.begin(), c->y_local.begin() + c->owned_dofs, ya);
  }
  PetscCall(VecRestoreArray(y, &ya));
  return 0;
}

struct TopEigen {
  double lambda = kNaN, relative_residual = kNaN;
  bool converged = false;
  bool residual_is_true = true;  // false: the Lanczos recurrence's estimate (no vector computed)
  Index iterations = 0;
};

// The largest eigenvalue of the shell operator at its current (a, b) by SLEPc's Krylov-Schur; its unit
// eigenvector into v when v is given.
TopEigen solve_top(Mat A, double tolerance, Index max_iterations, Vec v) {
  EPS eps = nullptr;
  check(EPSCreate(PETSC_COMM_WORLD, &eps), "EPSCreate");
  TopEigen out;
  auto body = [&] {
    check(EPSSetOperators(eps, A, nullptr), "EPSSetOperators");
    check(EPSSetProblemType(eps, EPS_HEP), "EPSSetProblemType");
    check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType");
    check(EPSSetWhichEigenpairs(eps, EPS_LARGEST_REAL), "EPSSetWhichEigenpairs");
    check(EPSSetDimensions(eps, 1, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
    // |A v - lambda v| <= tol |lambda|: the serial solvers' criterion.
    check(EPSSetConvergenceTest(eps, EPS_CONV_REL), "EPSSetConvergenceTest");
    check(EPSSetTolerances(eps, tolerance, static_cast<PetscInt>(max_iterations)), "EPSSetTolerances");
    check(EPSSolve(eps), "EPSSolve");
    PetscInt nconv = 0, its = 0;
    check(EPSGetConverged(eps, &nconv), "EPSGetConverged");
    check(EPSGetIterationNumber(eps, &its), "EPSGetIterationNumber");
    out.iterations = its;
    if (nconv < 1) return;
    PetscScalar kr = 0.0, ki = 0.0;
    check(EPSGetEigenpair(eps, 0, &kr, &ki, v, nullptr), "EPSGetEigenpair");
    PetscReal err = 0.0;
    check(EPSComputeError(eps, 0, EPS_ERROR_RELATIVE, &err), "EPSComputeError");  // the true residual
    out.lambda = kr;
    out.relative_residual = err;
    out.converged = std::isfinite(err) && err <= tolerance;
  };
  try {
    body();
  } catch (...) {
    EPSDestroy(&eps);
    throw;
  }
  EPSDestroy(&eps);
  return out;
}

// This rank's part of the serial path's start vector (linalg::lanczos_start_entries over the dofs of
// the packing as read): the whole sequence is drawn (O(dofs) per rank, a few ns each) and the entries
// of the owned particles (`original`, ascending) kept, so that every rank count starts from the same
// vector and the answer does not depend on it beyond the rounding of the sums.
Vector serial_start_vector(const std::vector<std::int64_t>& original, Index dpp, std::int64_t particles) {
  Vector v(static_cast<Index>(original.size()) * dpp);
  // The owned particles in ascending `original` (the parallel reader's are sorted in space instead).
  std::vector<std::size_t> by(original.size());
  std::iota(by.begin(), by.end(), std::size_t{0});
  if (!std::is_sorted(original.begin(), original.end()))
    std::sort(by.begin(), by.end(), [&](std::size_t a, std::size_t b) { return original[a] < original[b]; });
  std::size_t next = 0;  // the first owned particle (in by's order) not yet passed
  linalg::lanczos_start_entries(particles * dpp, linalg::LanczosOptions{}.seed, [&](Index dof, double x) {
    const Index particle = dof / dpp;
    while (next < by.size() && original[by[next]] < particle) ++next;
    if (next < by.size() && original[by[next]] == particle) v[static_cast<Index>(by[next]) * dpp + dof % dpp] = x;
  });
  return v;
}

// The same by the serial path's three-term Lanczos recurrence (linalg/lanczos.hpp) over the ranks:
// each rank iterates on its owned entries from its part of the serial start vector, A's MatMult gathers
// the ghosts, the recurrence's sums go through MPI_Allreduce, so every rank builds the same tridiagonal
// matrix and stops at the same step.
// Converged by the recurrence's own criterion (the serial path's). With want_vector the Ritz vector
// (a second pass of the recurrence) goes into v, and the reported residual is its true one,
// |A v - theta v| / theta, from one more application (into w), as SLEPc's EPSComputeError; without,
// the recurrence's estimate, as the serial path reports it.
TopEigen solve_top_lanczos(Mat A, double tolerance, Index max_steps, bool want_vector, const Vector& start, Vec v,
                           Vec w, const std::function<void(Index, double)>& progress) {
  PetscInt owned = 0, global = 0;
  check(VecGetLocalSize(v, &owned), "VecGetLocalSize");
  check(VecGetSize(v, &global), "VecGetSize");
  // Vectors that wrap the recurrence's own arrays (no copies): x and y of each application.
  Vec xv = nullptr, yv = nullptr;
  check(VecCreateMPIWithArray(PETSC_COMM_WORLD, 1, owned, global, nullptr, &xv), "VecCreateMPIWithArray");
  check(VecCreateMPIWithArray(PETSC_COMM_WORLD, 1, owned, global, nullptr, &yv), "VecCreateMPIWithArray");
  TopEigen out;
  auto body = [&] {
    linalg::LanczosOptions lo;
    lo.tolerance = tolerance;
    lo.max_steps = max_steps;
    lo.want_vector = want_vector;
    lo.start = &start;
    lo.global_size = global;
    lo.progress = progress;
    lo.sum_over_ranks = [](double* values, int count) {
      if (MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD) != MPI_SUCCESS)
        fail("MPI_Allreduce failed in the distributed Lanczos recurrence");
    };
    const linalg::LanczosResult res = linalg::lanczos_largest(
        owned,
        [&](const double* x, double* y) {
          check(VecPlaceArray(xv, x), "VecPlaceArray");
          check(VecPlaceArray(yv, y), "VecPlaceArray");
          check(MatMult(A, xv, yv), "MatMult");
          check(VecResetArray(xv), "VecResetArray");
          check(VecResetArray(yv), "VecResetArray");
        },
        lo);
    out.iterations = res.steps;
    out.lambda = res.lambda;
    out.converged = res.converged && std::isfinite(res.lambda);
    if (!want_vector) {
      out.relative_residual = res.residual_estimate / std::abs(res.lambda);
      out.residual_is_true = false;
      return;
    }
    PetscScalar* va = nullptr;
    check(VecGetArray(v, &va), "VecGetArray");
    std::copy(res.vector.data(), res.vector.data() + owned, va);
    check(VecRestoreArray(v, &va), "VecRestoreArray");
    check(MatMult(A, v, w), "MatMult");
    check(VecAXPY(w, -res.lambda, v), "VecAXPY");
    PetscReal norm = 0.0;
    check(VecNorm(w, NORM_2, &norm), "VecNorm");
    out.relative_residual = norm / std::abs(res.lambda);
  };
  try {
    body();
  } catch (...) {
    VecDestroy(&xv);
    VecDestroy(&yv);
    throw;
  }
  VecDestroy(&xv);
  VecDestroy(&yv);
  return out;
}

// M^-1/2 B M^-1/2 of the local packing's assembled B (K or C: GlobalSystem::stiffness / damping, the
// contact module's blocks), its owned rows as rows of a distributed MPIAIJ matrix.
Mat assemble_scaled(const packing::GlobalSystem* sys, bool stiffness, const std::vector<std::int64_t>& global, Index dpp,
                    Index owned_dofs, Index N, std::int64_t first_global) {
  Eigen::SparseMatrix<double, Eigen::RowMajor> B;
  if (sys) {
    const Vector s = sys->mass().cwiseSqrt().cwiseInverse();
    B = s.asDiagonal() * (stiffness ? sys->stiffness() : sys->damping()) * s.asDiagonal();
  }
  auto gdof = [&](Index local) {
    return static_cast<PetscInt>(global[static_cast<std::size_t>(local / dpp)] * dpp + local % dpp);
  };
  const PetscInt lo = static_cast<PetscInt>(first_global * dpp), hi = lo + static_cast<PetscInt>(owned_dofs);
  std::vector<PetscInt> d_nnz(static_cast<std::size_t>(owned_dofs), 0), o_nnz(static_cast<std::size_t>(owned_dofs), 0);
  for (Index r = 0; r < owned_dofs; ++r)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(B, r); it; ++it) {
      const PetscInt c = gdof(it.col());
      ++(c >= lo && c < hi ? d_nnz : o_nnz)[static_cast<std::size_t>(r)];
    }
  Mat M = nullptr;
  check(MatCreateAIJ(PETSC_COMM_WORLD, static_cast<PetscInt>(owned_dofs), static_cast<PetscInt>(owned_dofs),
                     static_cast<PetscInt>(N), static_cast<PetscInt>(N), 0, d_nnz.data(), 0, o_nnz.data(), &M),
        "MatCreateAIJ");
  std::vector<PetscInt> cols;
  std::vector<PetscScalar> vals;
  for (Index r = 0; r < owned_dofs; ++r) {
    cols.clear(), vals.clear();
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(B, r); it; ++it)
      cols.push_back(gdof(it.col())), vals.push_back(it.value());
    const PetscInt row = gdof(r);
    check(MatSetValues(M, 1, &row, static_cast<PetscInt>(cols.size()), cols.data(), vals.data(), INSERT_VALUES),
          "MatSetValues");
  }
  check(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  return M;
}

double peak_memory_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

double allreduce(double v, MPI_Op op) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, op, PETSC_COMM_WORLD);
  return v;
}

}  // namespace

OperatorKind parse_operator_kind(const std::string& name) {
  if (name == "shell") return OperatorKind::shell;
  if (name == "assembled") return OperatorKind::assembled;
  fail(fmt::format("--operator '{}' is not known; expected shell (matrix-free) or assembled (MPIAIJ)", name));
}

// Every rank runs the same collective solves, so every rank needs rank 0's options (the other ranks
// did not read the request: the integrators may come from rank 0's LAMMPS script). Progress and the
// material heuristics stay on rank 0, which alone uses them.
DistributedOptions shared_options(const DistributedOptions& mine) {
  std::vector<char> bytes;
  if (rank() == 0) {
    const nlohmann::json j{{"op", mine.op == OperatorKind::assembled ? "assembled" : "shell"},
                           {"lanczos", mine.eigensolver == DistributedEigensolver::lanczos},
                           {"max_steps", mine.analysis.eigen.max_steps},
                           {"integrators", mine.analysis.integrators},
                           {"tolerance", mine.analysis.eigen.tolerance},
                           {"rtol", mine.analysis.rtol},
                           {"amplification_dofs", mine.analysis.amplification_dofs},
                           {"rotation", mine.rotation},
                           {"geometric_stiffness", mine.geometric_stiffness},
                           {"max_iterations", mine.max_iterations}};
    const std::string text = j.dump();
    bytes.assign(text.begin(), text.end());
  }
  bytes = broadcast_bytes(std::move(bytes));
  if (rank() == 0) return mine;
  const auto j = nlohmann::json::parse(bytes.begin(), bytes.end());
  DistributedOptions o = mine;
  o.op = parse_operator_kind(j.at("op").get<std::string>());
  o.eigensolver = j.at("lanczos").get<bool>() ? DistributedEigensolver::lanczos : DistributedEigensolver::krylov_schur;
  o.analysis.eigen.max_steps = j.at("max_steps").get<Index>();
  o.analysis.integrators = j.at("integrators").get<std::vector<std::string>>();
  o.analysis.eigen.tolerance = j.at("tolerance").get<double>();
  o.analysis.rtol = j.at("rtol").get<double>();
  o.analysis.amplification_dofs = j.at("amplification_dofs").get<Index>();
  o.rotation = j.at("rotation").get<bool>();
  o.geometric_stiffness = j.at("geometric_stiffness").get<bool>();
  o.max_iterations = j.at("max_iterations").get<Index>();
  return o;
}

DistributedReport analyse_distributed(const packing::Packing* p, const packing::ContactSet* contacts,
                                      const DistributedOptions& given) {
  const DistributedOptions opts = shared_options(given);
  LocalInput in;
  in.input = "read and built on rank 0 (O(N) memory there), then scattered";
  const int me = rank(), P = ranks();
  auto say = [&](std::string_view what) {
    if (me == 0 && opts.analysis.progress) opts.analysis.progress(what);
  };
  packing::PackingReport& r = in.report;

  // Rank 0: the facts of the whole packing, the partition and every rank's part.
  Globals& globals = in.globals;
  std::vector<int> owner;
  std::optional<Splitter> splitter;
  packing::EstimateInputs& estimates = in.estimates;
  collectively(
      [&] {
        if (!p || !contacts) fail("distributed: rank 0 needs the packing and its contacts");
        if (!contacts->histories.empty())
          fail("the distributed analysis does not read contact histories (--lammps-contacts): run without mpirun");
        // Its ranks rebuild ContactSets from the contacts alone: a region wall's R_eff and turning
        // normal (ContactSet::wall_surfaces) would be lost.
        if (!p->region_walls.empty())
          fail("the distributed analysis does not carry region walls (fix wall/gran/region): run without mpirun");
        r.source = p->source;
        r.dim = p->dim;
        r.rotation = opts.rotation;
        r.symmetric = true;
        r.particles = p->size();
        r.pair_contacts = contacts->pair_contacts;
        r.wall_contacts = contacts->wall_contacts;
        r.history_springs = packing::has_history_springs(contacts->laws);
        if (r.pair_contacts + r.wall_contacts == 0)
          fail("the packing has no contacts: nothing limits the time step (check radii, compression, --gap-tolerance)");
        const auto z = contacts->coordination(p->size());
        std::vector<double> weight(z.size());
        double sum = 0.0;
        for (std::size_t i = 0; i < z.size(); ++i) {
          sum += z[i];
          if (z[i] < r.dim + 1) ++r.rattlers;
          weight[i] = 1.0 + z[i];
        }
        r.mean_coordination = sum / static_cast<double>(std::max<Index>(1, r.particles));
        r.open_cohesive_contacts = contacts->held_open_count();
        for (double m : p->mass) estimates.m_min = std::min(estimates.m_min, m);
        std::size_t smallest = 0;
        for (std::size_t i = 1; i < p->radius.size(); ++i)
          if (p->radius[i] < p->radius[smallest]) smallest = i;
        estimates.smallest_radius = p->radius[smallest];
        estimates.smallest_mass = p->mass[smallest];
        say(fmt::format("partitioning {} particles over {} ranks (recursive coordinate bisection)", r.particles, P));
        owner = partition_rcb(p->centre, weight, P);
        splitter.emplace(*p, *contacts, owner, P);
        globals.dim = p->dim;
        for (int d = 0; d < 3; ++d)
          globals.box_lo[d] = p->box_lo[d], globals.box_hi[d] = p->box_hi[d], globals.periodic[d] = p->periodic[d];
        globals.particles = p->size();
        globals.laws = contacts->laws;
      },
      true);
  globals = unpack<Globals>(broadcast_bytes(me == 0 ? pack(globals) : std::vector<char>{}));
  say("sending each rank its particles, ghosts and contacts");
  if (me == 0) {
    for (int to = 1; to < P; ++to) send_bytes(pack(splitter->part(to)), to);
    in.part = splitter->part(0);
    splitter.reset();
    owner = {};
  } else {
    in.part = unpack<LocalPart>(receive_bytes(0));
  }
  return analyse_local(std::move(in), opts);
}

DistributedReport analyse_local(LocalInput in, const DistributedOptions& opts) {
  auto seconds = [](std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const auto t_start = in.start;
  const int me = rank(), P = ranks();
  auto say = [&](std::string_view what) {
    if (me == 0 && opts.analysis.progress) opts.analysis.progress(what);
  };
  DistributedReport out;
  out.ranks = P;
  out.operator_kind = opts.op;
  out.eigensolver = opts.eigensolver;
  out.input = std::move(in.input);
  out.report = std::move(in.report);
  packing::PackingReport& r = out.report;
  const Globals& globals = in.globals;
  LocalPart& part = in.part;
  packing::EstimateInputs& estimates = in.estimates;

  // Each rank: the GlobalSystem of its local packing (owned particles, then ghosts).
  std::optional<packing::GlobalSystem> sys;
  const Index n_local = static_cast<Index>(part.radius.size());
  const auto n_contacts = static_cast<Index>(in.contacts ? in.contacts->contacts.size() : part.contacts.size());
  collectively([&] {
    if (part.owned == 0) return;
    packing::Packing lp;
    lp.dim = globals.dim;
    for (int d = 0; d < 3; ++d)
      lp.box_lo[d] = globals.box_lo[d], lp.box_hi[d] = globals.box_hi[d], lp.periodic[d] = globals.periodic[d];
    for (Index i = 0; i < n_local; ++i)
      lp.centre.emplace_back(part.centre[static_cast<std::size_t>(3 * i)], part.centre[static_cast<std::size_t>(3 * i + 1)],
                             part.centre[static_cast<std::size_t>(3 * i + 2)]);
    lp.radius = part.radius, lp.mass = part.mass, lp.inertia = part.inertia, lp.type = part.type;
    packing::ContactSet lc;
    if (in.contacts) lc = std::move(*in.contacts);
    lc.laws = globals.laws;
    for (const WireContact& w : part.contacts) {
      packing::Contact c;
      c.i = w.i, c.j = w.j, c.law = w.law;
      c.normal = packing::Vec3(w.normal[0], w.normal[1], w.normal[2]);
      c.overlap = w.overlap;
      lc.contacts.push_back(c);
      ++(c.j >= 0 ? lc.pair_contacts : lc.wall_contacts);
    }
    sys.emplace(packing::round_assembly(lp, std::move(lc)), opts.rotation, opts.geometric_stiffness);
    sys->set_threads(1);  // one rank per core
  });
  RankFigures mine;
  mine.particles = part.owned;
  mine.ghosts = n_local - part.owned;
  mine.contacts = n_contacts;
  in.contacts.reset();
  part.centre.clear(), part.centre.shrink_to_fit();
  part.contacts.clear(), part.contacts.shrink_to_fit();

  const bool symmetric = allreduce(sys && !sys->symmetric() ? 0.0 : 1.0, MPI_MIN) == 1.0;
  if (!symmetric)
    collectively([] {
      fail("K or C is not symmetric (contacts with histories, sliding or granular torque arms with rotations): the "
           "distributed analysis covers symmetric packings; run without mpirun for the non-symmetric analysis");
    });
  const bool damped = allreduce(sys && sys->damped() ? 1.0 : 0.0, MPI_MAX) == 1.0;
  const Index dpp = opts.rotation ? (globals.dim == 2 ? 3 : 6) : globals.dim;
  const Index N = globals.particles * dpp, owned_dofs = part.owned * dpp;
  r.damped = damped;
  r.dofs = N;

  // The shell operator and its gather of owned and ghost entries.
  ShellContext ctx;
  ctx.sys = sys ? &*sys : nullptr;
  ctx.owned_dofs = owned_dofs;
  ctx.y_local.assign(static_cast<std::size_t>(n_local * dpp), 0.0);
  Mat A = nullptr;
  Vec v = nullptr, w = nullptr;
  IS from = nullptr;
  auto destroy = [&] {
    if (from) ISDestroy(&from);
    if (ctx.gather) VecScatterDestroy(&ctx.gather);
    if (ctx.local) VecDestroy(&ctx.local);
    if (v) VecDestroy(&v);
    if (w) VecDestroy(&w);
    if (A) MatDestroy(&A);
    if (ctx.K) MatDestroy(&ctx.K);
    if (ctx.C) MatDestroy(&ctx.C);
    if (ctx.scratch) VecDestroy(&ctx.scratch);
  };
  try {
    check(MatCreateShell(PETSC_COMM_WORLD, static_cast<PetscInt>(owned_dofs), static_cast<PetscInt>(owned_dofs),
                         static_cast<PetscInt>(N), static_cast<PetscInt>(N), &ctx, &A),
          "MatCreateShell");
    check(MatShellSetOperation(A, MATOP_MULT, reinterpret_cast<void (*)(void)>(shell_mult)), "MatShellSetOperation");
    check(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
    check(MatCreateVecs(A, &v, &w), "MatCreateVecs");
    std::vector<PetscInt> dofs(static_cast<std::size_t>(n_local * dpp));
    for (Index i = 0; i < n_local; ++i)
      for (Index d = 0; d < dpp; ++d)
        dofs[static_cast<std::size_t>(i * dpp + d)] = static_cast<PetscInt>(part.global[static_cast<std::size_t>(i)] * dpp + d);
    check(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(dofs.size()), dofs.data(), PETSC_COPY_VALUES, &from),
          "ISCreateGeneral");
    check(VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(dofs.size()), &ctx.local), "VecCreateSeq");
    check(VecScatterCreate(v, from, ctx.local, nullptr, &ctx.gather), "VecScatterCreate");
    if (opts.op == OperatorKind::assembled) {
      say("assembling M^-1/2 K M^-1/2 (and C) as PETSc MPIAIJ");
      const auto ta = std::chrono::steady_clock::now();
      ctx.K = assemble_scaled(ctx.sys, true, part.global, dpp, owned_dofs, N, part.first_global);
      if (damped) ctx.C = assemble_scaled(ctx.sys, false, part.global, dpp, owned_dofs, N, part.first_global);
      check(VecDuplicate(v, &ctx.scratch), "VecDuplicate");
      r.timings.emplace_back("assembly", seconds(ta));
    }

    // omega_max.
    const bool lanczos = opts.eigensolver == DistributedEigensolver::lanczos;
    const Vector start = lanczos ? serial_start_vector(part.original, dpp, globals.particles) : Vector();
    say(fmt::format("omega_max: largest eigenvalue of M^-1/2 K M^-1/2 ({} dofs, {} contacts, {} on {} ranks)", N,
                    r.pair_contacts + r.wall_contacts, lanczos ? "three-term Lanczos" : "SLEPc Krylov-Schur", P));
    auto t0 = std::chrono::steady_clock::now();
    const double tol = opts.analysis.eigen.tolerance;
    // Progress of a Lanczos solve on rank 0, at most every 2 s, as the serial path prints it.
    auto last_report = std::chrono::steady_clock::now();
    std::function<void(Index, double)> lanczos_progress;
    if (me == 0 && opts.analysis.progress)
      lanczos_progress = [&](Index steps, double residual) {
        if (seconds(last_report) < 2.0) return;
        last_report = std::chrono::steady_clock::now();
        say(fmt::format("  Lanczos step {}: relative residual {:.2g} (tolerance {:.2g})", steps, residual, tol));
      };
    // One largest-eigenvalue solve at the shell's current (a, b); the vector into v when asked for
    // (SLEPc always computes it).
    auto solve = [&](bool want_vector) {
      ++out.eigensolves;
      return lanczos ? solve_top_lanczos(A, tol, opts.analysis.eigen.max_steps, want_vector, start, v, w, lanczos_progress)
                     : solve_top(A, tol, opts.max_iterations, v);
    };
    ctx.a = 1.0, ctx.b = 0.0;
    const TopEigen top = solve(damped);  // damped: the top mode's vector gives its damping ratio
    r.omega_max = std::sqrt(top.lambda);
    r.eigen_residual = top.relative_residual;
    r.eigen_residual_is_true = top.residual_is_true;
    r.eigen_tolerance = tol;
    r.rtol = opts.analysis.rtol;
    // As the serial path: a true residual (with the vector) is held to the tolerance too, since loss of
    // orthogonality can make the recurrence's estimate optimistic.
    r.eigen_converged = top.converged && std::isfinite(r.omega_max) &&
                        (!top.residual_is_true || top.relative_residual <= tol);
    r.eigen_method = lanczos ? "lanczos" : "slepc";
    if (r.eigen_converged && damped) {  // the top mode's modal damping ratio v^T C~ v / (2 omega_max)
      ctx.a = 0.0, ctx.b = 1.0;
      check(MatMult(A, v, w), "MatMult");
      PetscScalar vcv = 0.0;
      check(VecDot(v, w, &vcv), "VecDot");
      r.top_mode_zeta = vcv / (2.0 * r.omega_max);
    }
    r.eigen_operations = ctx.applications;
    r.timings.emplace_back("omega_max", seconds(t0));

    // The bounds' inputs, reduced over ranks (Gershgorin over owned rows only).
    t0 = std::chrono::steady_clock::now();
    auto owned_max = [&](double a, double b) {
      double m = 0.0;
      if (sys && owned_dofs > 0) m = sys->gershgorin_rows(a, b).head(owned_dofs).maxCoeff();
      return allreduce(std::max(0.0, m), MPI_MAX);
    };
    estimates.gershgorin_omega2 = owned_max(1.0, 0.0);
    const double gershgorin_c = damped ? owned_max(0.0, 1.0) : 0.0;
    // Yade's per-body step is the smallest over bodies; a ghost's (missing contacts) is never below its owner's.
    estimates.yade_step = allreduce(sys ? sys->yade_global_stiffness_step(0.8) : std::numeric_limits<double>::infinity(), MPI_MIN);
    estimates.single_contact_omega = allreduce(sys ? sys->single_contact_omega_max() : 0.0, MPI_MAX);
    double k_max = 0.0;
    if (sys)
      for (std::size_t k = 0; k < sys->contacts().contacts.size(); ++k) {
        const auto q = sys->stored_coefficients(k);
        k_max = std::max({k_max, q.kn, q.kt});
      }
    estimates.k_max = allreduce(k_max, MPI_MAX);
    r.timings.emplace_back("bounds", seconds(t0));

    // The limits.
    t0 = std::chrono::steady_clock::now();
    say("integrator limits");
    packing::SpectrumFacts f;
    f.damped = damped;
    f.dofs = N;
    f.omega_max = r.omega_max;
    f.omega_residual = r.eigen_residual;
    f.top_mode_zeta = r.top_mode_zeta;
    f.gershgorin_k = estimates.gershgorin_omega2;
    f.gershgorin_c = gershgorin_c;
    f.whole_system = false;  // explicit Euler and RK4: the eigenvalue region's safe step, not A's eigenvalues
    bool solved = true, semidefinite = true;  // (read by the roots below, also from the rows' loop)
    // One collective solve of lambda_max(a K~ + b C~) at a tolerance (an unconverged one gives NaN,
    // which ends a root's iteration). Here, not in the damped branch: the rows' loop calls it after.
    auto top_of = [&](double a, double b, double tolerance) {
      ctx.a = a, ctx.b = b;
      ++out.eigensolves;
      const Index before = ctx.applications;
      const TopEigen t = lanczos ? solve_top_lanczos(A, tolerance, opts.analysis.eigen.max_steps, false, start, v, w,
                                                     lanczos_progress)
                                 : solve_top(A, tolerance, opts.max_iterations, v);
      solved = solved && t.converged;
      return packing::TopAtStep{t.converged ? t.lambda : kNaN, t.relative_residual * std::abs(t.lambda),
                                ctx.applications - before};
    };
    if (!r.eigen_converged) {
      r.h_exact = kNaN;
      r.h_exact_converged = false;
    } else if (!damped) {
      r.h_exact = 2.0 / r.omega_max;
    } else {
      // 4/h^2 = lambda_max(M^-1/2 (K + 2C/h) M^-1/2): the bracketed root of stability/damped_limit.hpp
      // on eigenvalue solves of h^2 K~ + 2h C~ (no vectors), each at the tolerance it asks for.
      say("damped velocity_verlet limit: root of lambda_max(h^2 K~ + 2h C~) = 4");
      semidefinite = allreduce(sys && !sys->stiffness_semidefinite() ? 1.0 : 0.0, MPI_MAX) == 0.0;
      f.semidefinite = semidefinite && allreduce(sys && !sys->damping_semidefinite() ? 1.0 : 0.0, MPI_MAX) == 0.0;
      f.damping_over_stiffness =
          allreduce(sys ? sys->damping_over_stiffness() : std::numeric_limits<double>::infinity(), MPI_MIN);
      // The root of 4M - 2 factor hC - h^2 K (factor 1: velocity Verlet's; other schemes' -1 lines).
      auto root = [&](double factor) {
        return packing::half_step_root(
            r.omega_max, r.top_mode_zeta, opts.analysis.rtol,
            [&](double h, double tolerance) { return top_of(h * h, 2.0 * factor * h, tolerance); }, semidefinite,
            factor);
      };
      const packing::DampedLimit half = root(1.0);
      // Every rank asks for the same roots and solves in the same order (the rows below), so they stay collective.
      f.scaled_half_step = root;
      f.damping_top = [&](double tolerance) -> std::optional<packing::TopAtStep> { return top_of(0.0, 1.0, tolerance); };
      f.half_step = half;
      r.damped_solves = half.iterations;
      r.damped_operations = half.operations;
      r.h_exact = half.h_crit;
      r.h_exact_converged = half.converged && solved;
    }
    for (const auto& spec : opts.analysis.integrators) {
      std::optional<packing::PackingIntegratorLimit> l = packing::limit_from_spectrum(spec, f, opts.analysis);
      if (!l) {
        packing::PackingIntegratorLimit none{spec, Stability::conditional, kNaN, "", true, true};
        none.computed = false;
        none.method = fmt::format(
            "not computed by the distributed analysis: damped with {} dofs, this row needs the whole "
            "LinearSystem(M, K, C) on one process: {}; run without mpirun",
            N,
            N <= opts.analysis.amplification_dofs
                ? fmt::format("its amplification matrix (at most --amplification-dofs {})",
                              opts.analysis.amplification_dofs)
                : std::string("every eigenvalue of its first-order system (a dense solve)"));
        l = none;
      }
      if (!l->computed) out.not_computed.push_back(spec);  // (also explicit Euler's row without a safe step)
      if (!r.eigen_converged && l->computed) l->converged = false, l->h_crit = kNaN;
      r.integrators.push_back(*l);
    }
    r.timings.emplace_back("integrator limits", seconds(t0));
  } catch (...) {
    destroy();
    throw;
  }
  destroy();
  if (me == 0) packing::add_packing_estimates(r, estimates, opts.analysis);

  // Time and memory of every rank.
  mine.wall_seconds = seconds(t_start);
  mine.peak_memory_mb = peak_memory_mb();
  const double row[5] = {static_cast<double>(mine.particles), static_cast<double>(mine.ghosts),
                         static_cast<double>(mine.contacts), mine.wall_seconds, mine.peak_memory_mb};
  std::vector<double> all(static_cast<std::size_t>(5 * P));
  MPI_Gather(row, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  if (me == 0)
    for (int q = 0; q < P; ++q) {
      const double* a = all.data() + 5 * q;
      out.per_rank.push_back({static_cast<Index>(a[0]), static_cast<Index>(a[1]), static_cast<Index>(a[2]), a[3], a[4]});
    }
  return out;
}

nlohmann::json to_json(const DistributedReport& r) {
  nlohmann::json j = packing::to_json(r.report);
  j["ranks"] = r.ranks;
  const bool lanczos = r.eigensolver == DistributedEigensolver::lanczos;
  j["eigensolver"] = lanczos ? "lanczos" : "slepc";
  nlohmann::json per = nlohmann::json::array();
  for (std::size_t q = 0; q < r.per_rank.size(); ++q) {
    const RankFigures& f = r.per_rank[q];
    per.push_back({{"rank", q}, {"particles", f.particles}, {"ghosts", f.ghosts}, {"contacts", f.contacts},
                   {"wall_time_s", f.wall_seconds}, {"peak_memory_mb", f.peak_memory_mb}});
  }
  j["distributed"] = {
      {"partition", r.partition},
      {"operator", r.operator_kind == OperatorKind::assembled
                       ? "PETSc MPIAIJ M^-1/2 K M^-1/2 (and C) assembled from GlobalSystem's blocks of owned rows"
                       : "PETSc MatShell: GlobalSystem::apply_scaled on owned particles and ghosts"},
      {"eigensolver", lanczos ? "three-term Lanczos over the ranks (MPI_Allreduce of its sums), relative residual tolerance"
                              : "SLEPc Krylov-Schur, EPS_HEP, EPS_LARGEST_REAL, relative residual tolerance"},
      {"eigensolves", r.eigensolves},
      {"input", r.input},
      {"not_computed", r.not_computed},
      {"per_rank", per}};
  return j;
}

std::string format_distributed(const DistributedReport& r) {
  std::string out = fmt::format(
      "\ndistributed: {} ranks (particles by {}); omega_max by {} on "
      "{}, {} eigensolves, {} operator applications\n",
      r.ranks, r.partition, r.eigensolver == DistributedEigensolver::lanczos ? "the three-term Lanczos recurrence" : "SLEPc Krylov-Schur",
      r.operator_kind == OperatorKind::assembled ? "an assembled PETSc MPIAIJ matrix" : "a PETSc MatShell (matrix-free)", r.eigensolves, r.report.eigen_operations + r.report.damped_operations);
  out += fmt::format("input: {}\n", r.input);
  TextTable t({"rank", "particles", "ghosts", "contacts", "wall time [s]", "peak memory [MB]"});
  for (std::size_t q = 0; q < r.per_rank.size(); ++q) {
    const RankFigures& f = r.per_rank[q];
    t.add_row({std::to_string(q), std::to_string(f.particles), std::to_string(f.ghosts), std::to_string(f.contacts),
               fmt::format("{:.3f}", f.wall_seconds), fmt::format("{:.1f}", f.peak_memory_mb)});
  }
  out += t.to_text();
  if (!r.not_computed.empty())
    out += fmt::format("not computed by the distributed analysis (they need the whole system on one process): {}\n",
                       fmt::join(r.not_computed, ", "));
  return out;
}

std::optional<DistributedAnswer> answer_packing_distributed(const packing::PackingRequest& request, OperatorKind op,
                                                           DistributedEigensolver eigensolver,
                                                           const std::function<void(std::string_view)>& progress) {
  DistributedOptions dopt;
  dopt.op = op;
  dopt.eigensolver = eigensolver;
  if (rank() != 0) {
    collectively([] {}, true);  // rank 0's input stage: its error is raised here too
    analyse_distributed(nullptr, nullptr, dopt);
    return std::nullopt;
  }
  std::optional<DistributedReport> dist;
  bool joined = false;  // the other ranks have left the input stage
  const packing::PackingAnalyser analyse = [&](const packing::Packing& p, packing::ContactSet contacts,
                                               const packing::PackingAnalysisOptions& ao) {
    collectively([] {}, true);
    joined = true;
    dopt.analysis = ao;
    dopt.rotation = !request.no_rotation;
    dopt.geometric_stiffness = request.geometric_stiffness;
    dist = analyse_distributed(&p, &contacts, dopt);
    return packing::AnalysedPacking{dist->report, nullptr};
  };
  try {
    packing::PackingAnswer answer = packing::answer_packing(request, progress, analyse);
    return DistributedAnswer{std::move(answer), std::move(*dist)};
  } catch (...) {
    if (joined) throw;
    const auto error = std::current_exception();
    collectively([&] { std::rethrow_exception(error); }, true);
    throw;  // not reached: collectively throws rank 0's error on every rank
  }
}

}  // namespace dtcrit::distributed
