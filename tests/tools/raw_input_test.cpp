// read_raw: whole elements from a file or a pipe, large inputs in chunks, and the size error.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "raw_input.hpp"
#include "test_streams.hpp"
#include "zereduce/errors.hpp"

namespace {

using namespace zr;
using namespace zr::cli;

TEST(RawInput, EveryTypeFromAFileAndAPipe) {
  for (auto type : core::kAllDataTypes) {
    SCOPED_TRACE(std::string(core::name(type)));
    std::string bytes(5 * core::size_of(type), '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 13 + 1);
    std::istringstream file(bytes);
    const auto from_file = read_raw(file, type, "in.bin");
    EXPECT_EQ(from_file.type, type);
    EXPECT_EQ(from_file.count, 5u);
    EXPECT_EQ(test::to_string(from_file.data), bytes);
    test::PipeStream pipe(bytes);
    const auto from_pipe = read_raw(pipe, type, "-");
    EXPECT_EQ(from_pipe.count, 5u);
    EXPECT_EQ(test::to_string(from_pipe.data), bytes);
  }
}

TEST(RawInput, BigEndianElementsAreSwappedToHostOrder) {
  for (auto type : core::kAllDataTypes) {
    SCOPED_TRACE(std::string(core::name(type)));
    const std::size_t size = core::size_of(type);
    std::string little(5 * size, '\0');
    for (std::size_t i = 0; i < little.size(); ++i) little[i] = static_cast<char>(i * 13 + 1);
    std::string big = little;
    for (std::size_t i = 0; i < big.size(); i += size) std::reverse(big.begin() + i, big.begin() + i + size);
    std::istringstream file(big);
    const auto from_file = read_raw(file, type, "in.bin", ByteOrder::big);
    EXPECT_EQ(from_file.count, 5u);
    EXPECT_EQ(test::to_string(from_file.data), little);
    test::PipeStream pipe(big);
    EXPECT_EQ(test::to_string(read_raw(pipe, type, "-", ByteOrder::big).data), little);
    std::istringstream as_little(big);
    EXPECT_EQ(test::to_string(read_raw(as_little, type, "in.bin", ByteOrder::little).data), big);
  }
  // A partial element is refused in either order.
  std::istringstream odd(std::string(10, 'x'));
  EXPECT_THROW(read_raw(odd, core::DataType::f64, "in.bin", ByteOrder::big), InvalidArgumentError);
}

TEST(RawInput, ReverseElementBytesTakesTheElementSizesOfTheTypes) {
  std::vector<std::byte> bytes{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
  reverse_element_bytes(bytes, 2);
  EXPECT_EQ(test::to_string(bytes), std::string("\x02\x01\x04\x03"));
  reverse_element_bytes(bytes, 4);
  EXPECT_EQ(test::to_string(bytes), std::string("\x03\x04\x01\x02"));
  reverse_element_bytes(bytes, 1);
  EXPECT_EQ(test::to_string(bytes), std::string("\x03\x04\x01\x02"));
  EXPECT_THROW(reverse_element_bytes(bytes, 3), InvalidArgumentError);
  EXPECT_THROW(reverse_element_bytes(bytes, 8), InvalidArgumentError);  // 4 bytes are not whole 8-byte elements
}

TEST(RawInput, EmptyInputHasNoElements) {
  std::istringstream in("");
  const auto array = read_raw(in, core::DataType::f64, "empty.bin");
  EXPECT_EQ(array.count, 0u);
  EXPECT_TRUE(array.data.empty());
}

TEST(RawInput, LargePipeInputIsReadInChunks) {
  // More than two 16 MiB chunks, from a stream that cannot say its size.
  std::string bytes((40u << 20) + 4, '\0');
  for (std::size_t i = 0; i < bytes.size(); i += 4099) bytes[i] = static_cast<char>(i >> 12);
  test::PipeStream pipe(bytes);
  const auto array = read_raw(pipe, core::DataType::u32, "-");
  EXPECT_EQ(array.count, bytes.size() / 4);
  EXPECT_TRUE(test::to_string(array.data) == bytes);
  std::istringstream file(bytes);
  const auto from_file = read_raw(file, core::DataType::u32, "big.bin");
  EXPECT_EQ(from_file.data.capacity(), bytes.size());  // a file's size is known: one exact allocation

  // Big-endian, chunk after chunk: each element swapped once.
  std::string big = bytes;
  for (std::size_t i = 0; i < big.size(); i += 4) std::reverse(big.begin() + i, big.begin() + i + 4);
  test::PipeStream big_pipe(big);
  EXPECT_TRUE(test::to_string(read_raw(big_pipe, core::DataType::u32, "-", ByteOrder::big).data) == bytes);
}

TEST(RawInput, ByteCountNotAMultipleOfTheElementSize) {
  std::istringstream in(std::string(10, 'x'));
  try {
    read_raw(in, core::DataType::f32, "in.bin");
    FAIL() << "no error";
  } catch (const InvalidArgumentError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("in.bin: 10 bytes of raw input is not a whole number of f32 elements of 4 bytes each "
                           "(2 bytes left over)"),
              std::string::npos)
        << message;
  }
  test::PipeStream pipe(std::string(15, 'x'));
  EXPECT_THROW(read_raw(pipe, core::DataType::i64, "-"), InvalidArgumentError);
}

}  // namespace
