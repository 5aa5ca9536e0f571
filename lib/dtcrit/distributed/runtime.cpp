#include "dtcrit/distributed/runtime.hpp"

#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <slepcsys.h>

namespace dtcrit::distributed {

Runtime::Runtime() { check(SlepcInitializeNoArguments(), "SlepcInitialize"); }

Runtime::~Runtime() { SlepcFinalize(); }

namespace {
bool initialised() {
  PetscBool on = PETSC_FALSE;
  SlepcInitialized(&on);
  return on == PETSC_TRUE;
}
}  // namespace

int rank() {
  if (!initialised()) return 0;
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

int ranks() {
  if (!initialised()) return 1;
  int n = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &n);
  return n;
}

void collectively(const std::function<void()>& f, bool root_only) {
  std::string message;
  int failed = 0;
  if (!root_only || rank() == 0) {
    try {
      f();
    } catch (const std::exception& e) {
      message = e.what();
      failed = 1;
    }
  }
  if (!initialised()) {
    if (failed) throw std::invalid_argument(message);
    return;
  }
  // The lowest failing rank speaks for all.
  int first = failed ? rank() : ranks();
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD);
  if (first == ranks()) return;
  unsigned long size = message.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG, first, PETSC_COMM_WORLD);
  message.resize(size);
  MPI_Bcast(message.data(), static_cast<int>(size), MPI_CHAR, first, PETSC_COMM_WORLD);
  throw std::invalid_argument(message);
}

Block my_block(std::size_t n) {
  const auto r = static_cast<std::size_t>(rank()), p = static_cast<std::size_t>(ranks());
  return {n * r / p, n * (r + 1) / p};
}

void gather_blocks(std::vector<double>& data, std::size_t n, std::size_t cols) {
  if (!initialised() || ranks() == 1) return;
  const auto p = static_cast<std::size_t>(ranks());
  if (n * cols > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(fmt::format("a table of {} rows of {} columns is too large to gather (MPI int counts)", n, cols));
  std::vector<int> counts(p), offsets(p);
  for (std::size_t r = 0; r < p; ++r) {
    const std::size_t begin = n * r / p, end = n * (r + 1) / p;
    counts[r] = static_cast<int>((end - begin) * cols);
    offsets[r] = static_cast<int>(begin * cols);  // data holds n * cols: the caller's table
  }
  const Block mine = my_block(n);
  const int me = rank();
  if (me == 0)
    MPI_Gatherv(MPI_IN_PLACE, counts[0], MPI_DOUBLE, data.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0,
                PETSC_COMM_WORLD);
  else
    MPI_Gatherv(data.data() + mine.begin * cols, counts[static_cast<std::size_t>(me)], MPI_DOUBLE, nullptr, nullptr,
                nullptr, MPI_DOUBLE, 0, PETSC_COMM_WORLD);
}

void check(int error_code, const char* what) {
  if (error_code != 0) throw std::runtime_error(fmt::format("{} failed (PETSc error code {})", what, error_code));
}

}  // namespace dtcrit::distributed
