// The suite's inputs are what their names promise: reproducible from the seed, special values where they are
// said to be, orders that really change a rounded sum, products that stay in range.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "input_generation.hpp"

namespace zr::conformance {
namespace {

template <typename T>
std::vector<T> values_of(element_type type, op_kind op, InputKind kind, std::uint64_t n, std::uint64_t seed = 5) {
  const std::vector<std::byte> bytes = make_input(type, op, kind, n, seed);
  EXPECT_EQ(bytes.size(), n * sizeof(T));
  std::vector<T> values(n);
  if (n) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TEST(InputGeneration, GivenTheSameSeed_WhenGeneratedTwice_ThenTheBytesAreEqual_AndAnotherSeedDiffers) {
  EXPECT_EQ(make_input(element_type::i32, op_kind::plus, InputKind::random, 1000, 9),
            make_input(element_type::i32, op_kind::plus, InputKind::random, 1000, 9));
  EXPECT_NE(make_input(element_type::i32, op_kind::plus, InputKind::random, 1000, 9),
            make_input(element_type::i32, op_kind::plus, InputKind::random, 1000, 10));
}

TEST(InputGeneration, GivenNaNInputs_WhenGenerated_ThenExactlyOneNaNAtTheNamedIndex) {
  const std::uint64_t n = 33;
  for (const auto& [kind, at] : {std::pair{InputKind::nan_first, 0ull}, std::pair{InputKind::nan_middle, 16ull},
                                 std::pair{InputKind::nan_last, 32ull}}) {
    const auto values = values_of<float>(element_type::f32, op_kind::plus, kind, n);
    for (std::uint64_t i = 0; i < n; ++i) EXPECT_EQ(std::isnan(values[i]), i == at) << name(kind) << " index " << i;
  }
}

TEST(InputGeneration, GivenInfinities_WhenGenerated_ThenPlusAndMinusInfinityAmongFiniteValues) {
  const auto values = values_of<double>(element_type::f64, op_kind::maximum, InputKind::infinities, 33);
  EXPECT_EQ(values[11], std::numeric_limits<double>::infinity());
  EXPECT_EQ(values[22], -std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (i != 11 && i != 22) {
      EXPECT_TRUE(std::isfinite(values[i])) << i;
    }
}

TEST(InputGeneration, GivenSignedZeros_WhenGenerated_ThenOnlyZerosOfBothSigns) {
  const auto values = values_of<float>(element_type::f32, op_kind::minimum, InputKind::signed_zeros, 257);
  int negative = 0;
  for (float v : values) {
    EXPECT_EQ(v, 0.0f);
    negative += std::signbit(v);
  }
  EXPECT_GT(negative, 0);
  EXPECT_LT(negative, 257);
}

TEST(InputGeneration, GivenSubnormals_WhenGenerated_ThenEveryValueIsSubnormalForItsType) {
  for (float v : values_of<float>(element_type::f32, op_kind::plus, InputKind::subnormals, 257))
    EXPECT_EQ(std::fpclassify(v), FP_SUBNORMAL) << v;
  for (double v : values_of<double>(element_type::f64, op_kind::plus, InputKind::subnormals, 257))
    EXPECT_EQ(std::fpclassify(v), FP_SUBNORMAL) << v;
  for (half v : values_of<half>(element_type::f16, op_kind::plus, InputKind::subnormals, 257)) {
    EXPECT_EQ(v.bits & 0x7c00, 0) << std::hex << v.bits;  // exponent field 0 ...
    EXPECT_NE(v.bits & 0x03ff, 0) << std::hex << v.bits;  // ... and a non-zero significand
  }
}

TEST(InputGeneration, GivenAscendingAndDescendingIntegers_WhenGenerated_ThenMonotoneOverTheWholeRange) {
  const auto up = values_of<std::int8_t>(element_type::i8, op_kind::plus, InputKind::ascending, 257);
  const auto down = values_of<std::int8_t>(element_type::i8, op_kind::plus, InputKind::descending, 257);
  for (std::size_t i = 1; i < up.size(); ++i) {
    EXPECT_LE(up[i - 1], up[i]) << i;
    EXPECT_GE(down[i - 1], down[i]) << i;
  }
  EXPECT_EQ(up.front(), -128);
  EXPECT_GE(up.back(), 125);
  EXPECT_EQ(down.back(), -128);
}

TEST(InputGeneration, GivenIntegerProducts_WhenGenerated_ThenEveryFactorIsOdd) {
  for (std::uint32_t v : values_of<std::uint32_t>(element_type::u32, op_kind::multiplies, InputKind::random, 1000))
    EXPECT_EQ(v % 2, 1u);
}

TEST(InputGeneration, GivenIntegerOverflowInput_WhenGenerated_ThenValuesAreWithin3OfTheMaximum) {
  for (std::int16_t v : values_of<std::int16_t>(element_type::i16, op_kind::plus, InputKind::integer_overflow, 100))
    EXPECT_GE(v, std::numeric_limits<std::int16_t>::max() - 3);
}

TEST(InputGeneration, GivenRandomBool_WhenGenerated_ThenTrueIsSpelledWithManyDifferentBytes) {
  const auto bytes = values_of<std::uint8_t>(element_type::boolean, op_kind::logical_and, InputKind::random, 4097);
  int zeros = 0, beyond_one = 0;
  for (std::uint8_t b : bytes) {
    zeros += b == 0;
    beyond_one += b > 1;
  }
  EXPECT_GT(zeros, 0);
  EXPECT_GT(beyond_one, 1000);
}

TEST(InputGeneration, GivenRandomFloatingProducts_WhenGenerated_ThenEveryFactorIsWithin2ToMinus10OfOne) {
  for (float v : values_of<float>(element_type::f32, op_kind::multiplies, InputKind::random, 1 << 16))
    EXPECT_LE(std::fabs(v - 1.0f), 0x1p-10f) << v;
}

// The order-sensitive sum must really be: added one at a time, the small values vanish into the large one;
// added in pairs first, they do not.
TEST(InputGeneration, GivenOrderSensitiveF32Sum_WhenAddedInTwoOrders_ThenTheRoundedResultsDiffer) {
  const auto values = values_of<float>(element_type::f32, op_kind::plus, InputKind::order_sensitive, 4097);
  std::size_t big_at = 0;
  float sequential = 0.0f;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] == 1.0f) big_at = i;
  }
  sequential = values[big_at];
  for (std::size_t i = 0; i < values.size(); ++i)
    if (i != big_at) sequential += values[i];
  std::vector<float> level(values);
  while (level.size() > 1) {
    std::vector<float> next;
    for (std::size_t i = 0; i < level.size(); i += 2) next.push_back(i + 1 < level.size() ? level[i] + level[i + 1] : level[i]);
    level.swap(next);
  }
  EXPECT_EQ(sequential, 1.0f);
  EXPECT_GT(level.front(), 1.0f);
}

}  // namespace
}  // namespace zr::conformance
