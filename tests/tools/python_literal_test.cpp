// The Python literal subset of .npy headers, on its own.
#include <gtest/gtest.h>

#include "python_literal.hpp"

namespace {

using zr::cli::parse_python_literal;
using zr::cli::PyValue;

PyValue parse(std::string_view text) {
  std::string why;
  auto value = parse_python_literal(text, why);
  EXPECT_TRUE(value) << text << ": " << why;
  return value.value_or(PyValue{});
}

std::string error(std::string_view text) {
  std::string why;
  EXPECT_FALSE(parse_python_literal(text, why)) << text;
  return why;
}

TEST(PythonLiteral, Scalars) {
  EXPECT_EQ(parse("'a\\'b'").text, "a'b");
  EXPECT_EQ(parse("\"x\"").text, "x");
  EXPECT_EQ(parse(" 42 ").text, "42");
  EXPECT_EQ(parse("-7").text, "-7");
  EXPECT_EQ(parse("- 7").text, "-7");
  EXPECT_EQ(parse("3L").text, "3");
  EXPECT_TRUE(parse("True").boolean);
  EXPECT_EQ(parse("False").kind, PyValue::Kind::boolean);
  EXPECT_EQ(parse("None").kind, PyValue::Kind::none);
}

TEST(PythonLiteral, TuplesFollowPythonsCommaRule) {
  EXPECT_EQ(parse("()").kind, PyValue::Kind::tuple);
  EXPECT_EQ(parse("(3,)").items.size(), 1u);
  EXPECT_EQ(parse("(3)").kind, PyValue::Kind::integer);  // parentheses, not a tuple
  EXPECT_EQ(parse("(1, 2, 3, )").items.size(), 3u);
  EXPECT_EQ(parse("[1, [2], ()]").items.size(), 3u);
}

TEST(PythonLiteral, DictsKeepTheLastDuplicate) {
  const auto dict = parse("{'a': 1, 'b': (2,), 'a': 3,}");
  ASSERT_EQ(dict.kind, PyValue::Kind::dict);
  EXPECT_EQ(dict.find("a")->text, "3");
  EXPECT_EQ(dict.find("b")->kind, PyValue::Kind::tuple);
  EXPECT_EQ(dict.find("c"), nullptr);
}

TEST(PythonLiteral, Errors) {
  EXPECT_EQ(error("{'a' 1}"), "expected ':' after a dict key at byte 5");
  EXPECT_EQ(error("(1 2)"), "expected ',' or ')' at byte 3");
  EXPECT_EQ(error("[1 2]"), "expected ',' or ']' at byte 3");
  EXPECT_EQ(error("'abc"), "a string without its closing quote at byte 4");
  EXPECT_EQ(error("'a\nb'"), "a line break inside a string at byte 2");
  EXPECT_EQ(error("1.5"), "a number that is not a whole decimal integer at byte 1");
  EXPECT_EQ(error("0x10"), "a number that is not a whole decimal integer at byte 1");
  EXPECT_EQ(error("-"), "a '-' without digits at byte 1");
  EXPECT_EQ(error("true"), "an unknown name (only True, False and None are literals) at byte 0");
  EXPECT_EQ(error("1 2"), "unexpected text after the literal at byte 2");
  EXPECT_EQ(error(std::string(33, '[') + std::string(33, ']')), "nesting deeper than 32 levels at byte 32");
  std::string why;
  EXPECT_TRUE(parse_python_literal(std::string(32, '[') + std::string(32, ']'), why)) << why;
}

}  // namespace
