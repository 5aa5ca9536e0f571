#include "dtcrit/distributed/runtime.hpp"

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

void check(int error_code, const char* what) {
  if (error_code != 0) throw std::runtime_error(fmt::format("{} failed (PETSc error code {})", what, error_code));
}

}  // namespace dtcrit::distributed
