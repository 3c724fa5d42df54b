#include "transform_reference.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "half.hpp"

namespace zr::core {

namespace {
template <typename T>
T load(std::span<const std::byte> data, std::uint64_t i) {
  T value;
  std::memcpy(&value, data.data() + i * sizeof(T), sizeof(T));
  return value;
}

// Element i as a 64-bit integer bit pattern, sign-extended for signed types (bool as 0 or 1).
std::uint64_t element_as_u64(DataType type, std::span<const std::byte> data, std::uint64_t i) {
  switch (type) {
    case DataType::i8: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int8_t>(data, i)));
    case DataType::i16: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int16_t>(data, i)));
    case DataType::i32: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int32_t>(data, i)));
    case DataType::i64: return static_cast<std::uint64_t>(load<std::int64_t>(data, i));
    case DataType::u8: return load<std::uint8_t>(data, i);
    case DataType::u16: return load<std::uint16_t>(data, i);
    case DataType::u32: return load<std::uint32_t>(data, i);
    case DataType::u64: return load<std::uint64_t>(data, i);
    case DataType::boolean: return load<std::uint8_t>(data, i) != 0 ? 1 : 0;
    default: return 0;
  }
}

// How many elements are nonzero (count_nonzero) or equal to `value` (count_equal), compared as the kernels
// compare: floating types as numbers (NaN equals nothing and is nonzero, -0.0 == +0.0), integers exactly.
std::uint64_t count(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n, const Scalar& value) {
  std::uint64_t counted = 0;
  if (is_floating(type)) {
    const double wanted = op == Op::count_equal ? value.to_double() : 0.0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double x = element_as_double(type, data, i);
      counted += op == Op::count_equal ? (x == wanted) : (x != 0.0);
    }
    return counted;
  }
  const std::uint64_t wanted = op == Op::count_equal ? element_as_u64(type, std::span<const std::byte>(value.data(), size_of(type)), 0) : 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t x = element_as_u64(type, data, i);
    counted += op == Op::count_equal ? (x == wanted) : (x != 0);
  }
  return counted;
}

long double unit_roundoff(DataType accumulator) {
  return accumulator == DataType::f64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
}
long double min_normal(DataType accumulator) {
  return accumulator == DataType::f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
}
// The spacing of the floating type's values at |x| (its smallest subnormal step below the normal range).
long double ulp(DataType type, long double x) {
  const int digits = type == DataType::f64 ? 53 : type == DataType::f32 ? 24 : 11;
  const int min_exponent = type == DataType::f64 ? -1021 : type == DataType::f32 ? -125 : -13;
  const int exponent = x == 0 ? min_exponent : std::max(std::ilogb(x) + 1, min_exponent);
  return std::ldexp(1.0L, exponent - digits);
}

HostReference floating_sum(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n, std::uint64_t depth) {
  const DataType result_type = transform_result_type(op, type);
  const DataType accumulator = transform_accumulator_type(op, type);
  const bool squares = op == Op::sum_squares || op == Op::norm_l2;
  long double sum = 0;
  long double abs_sum = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const long double x = element_as_double(type, data, i);
    const long double term = squares ? x * x : op == Op::norm_l1 ? std::fabs(x) : x;
    sum += term;
    abs_sum += std::fabs(term);
  }
  const long double exact = op == Op::norm_l2 ? std::sqrt(sum) : sum;
  HostReference ref{round_to(result_type, exact), 0.0};
  // An accumulator of f32 overflows where long double does not; the device's sum is then infinite, and so is
  // the reference once rounded: infinite and NaN results are compared exactly.
  if (std::isnan(sum)) ref.value = round_to(result_type, std::numeric_limits<double>::quiet_NaN());
  const long double in_accumulator = static_cast<long double>(round_to(accumulator, sum).to_double());
  if (!std::isfinite(sum) || !std::isfinite(in_accumulator) || !std::isfinite(ref.value.to_double())) return ref;

  const long double u = unit_roundoff(accumulator);
  const long double m = static_cast<long double>(depth);
  const long double gamma = m * u >= 0.5L ? 1.0L : m * u / (1.0L - m * u);
  long double sum_bound = gamma * (1 + u) * abs_sum + (static_cast<long double>(n) + m) * min_normal(accumulator);
  if (squares) sum_bound += u * abs_sum;
  sum_bound += static_cast<long double>(n) * std::ldexp(abs_sum, -63);  // the reference's own long double adds
  long double bound = sum_bound;
  if (op == Op::norm_l2) {
    const long double low = std::sqrt(std::max<long double>(0, sum - sum_bound));
    bound = std::max(std::sqrt(sum + sum_bound) - exact, exact - low) + 3 * ulp(accumulator, exact);
  }
  // Rounding the exact value for the reference, and the device's final rounding to an f16 result.
  bound += std::fabs(static_cast<long double>(ref.value.to_double()) - exact);
  if (result_type != accumulator) bound += ulp(result_type, exact) / 2;
  ref.tolerance = static_cast<double>(bound);
  return ref;
}
}  // namespace

HostReference transform_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                                  const Scalar& value, std::optional<std::uint64_t> combine_depth) {
  switch (op) {
    case Op::count_nonzero:
    case Op::count_equal:
      return {Scalar::from(DataType::u64, count(op, type, data, n, value)), 0.0};
    case Op::sum_i64:
    case Op::sum_u64: {
      std::uint64_t sum = 0;  // wraps modulo 2^64; an i64 sum has the same bits
      for (std::uint64_t i = 0; i < n; ++i) sum += element_as_u64(type, data, i);
      return {Scalar::from(transform_result_type(op, type), sum), 0.0};
    }
    default:
      return floating_sum(op, type, data, n, combine_depth.value_or(n + 1));
  }
}

}  // namespace zr::core
