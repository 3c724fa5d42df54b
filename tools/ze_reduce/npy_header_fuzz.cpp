// libFuzzer target: parse_npy_header (and read_npy over the same bytes) on arbitrary input. Besides crashes and
// sanitizer reports, it aborts when a result breaks the header's invariants or when an error other than
// zr::InvalidArgumentError escapes.
#include <cstdlib>
#include <sstream>

#include "npy.hpp"

namespace {
void check(bool condition) {
  if (!condition) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
  try {
    const auto header = zr::cli::parse_npy_header(bytes, "fuzz.npy");
    check(header.data_offset >= 10 && header.data_offset <= size);
    std::uint64_t count = 1;
    for (auto extent : header.shape) count *= extent;
    check(count == header.count && header.data_bytes == count * zr::core::size_of(header.type));
    // Only elements of more than one byte have an order to swap.
    check(header.byte_order == zr::cli::ByteOrder::little || zr::core::size_of(header.type) > 1);
    // What we would write for this header must read back as the same array.
    const auto rewritten = zr::cli::make_npy_header(header.type, header.shape);
    const auto again = zr::cli::parse_npy_header(rewritten, "rewritten.npy");
    check(again.type == header.type && again.shape == header.shape && again.data_offset == rewritten.size() &&
          again.data_offset % 64 == 0 && again.byte_order == zr::cli::ByteOrder::little);
  } catch (const zr::cli::NpyTruncatedError& e) {
    check(e.bytes_needed() > size);
  } catch (const zr::InvalidArgumentError&) {
  }
  try {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    const auto array = zr::cli::read_npy(in, "fuzz.npy");
    check(array.data.size() == array.header.data_bytes && array.header.data_offset + array.data.size() == size);
  } catch (const zr::InvalidArgumentError&) {
  }
  return 0;
}
