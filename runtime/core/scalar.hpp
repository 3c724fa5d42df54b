#pragma once
// A value of any element type, held by its bytes: identities, initial values and results travel through
// the backend-neutral core and the executors in this form.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "data_types.hpp"

namespace zr::core {

struct Scalar {
  DataType type = DataType::i32;
  std::array<std::byte, 8> bytes{};

  std::size_t size() const { return size_of(type); }
  const std::byte* data() const { return bytes.data(); }

  template <typename T>
  static Scalar from(DataType type, T value) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
    Scalar s{type, {}};
    std::memcpy(s.bytes.data(), &value, sizeof(T));
    return s;
  }
  template <typename T>
  T as() const {
    T value{};
    std::memcpy(&value, bytes.data(), sizeof(T));
    return value;
  }

  bool bitwise_equal(const Scalar& other) const {
    return type == other.type && std::memcmp(bytes.data(), other.bytes.data(), size()) == 0;
  }
  // The value as a double (exact for every type but 64-bit integers beyond 2^53).
  double to_double() const;
  // Human-readable text: integers exactly, floating types with round-trip precision, bool as true/false.
  std::string to_string() const;
};

// Converts between an element type and its accumulator type (only half differs: it accumulates in float).
Scalar to_accumulator(const Scalar& value);
Scalar from_accumulator(const Scalar& accumulator, DataType element_type);

// Parses text as a value of the given type ("1.5", "-3", "0x1f", "true", "inf", "nan"); throws
// zr::InvalidArgumentError naming the type when the text is not a value of it or does not fit.
Scalar parse_scalar(DataType type, const std::string& text);

}  // namespace zr::core
