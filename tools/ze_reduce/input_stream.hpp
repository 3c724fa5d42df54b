#pragma once
// Reading an input (a file or standard input) into memory without a temporary copy of it and without trusting a
// size announced by the input itself: a header that claims 1 TiB costs only what the stream really delivers.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string_view>
#include <vector>

namespace zr::cli {

// Bytes between the stream's position and its end when it can seek (a regular file); nullopt for a pipe.
std::optional<std::uint64_t> remaining_bytes(std::istream& in);

// Reads until the end of the stream, or until `limit` bytes have been read, in chunks. A seekable stream gets its
// buffer allocated once; a pipe's grows geometrically, never beyond `limit`. Throws zr::Error on a read error.
std::vector<std::byte> read_bytes(std::istream& in, std::uint64_t limit, std::string_view source_name);

}  // namespace zr::cli
