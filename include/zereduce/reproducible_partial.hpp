#pragma once
// zr::reproducible_partial<T>: a reproducible sum (property::reduction::reproducible) before its one
// rounding. queue::reduce_partial leaves one; partials of any parts of the data, made on any devices, in any
// processes, merge exactly (+=, in any order and grouping), and value() rounds the merged partial once: the
// same bits as one reproducible sum of all the data on any device (docs/api.md, "Partial sums").
//
// A partial is 64 trivially copyable bytes in a fixed layout (four 64-bit bins, the top bin's index, flags
// for infinities and NaN, two zero words), the same on every device and host: send it as 64 bytes between
// processes of the same byte order (zereduce_mpi does).
#include <array>
#include <cstdint>
#include <type_traits>

#include "zereduce/export.hpp"
#include "zereduce/types.hpp"

namespace zr {

namespace detail {
using partial_words = std::array<std::int64_t, 8>;
ZR_API void merge_partial(partial_words& into, const partial_words& other);
// `value` points to one element of `type` (f16, f32 or f64).
ZR_API void add_to_partial(partial_words& into, element_type type, const void* value);
ZR_API void round_partial(const partial_words& partial, element_type type, void* value);
}  // namespace detail

template <typename T>
class reproducible_partial {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, double>,
                "reproducible partial sums are of zr::half, float or double values");

 public:
  using value_type = T;
  static constexpr std::size_t bytes = 64;

  // Holds no value: its value() is +0.0.
  reproducible_partial() = default;

  // Merges another partial of the same type in, exactly: the order of merges never changes the result.
  reproducible_partial& operator+=(const reproducible_partial& other) {
    detail::merge_partial(words_, other.words_);
    return *this;
  }
  friend reproducible_partial operator+(reproducible_partial a, const reproducible_partial& b) { return a += b; }

  // Adds one value (a reduction variable's initial value, say), as a device would have.
  reproducible_partial& add(T value) {
    detail::add_to_partial(words_, detail::element_type_of<T>(), &value);
    return *this;
  }

  // The sum rounded once, to nearest even (NaN and infinities as the plain sum gives them; an exact zero is +0.0).
  T value() const {
    T result{};
    detail::round_partial(words_, detail::element_type_of<T>(), &result);
    return result;
  }

  bool operator==(const reproducible_partial&) const = default;

 private:
  detail::partial_words words_{};
};

}  // namespace zr
