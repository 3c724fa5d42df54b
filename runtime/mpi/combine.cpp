#include "combine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "zereduce/half.hpp"

namespace zr::mpi::detail {

namespace {

constexpr std::size_t kTypes = static_cast<std::size_t>(element_type::boolean) + 1;
constexpr std::size_t kOps = static_cast<std::size_t>(op_kind::logical_or) + 1;

// Wrapping arithmetic through uint64_t: signed overflow, and the promotion of narrow unsigned types to int
// in a product, would be undefined behaviour.
template <typename T>
T combine_integer(op_kind op, T a, T b) {
  const auto wide_a = static_cast<std::uint64_t>(a);
  const auto wide_b = static_cast<std::uint64_t>(b);
  switch (op) {
    case op_kind::plus: return static_cast<T>(wide_a + wide_b);
    case op_kind::multiplies: return static_cast<T>(wide_a * wide_b);
    case op_kind::minimum: return std::min(a, b);
    case op_kind::maximum: return std::max(a, b);
    case op_kind::bit_and: return static_cast<T>(a & b);
    case op_kind::bit_or: return static_cast<T>(a | b);
    case op_kind::bit_xor: return static_cast<T>(a ^ b);
    default: return a;  // not defined(): allreduce_value refuses it before any MPI call
  }
}

template <typename F>
F combine_floating(op_kind op, F a, F b) {
  switch (op) {
    case op_kind::plus: return a + b;
    case op_kind::multiplies: return a * b;
    case op_kind::minimum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
      return (b < a || (b == a && std::signbit(b))) ? b : a;
    case op_kind::maximum:
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
      return (a < b || (a == b && std::signbit(a))) ? b : a;
    default: return a;  // not defined()
  }
}

std::uint8_t combine_bool(op_kind op, std::uint8_t a, std::uint8_t b) {
  const bool x = a != 0, y = b != 0;
  return (op == op_kind::logical_and ? (x && y) : (x || y)) ? 1 : 0;
}

// Element by element through memcpy: MPI's buffers need not be aligned for T.
template <typename T, typename Combine>
void combine_each(const void* in, void* inout, std::size_t count, Combine combine) {
  const auto* from = static_cast<const std::byte*>(in);
  auto* into = static_cast<std::byte*>(inout);
  for (std::size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, from + i * sizeof(T), sizeof(T));
    std::memcpy(&b, into + i * sizeof(T), sizeof(T));
    const T result = combine(a, b);
    std::memcpy(into + i * sizeof(T), &result, sizeof(T));
  }
}

template <typename T>
void combine_integers(op_kind op, const void* in, void* inout, std::size_t count) {
  combine_each<T>(in, inout, count, [op](T a, T b) { return combine_integer(op, a, b); });
}

template <element_type Type, op_kind Op>
void combine_thunk(void* in, void* inout, int* count, MPI_Datatype*) {
  combine_values(Type, Op, in, inout, static_cast<std::size_t>(*count));
}

template <std::size_t... Index>
constexpr std::array<MPI_User_function*, sizeof...(Index)> thunk_table(std::index_sequence<Index...>) {
  return {&combine_thunk<static_cast<element_type>(Index / kOps), static_cast<op_kind>(Index % kOps)>...};
}
constexpr auto kThunks = thunk_table(std::make_index_sequence<kTypes * kOps>{});

bool is_floating(element_type type) {
  return type == element_type::f16 || type == element_type::f32 || type == element_type::f64;
}

}  // namespace

std::size_t size_of(element_type type) {
  switch (type) {
    case element_type::i8:
    case element_type::u8:
    case element_type::boolean: return 1;
    case element_type::i16:
    case element_type::u16:
    case element_type::f16: return 2;
    case element_type::i32:
    case element_type::u32:
    case element_type::f32: return 4;
    case element_type::i64:
    case element_type::u64:
    case element_type::f64: return 8;
  }
  return 0;
}

bool defined(element_type type, op_kind op) {
  if (static_cast<std::size_t>(type) >= kTypes || static_cast<std::size_t>(op) >= kOps) return false;
  switch (op) {
    case op_kind::plus:
    case op_kind::multiplies:
    case op_kind::minimum:
    case op_kind::maximum: return type != element_type::boolean;
    case op_kind::bit_and:
    case op_kind::bit_or:
    case op_kind::bit_xor: return type != element_type::boolean && !is_floating(type);
    case op_kind::logical_and:
    case op_kind::logical_or: return type == element_type::boolean;
    default: return false;  // argmin/argmax and transform-reductions are not offered across ranks
  }
  return false;
}

void combine_values(element_type type, op_kind op, const void* in, void* inout, std::size_t count) {
  switch (type) {
    case element_type::i8: return combine_integers<std::int8_t>(op, in, inout, count);
    case element_type::i16: return combine_integers<std::int16_t>(op, in, inout, count);
    case element_type::i32: return combine_integers<std::int32_t>(op, in, inout, count);
    case element_type::i64: return combine_integers<std::int64_t>(op, in, inout, count);
    case element_type::u8: return combine_integers<std::uint8_t>(op, in, inout, count);
    case element_type::u16: return combine_integers<std::uint16_t>(op, in, inout, count);
    case element_type::u32: return combine_integers<std::uint32_t>(op, in, inout, count);
    case element_type::u64: return combine_integers<std::uint64_t>(op, in, inout, count);
    case element_type::f16:
      return combine_each<half>(in, inout, count, [op](half a, half b) {
        return half(combine_floating(op, static_cast<float>(a), static_cast<float>(b)));
      });
    case element_type::f32:
      return combine_each<float>(in, inout, count, [op](float a, float b) { return combine_floating(op, a, b); });
    case element_type::f64:
      return combine_each<double>(in, inout, count, [op](double a, double b) { return combine_floating(op, a, b); });
    case element_type::boolean:
      return combine_each<std::uint8_t>(in, inout, count,
                                        [op](std::uint8_t a, std::uint8_t b) { return combine_bool(op, a, b); });
  }
}

MPI_User_function* combiner(element_type type, op_kind op) {
  return kThunks[static_cast<std::size_t>(type) * kOps + static_cast<std::size_t>(op)];
}

}  // namespace zr::mpi::detail
