#include "mpi_call.hpp"

#include <string>

#include "zereduce/errors.hpp"

namespace zr::mpi::detail {

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  std::string description =
      MPI_Error_string(rc, text, &length) == MPI_SUCCESS ? std::string(text, length) : "unknown MPI error";
  throw BackendError("MPI", call, rc, std::move(description), "");
}

}  // namespace zr::mpi::detail
