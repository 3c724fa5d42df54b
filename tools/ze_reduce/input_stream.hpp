#pragma once
// Reading an input (a file or standard input) into memory without a temporary copy of it and without trusting a
// size announced by the input itself: a header that claims 1 TiB costs only what the stream really delivers.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace zr::cli {

// The order of the bytes of each multi-byte element in an input. little is this host's order (the .npy reader
// asserts a little-endian host), so only big costs anything: one swap of each element as it is read.
enum class ByteOrder : std::uint8_t { little, big };

// "little" or "big", for messages and reports.
std::string_view byte_order_name(ByteOrder order);

// Reverses the bytes of each `element_bytes`-byte element of `bytes` in place (1, 2, 4 or 8 bytes; 1 changes
// nothing). bytes.size() must be a multiple of element_bytes.
void reverse_element_bytes(std::span<std::byte> bytes, std::size_t element_bytes);

// Bytes between the stream's position and its end when it can seek (a regular file); nullopt for a pipe.
std::optional<std::uint64_t> remaining_bytes(std::istream& in);

// Reads until the end of the stream, or until `limit` bytes have been read, in chunks. A seekable stream gets its
// buffer allocated once; a pipe's grows geometrically, never beyond `limit`. Throws zr::Error on a read error.
// With ByteOrder::big, every whole `element_bytes`-byte element is swapped to host order right after the chunk
// holding it is read, while it is still in cache; a partial element at the end is left as it is (the callers
// refuse such inputs).
std::vector<std::byte> read_bytes(std::istream& in, std::uint64_t limit, std::string_view source_name,
                                  ByteOrder order = ByteOrder::little, std::size_t element_bytes = 1);

}  // namespace zr::cli
