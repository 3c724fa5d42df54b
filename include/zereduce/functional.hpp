#pragma once
// The reduction operations, named as SYCL 2020 names them (sycl::plus, sycl::minimum, ...), typed and
// transparent (`zr::plus<>` deduces its operand type). They are usable on the host as ordinary function
// objects; on the device ze-reduce runs its precompiled kernel for the same op.
#include <type_traits>

namespace zr {

template <typename T = void>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <typename T = void>
struct multiplies {
  T operator()(const T& a, const T& b) const { return a * b; }
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
ZR_TRANSPARENT_OP(plus, a + b)
ZR_TRANSPARENT_OP(multiplies, a * b)
ZR_TRANSPARENT_OP(minimum, b < a ? b : a)
ZR_TRANSPARENT_OP(maximum, a < b ? b : a)
ZR_TRANSPARENT_OP(bit_and, a & b)
ZR_TRANSPARENT_OP(bit_or, a | b)
ZR_TRANSPARENT_OP(bit_xor, a ^ b)
ZR_TRANSPARENT_OP(logical_and, a && b)
ZR_TRANSPARENT_OP(logical_or, a || b)
#undef ZR_TRANSPARENT_OP

}  // namespace zr
