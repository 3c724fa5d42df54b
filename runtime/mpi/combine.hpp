#pragma once
// The library's ops on the host, with the kernels' semantics, for combining the ranks' results: integer plus
// and multiplies wrap; floating minimum/maximum give the canonical quiet NaN when either side is NaN and
// order -0.0 below +0.0; f16 is computed in float and rounded to nearest even; bool is a byte, any non-zero
// byte true, results 0 or 1.
#include <mpi.h>

#include <cstddef>

#include "zereduce/types.hpp"

namespace zr::mpi::detail {

bool defined(element_type type, op_kind op);  // the pairs the library reduces
std::size_t size_of(element_type type);

// inout[i] = in[i] op inout[i] for `count` elements of `type` (a pair for which defined() is true).
void combine_values(element_type type, op_kind op, const void* in, void* inout, std::size_t count);

// An MPI user function doing combine_values for one (type, op): MPI_Op_create takes no context pointer.
MPI_User_function* combiner(element_type type, op_kind op);

}  // namespace zr::mpi::detail
