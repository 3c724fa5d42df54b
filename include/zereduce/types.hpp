#pragma once
// The element types and operations of ze-reduce as runtime values, and the compile-time mapping from C++
// types and function objects to them. A (type, op) pair outside the table below does not compile.
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "zereduce/export.hpp"
#include "zereduce/functional.hpp"
#include "zereduce/half.hpp"
#include "zereduce/known_identity.hpp"

namespace zr {

enum class element_type : std::uint8_t { i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, boolean };
enum class op_kind : std::uint8_t {
  plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, logical_and, logical_or,
  argmin, argmax,  // queue::argmin / queue::argmax (zereduce/arg_result.hpp)
  // queue::transform_reduce (zereduce/transform.hpp)
  sum_squares, norm_l2, norm_l1, count_nonzero, count_equal, sum_i64, sum_u64, sum_f32, sum_f64,
  mean_var_f32, mean_var_f64,  // transform_reduce with zr::mean_variance<float|double>
  user  // queue::reduce with a zr::user_operator (zereduce/user_operator.hpp)
};

// "i8" ... "u64", "f16", "f32", "f64", "bool"; the SYCL names "plus" ... "logical_or".
ZR_API std::string_view to_string(element_type type);
ZR_API std::string_view to_string(op_kind op);

namespace detail {

template <typename T>
constexpr bool is_element_v = is_arithmetic_v<T> || is_bool_v<T>;

template <typename T>
constexpr element_type element_type_of() {
  using U = std::remove_cv_t<T>;
  static_assert(is_element_v<U>,
                "ze-reduce reduces 8- to 64-bit integers, zr::half, float, double and bool");
  if constexpr (is_bool_v<U>) return element_type::boolean;
  else if constexpr (std::is_same_v<U, half>) return element_type::f16;
  else if constexpr (std::is_same_v<U, float>) return element_type::f32;
  else if constexpr (std::is_same_v<U, double>) {
    return element_type::f64;
  } else {
    static_assert(std::is_integral_v<U> && sizeof(U) <= 8, "long double and 128-bit integers are not supported");
    constexpr int index = sizeof(U) == 1 ? 0 : sizeof(U) == 2 ? 1 : sizeof(U) == 4 ? 2 : 3;
    return static_cast<element_type>(index + (std::is_signed_v<U> ? 0 : 4));
  }
}

template <typename BinaryOperation>
struct op_of {
  static constexpr bool known = false;
};
#define ZR_DETAIL_OP(NAME)                                  \
  template <typename U>                                     \
  struct op_of<NAME<U>> {                                   \
    static constexpr bool known = true;                     \
    static constexpr op_kind kind = op_kind::NAME;          \
    using operand = U;                                      \
    template <typename V>                                   \
    using rebind = NAME<V>;                                 \
  };
ZR_DETAIL_OP(plus)
ZR_DETAIL_OP(multiplies)
ZR_DETAIL_OP(minimum)
ZR_DETAIL_OP(maximum)
ZR_DETAIL_OP(bit_and)
ZR_DETAIL_OP(bit_or)
ZR_DETAIL_OP(bit_xor)
ZR_DETAIL_OP(logical_and)
ZR_DETAIL_OP(logical_or)
#undef ZR_DETAIL_OP

// The pairs ze-reduce has kernels for (the same rule as the runtime's table): arithmetic ops on integers
// and floating types, bitwise ops on integers, logical ops on bool.
template <typename T>
constexpr bool supports(op_kind op) {
  switch (op) {
    case op_kind::plus: case op_kind::multiplies: case op_kind::minimum: case op_kind::maximum:
      return is_arithmetic_v<T>;
    case op_kind::bit_and: case op_kind::bit_or: case op_kind::bit_xor:
      return is_integer_v<T>;
    case op_kind::logical_and: case op_kind::logical_or:
      return is_bool_v<T>;
    case op_kind::argmin: case op_kind::argmax:
      return is_arithmetic_v<T>;
    // Transform-reductions (zereduce/transform.hpp, which checks them at compile time).
    case op_kind::sum_squares: case op_kind::norm_l2: case op_kind::norm_l1:
      return is_floating_v<T>;
    case op_kind::count_nonzero: case op_kind::count_equal:
      return is_element_v<T>;
    case op_kind::sum_i64: case op_kind::sum_u64:
      return is_integer_v<T> || is_bool_v<T>;
    case op_kind::sum_f32:
      return std::is_same_v<std::remove_cv_t<T>, half>;
    case op_kind::sum_f64:
      return std::is_same_v<std::remove_cv_t<T>, half> || std::is_same_v<std::remove_cv_t<T>, float>;
    case op_kind::mean_var_f32:
      return is_integer_v<T> || std::is_same_v<std::remove_cv_t<T>, half> || std::is_same_v<std::remove_cv_t<T>, float>;
    case op_kind::mean_var_f64:
      return is_arithmetic_v<T>;
    case op_kind::user:
      return false;  // user operators are checked by zr::user_operator, not here
  }
  return false;
}

// The checks every reduction of T with BinaryOperation goes through, with messages that say what to change.
template <typename T, typename BinaryOperation>
constexpr op_kind checked_op() {
  using Op = std::remove_cv_t<BinaryOperation>;
  static_assert(op_of<Op>::known,
                "ze-reduce runs precompiled kernels: the operation must be one of zr::plus, multiplies, minimum, "
                "maximum, bit_and, bit_or, bit_xor, logical_and, logical_or (typed or transparent)");
  if constexpr (op_of<Op>::known) {
    using U = typename op_of<Op>::operand;
    static_assert(std::is_void_v<U> || std::is_same_v<std::remove_cv_t<U>, std::remove_cv_t<T>>,
                  "the function object's type differs from the reduction variable's type");
    static_assert(supports<std::remove_cv_t<T>>(op_of<Op>::kind),
                  "this (operation, type) pair is not allowed: bit_and/bit_or/bit_xor need an integer type, "
                  "logical_and/logical_or need bool, plus/multiplies/minimum/maximum need a number");
    return op_of<Op>::kind;
  }
  return op_kind::plus;
}

}  // namespace detail
}  // namespace zr
