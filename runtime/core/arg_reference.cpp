#include "arg_reference.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "half.hpp"
#include "plan.hpp"

namespace zr::core {

namespace {
template <typename K>
bool precedes(bool largest, K a, std::uint64_t a_index, K b, std::uint64_t b_index) {
  bool a_nan = false, b_nan = false;
  if constexpr (std::is_floating_point_v<K>) a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan != b_nan) return a_nan;
  if (!a_nan) {
    if (largest ? b < a : a < b) return true;
    if (largest ? a < b : b < a) return false;
  }
  return a_index < b_index;
}

// Storage type of each element type (f16 as its bits).
template <typename F>
decltype(auto) with_storage_type(DataType type, F&& f) {
  switch (type) {
    case DataType::i8: return f(std::int8_t{});
    case DataType::i16: return f(std::int16_t{});
    case DataType::i32: return f(std::int32_t{});
    case DataType::i64: return f(std::int64_t{});
    case DataType::u8: return f(std::uint8_t{});
    case DataType::u16: return f(std::uint16_t{});
    case DataType::u32: return f(std::uint32_t{});
    case DataType::u64: return f(std::uint64_t{});
    case DataType::f16: return f(std::uint16_t{});
    case DataType::f32: return f(float{});
    case DataType::f64: return f(double{});
    case DataType::boolean: break;
  }
  throw std::logic_error("argmin/argmax take integer or floating-point values");
}

Scalar canonical(const Scalar& value) {
  switch (value.type) {
    case DataType::f16:
      if (std::isnan(half_bits_to_float(value.as<std::uint16_t>()))) return Scalar::from<std::uint16_t>(value.type, 0x7e00);
      break;
    case DataType::f32:
      if (std::isnan(value.as<float>())) return Scalar::from(value.type, std::numeric_limits<float>::quiet_NaN());
      break;
    case DataType::f64:
      if (std::isnan(value.as<double>())) return Scalar::from(value.type, std::numeric_limits<double>::quiet_NaN());
      break;
    default: break;
  }
  return value;
}
}  // namespace

bool arg_precedes(Op op, const ArgCandidate& a, const ArgCandidate& b) {
  if (!is_arg_op(op)) throw std::logic_error("arg_precedes needs argmin or argmax");
  const bool largest = op == Op::argmax;
  if (a.value.type == DataType::f16)
    return precedes(largest, half_bits_to_float(a.value.as<std::uint16_t>()), a.index,
                    half_bits_to_float(b.value.as<std::uint16_t>()), b.index);
  return with_storage_type(a.value.type, [&](auto tag) {
    using T = decltype(tag);
    return precedes(largest, a.value.as<T>(), a.index, b.value.as<T>(), b.index);
  });
}

ArgCandidate arg_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n) {
  if (!is_arg_op(op)) throw std::logic_error("arg_reference needs argmin or argmax");
  if (n == 0) throw std::invalid_argument("an arg-reduction of no elements has no result");
  return with_storage_type(type, [&](auto tag) {
    using T = decltype(tag);
    const bool half = type == DataType::f16;
    const bool largest = op == Op::argmax;
    std::uint64_t best = 0;
    T best_value;
    std::memcpy(&best_value, data.data(), sizeof(T));
    for (std::uint64_t i = 1; i < n; ++i) {
      T x;
      std::memcpy(&x, data.data() + i * sizeof(T), sizeof(T));
      // A later element wins only when strictly before the best in the order (ties keep the first).
      const bool better = half ? precedes(largest, half_bits_to_float(static_cast<std::uint16_t>(x)), i,
                                          half_bits_to_float(static_cast<std::uint16_t>(best_value)), best)
                               : precedes(largest, x, i, best_value, best);
      if (better) best = i, best_value = x;
    }
    return ArgCandidate{canonical(Scalar::from(type, best_value)), best};
  });
}

ArgCandidate arg_from_bytes(DataType type, const std::byte* result) {
  ArgCandidate candidate;
  candidate.value.type = type;
  std::memcpy(candidate.value.bytes.data(), result, size_of(type));
  std::memcpy(&candidate.index, result + 8, sizeof candidate.index);
  return candidate;
}

void arg_to_bytes(const ArgCandidate& candidate, std::byte* result) {
  std::memset(result, 0, kArgResultBytes);
  std::memcpy(result, candidate.value.data(), candidate.value.size());
  std::memcpy(result + 8, &candidate.index, sizeof candidate.index);
}

}  // namespace zr::core
