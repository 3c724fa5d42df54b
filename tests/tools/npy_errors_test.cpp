// Every way a .npy input is refused: the exception type, the file name and the words that tell the user what to do.
#include <gtest/gtest.h>

#include <sstream>

#include "npy.hpp"
#include "test_streams.hpp"

namespace {

using namespace zr;
using namespace zr::cli;

std::string npy_file(std::string_view dict, std::uint8_t major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header(dict);
  while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) file += static_cast<char>(header.size() >> (8 * i) & 0xff);
  return file + header;
}

std::string dict_with(std::string_view descr, std::string_view shape, std::string_view fortran = "False") {
  return "{'descr': '" + std::string(descr) + "', 'fortran_order': " + std::string(fortran) +
         ", 'shape': " + std::string(shape) + ", }";
}

// The message of the InvalidArgumentError that parsing the header of `file` throws.
std::string header_error(const std::string& file) {
  try {
    parse_npy_header(test::to_bytes(file), "in.npy");
  } catch (const NpyTruncatedError& e) {
    ADD_FAILURE() << "truncated instead: " << e.what();
  } catch (const InvalidArgumentError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("in.npy: ", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "no error";
  return {};
}

std::string read_error(std::istream& in) {
  try {
    read_npy(in, "in.npy");
  } catch (const InvalidArgumentError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("in.npy: ", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "no error";
  return {};
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(NpyErrors, BadMagic) {
  const auto zip = header_error(std::string("PK\x03\x04 this is an .npz", 22));
  EXPECT_HAS(zip, "not a NumPy .npy file");
  EXPECT_HAS(zip, "it starts with 'PK\\x03\\x04 t'");  // the magic's six bytes
  EXPECT_HAS(zip, "raw binary");
  EXPECT_HAS(header_error("\x93NUMPX\x01\x00"), "not a NumPy .npy file");
  EXPECT_HAS(header_error("x"), "not a NumPy .npy file");  // wrong from its first byte: no need to ask for more
}

TEST(NpyErrors, UnsupportedVersion) {
  const std::tuple<int, int, const char*> versions[] = {{4, 0, "4.0"}, {1, 1, "1.1"}, {0, 0, "0.0"}, {2, 5, "2.5"}};
  for (const auto& [major, minor, shown] : versions) {
    auto file = npy_file(dict_with("<f4", "(3,)"));
    file[6] = static_cast<char>(major);
    file[7] = static_cast<char>(minor);
    const auto message = header_error(file);
    EXPECT_HAS(message, std::string("unsupported .npy format version ") + shown);
    EXPECT_HAS(message, "reads 1.0, 2.0 and 3.0");
  }
}

TEST(NpyErrors, TruncatedHeaderSaysHowManyBytesAreNeeded) {
  const auto v1 = npy_file(dict_with("<f4", "(3,)"));
  const auto v2 = npy_file(dict_with("<f4", "(3,)"), 2);
  const std::tuple<std::string, std::size_t, std::uint64_t> cases[] = {
      {v1, 0, 10}, {v1, 5, 10}, {v1, 9, 10}, {v2, 10, 12}, {v1, 10, 128}, {v1, 127, 128}, {v2, 40, 128}};
  for (const auto& [file, given, needed] : cases) {
    SCOPED_TRACE(given);
    try {
      parse_npy_header(test::to_bytes(file.substr(0, given)), "in.npy");
      ADD_FAILURE() << "no error";
    } catch (const NpyTruncatedError& e) {
      EXPECT_EQ(e.bytes_needed(), needed);
      EXPECT_HAS(std::string(e.what()), "in.npy: the .npy ");
      EXPECT_HAS(std::string(e.what()), "needs " + std::to_string(needed) + " bytes but only " + std::to_string(given));
    }
  }
  // Every file above is one 128-byte header: 10 + 57 bytes of dict + '\n' rounded up to 64.
  ASSERT_EQ(v1.size(), 128u);
  // A file that ends inside its header, from a file or a pipe.
  std::istringstream file(v1.substr(0, 50));
  EXPECT_HAS(read_error(file), "the file ends after 50 bytes, inside its .npy header (which needs 128)");
  test::PipeStream pipe(v2.substr(0, 11));
  EXPECT_HAS(read_error(pipe), "the file ends after 11 bytes, inside its .npy header (which needs 12)");
  std::istringstream empty("");
  EXPECT_HAS(read_error(empty), "the file ends after 0 bytes");
}

TEST(NpyErrors, HeaderLengthBeyondTheLimit) {
  std::string file = std::string("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12) + "{";
  const auto message = header_error(file);
  EXPECT_HAS(message, "the .npy header claims 2147483647 bytes, more than the 1048576");
}

TEST(NpyErrors, HeaderNotADict) {
  EXPECT_HAS(header_error(npy_file("[1, 2]")), "the .npy header must be a dict, not list: '[1, 2]");
  EXPECT_HAS(header_error(npy_file("'descr'")), "must be a dict, not str");
  const auto broken = header_error(npy_file("{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}"));
  EXPECT_HAS(broken, "the .npy header is not a Python dict literal (expected ',' or '}' at byte 16)");
  EXPECT_HAS(broken, "not written by numpy.save");
  EXPECT_HAS(header_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x")),
             "unexpected text after the literal");
  EXPECT_HAS(header_error(npy_file("{'descr': '<f4, 'fortran_order': False}")), "not a Python dict literal");
  EXPECT_HAS(header_error(npy_file(std::string(100, '(') + std::string(100, ')'))), "nesting deeper than 32 levels");
  EXPECT_HAS(header_error(npy_file("{'shape': (3.5,)}")), "not a whole decimal integer");
  EXPECT_HAS(header_error(npy_file("")), "the text ends where a value was expected");
  // Unprintable header bytes are shown escaped.
  EXPECT_HAS(header_error(npy_file("\x01\x02")), "'\\x01\\x02");
}

TEST(NpyErrors, MissingKey) {
  EXPECT_HAS(header_error(npy_file("{'fortran_order': False, 'shape': (3,)}")),
             "the .npy header dict has no 'descr' key (it needs 'descr', 'fortran_order' and 'shape')");
  EXPECT_HAS(header_error(npy_file("{'descr': '<f4', 'shape': (3,)}")), "has no 'fortran_order' key");
  EXPECT_HAS(header_error(npy_file("{'descr': '<f4', 'fortran_order': False}")), "has no 'shape' key");
  EXPECT_HAS(header_error(npy_file("{}")), "has no 'descr' key");
}

TEST(NpyErrors, UnsupportedDtypeIsNamedWithTheSupportedList) {
  for (const char* descr : {"<c8", "<U5", "|O", "<f16", "<M8[ns]", "|V4", "", "<", "i", "<i3", "<b2"}) {
    SCOPED_TRACE(descr);
    const auto message = header_error(npy_file(dict_with(descr, "(3,)")));
    EXPECT_HAS(message, "unsupported dtype '" + std::string(descr) + "'");
    EXPECT_HAS(message, "supported: |i1 |u1 |b1, and i2 i4 i8 u2 u4 u8 f2 f4 f8 little-endian (<, =) or "
                        "big-endian (>)");
    EXPECT_HAS(message, "astype(");
  }
  // Big-endian numbers are read (npy_layout_test); big-endian types ze_reduce lacks are still refused.
  EXPECT_HAS(header_error(npy_file(dict_with(">c8", "(3,)"))), "unsupported dtype '>c8'");
  EXPECT_HAS(header_error(npy_file(dict_with(">f16", "(3,)"))), "unsupported dtype '>f16'");
  // '|' says "no byte order": a multi-byte type written so would be read in a guessed order.
  for (const char* descr : {"|i4", "|f8", "|u2", "|f2"}) {
    SCOPED_TRACE(descr);
    EXPECT_HAS(header_error(npy_file(dict_with(descr, "(3,)"))), "only 1-byte types have");
  }
  const auto structured = header_error(npy_file("{'descr': [('x', '<f4'), ('y', '<i4')], 'fortran_order': False, 'shape': (3,)}"));
  EXPECT_HAS(structured, "structured dtypes (arrays of records) are not supported");
  EXPECT_HAS(structured, "supported dtypes: |i1");
  EXPECT_HAS(header_error(npy_file("{'descr': 4, 'fortran_order': False, 'shape': (3,)}")),
             "'descr' in the .npy header must be a dtype string, not int");
}

TEST(NpyErrors, FortranOrder) {
  for (const char* shape : {"(2, 3)", "(1, 1)", "(2, 3, 4)"}) {
    const auto message = header_error(npy_file(dict_with("<f4", shape, "True")));
    EXPECT_HAS(message, "stored in Fortran (column-major) order");
    EXPECT_HAS(message, "np.save(path, np.ascontiguousarray(a))");
  }
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "(3,)", "0"))),
             "'fortran_order' in the .npy header must be True or False, not int");
}

TEST(NpyErrors, BadShapes) {
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "[3]"))), "'shape' in the .npy header must be a tuple, not list");
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "(3)"))), "must be a tuple, not int");  // (3) is just 3
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "(2, -3)"))), "shape (2, -3) has a negative dimension");
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "(2, '3')"))), "shape (2, ?) must hold integers, not str");
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", "(18446744073709551616,)"))),
             "has a dimension larger than 2^64 - 1");
  EXPECT_HAS(header_error(npy_file(dict_with("|u1", "(4294967296, 4294967296)"))),
             "shape (4294967296, 4294967296) has more than 2^64 - 1 elements");
  EXPECT_HAS(header_error(npy_file(dict_with("<f8", "(4611686018427387904,)"))),
             "shape (4611686018427387904,) of <f8 needs more than 2^64 - 1 bytes");
  std::string many = "(";
  for (int i = 0; i < 65; ++i) many += "1, ";
  EXPECT_HAS(header_error(npy_file(dict_with("<f4", many + ")"))), "has more than 64 dimensions");
}

