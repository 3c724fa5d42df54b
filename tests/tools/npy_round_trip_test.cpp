// write_npy then read_npy for every type, every format version and shapes of 0 to 3 dimensions, through a
// seekable stream (a file) and a pipe.
#include <gtest/gtest.h>

#include <sstream>

#include "npy.hpp"
#include "test_streams.hpp"

namespace {

using namespace zr;
using namespace zr::cli;

const std::vector<std::vector<std::uint64_t>> kShapes{{}, {0}, {1}, {7}, {3, 5}, {4, 1}, {0, 3}, {2, 3, 4}};

std::string expected_descr(core::DataType type) {
  switch (type) {
    case core::DataType::i8: return "|i1";
    case core::DataType::i16: return "<i2";
    case core::DataType::i32: return "<i4";
    case core::DataType::i64: return "<i8";
    case core::DataType::u8: return "|u1";
    case core::DataType::u16: return "<u2";
    case core::DataType::u32: return "<u4";
    case core::DataType::u64: return "<u8";
    case core::DataType::f16: return "<f2";
    case core::DataType::f32: return "<f4";
    case core::DataType::f64: return "<f8";
    case core::DataType::boolean: return "|b1";
  }
  return "?";
}

std::vector<std::byte> pattern(core::DataType type, std::uint64_t count) {
  std::vector<std::byte> data(count * core::size_of(type));
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<std::byte>(type == core::DataType::boolean ? i % 3 == 0 : (i * 37 + 11) & 0xff);
  return data;
}

void round_trip(NpyVersion version, std::uint8_t major) {
  for (auto type : core::kAllDataTypes) {
    for (const auto& shape : kShapes) {
      SCOPED_TRACE(std::string(core::name(type)) + " " + format_shape(shape));
      std::uint64_t count = 1;
      for (auto extent : shape) count *= extent;
      const auto data = pattern(type, count);
      std::ostringstream out;
      write_npy(out, type, shape, data, version);
      const std::string file = out.str();

      const auto header = parse_npy_header(test::to_bytes(file), "written.npy");
      EXPECT_EQ(header.major_version, major);
      EXPECT_EQ(header.minor_version, 0);
      EXPECT_EQ(header.descr, expected_descr(type));
      EXPECT_EQ(header.type, type);
      EXPECT_EQ(header.shape, shape);
      EXPECT_EQ(header.count, count);
      EXPECT_EQ(header.data_bytes, data.size());
      EXPECT_EQ(header.data_offset % 64, 0u);
      EXPECT_EQ(header.data_offset + data.size(), file.size());
      if (shape.size() >= 2)
        EXPECT_EQ(header.columns(), shape.back());
      else
        EXPECT_FALSE(header.columns());

      std::istringstream seekable(file);
      const auto from_file = read_npy(seekable, "written.npy");
      EXPECT_EQ(from_file.header.shape, shape);
      EXPECT_EQ(from_file.data, data);
      test::PipeStream pipe(file);
      const auto from_pipe = read_npy(pipe, "-");
      EXPECT_EQ(from_pipe.header.type, type);
      EXPECT_EQ(from_pipe.data, data);
    }
  }
}

TEST(NpyRoundTrip, Version1EveryTypeAndShape) { round_trip(NpyVersion::v1_0, 1); }
TEST(NpyRoundTrip, Version2EveryTypeAndShape) { round_trip(NpyVersion::v2_0, 2); }
TEST(NpyRoundTrip, Version3EveryTypeAndShape) { round_trip(NpyVersion::v3_0, 3); }
TEST(NpyRoundTrip, AutomaticVersionIs1ForPlainArrays) { round_trip(NpyVersion::automatic, 1); }

TEST(NpyRoundTrip, LargestDimensionsStillGiveAnAlignedHeader) {
  // 2^64 - 1 elements of one byte: the header is valid even though no such file could be written.
  const std::vector<std::uint64_t> shape{~std::uint64_t{0}};
  const auto bytes = make_npy_header(core::DataType::u8, shape);
  const auto header = parse_npy_header(bytes, "huge.npy");
  EXPECT_EQ(header.count, ~std::uint64_t{0});
  EXPECT_EQ(header.data_offset, bytes.size());
  EXPECT_EQ(bytes.size() % 64, 0u);
}

TEST(NpyRoundTrip, DataAfterTheHeaderIsNotNeededToParseIt) {
  const std::vector<std::uint64_t> shape{1000};
  const auto bytes = make_npy_header(core::DataType::f64, shape);
  const auto header = parse_npy_header(bytes, "header-only.npy");
  EXPECT_EQ(header.data_offset, bytes.size());
  EXPECT_EQ(header.data_bytes, 8000u);
}

TEST(NpyRoundTrip, WriteRefusesDataOfTheWrongSize) {
  const std::vector<std::uint64_t> shape{2, 3};
  const std::vector<std::byte> data(20);
  std::ostringstream out;
  try {
    write_npy(out, core::DataType::f32, shape, data);
    FAIL() << "no error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("shape (2, 3) of f32 needs 6 x 4 bytes, but 20 bytes were given"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
