// parse_element_count: every accepted form, exact arithmetic at the 64-bit edges, and every error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "size_text.hpp"
#include "zereduce/errors.hpp"

namespace {

using zr::cli::parse_element_count;
constexpr std::uint64_t kMax = ~std::uint64_t{0};

TEST(ElementCount, PlainIntegers) {
  EXPECT_EQ(parse_element_count("0"), 0u);
  EXPECT_EQ(parse_element_count("1000"), 1000u);
  EXPECT_EQ(parse_element_count("007"), 7u);
  EXPECT_EQ(parse_element_count(" 42\t"), 42u);
  EXPECT_EQ(parse_element_count("18446744073709551615"), kMax);
}

TEST(ElementCount, PowersOfTen) {
  EXPECT_EQ(parse_element_count("1e9"), 1000000000u);
  EXPECT_EQ(parse_element_count("1E9"), 1000000000u);
  EXPECT_EQ(parse_element_count("2.5e6"), 2500000u);
  EXPECT_EQ(parse_element_count("1e+3"), 1000u);
  EXPECT_EQ(parse_element_count("100e-2"), 1u);
  EXPECT_EQ(parse_element_count("1.25e2"), 125u);
  EXPECT_EQ(parse_element_count("1e19"), 10000000000000000000u);
  EXPECT_EQ(parse_element_count("0e999999999999999999999"), 0u);
  EXPECT_EQ(parse_element_count("1.8446744073709551615e19"), kMax);
  EXPECT_EQ(parse_element_count("1000000000000000000000000e-5"), 10000000000000000000u);
}

TEST(ElementCount, Powers) {
  EXPECT_EQ(parse_element_count("2^28"), 268435456u);
  EXPECT_EQ(parse_element_count("2^63"), std::uint64_t{1} << 63);
  EXPECT_EQ(parse_element_count("10^19"), 10000000000000000000u);
  EXPECT_EQ(parse_element_count("0^0"), 1u);
  EXPECT_EQ(parse_element_count("0^5"), 0u);
  EXPECT_EQ(parse_element_count("1^99999999999999999999999"), 1u);
}

TEST(ElementCount, SuffixesArePowersOf1024) {
  EXPECT_EQ(parse_element_count("64K"), 65536u);
  EXPECT_EQ(parse_element_count("64k"), 65536u);
  EXPECT_EQ(parse_element_count("4Ki"), 4096u);
  EXPECT_EQ(parse_element_count("256M"), 268435456u);
  EXPECT_EQ(parse_element_count("256Mi"), 268435456u);
  EXPECT_EQ(parse_element_count("1G"), 1073741824u);
  EXPECT_EQ(parse_element_count("1gi"), 1073741824u);
  EXPECT_EQ(parse_element_count("1T"), std::uint64_t{1} << 40);
  EXPECT_EQ(parse_element_count("1Ti"), std::uint64_t{1} << 40);
  EXPECT_EQ(parse_element_count("16777215T"), kMax - (std::uint64_t{1} << 40) + 1);
  EXPECT_EQ(parse_element_count("0K"), 0u);
}

TEST(ElementCount, ExactFractionsWithSuffixes) {
  EXPECT_EQ(parse_element_count("1.5K"), 1536u);
  EXPECT_EQ(parse_element_count("0.5K"), 512u);
  EXPECT_EQ(parse_element_count(".5K"), 512u);
  EXPECT_EQ(parse_element_count("1.K"), 1024u);
  EXPECT_EQ(parse_element_count("0.25Mi"), 262144u);
  EXPECT_EQ(parse_element_count("0.0009765625K"), 1u);  // 2^-10 K
  EXPECT_EQ(parse_element_count("1.50000000000000000000000000K"), 1536u);
  EXPECT_EQ(parse_element_count("1e3K"), 1024000u);
  EXPECT_EQ(parse_element_count("3.0"), 3u);
}

void expect_error(const std::string& text, const std::string& problem) {
  SCOPED_TRACE("text: '" + text + "'");
  try {
    parse_element_count(text);
    ADD_FAILURE() << "no error";
  } catch (const zr::InvalidArgumentError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'" + text + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(problem), std::string::npos) << message;
    EXPECT_NE(message.find("accepted: 1000, 1e9"), std::string::npos) << message;
    EXPECT_NE(message.find("powers of 1024"), std::string::npos) << message;
  }
}

TEST(ElementCount, EmptyAndNegative) {
  expect_error("", "it is empty");
  expect_error("  ", "it is empty");
  expect_error("-5", "cannot be negative");
  expect_error("-0", "cannot be negative");
}

TEST(ElementCount, NotWholeNumbers) {
  expect_error("1.5", "not a whole number");
  expect_error("1.0001K", "not a whole number");
  expect_error("1e-1", "not a whole number");
  expect_error("0.00048828125K", "not a whole number");  // 2^-11 K
  expect_error("3e-999999999999", "not a whole number");
}

TEST(ElementCount, Overflow) {
  expect_error("18446744073709551616", "does not fit in 64 bits");
  expect_error("99999999999999999999999", "does not fit in 64 bits");
  expect_error("1e20", "does not fit in 64 bits");
  expect_error("2^64", "does not fit in 64 bits");
  expect_error("16777216T", "does not fit in 64 bits");
  expect_error("17179869184G", "does not fit in 64 bits");
  expect_error("1e99999999999999999999T", "does not fit in 64 bits");
  expect_error("1.00000000000000000000001e2", "more significant digits than 64 bits hold");
}

TEST(ElementCount, Garbage) {
  expect_error("abc", "does not start with a number");
  expect_error("+5", "does not start with a number");
  expect_error(".", "does not start with a number");
  expect_error("12abc", "unexpected 'abc'");
  expect_error("1KB", "unexpected 'B'");
  expect_error("1Ki5", "unexpected '5'");
  expect_error("1 000", "unexpected ' 000'");
  expect_error("0x10", "unexpected 'x10'");
  expect_error("1e", "the exponent after 'e' has no digits");
  expect_error("1e+", "the exponent after 'e' has no digits");
  expect_error("2^", "the exponent of a power must be a whole number");
  expect_error("2^-1", "the exponent of a power must be a whole number");
  expect_error("2^3^4", "the exponent of a power must be a whole number");
  expect_error("^3", "the base of a power must be a whole number");
  expect_error("1.5^2", "the base of a power must be a whole number");
  expect_error("2K^2", "the base of a power must be a whole number");
}

TEST(ElementCount, HelpTextNamesTheForms) {
  const std::string help(zr::cli::kElementCountHelp);
  for (const char* form : {"1e9", "2^28", "256M", "4Ki", "1024"})
    EXPECT_NE(help.find(form), std::string::npos) << form;
}

}  // namespace
