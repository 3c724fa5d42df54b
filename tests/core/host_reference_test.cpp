#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "host_reference.hpp"
#include "identity.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

template <typename T>
HostReference reduce(Op op, DataType type, const std::vector<T>& values, std::optional<Scalar> initial = std::nullopt) {
  return host_reference(op, type, std::as_bytes(std::span(values)), values.size(), known_identity(op, type), initial);
}

TEST(HostReference, GivenI8SumThatOverflows_WhenReduced_ThenWrapsModulo256) {
  const std::vector<std::int8_t> v(300, 1);  // 300 mod 256 = 44
  EXPECT_EQ(reduce(Op::plus, DataType::i8, v).value.as<std::int8_t>(), 44);
  const std::vector<std::int32_t> big{INT32_MAX, 1};
  EXPECT_EQ(reduce(Op::plus, DataType::i32, big).value.as<std::int32_t>(), INT32_MIN);
  const std::vector<std::uint16_t> mul{65535, 65535};  // would overflow a promoted int
  EXPECT_EQ(reduce(Op::multiplies, DataType::u16, mul).value.as<std::uint16_t>(), 1);
}

TEST(HostReference, GivenInitialValue_WhenReduced_ThenFoldedIn) {
  const std::vector<std::int32_t> v{1, 2, 3};
  EXPECT_EQ(reduce(Op::plus, DataType::i32, v, Scalar::from<std::int32_t>(DataType::i32, 10)).value.as<std::int32_t>(), 16);
  EXPECT_EQ(reduce(Op::maximum, DataType::i32, v, Scalar::from<std::int32_t>(DataType::i32, 10)).value.as<std::int32_t>(), 10);
}

TEST(HostReference, GivenNaNOrSignedZeros_WhenMinMax_ThenIeee754MinimumMaximum) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto min_nan = reduce(Op::minimum, DataType::f32, std::vector<float>{1.0f, nan, -3.0f});
  EXPECT_TRUE(std::isnan(min_nan.value.as<float>()));
  const auto min_zero = reduce(Op::minimum, DataType::f32, std::vector<float>{0.0f, -0.0f, 0.0f});
  EXPECT_TRUE(std::signbit(min_zero.value.as<float>()));
  const auto max_zero = reduce(Op::maximum, DataType::f32, std::vector<float>{-0.0f, 0.0f, -0.0f});
  EXPECT_FALSE(std::signbit(max_zero.value.as<float>()));
  const auto max_neg_zero = reduce(Op::maximum, DataType::f64, std::vector<double>{-0.0, -1.0});
  EXPECT_TRUE(std::signbit(max_neg_zero.value.as<double>()));
}

TEST(HostReference, GivenFloatSum_WhenComparedWithinBound_ThenReorderedSumAgreesAndWrongOneDoesNot) {
  std::vector<float> v;
  for (int i = 0; i < 100000; ++i) v.push_back(1.0f / static_cast<float>(i + 1));
  const auto ref = reduce(Op::plus, DataType::f32, v);
  EXPECT_GT(ref.tolerance, 0.0);
  float backwards = 0.0f;
  for (auto it = v.rbegin(); it != v.rend(); ++it) backwards += *it;
  EXPECT_TRUE(agrees(ref, Scalar::from(DataType::f32, backwards)));
  std::string why;
  EXPECT_FALSE(agrees(ref, Scalar::from(DataType::f32, backwards + 1.0f), &why));
  EXPECT_NE(why.find("off by"), std::string::npos);
}

TEST(HostReference, GivenInfinitiesInSum_WhenReduced_ThenExact) {
  const float inf = std::numeric_limits<float>::infinity();
  const auto pos = reduce(Op::plus, DataType::f32, std::vector<float>{1.0f, inf, 2.0f});
  EXPECT_EQ(pos.tolerance, 0.0);
  EXPECT_EQ(pos.value.as<float>(), inf);
  const auto both = reduce(Op::plus, DataType::f32, std::vector<float>{inf, -inf});
  EXPECT_TRUE(std::isnan(both.value.as<float>()));
}

TEST(HostReference, GivenFiniteSumThatOverflows_WhenDeviceGivesInfinity_ThenItAgrees) {
  const float max = std::numeric_limits<float>::max();
  const auto ref = reduce(Op::plus, DataType::f32, std::vector<float>(4, max));
  EXPECT_EQ(ref.value.as<float>(), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(agrees(ref, Scalar::from(DataType::f32, std::numeric_limits<float>::infinity())));
  EXPECT_FALSE(agrees(ref, Scalar::from(DataType::f32, max)));
}

TEST(HostReference, GivenProductOfManyFactors_WhenGroupedAsAShallowTree_ThenTheBoundCoversEveryMultiplication) {
  // 1 + e and 1 - e alternating: a pairwise tree (depth 13) rounds each of its 4096 multiplications, and each
  // rounding scales the whole product, so the bound must count n multiplications, not the tree's depth.
  std::vector<float> v;
  for (int i = 0; i < 4097; ++i) v.push_back(i % 2 ? 1.0f - 0x1.0p-12f : 1.0f + 0x1.0p-12f);
  std::vector<float> level = v;
  while (level.size() > 1) {
    std::vector<float> next;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(level[i] * level[i + 1]);
    if (level.size() % 2) next.push_back(level.back());
    level = next;
  }
  const auto ref = host_reference(Op::multiplies, DataType::f32, std::as_bytes(std::span(v)), v.size(),
                                  known_identity(Op::multiplies, DataType::f32), std::nullopt, 14);
  std::string why;
  EXPECT_TRUE(agrees(ref, Scalar::from(DataType::f32, level[0]), &why)) << why;
  EXPECT_FALSE(agrees(ref, Scalar::from(DataType::f32, level[0] * 1.01f)));
}

TEST(HostReference, GivenBool_WhenLogicalOps_ThenNonZeroBytesAreTrue) {
  const std::vector<std::uint8_t> v{1, 2, 255};
  EXPECT_EQ(reduce(Op::logical_and, DataType::boolean, v).value.as<std::uint8_t>(), 1);
  const std::vector<std::uint8_t> w{0, 0, 7};
  EXPECT_EQ(reduce(Op::logical_or, DataType::boolean, w).value.as<std::uint8_t>(), 1);
  EXPECT_EQ(reduce(Op::logical_and, DataType::boolean, w).value.as<std::uint8_t>(), 0);
}

TEST(HostReference, GivenTooFewBytes_WhenReduced_ThenErrorNamesTheSizes) {
  const std::vector<std::int32_t> v{1, 2};
  EXPECT_THROW(host_reference(Op::plus, DataType::i32, std::as_bytes(std::span(v)), 3,
                              known_identity(Op::plus, DataType::i32), std::nullopt),
               zr::InvalidArgumentError);
}

}  // namespace
}  // namespace zr::core
