// The suite's comparison with the host reference fails what is wrong and passes what IEEE arithmetic allows;
// its test names carry device, op, type, strategy and size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <regex>
#include <vector>

#include "input_generation.hpp"
#include "reference_check.hpp"
#include "test_naming.hpp"

namespace zr::conformance {
namespace {

ConformanceCase case_of(element_type type, op_kind op, InputKind input, std::uint64_t n) {
  ConformanceCase c;
  c.type = type;
  c.op = op;
  c.input = input;
  c.n = n;
  c.seed = 3;
  c.properties.initialize_to_identity = true;
  return c;
}

template <typename T>
core::Scalar scalar(element_type type, T value) {
  return core::Scalar::from(static_cast<core::DataType>(type), value);
}

TEST(ReferenceCheck, GivenIntegerSum_WhenExactOrOffByOne_ThenOnlyTheExactOneAgrees) {
  const ConformanceCase c = case_of(element_type::i32, op_kind::plus, InputKind::ascending, 4);
  const std::vector<std::int32_t> values{1, 2, 3, 4};
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), values.data(), 16);
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 10), 3));
  const auto why = disagreement(c, bytes, initial, scalar(c.type, 11), 3);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("expected exactly 10"), std::string::npos) << *why;
}

TEST(ReferenceCheck, GivenInitialValue_WhenNotInitializedToIdentity_ThenItMustBeFoldedIn) {
  ConformanceCase c = case_of(element_type::i64, op_kind::plus, InputKind::ascending, 2);
  c.properties.initialize_to_identity = false;
  const std::vector<std::int64_t> values{5, 6};
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), values.data(), 16);
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  EXPECT_NE(initial.as<std::int64_t>(), 0);
  EXPECT_TRUE(disagreement(c, bytes, initial, scalar(c.type, std::int64_t{11}), 1));
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 11 + initial.as<std::int64_t>()), 1));
}

// The memo keeps a reference per (fold, op, type, n, initial, bound depth) of one input: a case that differs in
// any of them gets its own reference, and another input forgets them all.
TEST(ReferenceCheck, GivenAMemo_WhenCasesDifferInInitialOpOrInput_ThenEachIsCheckedAgainstItsOwnReference) {
  ReferenceMemo memo;
  ConformanceCase c = case_of(element_type::i32, op_kind::plus, InputKind::ascending, 4);
  std::vector<std::int32_t> values{1, 2, 3, 4};
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), values.data(), 16);
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  memo.use_input("ascending i32 x4");
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 10), 3, &memo));
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 10), 7, &memo));  // another depth, exact: shared
  EXPECT_TRUE(disagreement(c, bytes, initial, scalar(c.type, 11), 3, &memo));
  c.properties.initialize_to_identity = false;  // the initial value is folded in now
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 10 + initial.as<std::int32_t>()), 3, &memo));
  c.op = op_kind::maximum;
  c.properties.initialize_to_identity = true;
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 4), 3, &memo));
  values[3] = 40;  // another input: what was kept is forgotten
  std::memcpy(bytes.data(), values.data(), 16);
  memo.use_input("other i32 x4");
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 40), 3, &memo));
  c.op = op_kind::plus;
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 46), 3, &memo));
  EXPECT_TRUE(disagreement(c, bytes, initial, scalar(c.type, 10), 3, &memo));
}

TEST(ReferenceCheck, GivenNaNSum_WhenTheDeviceGivesANegativeNaN_ThenItAgrees_ButMaximumWantsTheCanonicalNaN) {
  const float negative_nan = -std::numeric_limits<float>::quiet_NaN();  // what x86 gives for inf - inf
  ASSERT_TRUE(std::signbit(negative_nan));
  const std::vector<float> values{1.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  std::vector<std::byte> bytes(12);
  std::memcpy(bytes.data(), values.data(), 12);
  const ConformanceCase sum = case_of(element_type::f32, op_kind::plus, InputKind::infinities, 3);
  EXPECT_FALSE(disagreement(sum, bytes, initial_value(sum.type, sum.op, 3), scalar(sum.type, negative_nan), 2));
  EXPECT_TRUE(disagreement(sum, bytes, initial_value(sum.type, sum.op, 3), scalar(sum.type, 1.0f), 2));

  std::vector<float> with_nan{1.0f, std::numeric_limits<float>::quiet_NaN()};
  std::memcpy(bytes.data(), with_nan.data(), 8);
  const ConformanceCase max = case_of(element_type::f32, op_kind::maximum, InputKind::nan_last, 2);
  const core::Scalar initial = initial_value(max.type, max.op, 3);
  EXPECT_FALSE(disagreement(max, bytes, initial, scalar(max.type, std::numeric_limits<float>::quiet_NaN()), 1));
  EXPECT_TRUE(disagreement(max, bytes, initial, scalar(max.type, negative_nan), 1));
}

// A tree product of 4097 factors (1 +- 2^-12) that PoCL's tree strategy really returned (combine depth 78):
// 2^-13 away from the exact product, far beyond gamma(78) but within gamma(n + 1): products are bounded by
// the number of multiplications, not by the tree's height.
TEST(ReferenceCheck, GivenATreeProduct_WhenOffByMoreThanTheDepthBound_ThenStillWithinTheProductBound) {
  const ConformanceCase c = case_of(element_type::f32, op_kind::multiplies, InputKind::order_sensitive, 4097);
  std::vector<float> values(c.n);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = i % 2 ? 1.0f - 0x1p-12f : 1.0f + 0x1p-12f;
  std::vector<std::byte> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  const core::Scalar initial = initial_value(c.type, c.op, c.seed);
  EXPECT_FALSE(disagreement(c, bytes, initial, scalar(c.type, 1.0000037f), 78));
  EXPECT_TRUE(disagreement(c, bytes, initial, scalar(c.type, 1.001f), 78));
}

TEST(ReferenceCheck, GivenFiniteValuesWhoseSumOverflows_WhenTheDeviceGivesInfinity_ThenItAgrees) {
  const ConformanceCase c = case_of(element_type::f32, op_kind::plus, InputKind::all_equal, 4);
  const std::vector<float> values(4, std::numeric_limits<float>::max());
  std::vector<std::byte> bytes(16);
  std::memcpy(bytes.data(), values.data(), 16);
  EXPECT_FALSE(disagreement(c, bytes, initial_value(c.type, c.op, 3),
                            scalar(c.type, std::numeric_limits<float>::infinity()), 3));
}

TEST(TestNaming, GivenACase_WhenNamed_ThenGivenWhenThenWithInputSizeOpStrategyAndProperties) {
  ConformanceCase c = case_of(element_type::f64, op_kind::bit_and, InputKind::nan_middle, 65537);
  c.type = element_type::u16;
  c.strategy = strategy::global_atomics;
  c.properties = {false, true};
  EXPECT_EQ(test_name(c), "GivenNaNMiddleOf65537_WhenBitAndByGlobalAtomicsWithInitialValueDeterministic_ThenExactlyHostReference");
  c.type = element_type::f32;
  c.op = op_kind::plus;
  EXPECT_EQ(test_name(c), "GivenNaNMiddleOf65537_WhenPlusByGlobalAtomicsWithInitialValueDeterministic_ThenWithinErrorBoundAndBitwiseRepeatable");
  c.expectation = Expectation::strategy_refused;
  EXPECT_TRUE(std::regex_match(test_name(c), std::regex("Given[A-Za-z0-9]+_When[A-Za-z]+_Then[A-Za-z]+")));
}

}  // namespace
}  // namespace zr::conformance
