#include <gtest/gtest.h>

#include <cmath>

#include "scalar.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

TEST(Scalar, GivenTextInRange_WhenParsed_ThenHoldsTheValue) {
  EXPECT_EQ(parse_scalar(DataType::i8, "-128").as<std::int8_t>(), -128);
  EXPECT_EQ(parse_scalar(DataType::u8, "0xff").as<std::uint8_t>(), 255);
  EXPECT_EQ(parse_scalar(DataType::u64, "18446744073709551615").as<std::uint64_t>(), ~0ull);
  EXPECT_EQ(parse_scalar(DataType::i64, "-9223372036854775808").as<std::int64_t>(), INT64_MIN);
  EXPECT_EQ(parse_scalar(DataType::f32, "1.5").as<float>(), 1.5f);
  EXPECT_TRUE(std::isinf(parse_scalar(DataType::f64, "-inf").as<double>()));
  EXPECT_EQ(parse_scalar(DataType::f16, "2").as<std::uint16_t>(), 0x4000);
  EXPECT_EQ(parse_scalar(DataType::boolean, "true").as<std::uint8_t>(), 1);
}

TEST(Scalar, GivenTextOutOfRangeOrMalformed_WhenParsed_ThenErrorNamesTheProblem) {
  EXPECT_THROW(parse_scalar(DataType::i8, "128"), zr::InvalidArgumentError);
  EXPECT_THROW(parse_scalar(DataType::u16, "-1"), zr::InvalidArgumentError);
  EXPECT_THROW(parse_scalar(DataType::i32, "12abc"), zr::InvalidArgumentError);
  EXPECT_THROW(parse_scalar(DataType::f32, "one"), zr::InvalidArgumentError);
  EXPECT_THROW(parse_scalar(DataType::boolean, "yes"), zr::InvalidArgumentError);
  try {
    parse_scalar(DataType::u8, "300");
  } catch (const zr::InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("u8"), std::string::npos);
  }
}

// A value the type cannot hold is refused, never turned into another one (1e6 would be inf in f16; a 65-bit
// integer is not "not an integer").
TEST(Scalar, GivenAValueBeyondTheTypesRange_WhenParsed_ThenErrorSaysItDoesNotFit) {
  const auto message = [](DataType type, const char* text) {
    try {
      parse_scalar(type, text);
    } catch (const zr::InvalidArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(DataType::f16, "1e6").find("does not fit in f16 (its largest value is 65504)"), std::string::npos);
  EXPECT_NE(message(DataType::f16, "-65520").find("does not fit in f16"), std::string::npos);
  EXPECT_NE(message(DataType::f32, "1e39").find("does not fit in f32"), std::string::npos);
  EXPECT_NE(message(DataType::f64, "1e400").find("does not fit in f64"), std::string::npos);
  EXPECT_NE(message(DataType::u64, "18446744073709551616").find("does not fit in u64"), std::string::npos);
  EXPECT_NE(message(DataType::i64, "-9223372036854775809").find("does not fit in i64"), std::string::npos);
  // The largest values and written infinities are taken.
  EXPECT_EQ(parse_scalar(DataType::f16, "65504").as<std::uint16_t>(), 0x7bff);
  EXPECT_EQ(parse_scalar(DataType::f16, "65519").as<std::uint16_t>(), 0x7bff);  // rounds to the largest
  EXPECT_TRUE(std::isinf(parse_scalar(DataType::f16, "inf").to_double()));
  EXPECT_TRUE(std::isinf(parse_scalar(DataType::f32, "-Infinity").to_double()));
}

TEST(Scalar, GivenHalf_WhenMovedToAccumulatorAndBack_ThenFloatInBetween) {
  const Scalar h = Scalar::from<std::uint16_t>(DataType::f16, 0x3e00);  // 1.5
  const Scalar acc = to_accumulator(h);
  EXPECT_EQ(acc.type, DataType::f32);
  EXPECT_EQ(acc.as<float>(), 1.5f);
  EXPECT_TRUE(from_accumulator(acc, DataType::f16).bitwise_equal(h));
}

TEST(Scalar, GivenValues_WhenPrinted_ThenReadable) {
  EXPECT_EQ(Scalar::from<std::int8_t>(DataType::i8, -5).to_string(), "-5");
  EXPECT_EQ(Scalar::from<std::uint64_t>(DataType::u64, ~0ull).to_string(), "18446744073709551615");
  EXPECT_EQ(Scalar::from(DataType::f32, 0.1f).to_string(), "0.100000001");
  EXPECT_EQ(Scalar::from<std::uint8_t>(DataType::boolean, 1).to_string(), "true");
}

}  // namespace
}  // namespace zr::core
