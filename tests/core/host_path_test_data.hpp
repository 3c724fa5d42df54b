#pragma once
// Inputs and requests for the host path's tests (host_path_test.cpp, host_path_segments_test.cpp).
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "half.hpp"
#include "identity.hpp"
#include "strategy.hpp"

namespace zc = zr::core;

namespace zr::test {

// n elements of `type` from a seed: full-range integers, floats in [-4, 4), bool bytes of any value; with
// `specials`, every seventh element a NaN, a zero of either sign or an infinity (floating types).
inline std::vector<std::byte> make_data(zc::DataType type, std::uint64_t n, std::uint64_t seed, bool specials) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(-4.0, 4.0);
  const std::size_t size = zc::size_of(type);
  std::vector<std::byte> data(n * size);
  const double special_values[] = {std::numeric_limits<double>::quiet_NaN(), 0.0, -0.0,
                                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (std::uint64_t i = 0; i < n; ++i) {
    std::byte* out = data.data() + i * size;
    double value = unit(random);
    if (specials && i % 7 == 3) value = special_values[random() % 5];
    const std::uint64_t bits = random();
    switch (type) {
      case zc::DataType::f16: {
        const std::uint16_t h = zc::float_to_half_bits(static_cast<float>(value));
        std::memcpy(out, &h, 2);
        break;
      }
      case zc::DataType::f32: {
        const float f = static_cast<float>(value);
        std::memcpy(out, &f, 4);
        break;
      }
      case zc::DataType::f64: std::memcpy(out, &value, 8); break;
      case zc::DataType::boolean: {
        const auto b = static_cast<std::uint8_t>(i % 5 == 0 ? 0 : bits % 255 + 1);
        std::memcpy(out, &b, 1);
        break;
      }
      default: std::memcpy(out, &bits, size); break;
    }
  }
  return data;
}

inline zc::ReductionRequest request_for(zc::Op op, zc::DataType type, std::uint64_t n, bool include_initial) {
  zc::ReductionRequest request;
  request.op = op;
  request.type = type;
  request.n = n;
  request.identity = zc::known_identity(op, type);
  request.include_initial = include_initial;
  return request;
}


}  // namespace zr::test
