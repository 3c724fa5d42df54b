#pragma once
// zr::half: an IEEE 754 binary16 value held by its bits, so that f16 data can be passed to and read from
// ze-reduce without compiler support for a half type. Arithmetic is not provided: convert to float.
#include <cstdint>

#include "zereduce/export.hpp"

namespace zr {

struct ZR_API half {
  std::uint16_t bits = 0;

  half() = default;
  explicit half(float value);
  explicit operator float() const;
  static constexpr half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  friend bool operator==(half a, half b) { return static_cast<float>(a) == static_cast<float>(b); }
};

}  // namespace zr
