#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0) for ze_reduce (raw binary input: raw_input.hpp).
//
// The reader takes a stream, so the command line can give a file or standard input ("-") alike, and a source
// name that every error message starts with. Problems with the input are zr::InvalidArgumentError, saying what is
// wrong and what to do about it.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "data_types.hpp"
#include "input_stream.hpp"
#include "zereduce/errors.hpp"

namespace zr::cli {

// The .npy dtypes ze_reduce reads, for messages and --help: 1-byte types in any byte order, the others
// little-endian ('<'), big-endian ('>', swapped as it is read) or native ('=', which is little-endian on every
// host ze-reduce runs on).
inline constexpr std::string_view kSupportedNpyDtypes =
    "|i1 |u1 |b1, and i2 i4 i8 u2 u4 u8 f2 f4 f8 little-endian (<, =) or big-endian (>)";

struct NpyHeader {
  std::uint8_t major_version = 1;
  std::uint8_t minor_version = 0;
  std::string descr;  // as written in the file, such as "<f4"
  core::DataType type = core::DataType::f32;
  // The file's order of each element's bytes (little for 1-byte types, which have none); read_npy returns the
  // data in host order either way.
  ByteOrder byte_order = ByteOrder::little;
  std::vector<std::uint64_t> shape;  // empty for a 0-d array (one element)
  std::uint64_t count = 1;           // product of shape
  std::uint64_t data_bytes = 0;      // count * size_of(type)
  std::uint64_t data_offset = 0;     // bytes of magic, version, length and header dict: where the data starts

  // The last dimension of an array with 2 or more dimensions (what --columns can default to); nullopt for 0-d and
  // 1-d arrays.
  std::optional<std::uint64_t> columns() const;
};

struct NpyArray {
  NpyHeader header;
  std::vector<std::byte> data;  // header.data_bytes bytes in host (little-endian) order, C order
};


// The header did not fit in the bytes given: `bytes_needed` (at least) are needed to parse it. Only
// parse_npy_header throws this; read_npy reports a file that ends early as a plain InvalidArgumentError.
class NpyTruncatedError : public InvalidArgumentError {
 public:
  NpyTruncatedError(const std::string& message, std::uint64_t bytes_needed)
      : InvalidArgumentError(message), bytes_needed_(bytes_needed) {}
  std::uint64_t bytes_needed() const { return bytes_needed_; }

 private:
  std::uint64_t bytes_needed_;
};

// Headers longer than this are refused rather than allocated: NumPy itself refuses more than 10000 bytes unless
// told to trust the file.
inline constexpr std::uint64_t kMaxNpyHeaderBytes = std::uint64_t{1} << 20;

// Parses magic, version, header length and header dict from the first bytes of a .npy file (the data may follow
// or not). The result's data_offset says how many bytes the header occupied.
NpyHeader parse_npy_header(std::span<const std::byte> bytes_start, std::string_view source_name);

// Reads a whole .npy file from the stream's position; the data must be exactly count * itemsize bytes. Big-endian
// data is swapped to host order as it is read.
NpyArray read_npy(std::istream& in, std::string_view source_name);

enum class NpyVersion : std::uint8_t { automatic, v1_0, v2_0, v3_0 };

// The header NumPy's np.save would write for this type and shape, byte for byte (same key order, same spare
// spaces after the dict, padded to a multiple of 64 bytes). automatic picks 1.0, or 2.0 when the header does not
// fit in 1.0's 16-bit length, as NumPy does.
std::vector<std::byte> make_npy_header(core::DataType type, std::span<const std::uint64_t> shape,
                                       NpyVersion version = NpyVersion::automatic);

// Writes header and data; throws InvalidArgumentError when data is not product(shape) * size_of(type) bytes.
void write_npy(std::ostream& out, core::DataType type, std::span<const std::uint64_t> shape,
               std::span<const std::byte> data, NpyVersion version = NpyVersion::automatic);

// "(3,)", "(2, 3)", "()": the shape as Python writes a tuple, for messages.
std::string format_shape(std::span<const std::uint64_t> shape);

}  // namespace zr::cli
