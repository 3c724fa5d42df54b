#include "moments_reference.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "host_reference.hpp"
#include "scalar.hpp"

namespace zr::core {

namespace {
long double element(DataType type, std::span<const std::byte> data, std::uint64_t i) {
  if (is_floating(type)) return element_as_double(type, data, i);
  Scalar value{type, {}};
  std::memcpy(value.bytes.data(), data.data() + i * size_of(type), size_of(type));
  switch (type) {
    case DataType::i8: return value.as<std::int8_t>();
    case DataType::i16: return value.as<std::int16_t>();
    case DataType::i32: return value.as<std::int32_t>();
    case DataType::i64: return static_cast<long double>(value.as<std::int64_t>());
    case DataType::u8: return value.as<std::uint8_t>();
    case DataType::u16: return value.as<std::uint16_t>();
    case DataType::u32: return value.as<std::uint32_t>();
    default: return static_cast<long double>(value.as<std::uint64_t>());
  }
}
}  // namespace

MomentsReference moments_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                                   std::optional<std::uint64_t> combine_depth) {
  MomentsReference ref;
  ref.exact.count = n;
  long double sum = 0, abs_sum = 0, largest = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const long double x = element(type, data, i);
    if (!std::isfinite(x)) ref.nan_expected = true;
    sum += x;
    abs_sum += std::fabs(x);
    largest = std::max(largest, std::fabs(x));
  }
  if (ref.nan_expected || n == 0) {
    ref.exact.mean = n == 0 ? 0 : std::numeric_limits<long double>::quiet_NaN();
    ref.exact.m2 = ref.exact.mean;
    return ref;
  }
  const long double mean = sum / static_cast<long double>(n);
  long double m2 = 0, squares = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const long double x = element(type, data, i);
    m2 += (x - mean) * (x - mean);
    squares += x * x;
  }
  ref.exact.mean = mean;
  ref.exact.m2 = m2;

  const bool f64 = moments_accumulator(op) == DataType::f64;
  const long double u = f64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
  const long double min_normal = f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  const long double max_finite = f64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
  const long double m = static_cast<long double>(combine_depth.value_or(n + 1)) + 2;
  const long double count = static_cast<long double>(n);
  const long double own = count * std::ldexp(abs_sum, -63);  // the reference's own long double sums
  ref.mean_tolerance = 6 * m * u * largest + own / count + m * min_normal;
  ref.m2_tolerance = 16 * m * u * (std::sqrt(m2 * squares) + m2) + 4 * count * m * (u * largest) * (u * largest) +
                     4 * (count + m) * min_normal + count * std::ldexp(squares, -62);
  ref.nan_allowed = 4 * count * largest * largest > max_finite;
  return ref;
}

Moments moments_from_bytes(Op op, const std::byte* result) {
  Moments out;
  std::memcpy(&out.count, result, sizeof out.count);
  if (moments_accumulator(op) == DataType::f64) {
    double values[2];
    std::memcpy(values, result + 8, sizeof values);
    out.mean = values[0];
    out.m2 = values[1];
  } else {
    float values[2];
    std::memcpy(values, result + 8, sizeof values);
    out.mean = values[0];
    out.m2 = values[1];
  }
  return out;
}

bool agrees(const MomentsReference& reference, const Moments& actual, std::string* why) {
  auto text = [](long double x) { return std::to_string(static_cast<double>(x)); };
  auto fail = [&](std::string message) {
    if (why) *why = std::move(message);
    return false;
  };
  if (actual.count != reference.exact.count)
    return fail("count " + std::to_string(actual.count) + ", expected " + std::to_string(reference.exact.count));
  const bool both_nan = std::isnan(actual.mean) && std::isnan(actual.m2);
  if (reference.nan_expected)
    return both_nan || fail("a NaN or infinity in the input, yet mean " + text(actual.mean) + " and m2 " + text(actual.m2));
  if (reference.nan_allowed && both_nan) return true;
  const long double mean_error = std::fabs(actual.mean - reference.exact.mean);
  const long double m2_error = std::fabs(actual.m2 - reference.exact.m2);
  if (!(mean_error <= reference.mean_tolerance))
    return fail("mean " + text(actual.mean) + ", expected " + text(reference.exact.mean) + " within " +
                text(reference.mean_tolerance));
  if (!(m2_error <= reference.m2_tolerance))
    return fail("m2 " + text(actual.m2) + ", expected " + text(reference.exact.m2) + " within " +
                text(reference.m2_tolerance));
  return true;
}

}  // namespace zr::core
