// Files as NumPy writes them, built here byte by byte (no NumPy needed), and the header variants older NumPy
// versions and other writers produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <tuple>

#include "npy.hpp"
#include "test_streams.hpp"

namespace {

using namespace zr;
using namespace zr::cli;

std::string floats(std::initializer_list<float> values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), std::data(values), bytes.size());
  return bytes;
}

// np.save("a.npy", np.array([1, 2, 3], dtype=np.float32)) with NumPy >= 1.23: the dict, 20 spaces that let the
// first dimension grow to 21 digits, 40 spaces of padding and '\n', so the data starts at byte 128.
const std::string kNumPyF32Header = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                                    "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" + std::string(60, ' ') +
                                    "\n";

TEST(NpyNumPyLayout, ReadsTheBytesNumPySaveWrites) {
  ASSERT_EQ(kNumPyF32Header.size(), 128u);
  std::istringstream in(kNumPyF32Header + floats({1, 2, 3}));
  const auto array = read_npy(in, "a.npy");
  EXPECT_EQ(array.header.descr, "<f4");
  EXPECT_EQ(array.header.type, core::DataType::f32);
  EXPECT_EQ(array.header.shape, std::vector<std::uint64_t>{3});
  EXPECT_EQ(array.header.data_offset, 128u);
  EXPECT_EQ(test::to_string(array.data), floats({1, 2, 3}));
}

TEST(NpyNumPyLayout, WritesTheBytesNumPySaveWrites) {
  const std::vector<std::uint64_t> shape{3};
  EXPECT_EQ(test::to_string(make_npy_header(core::DataType::f32, shape)), kNumPyF32Header);

  // np.save of np.zeros((2, 3), np.int64): 59-byte dict, 20 growth spaces, 38 padding spaces, '\n'.
  const std::vector<std::uint64_t> matrix{2, 3};
  EXPECT_EQ(test::to_string(make_npy_header(core::DataType::i64, matrix)),
            std::string("\x93NUMPY\x01\x00\x76\x00", 10) + "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }" +
                std::string(58, ' ') + "\n");

  // np.save of np.uint8(7) (0-d): no growth spaces without a first dimension; 62 spaces of padding.
  EXPECT_EQ(test::to_string(make_npy_header(core::DataType::u8, {})),
            std::string("\x93NUMPY\x01\x00\x76\x00", 10) + "{'descr': '|u1', 'fortran_order': False, 'shape': (), }" +
                std::string(62, ' ') + "\n");

  // np.lib.format.write_array(f, np.zeros(1000, bool), version=(2, 0)): a 4-byte length; 17 growth spaces.
  const std::vector<std::uint64_t> vector{1000};
  EXPECT_EQ(test::to_string(make_npy_header(core::DataType::boolean, vector, NpyVersion::v2_0)),
            std::string("\x93NUMPY\x02\x00\x74\x00\x00\x00", 12) +
                "{'descr': '|b1', 'fortran_order': False, 'shape': (1000,), }" + std::string(17 + 38, ' ') + "\n");
}

TEST(NpyNumPyLayout, AlreadyAlignedHeadersGetAFullPaddingBlock) {
  // NumPy pads by 64 - (length % 64), which is a whole 64 when the length is already a multiple, as it is for this
  // shape: 10 + 117 bytes of dict and growth spaces + '\n' = 128, so 64 more spaces and the data starts at 192.
  const std::vector<std::uint64_t> shape{1, 1, 1, 1, 1, 1, 1, 1, 100'000'000'000'000'000};
  const auto bytes = test::to_string(make_npy_header(core::DataType::f32, shape));
  ASSERT_EQ(bytes.size(), 192u);
  EXPECT_EQ(bytes.substr(192 - 65), std::string(64, ' ') + "\n");
  EXPECT_EQ(parse_npy_header(test::to_bytes(bytes), "aligned.npy").shape, shape);
}

// A header around `dict` as other writers lay it out: version, alignment and padding chosen by the test.
std::string npy_file(std::string_view dict, std::uint8_t major = 1, std::size_t align = 64, std::string_view tail = "\n") {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header(dict);
  while ((prefix + header.size() + tail.size()) % align != 0) header += ' ';
  header += tail;
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) file += static_cast<char>(header.size() >> (8 * i) & 0xff);
  return file + header;
}

NpyHeader parse(const std::string& file) { return parse_npy_header(test::to_bytes(file), "variant.npy"); }

TEST(NpyNumPyLayout, OlderNumPyAndPython2Headers) {
  // NumPy before 1.23 (no growth spaces), before 1.14 (16-byte alignment), Python 2 longs ("3L").
  EXPECT_EQ(parse(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }")).shape,
            std::vector<std::uint64_t>{3});
  EXPECT_EQ(parse(npy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (3L, 4L), }", 1, 16)).shape,
            (std::vector<std::uint64_t>{3, 4}));
}

TEST(NpyNumPyLayout, AnyKeyOrderQuotesSpacingAndTrailingComma) {
  for (const char* dict : {
           "{'shape': (2, 3), 'fortran_order': False, 'descr': '<u4'}",
           "{\"descr\": \"<u4\", \"fortran_order\": False, \"shape\": (2, 3)}",
           "{ 'fortran_order' :False,'shape':( 2 ,3 , ),'descr':'<u4' , }",
           "{'descr': '<u4',\n 'fortran_order': False,\n 'shape': (2, 3)}",
           "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), 'extra': [1, {'a': None}]}",
           "{'descr': '<f8', 'fortran_order': False, 'shape': (9,), 'descr': '<u4', 'shape': (2, 3)}",  // last wins
       }) {
    SCOPED_TRACE(dict);
    const auto header = parse(npy_file(dict));
    EXPECT_EQ(header.type, core::DataType::u32);
    EXPECT_EQ(header.shape, (std::vector<std::uint64_t>{2, 3}));
    EXPECT_EQ(header.columns(), 3u);
  }
  // No '\n' at the end, and a version 3.0 header.
  EXPECT_EQ(parse(npy_file("{'descr': '<u4', 'fortran_order': False, 'shape': (6,)}", 1, 64, " ")).count, 6u);
  EXPECT_EQ(parse(npy_file("{'descr': '<u4', 'fortran_order': False, 'shape': (6,)}", 3)).major_version, 3);
}

