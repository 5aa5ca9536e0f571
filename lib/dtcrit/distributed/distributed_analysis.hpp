#pragma once
// `mpirun -np P dtcrit packing ...`: the packing analysis of packing/packing_analysis.hpp with the
// particles dealt to ranks in space (distributed/partition.hpp) and omega_max by the three-term
// Lanczos recurrence over the ranks (or SLEPc's Krylov-Schur).
//
// Rank 0 holds the whole packing and its contacts (read or built by the CLI as in the serial path),
// partitions the particles, and sends each rank its owned particles, the ghost copies of their
// partners and every contact that touches an owned particle. Each rank builds a packing::GlobalSystem
// of that local packing: the contact module's per-contact blocks, the same code as the serial path.
// Rows of owned particles are complete there (each of their contacts is held); ghost rows are not and
// are never used. The operator M^-1/2 (a K + b C) M^-1/2 is a PETSc MatShell: the owned entries of x
// and their ghosts gathered by a VecScatter, GlobalSystem::apply_scaled on the local packing, the
// owned rows kept.
//
// Computed as in the serial path: omega_max (three-term Lanczos or SLEPc Krylov-Schur, relative
// residual tolerance of --lanczos-tol), every limit that follows from it (packing_analysis'
// limit_from_spectrum: undamped rows, damped central-difference rows, the -1 lines' roots, explicit
// Euler's and RK4's proven safe step from the eigenvalue region, the top-mode estimate of gear5 above
// --amplification-dofs), the damped backward-difference limit (half_step_newton with solves of
// M^-1/2 (h^2 K + 2h C) M^-1/2) and the bounds (Gershgorin over owned rows, Yade, single contact,
// reduced over ranks). Not computed: the rows that need the amplification matrix of the whole system
// (damped, at most --amplification-dofs dofs): reported as such, never as a number.
// Refused: non-symmetric K or C (contact histories, sliding or granular torque arms).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtcrit/packing/packing_analysis.hpp"
#include "dtcrit/packing/packing_request.hpp"

namespace dtcrit::distributed {

// The operator: matrix-free (a MatShell over GlobalSystem::apply_scaled, the default) or assembled
// (M^-1/2 K M^-1/2 and M^-1/2 C M^-1/2 as MPIAIJ from GlobalSystem::stiffness / damping of each rank's
// local packing, owned rows only).
enum class OperatorKind { shell, assembled };
OperatorKind parse_operator_kind(const std::string& name);  // "shell", "assembled"

// The eigensolver of every largest-eigenvalue solve: the serial path's three-term Lanczos recurrence
// (linalg/lanczos.hpp) over the ranks -- each rank its owned entries, the sums reduced by
// MPI_Allreduce, three vectors and one application per step (`--eigensolver auto`) -- or SLEPc's
// Krylov-Schur (`--eigensolver slepc`), which orthogonalises against a basis of vectors and needs
// about twice the applications on the lattices measured (results/benchmarks/distributed_*.md).
enum class DistributedEigensolver { lanczos, krylov_schur };

struct DistributedOptions {
  OperatorKind op = OperatorKind::shell;
  DistributedEigensolver eigensolver = DistributedEigensolver::lanczos;
  packing::PackingAnalysisOptions analysis;  // integrators, material, eigen.tolerance, amplification_dofs
  bool rotation = true, geometric_stiffness = false;
  Index max_iterations = 10000;  // SLEPc restarts per eigensolve (Lanczos: analysis.eigen.max_steps)
};

struct RankFigures {
  Index particles = 0, ghosts = 0, contacts = 0;
  double wall_seconds = 0.0;    // this rank's time in analyse_distributed
  double peak_memory_mb = 0.0;  // the process' peak resident set (getrusage ru_maxrss)
};

struct DistributedReport {
  packing::PackingReport report;  // complete on rank 0 only
  int ranks = 1;
  OperatorKind operator_kind = OperatorKind::shell;
  DistributedEigensolver eigensolver = DistributedEigensolver::lanczos;
  Index eigensolves = 0;          // largest-eigenvalue solves (1 undamped; 1 + Newton iterations damped)
  std::vector<RankFigures> per_rank;  // rank 0 only
  std::vector<std::string> not_computed;  // integrator rows this path does not compute
  std::string input;  // how the packing was read: on rank 0 then scattered, or in parts by every rank
  std::string partition = "recursive coordinate bisection along the longest axis, weight 1 + contacts per particle";
};

// Collective over PETSC_COMM_WORLD. On rank 0 p and contacts are the whole packing; the other ranks
// pass nullptr. Throws the same error on every rank.
DistributedReport analyse_distributed(const packing::Packing* p, const packing::ContactSet* contacts,
                                      const DistributedOptions& opts);

// `dtcrit packing` over MPI ranks, collective: rank 0 answers the request with the serial
// answer_packing (the same checks, packing, laws and report), whose analysis stage is
// analyse_distributed; the other ranks join its collective calls with rank 0's options. An error of
// rank 0's input stage is raised on every rank. The answer (its `system` empty) and the distributed
// figures on rank 0; nullopt on the other ranks.
struct DistributedAnswer {
  packing::PackingAnswer answer;
  DistributedReport report;
};
std::optional<DistributedAnswer> answer_packing_distributed(const packing::PackingRequest& request, OperatorKind op,
                                                           DistributedEigensolver eigensolver,
                                                           const std::function<void(std::string_view)>& progress);

// to_json(report) with "ranks", "eigensolver" ("lanczos" or "slepc") and "distributed" (partition, operator,
// eigensolves, per rank: particles, ghosts, contacts, wall time, peak memory).
nlohmann::json to_json(const DistributedReport& r);
// The lines the text report adds: ranks, partition, time and memory per rank, rows not computed.
std::string format_distributed(const DistributedReport& r);

}  // namespace dtcrit::distributed
