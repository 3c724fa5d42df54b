#pragma once
// SYCL 2020 known identities (sycl::known_identity / has_known_identity) for ze-reduce's ops:
//   plus, bit_or, bit_xor: T{} (for arithmetic T; bitwise ops for integral T)     multiplies: T{1}
//   bit_and: ~T{} (integral T)        logical_and: true, logical_or: false (bool)
//   minimum: numeric_limits<T>::max() for integers, +infinity for floating types
//   maximum: numeric_limits<T>::lowest() for integers, -infinity for floating types
#include <limits>
#include <type_traits>

#include "zereduce/functional.hpp"
#include "zereduce/half.hpp"

namespace zr {

namespace detail {
template <typename T>
inline constexpr bool is_bool_v = std::is_same_v<std::remove_cv_t<T>, bool>;
template <typename T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !is_bool_v<T>;
template <typename T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || std::is_same_v<std::remove_cv_t<T>, half>;
template <typename T>
inline constexpr bool is_arithmetic_v = is_integer_v<T> || is_floating_v<T>;

template <typename Op>
struct op_base;
template <template <typename> class OpT, typename U>
struct op_base<OpT<U>> {
  template <typename V>
  using with = OpT<V>;
};

template <typename Op, typename T>
struct identity_rule {
  static constexpr bool known = false;
};
template <typename U, typename T>
struct identity_rule<plus<U>, T> {
  static constexpr bool known = is_arithmetic_v<T>;
  static constexpr T value() { return T{}; }
};
template <typename U, typename T>
struct identity_rule<multiplies<U>, T> {
  static constexpr bool known = is_arithmetic_v<T>;
  static constexpr T value() {
    if constexpr (std::is_same_v<T, half>) return half::from_bits(0x3c00);
    else return T{1};
  }
};
template <typename U, typename T>
struct identity_rule<bit_and<U>, T> {
  static constexpr bool known = is_integer_v<T>;
  static constexpr T value() { return static_cast<T>(~T{}); }
};
template <typename U, typename T>
struct identity_rule<bit_or<U>, T> {
  static constexpr bool known = is_integer_v<T>;
  static constexpr T value() { return T{}; }
};
template <typename U, typename T>
struct identity_rule<bit_xor<U>, T> {
  static constexpr bool known = is_integer_v<T>;
  static constexpr T value() { return T{}; }
};
template <typename U, typename T>
struct identity_rule<logical_and<U>, T> {
  static constexpr bool known = is_bool_v<T>;
  static constexpr T value() { return true; }
};
template <typename U, typename T>
struct identity_rule<logical_or<U>, T> {
  static constexpr bool known = is_bool_v<T>;
  static constexpr T value() { return false; }
};
template <typename U, typename T>
struct identity_rule<minimum<U>, T> {
  static constexpr bool known = is_arithmetic_v<T>;
  static constexpr T value() {
    if constexpr (std::is_same_v<T, half>) return half::from_bits(0x7c00);
    else if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
};
template <typename U, typename T>
struct identity_rule<maximum<U>, T> {
  static constexpr bool known = is_arithmetic_v<T>;
  static constexpr T value() {
    if constexpr (std::is_same_v<T, half>) return half::from_bits(0xfc00);
    else if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
};
}  // namespace detail

template <typename BinaryOperation, typename AccumulatorT>
struct has_known_identity
    : std::bool_constant<detail::identity_rule<std::remove_cv_t<BinaryOperation>, std::remove_cv_t<AccumulatorT>>::known> {};

template <typename BinaryOperation, typename AccumulatorT>
inline constexpr bool has_known_identity_v = has_known_identity<BinaryOperation, AccumulatorT>::value;

template <typename BinaryOperation, typename AccumulatorT>
struct known_identity {
  static_assert(has_known_identity_v<BinaryOperation, AccumulatorT>,
                "this operation has no known identity for this type (SYCL 2020 known_identity table)");
  static constexpr AccumulatorT value =
      detail::identity_rule<std::remove_cv_t<BinaryOperation>, std::remove_cv_t<AccumulatorT>>::value();
};

template <typename BinaryOperation, typename AccumulatorT>
inline constexpr AccumulatorT known_identity_v = known_identity<BinaryOperation, AccumulatorT>::value;

}  // namespace zr
