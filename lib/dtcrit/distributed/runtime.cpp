#include "dtcrit/distributed/runtime.hpp"

#include <algorithm>
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

std::vector<std::string> gather_bytes(const std::string& mine) {
  if (!initialised() || ranks() == 1) return {mine};
  const auto p = static_cast<std::size_t>(ranks());
  // A rank with more than an int's worth sends its size clamped; the total then exceeds it on every rank.
  const int size = static_cast<int>(std::min<std::size_t>(mine.size(), static_cast<std::size_t>(std::numeric_limits<int>::max())));
  std::vector<int> sizes(p), offsets(p);
  // Every rank learns every size, so that all of them refuse a total MPI cannot count, together.
  MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, PETSC_COMM_WORLD);
  std::size_t total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    offsets[r] = static_cast<int>(std::min<std::size_t>(total, static_cast<std::size_t>(std::numeric_limits<int>::max())));
    total += static_cast<std::size_t>(sizes[r]);
  }
  if (total >= static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(fmt::format("{} bytes are too many to gather (MPI int counts)", total));
  std::string all;
  if (rank() == 0) all.resize(total);
  MPI_Gatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0, PETSC_COMM_WORLD);
  if (rank() != 0) return {};
  std::vector<std::string> out;
  for (std::size_t r = 0; r < p; ++r) out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
  return out;
}

void check(int error_code, const char* what) {
  if (error_code != 0) throw std::runtime_error(fmt::format("{} failed (PETSc error code {})", what, error_code));
}

}  // namespace dtcrit::distributed
