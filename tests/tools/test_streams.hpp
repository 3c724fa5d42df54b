#pragma once
// Inputs for the reader tests: byte strings, and a stream that cannot seek, as standard input from a pipe.
#include <cstddef>
#include <istream>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace zr::cli::test {

inline std::vector<std::byte> to_bytes(std::string_view text) {
  const auto* first = reinterpret_cast<const std::byte*>(text.data());
  return {first, first + text.size()};
}

inline std::string to_string(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// std::streambuf's seekoff and seekpos fail by default, so tellg() gives -1 as on a pipe.
class PipeBuffer : public std::streambuf {
 public:
  explicit PipeBuffer(std::string data) : data_(std::move(data)) {
    setg(data_.data(), data_.data(), data_.data() + data_.size());
  }

 private:
  std::string data_;
};

class PipeStream : public std::istream {
 public:
  explicit PipeStream(std::string data) : std::istream(nullptr), buffer_(std::move(data)) { rdbuf(&buffer_); }

 private:
  PipeBuffer buffer_;
};

}  // namespace zr::cli::test