TEST(NpyNumPyLayout, ByteOrderVariants) {
  using enum ByteOrder;
  const std::tuple<const char*, core::DataType, ByteOrder> accepted[] = {
      // 1-byte types have no byte order, whatever the prefix says.
      {"|i1", core::DataType::i8, little},      {"<i1", core::DataType::i8, little},
      {">i1", core::DataType::i8, little},      {"=i1", core::DataType::i8, little},
      {"|u1", core::DataType::u8, little},      {">u1", core::DataType::u8, little},
      {"|b1", core::DataType::boolean, little}, {">b1", core::DataType::boolean, little},
      {"<i2", core::DataType::i16, little},     {"=i4", core::DataType::i32, little},
      {"<i8", core::DataType::i64, little},     {"<u2", core::DataType::u16, little},
      {"=u4", core::DataType::u32, little},     {"<u8", core::DataType::u64, little},
      {"<f2", core::DataType::f16, little},     {"=f4", core::DataType::f32, little},
      {"<f8", core::DataType::f64, little},     {"f8", core::DataType::f64, little},
      {">i2", core::DataType::i16, big},        {">i4", core::DataType::i32, big},
      {">i8", core::DataType::i64, big},        {">u2", core::DataType::u16, big},
      {">u4", core::DataType::u32, big},        {">u8", core::DataType::u64, big},
      {">f2", core::DataType::f16, big},        {">f4", core::DataType::f32, big},
      {">f8", core::DataType::f64, big},
  };
  for (const auto& [descr, type, order] : accepted) {
    SCOPED_TRACE(descr);
    const auto header = parse(npy_file("{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (2,)}"));
    EXPECT_EQ(header.type, type);
    EXPECT_EQ(header.byte_order, order);
    EXPECT_EQ(header.descr, descr);
  }
}

// The bytes of `little` (elements of `size` bytes) with each element's bytes reversed: what a big-endian writer
// stores for the same values.
std::string reversed_elements(std::string little, std::size_t size) {
  for (std::size_t i = 0; i < little.size(); i += size) std::reverse(little.begin() + i, little.begin() + i + size);
  return little;
}

TEST(NpyNumPyLayout, BigEndianDataIsSwappedToHostOrderAsItIsRead) {
  // np.save("a.npy", np.array([1, 2, 3], dtype=">f4")): the same header but for the '>'.
  auto big_header = kNumPyF32Header;
  big_header.replace(big_header.find("'<f4'"), 5, "'>f4'");
  const auto values = floats({1.5f, -2, 3e30f});
  std::istringstream file(big_header + reversed_elements(values, 4));
  const auto array = read_npy(file, "a.npy");
  EXPECT_EQ(array.header.byte_order, ByteOrder::big);
  EXPECT_EQ(test::to_string(array.data), values);

  for (const char* code : {"i2", "i4", "i8", "u2", "u4", "u8", "f2", "f4", "f8"}) {
    SCOPED_TRACE(code);
    const std::size_t size = static_cast<std::size_t>(code[1] - '0');
    std::string little(7 * size, '\0');
    for (std::size_t i = 0; i < little.size(); ++i) little[i] = static_cast<char>(i * 37 + 11);
    const auto header = npy_file("{'descr': '>" + std::string(code) + "', 'fortran_order': False, 'shape': (7,)}");
    std::istringstream seekable(header + reversed_elements(little, size));
    EXPECT_EQ(test::to_string(read_npy(seekable, "big.npy").data), little);
    test::PipeStream pipe(header + reversed_elements(little, size));
    EXPECT_EQ(test::to_string(read_npy(pipe, "-").data), little);
    // A big-endian file of the wrong size is refused as a little-endian one is.
    std::istringstream short_file(header + reversed_elements(little, size).substr(0, 6 * size));
    EXPECT_THROW(read_npy(short_file, "short.npy"), InvalidArgumentError);
  }
}

TEST(NpyNumPyLayout, LargeBigEndianPipeInputIsSwappedAcrossChunks) {
  // More than two of the reader's 16 MiB chunks of '>u8', from a stream that cannot say its size: every element is
  // swapped once, whichever chunk it lands in.
  const std::uint64_t count = (std::uint64_t{40} << 20) / 8 + 3;
  std::string little(count * 8, '\0');
  for (std::size_t i = 0; i < little.size(); ++i) little[i] = static_cast<char>((i >> 3) * 131 + (i & 7));
  const auto header = npy_file("{'descr': '>u8', 'fortran_order': False, 'shape': (" + std::to_string(count) + ",)}");
  test::PipeStream pipe(header + reversed_elements(little, 8));
  const auto array = read_npy(pipe, "-");
  EXPECT_EQ(array.data.size(), little.size());
  EXPECT_TRUE(test::to_string(array.data) == little);  // not EXPECT_EQ: 40 MiB in a failure message
}

TEST(NpyNumPyLayout, FortranOrderIsHarmlessBelowTwoDimensions) {
  EXPECT_EQ(parse(npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (5,)}")).count, 5u);
  EXPECT_EQ(parse(npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': ()}")).count, 1u);
}

}  // namespace
