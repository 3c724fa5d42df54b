#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "half.hpp"

namespace zr::core {
namespace {

TEST(Half, GivenEveryHalfValue_WhenConvertedToFloatAndBack_ThenBitsRoundTrip) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    const float f = half_bits_to_float(h);
    if (std::isnan(f)) {
      EXPECT_EQ(float_to_half_bits(f) & 0x7fff, 0x7e00) << bits;  // NaN becomes the canonical quiet NaN
      continue;
    }
    EXPECT_EQ(float_to_half_bits(f), h) << "half bits " << bits;
  }
}

TEST(Half, GivenFloatsBetweenHalves_WhenConverted_ThenRoundToNearestEven) {
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);                // tie -> even
  EXPECT_EQ(float_to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);            // tie -> even (up)
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7c00);  // rounds to infinity
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -25)), 0x0000);  // tie -> even (zero)
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_bits_to_float(0xc000), -2.0f);
}

}  // namespace
}  // namespace zr::core
