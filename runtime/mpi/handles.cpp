#include "handles.hpp"

#include "mpi_call.hpp"

namespace zr::mpi::detail {

byte_block_type::byte_block_type(int bytes) {
  check(MPI_Type_contiguous(bytes, MPI_BYTE, &type_), "MPI_Type_contiguous");
  const int rc = MPI_Type_commit(&type_);
  if (rc != MPI_SUCCESS) MPI_Type_free(&type_);
  check(rc, "MPI_Type_commit");
}

// A failed free cannot be reported from a destructor, and leaves nothing we could retry.
byte_block_type::~byte_block_type() { MPI_Type_free(&type_); }

commutative_op::commutative_op(MPI_User_function* function) {
  check(MPI_Op_create(function, /*commute=*/1, &op_), "MPI_Op_create");
}

commutative_op::~commutative_op() { MPI_Op_free(&op_); }

}  // namespace zr::mpi::detail
