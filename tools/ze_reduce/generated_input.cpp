#include "generated_input.hpp"

#include <cstring>
#include <random>
#include <type_traits>

#include "common/type_dispatch.hpp"

namespace zr::cli {

namespace {

template <typename T>
T from_double(double value) {
  if constexpr (std::is_same_v<T, zr::half>) return zr::half(static_cast<float>(value));
  else return static_cast<T>(value);
}

template <typename T>
T pattern_value(core::Op op, std::uint64_t i) {
  constexpr bool floating = std::is_floating_point_v<T> || std::is_same_v<T, zr::half>;
  if constexpr (std::is_same_v<T, bool>) {
    return i % 7 != 3;
  } else {
    if (op == core::Op::multiplies) {
      if constexpr (floating) {
        // Signs alternate throughout; a few 2s and 0.5s only among the first 64 elements, so that no grouping
        // of the factors can overflow or underflow (a parallel product groups them in any order: a repeating
        // 2, 0.5 pattern overflows the lanes that collect the 2s although the exact product is 1).
        const double magnitude = i >= 64 || i % 4 < 2 ? 1.0 : (i % 4 == 2 ? 2.0 : 0.5);
        return from_double<T>(i % 4 == 1 ? -magnitude : magnitude);
      } else if constexpr (std::is_signed_v<T>) {
        constexpr int cycle[] = {1, -1, 3, 1};
        return static_cast<T>(cycle[i % 4]);
      } else {
        return static_cast<T>(i % 4 == 2 ? 3 : 1);
      }
    }
    const std::uint64_t mixed = i * 7919;
    if constexpr (floating) return from_double<T>((static_cast<double>(mixed % 255) - 127.0) / 8.0);
    else if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<int>(mixed % 255) - 127);
    else return static_cast<T>(mixed % 256);
  }
}

template <typename T>
T random_value(core::Op op, std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return (rng() & 1) != 0;
  } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, zr::half>) {
    const double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
    return from_double<T>(op == core::Op::multiplies ? 0.999 + 0.002 * unit : 2.0 * unit - 1.0);
  } else {
    return static_cast<T>(rng());
  }
}

}  // namespace

std::vector<std::byte> generate_input(core::DataType type, core::Op op, Fill fill, std::uint64_t seed, std::uint64_t n) {
  std::vector<std::byte> bytes(n * core::size_of(type));
  tools::visit_element_type(static_cast<element_type>(type), [&](auto type_tag) {
    using T = typename decltype(type_tag)::type;
    std::mt19937_64 rng(seed);
    for (std::uint64_t i = 0; i < n; ++i) {
      const T value = fill == Fill::pattern ? pattern_value<T>(op, i) : random_value<T>(op, rng);
      std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
    }
  });
  return bytes;
}

}  // namespace zr::cli
