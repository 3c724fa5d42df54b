#include "input_stream.hpp"

#include <algorithm>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {
constexpr std::uint64_t kChunkBytes = std::uint64_t{16} << 20;
}

std::optional<std::uint64_t> remaining_bytes(std::istream& in) {
  const auto start = in.tellg();
  if (start == std::istream::pos_type(-1)) {
    in.clear(in.rdstate() & ~std::ios::failbit);
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  in.clear(in.rdstate() & ~std::ios::failbit);
  in.seekg(start);
  if (end == std::istream::pos_type(-1) || end < start || !in) {
    in.clear(in.rdstate() & ~std::ios::failbit);
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(end - start);
}

std::vector<std::byte> read_bytes(std::istream& in, std::uint64_t limit, std::string_view source_name) {
  std::vector<std::byte> bytes;
  if (const auto remaining = remaining_bytes(in)) bytes.reserve(std::min(*remaining, limit));
  while (bytes.size() < limit) {
    if (bytes.size() == bytes.capacity()) {
      // A file read to its announced end must not grow (and copy) its exact-size buffer just to see the end.
      if (in.peek() == std::istream::traits_type::eof()) break;
      bytes.reserve(std::min<std::uint64_t>(limit, std::max<std::uint64_t>(kChunkBytes, 2 * bytes.capacity())));
    }
    const std::uint64_t wanted = std::min<std::uint64_t>(kChunkBytes, bytes.capacity() - bytes.size());
    const auto old_size = bytes.size();
    bytes.resize(old_size + wanted);
    in.read(reinterpret_cast<char*>(bytes.data() + old_size), static_cast<std::streamsize>(wanted));
    const auto got = static_cast<std::uint64_t>(in.gcount());
    bytes.resize(old_size + got);
    if (in.bad()) throw Error(std::string(source_name) + ": read error after " + std::to_string(bytes.size()) + " bytes");
    if (got < wanted) break;
  }
  return bytes;
}

}  // namespace zr::cli
