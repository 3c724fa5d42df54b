#pragma once
// The reduction operations, named as SYCL 2020 names them (sycl::plus, sycl::minimum, ...), typed and
// transparent (`zr::plus<>` deduces its operand type). They are usable on the host as ordinary function
// objects; on the device ze-reduce runs its precompiled kernel for the same op.
#include <type_traits>

namespace zr {

namespace detail {
// Integer sums and products wrap, as the kernels' do: they are taken in an unsigned type at least as wide as
// unsigned int, where overflow is defined (a signed int overflowing is undefined behaviour on the host).
template <typename T>
inline constexpr bool wraps_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <typename T>
using wrapping_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
}  // namespace detail

template <typename T = void>
struct plus {
  constexpr T operator()(const T& a, const T& b) const {
    if constexpr (detail::wraps_v<T>)
      return static_cast<T>(static_cast<detail::wrapping_t<T>>(a) + static_cast<detail::wrapping_t<T>>(b));
    else
      return a + b;
  }
};
template <typename T = void>
struct multiplies {
  constexpr T operator()(const T& a, const T& b) const {
    if constexpr (detail::wraps_v<T>)
      return static_cast<T>(static_cast<detail::wrapping_t<T>>(a) * static_cast<detail::wrapping_t<T>>(b));
    else
      return a * b;
  }
};
template <typename T = void>
struct minimum {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <typename T = void>
struct maximum {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <typename T = void>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <typename T = void>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <typename T = void>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};
template <typename T = void>
struct logical_and {
  bool operator()(const T& a, const T& b) const { return a && b; }
};
template <typename T = void>
struct logical_or {
  bool operator()(const T& a, const T& b) const { return a || b; }
};

#define ZR_TRANSPARENT_OP(NAME, EXPR)                                     \
  template <>                                                             \
  struct NAME<void> {                                                     \
    using is_transparent = void;                                          \
    template <typename T, typename U>                                     \
    auto operator()(T&& a, U&& b) const -> decltype(EXPR) { return EXPR; } \
  };
// The transparent sum and product: the operands' usual arithmetic conversions, then plus<R> or multiplies<R> of
// the result type R (wrapping integers).
template <>
struct plus<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr auto operator()(T&& a, U&& b) const -> decltype(a + b) {
    using R = decltype(a + b);
    return plus<R>()(static_cast<R>(a), static_cast<R>(b));
  }
};
template <>
struct multiplies<void> {
  using is_transparent = void;
  template <typename T, typename U>
  constexpr auto operator()(T&& a, U&& b) const -> decltype(a * b) {
    using R = decltype(a * b);
    return multiplies<R>()(static_cast<R>(a), static_cast<R>(b));
  }
};
ZR_TRANSPARENT_OP(minimum, b < a ? b : a)
ZR_TRANSPARENT_OP(maximum, a < b ? b : a)
ZR_TRANSPARENT_OP(bit_and, a & b)
ZR_TRANSPARENT_OP(bit_or, a | b)
ZR_TRANSPARENT_OP(bit_xor, a ^ b)
ZR_TRANSPARENT_OP(logical_and, a && b)
ZR_TRANSPARENT_OP(logical_or, a || b)
#undef ZR_TRANSPARENT_OP

}  // namespace zr
