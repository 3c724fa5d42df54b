#include "input_stream.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "zereduce/errors.hpp"

namespace zr::cli {

namespace {

constexpr std::uint64_t kChunkBytes = std::uint64_t{16} << 20;

static_assert(std::endian::native == std::endian::little, "ByteOrder::little is taken to be the host's order");

// memcpy rather than a cast: the bytes of a std::vector<std::byte> need not be aligned for Word, and the copies
// compile to plain loads and stores (the loop vectorises).
template <typename Word, Word (*swap)(Word)>
void reverse_words(std::span<std::byte> bytes) {
  for (std::size_t offset = 0; offset < bytes.size(); offset += sizeof(Word)) {
    Word word;
    std::memcpy(&word, bytes.data() + offset, sizeof word);
    word = swap(word);
    std::memcpy(bytes.data() + offset, &word, sizeof word);
  }
}

std::uint16_t swap16(std::uint16_t word) { return __builtin_bswap16(word); }
std::uint32_t swap32(std::uint32_t word) { return __builtin_bswap32(word); }
std::uint64_t swap64(std::uint64_t word) { return __builtin_bswap64(word); }

}  // namespace

std::string_view byte_order_name(ByteOrder order) { return order == ByteOrder::big ? "big" : "little"; }

void reverse_element_bytes(std::span<std::byte> bytes, std::size_t element_bytes) {
  if (element_bytes > 1 && bytes.size() % element_bytes != 0)
    throw InvalidArgumentError("reverse_element_bytes: " + std::to_string(bytes.size()) +
                               " bytes are not a whole number of " + std::to_string(element_bytes) + "-byte elements");
  switch (element_bytes) {
    case 1: return;
    case 2: return reverse_words<std::uint16_t, swap16>(bytes);
    case 4: return reverse_words<std::uint32_t, swap32>(bytes);
    case 8: return reverse_words<std::uint64_t, swap64>(bytes);
    default:
      throw InvalidArgumentError("reverse_element_bytes: elements of " + std::to_string(element_bytes) +
                                 " bytes have no byte swap (1, 2, 4 or 8)");
  }
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

std::vector<std::byte> read_bytes(std::istream& in, std::uint64_t limit, std::string_view source_name,
                                  ByteOrder order, std::size_t element_bytes) {
  const bool swap = order == ByteOrder::big && element_bytes > 1;
  std::uint64_t swapped = 0;  // bytes already in host order: chunks need not end on an element boundary
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
    if (swap) {
      const std::uint64_t whole = bytes.size() - bytes.size() % element_bytes;
      reverse_element_bytes(std::span(bytes).subspan(swapped, whole - swapped), element_bytes);
      swapped = whole;
    }
    if (got < wanted) break;
  }
  return bytes;
}

}  // namespace zr::cli
