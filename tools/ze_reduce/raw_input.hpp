#pragma once
// Raw binary input: nothing but the elements, as `a.tofile(path)` writes them: little-endian (the host's order, the
// default) or big-endian (--byte-order big), which is swapped to host order as it is read.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string_view>
#include <vector>

#include "data_types.hpp"
#include "input_stream.hpp"

namespace zr::cli {

struct RawArray {
  core::DataType type = core::DataType::f32;
  std::uint64_t count = 0;
  std::vector<std::byte> data;  // count * size_of(type) bytes, in host order
};

// Every byte left in the stream as elements of `type`, stored in `order`. Throws zr::InvalidArgumentError when the
// byte count is not a multiple of the element size (the message gives both sizes and the type).
RawArray read_raw(std::istream& in, core::DataType type, std::string_view source_name,
                  ByteOrder order = ByteOrder::little);

}  // namespace zr::cli
