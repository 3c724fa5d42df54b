#pragma once
// MPI's return codes as exceptions. MPI returns them only where the communicator's error handler is
// MPI_ERRORS_RETURN; under its default handler a failed call aborts the job before we see it.
#include <mpi.h>

namespace zr::mpi::detail {

// Throws zr::BackendError naming `call` and MPI's description of `rc` unless rc is MPI_SUCCESS.
void check(int rc, const char* call);

}  // namespace zr::mpi::detail