TEST(NpyErrors, DataOfTheWrongSize) {
  const auto header = npy_file(dict_with("<f4", "(3,)"));
  for (int pipe = 0; pipe < 2; ++pipe) {
    SCOPED_TRACE(pipe ? "pipe" : "file");
    const auto read = [&](const std::string& bytes) {
      if (pipe) {
        test::PipeStream in(bytes);
        return read_error(in);
      }
      std::istringstream in(bytes);
      return read_error(in);
    };
    const auto short_data = read(header + std::string(10, 'x'));
    EXPECT_HAS(short_data, "shape (3,) of <f4 needs 12 data bytes after the 128-byte header");
    EXPECT_HAS(short_data, pipe ? "the file has only 10" : "the file has 10");
    EXPECT_HAS(short_data, "the file is truncated");
    const auto long_data = read(header + std::string(13, 'x'));
    EXPECT_HAS(long_data, "needs 12 data bytes");
    EXPECT_HAS(long_data, pipe ? "more bytes follow" : "the file has 13");
    EXPECT_HAS(long_data, "holds more than one array");
    EXPECT_HAS(read(header), "the file is truncated");
  }
  // A header that promises far more than the input holds costs no allocation of that size.
  std::istringstream huge(npy_file(dict_with("<f8", "(1000000000000,)")) + "12345678");
  EXPECT_HAS(read_error(huge), "needs 8000000000000 data bytes");
  test::PipeStream huge_pipe(npy_file(dict_with("<f8", "(1000000000000,)")) + "12345678");
  EXPECT_HAS(read_error(huge_pipe), "the file has only 8");
}

}  // namespace
