#pragma once
// Owners of the MPI objects an allreduce creates: freed when the call returns or throws, so that repeated
// calls do not exhaust MPI's tables of types and ops.
#include <mpi.h>

namespace zr::mpi::detail {

// `bytes` opaque bytes as one element: user-defined ops then see whole values or partials, never pieces.
class byte_block_type {
 public:
  explicit byte_block_type(int bytes);
  ~byte_block_type();
  byte_block_type(const byte_block_type&) = delete;
  byte_block_type& operator=(const byte_block_type&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// A commutative user-defined op.
class commutative_op {
 public:
  explicit commutative_op(MPI_User_function* function);
  ~commutative_op();
  commutative_op(const commutative_op&) = delete;
  commutative_op& operator=(const commutative_op&) = delete;
  MPI_Op get() const { return op_; }

 private:
  MPI_Op op_ = MPI_OP_NULL;
};

}  // namespace zr::mpi::detail
