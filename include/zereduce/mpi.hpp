#pragma once
// zr::mpi::allreduce: one reduction of data spread over the ranks of an MPI communicator. Each rank reduces
// its own part on its own queue's device, starting from the op's identity; the parts' results are combined
// across the ranks and the result is returned on every rank (docs/mpi.md). Link zereduce::zereduce_mpi,
// which is built when CMake finds MPI.
//
// - With property::reduction::reproducible, floating-point plus combines the ranks' unrounded partial sums
//   (reproducible_partial.hpp) exactly and rounds once: every rank gets the same bits, equal to one
//   reproducible sum of all the ranks' data, in rank order or any other, on one device, whatever the split.
// - Otherwise the ranks' values are combined on the host with the op's own semantics (integer sums wrap,
//   floating minimum/maximum: NaN wins, -0.0 < +0.0; f16 is combined in float and rounded per combine).
//   Every rank gets the same bits.
// - Collective: every rank of `comm` must call it with the same T, op and reproducible property (a mismatch
//   is an InvalidArgumentError on every rank). If the local reduction throws on any rank, every rank throws
//   the same class (InvalidArgumentError, UnsupportedError, else zr::Error) naming the failing ranks and the
//   first one's error; no rank is left waiting. A failed MPI call throws zr::BackendError naming the call
//   (MPI returns errors only under MPI_ERRORS_RETURN; its default handler aborts the job instead).
#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "zereduce/errors.hpp"
#include "zereduce/export.hpp"
#include "zereduce/properties.hpp"
#include "zereduce/queue.hpp"
#include "zereduce/reduction.hpp"
#include "zereduce/reproducible_partial.hpp"
#include "zereduce/types.hpp"

namespace zr::mpi {

namespace detail {

// What became of this rank's local reduction. Exchanged by every rank before any result is, so that a
// failure on one rank cannot leave the others waiting in MPI_Allreduce.
struct local_outcome {
  int code = 0;  // 0 ok, 1 InvalidArgumentError, 2 UnsupportedError, 3 any other exception
  std::string message;
};
// The outcome of the exception being handled (call it in a catch block).
ZR_API local_outcome outcome_of_current_exception();

// What the calling rank is about to exchange: ranks that disagree on it would hand MPI mismatched data.
struct call_signature {
  element_type type;
  op_kind op;
  bool partial;  // reproducible partial sums rather than values
};

// Collective: returns on every rank if every rank's local reduction succeeded with the same signature, and
// throws the same error class on every rank otherwise.
ZR_API void agree(MPI_Comm comm, call_signature signature, const local_outcome& outcome);

// Collective: replaces *partial (a reproducible_partial of `type`, 64 bytes) with the merge of every rank's.
ZR_API void allreduce_partial(MPI_Comm comm, element_type type, void* partial);

// Collective: replaces *value (one element of `type`) with op over every rank's value, the same on every rank.
ZR_API void allreduce_value(MPI_Comm comm, element_type type, op_kind op, void* value);

template <typename T>
struct host_part {
  std::span<const T> data;
  void reduce_partial(queue& q, reproducible_partial<T>* partial, const property_list& props) const {
    q.reduce_partial(data, partial, props).wait();
  }
  template <typename BinaryOperation>
  T reduce(queue& q, BinaryOperation op, const property_list& props) const {
    return q.reduce_value(data, op, props);
  }
};

template <typename T>
struct device_part {
  const T* data;
  std::uint64_t n;
  void reduce_partial(queue& q, reproducible_partial<T>* partial, const property_list& props) const {
    q.reduce_partial(data, n, partial, props).wait();
  }
  template <typename BinaryOperation>
  T reduce(queue& q, BinaryOperation op, const property_list& props) const {
    return q.reduce_value(data, n, op, props);
  }
};

template <typename T, typename BinaryOperation, typename Part>
T allreduce(MPI_Comm comm, queue& q, const Part& part, BinaryOperation op, const property_list& props) {
  constexpr op_kind kind = zr::detail::checked_op<T, BinaryOperation>();
  static_assert(has_known_identity_v<zr::detail::typed_op_t<BinaryOperation, T>, T>,
                "each rank starts from the op's identity: this op has no known identity for this type");
  constexpr element_type type = zr::detail::element_type_of<T>();
  local_outcome outcome;

  if constexpr (zr::detail::is_floating_v<T> && kind == op_kind::plus) {
    if (props.reproducible()) {
      reproducible_partial<T> partial;
      try {
        part.reduce_partial(q, &partial, props);
      } catch (...) {
        outcome = outcome_of_current_exception();
      }
      agree(comm, {type, kind, true}, outcome);
      allreduce_partial(comm, type, &partial);
      return partial.value();
    }
  }

  T value{};
  try {
    value = part.reduce(q, op, props);
  } catch (...) {
    outcome = outcome_of_current_exception();
  }
  agree(comm, {type, kind, false}, outcome);
  allreduce_value(comm, type, kind, &value);
  return value;
}

}  // namespace detail

// The reduction with op of every rank's host data (read in place on CPU devices, else copied to the device).
template <typename T, typename BinaryOperation>
T allreduce(MPI_Comm comm, queue& q, std::span<const T> local_host_input, BinaryOperation op,
            const property_list& props = {}) {
  return detail::allreduce<T>(comm, q, detail::host_part<T>{local_host_input}, op, props);
}

// The same over each rank's input[0, n), an allocation of that rank's queue's device.
template <typename T, typename BinaryOperation>
T allreduce(MPI_Comm comm, queue& q, const T* local_device_input, std::uint64_t n, BinaryOperation op,
            const property_list& props = {}) {
  return detail::allreduce<T>(comm, q, detail::device_part<T>{local_device_input, n}, op, props);
}

}  // namespace zr::mpi
