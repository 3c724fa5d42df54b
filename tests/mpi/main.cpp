// The zr::mpi tests, run under mpirun with 1 to 4 ranks (tests/mpi/CMakeLists.txt). Each rank reduces on
// its default device. Every rank counts its own failures; the run fails on every rank if any rank failed.
#include <mpi.h>

#include <cstdio>

#include "test_support.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int failures = 0;
  {
    zr::queue q;
    zr_mpi_test::context c;
    c.q = &q;
    MPI_Comm_rank(c.comm, &c.rank);
    MPI_Comm_size(c.comm, &c.size);
    c.note("device: " + q.get_device().description());
    zr_mpi_test::test_reproducible_sums(c);
    zr_mpi_test::test_plain_reductions(c);
    zr_mpi_test::test_errors(c);
    MPI_Allreduce(&c.failures, &failures, 1, MPI_INT, MPI_SUM, c.comm);
    c.note(failures == 0 ? "all checks passed" : std::to_string(failures) + " checks FAILED");
  }
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
