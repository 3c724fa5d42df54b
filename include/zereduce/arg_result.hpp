#pragma once
// Arg-reductions (queue::argmin, queue::argmax): the smallest or largest value of the input together with
// the 64-bit index of its first occurrence, as NumPy's argmin/argmax and CUB's ArgMin/ArgMax give them.
//
//   - ties: the smallest index wins, whatever the device, strategy or launch shape (the result never
//     depends on the order of combining, so every arg-reduction is deterministic and reproducible);
//   - floating types: the first NaN wins over every number, for argmin and argmax alike (NumPy's rule); the
//     value is then the canonical quiet NaN. -0.0 and +0.0 compare equal, so the first zero wins;
//   - n = 0 has no extreme: it is refused with zr::InvalidArgumentError (NumPy raises too);
//   - the variable is written, never read: there is no initial value to fold in.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "zereduce/half.hpp"
#include "zereduce/known_identity.hpp"

namespace zr {

template <typename T>
struct arg_result {
  T value{};
  std::uint64_t index = 0;
  friend bool operator==(const arg_result&, const arg_result&) = default;
};

namespace detail {
// zr::half compares through float.
template <typename T>
auto comparable(const T& x) {
  if constexpr (std::is_same_v<std::remove_cv_t<T>, half>) return static_cast<float>(x);
  else return x;
}
template <typename T>
bool is_nan_value(const T& x) {
  if constexpr (is_floating_v<T>) return std::isnan(comparable(x));
  else return false;
}

// Whether a comes before b in the arg-reduction's order: NaN first, then the better value, then the smaller index.
template <typename T, bool Largest>
bool arg_precedes(const arg_result<T>& a, const arg_result<T>& b) {
  const bool a_nan = is_nan_value(a.value), b_nan = is_nan_value(b.value);
  if (a_nan != b_nan) return a_nan;
  if (!a_nan) {
    const auto x = comparable(a.value), y = comparable(b.value);
    if (Largest ? y < x : x < y) return true;
    if (Largest ? x < y : y < x) return false;
  }
  return a.index < b.index;
}
}  // namespace detail

// The combine of two partial results on the host (for merging the results of pieces of one input, with their
// indices already offset to the whole input): the one that comes first by the rules above.
template <typename T = void>
struct argmin {
  arg_result<T> operator()(const arg_result<T>& a, const arg_result<T>& b) const {
    return detail::arg_precedes<T, false>(a, b) ? a : b;
  }
};
template <typename T = void>
struct argmax {
  arg_result<T> operator()(const arg_result<T>& a, const arg_result<T>& b) const {
    return detail::arg_precedes<T, true>(a, b) ? a : b;
  }
};
template <>
struct argmin<void> {
  template <typename T>
  arg_result<T> operator()(const arg_result<T>& a, const arg_result<T>& b) const { return argmin<T>{}(a, b); }
};
template <>
struct argmax<void> {
  template <typename T>
  arg_result<T> operator()(const arg_result<T>& a, const arg_result<T>& b) const { return argmax<T>{}(a, b); }
};

}  // namespace zr
