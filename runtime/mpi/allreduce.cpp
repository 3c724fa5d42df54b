// The exchanges of zr::mpi::allreduce, after every rank has agreed that its local reduction succeeded.
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "combine.hpp"
#include "handles.hpp"
#include "mpi_call.hpp"
#include "zereduce/errors.hpp"
#include "zereduce/mpi.hpp"

namespace zr::mpi::detail {

namespace {

template <typename T>
void merge_partials(void* in, void* inout, int* count, MPI_Datatype*) {
  constexpr std::size_t bytes = reproducible_partial<T>::bytes;
  static_assert(sizeof(reproducible_partial<T>) == bytes && std::is_trivially_copyable_v<reproducible_partial<T>>);
  const auto* from = static_cast<const std::byte*>(in);
  auto* into = static_cast<std::byte*>(inout);
  for (int i = 0; i < *count; ++i) {
    reproducible_partial<T> a, b;
    std::memcpy(&a, from + i * bytes, bytes);
    std::memcpy(&b, into + i * bytes, bytes);
    b += a;
    std::memcpy(into + i * bytes, &b, bytes);
  }
}

MPI_User_function* partial_merger(element_type type) {
  switch (type) {
    case element_type::f16: return &merge_partials<half>;
    case element_type::f32: return &merge_partials<float>;
    case element_type::f64: return &merge_partials<double>;
    default:
      throw InvalidArgumentError("zr::mpi::allreduce: reproducible partial sums are of f16, f32 or f64, not " +
                                 std::string(to_string(type)));
  }
}

}  // namespace

void allreduce_partial(MPI_Comm comm, element_type type, void* partial) {
  MPI_User_function* merge = partial_merger(type);
  const byte_block_type block(static_cast<int>(reproducible_partial<double>::bytes));
  const commutative_op op(merge);
  // The merge is exact integer arithmetic, associative and commutative: MPI's order and grouping, which
  // differ between implementations, rank counts and ranks, cannot change a bit of the result.
  check(MPI_Allreduce(MPI_IN_PLACE, partial, 1, block.get(), op.get(), comm), "MPI_Allreduce");
}

void allreduce_value(MPI_Comm comm, element_type type, op_kind op, void* value) {
  if (!defined(type, op)) {
    throw InvalidArgumentError("zr::mpi::allreduce: " + std::string(to_string(op)) + " is not defined over " +
                               std::string(to_string(type)));
  }
  const byte_block_type block(static_cast<int>(size_of(type)));
  const commutative_op combine(combiner(type, op));
  check(MPI_Allreduce(MPI_IN_PLACE, value, 1, block.get(), combine.get(), comm), "MPI_Allreduce");
  // Floating plus and multiplies are not associative, and MPI does not promise that every rank combines in
  // the same grouping: rank 0's bits go to every rank.
  const bool floating = type == element_type::f16 || type == element_type::f32 || type == element_type::f64;
  if (floating && (op == op_kind::plus || op == op_kind::multiplies))
    check(MPI_Bcast(value, 1, block.get(), 0, comm), "MPI_Bcast");
}

}  // namespace zr::mpi::detail
