#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "data_types.hpp"
#include "half.hpp"
#include "identity.hpp"

namespace zr::core {
namespace {

TEST(DataTypes, GivenEveryType_WhenNamedAndParsed_ThenRoundTrips) {
  for (DataType t : kAllDataTypes) EXPECT_EQ(parse_data_type(name(t)), t) << name(t);
  for (Op op : kAllOps) EXPECT_EQ(parse_op(name(op)), op) << name(op);
  EXPECT_FALSE(parse_data_type("float"));
  EXPECT_FALSE(parse_op("sum"));
}

TEST(DataTypes, GivenOpTypePairs_WhenAskedIfSupported_ThenFollowTheSyclRules) {
  int supported = 0;
  for (Op op : kAllOps)
    for (DataType t : kAllDataTypes) supported += is_supported(op, t);
  // 8 integer types x 7 ops, 3 floating types x 4 ops, bool x 2 logical ops.
  EXPECT_EQ(supported, 8 * 7 + 3 * 4 + 2);
  EXPECT_FALSE(is_supported(Op::bit_and, DataType::f32));
  EXPECT_FALSE(is_supported(Op::logical_or, DataType::i32));
  EXPECT_FALSE(is_supported(Op::plus, DataType::boolean));
  EXPECT_TRUE(is_supported(Op::bit_xor, DataType::u8));
}

TEST(KnownIdentity, GivenIntegerOps_WhenIdentityAsked_ThenMatchesSycl2020Table) {
  EXPECT_EQ(known_identity(Op::plus, DataType::i32).as<std::int32_t>(), 0);
  EXPECT_EQ(known_identity(Op::multiplies, DataType::u16).as<std::uint16_t>(), 1);
  EXPECT_EQ(known_identity(Op::bit_and, DataType::u8).as<std::uint8_t>(), 0xff);
  EXPECT_EQ(known_identity(Op::bit_and, DataType::i64).as<std::int64_t>(), -1);
  EXPECT_EQ(known_identity(Op::bit_or, DataType::u64).as<std::uint64_t>(), 0u);
  EXPECT_EQ(known_identity(Op::bit_xor, DataType::i16).as<std::int16_t>(), 0);
  EXPECT_EQ(known_identity(Op::minimum, DataType::i8).as<std::int8_t>(), 127);
  EXPECT_EQ(known_identity(Op::maximum, DataType::i8).as<std::int8_t>(), -128);
  EXPECT_EQ(known_identity(Op::minimum, DataType::u32).as<std::uint32_t>(), 0xffffffffu);
  EXPECT_EQ(known_identity(Op::maximum, DataType::u64).as<std::uint64_t>(), 0u);
}

TEST(KnownIdentity, GivenFloatingAndBoolOps_WhenIdentityAsked_ThenMatchesSycl2020Table) {
  EXPECT_EQ(known_identity(Op::plus, DataType::f64).as<double>(), 0.0);
  EXPECT_FALSE(std::signbit(known_identity(Op::plus, DataType::f32).as<float>()));
  EXPECT_EQ(known_identity(Op::multiplies, DataType::f32).as<float>(), 1.0f);
  EXPECT_EQ(known_identity(Op::minimum, DataType::f32).as<float>(), std::numeric_limits<float>::infinity());
  EXPECT_EQ(known_identity(Op::maximum, DataType::f64).as<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(known_identity(Op::minimum, DataType::f16).as<std::uint16_t>(), 0x7c00);  // +inf
  EXPECT_EQ(known_identity(Op::maximum, DataType::f16).as<std::uint16_t>(), 0xfc00);  // -inf
  EXPECT_EQ(known_identity(Op::multiplies, DataType::f16).as<std::uint16_t>(), 0x3c00);  // 1.0
  EXPECT_EQ(known_identity(Op::logical_and, DataType::boolean).as<std::uint8_t>(), 1);
  EXPECT_EQ(known_identity(Op::logical_or, DataType::boolean).as<std::uint8_t>(), 0);
}

TEST(IsIdentity, GivenEverySupportedPair_WhenKnownIdentityChecked_ThenAccepted) {
  for (Op op : kAllOps)
    for (DataType type : kAllDataTypes)
      if (is_supported(op, type)) {
        EXPECT_TRUE(is_identity(op, known_identity(op, type))) << name(op) << " " << name(type);
      }
}

TEST(IsIdentity, GivenValuesThatChangeAResult_WhenChecked_ThenRefused) {
  EXPECT_FALSE(is_identity(Op::plus, Scalar::from(DataType::f32, 1.0f)));
  EXPECT_FALSE(is_identity(Op::multiplies, Scalar::from(DataType::i32, std::int32_t{0})));
  EXPECT_FALSE(is_identity(Op::minimum, Scalar::from(DataType::f32, std::numeric_limits<float>::max())));
  EXPECT_FALSE(is_identity(Op::maximum, Scalar::from(DataType::i8, std::int8_t{0})));
  EXPECT_FALSE(is_identity(Op::bit_and, Scalar::from(DataType::u8, std::uint8_t{0x7f})));
  EXPECT_FALSE(is_identity(Op::logical_and, Scalar::from(DataType::boolean, std::uint8_t{0})));
  EXPECT_FALSE(is_identity(Op::plus, Scalar::from(DataType::f64, std::numeric_limits<double>::quiet_NaN())));
}

TEST(IsIdentity, GivenNegativeZeroOrAnyTrueByte_WhenChecked_ThenAccepted) {
  EXPECT_TRUE(is_identity(Op::plus, Scalar::from(DataType::f32, -0.0f)));  // x + -0 == x for every x
  EXPECT_TRUE(is_identity(Op::plus, Scalar::from(DataType::f64, -0.0)));
  EXPECT_FALSE(is_identity(Op::multiplies, Scalar::from(DataType::f32, -1.0f)));
  EXPECT_TRUE(is_identity(Op::logical_and, Scalar::from(DataType::boolean, std::uint8_t{7})));
}

TEST(KnownIdentity, GivenPairSyclDoesNotAllow_WhenIdentityAsked_ThenThrowsNamingThePair) {
  try {
    known_identity(Op::bit_and, DataType::f32);
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("bit_and"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("f32"), std::string::npos);
  }
}

}  // namespace
}  // namespace zr::core
