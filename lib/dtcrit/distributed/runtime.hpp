#pragma once
// PETSc and SLEPc (and through them MPI) for the life of the dtcrit process in the distributed build,
// and the collective error handling of the distributed analysis: an exception on one rank becomes the
// same exception on every rank, so that no rank waits forever in a collective call.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dtcrit::distributed {

// SlepcInitialize without the command line (PETSc would read dtcrit's --options as its own) and
// SlepcFinalize at the end of its scope. One per process.
class Runtime {
 public:
  Runtime();
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
};

int rank();   // in PETSC_COMM_WORLD (0 when the runtime is not initialised)
int ranks();  // size of PETSC_COMM_WORLD (1 when the runtime is not initialised)

// Runs f on rank 0 only (root_only) or on every rank; if it throws on some rank, every rank throws
// std::invalid_argument with the message of the lowest rank that failed. Collective.
void collectively(const std::function<void()>& f, bool root_only = false);

// Work dealt over the ranks (dtcrit table under mpirun): this rank's contiguous block [begin, end) of
// n items, the blocks in rank order and of sizes differing by at most one.
struct Block {
  std::size_t begin = 0, end = 0;
};
Block my_block(std::size_t n);
// Gathers the blocks of `data` (n rows of `cols` doubles; each rank has filled its own block's rows) on
// rank 0, which then holds every row. Collective.
void gather_blocks(std::vector<double>& data, std::size_t n, std::size_t cols);
// Every rank's `mine` on rank 0, in rank order (dtcrit sweep: each rank's integrators, as bytes); the
// other ranks get an empty vector. Collective.
std::vector<std::string> gather_bytes(const std::string& mine);

// Throws std::runtime_error naming `what` when a PETSc or SLEPc call returned an error code.
void check(int error_code, const char* what);

}  // namespace dtcrit::distributed
