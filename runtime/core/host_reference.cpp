#include "host_reference.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "binned_sum.hpp"
#include "half.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {
template <typename T>
T load(std::span<const std::byte> data, std::uint64_t i) {
  T value;
  std::memcpy(&value, data.data() + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
T combine_integer(Op op, T a, T b) {
  using U = std::make_unsigned_t<decltype(+a)>;  // promoted, so narrow types cannot overflow a signed int
  switch (op) {
    case Op::plus: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    case Op::multiplies: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    case Op::minimum: return b < a ? b : a;
    case Op::maximum: return a < b ? b : a;
    case Op::bit_and: return static_cast<T>(a & b);
    case Op::bit_or: return static_cast<T>(a | b);
    case Op::bit_xor: return static_cast<T>(a ^ b);
    default: throw std::logic_error("not an integer op");
  }
}

template <typename T>
HostReference reduce_integer(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                             const Scalar& identity, const std::optional<Scalar>& initial) {
  T acc = identity.as<T>();
  for (std::uint64_t i = 0; i < n; ++i) acc = combine_integer(op, acc, load<T>(data, i));
  if (initial) acc = combine_integer(op, initial->as<T>(), acc);
  return {Scalar::from(type, acc), 0.0};
}

HostReference reduce_bool(Op op, std::span<const std::byte> data, std::uint64_t n, const Scalar& identity,
                          const std::optional<Scalar>& initial) {
  bool acc = identity.as<std::uint8_t>() != 0;
  auto combine = [op](bool a, bool b) { return op == Op::logical_and ? (a && b) : (a || b); };
  for (std::uint64_t i = 0; i < n; ++i) acc = combine(acc, load<std::uint8_t>(data, i) != 0);
  if (initial) acc = combine(initial->as<std::uint8_t>() != 0, acc);
  return {Scalar::from<std::uint8_t>(DataType::boolean, acc ? 1 : 0), 0.0};
}

// IEEE 754-2019 minimum/maximum with a canonical NaN, as the kernels do.
template <typename T>
T ieee_min(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return (b < a || (b == a && std::signbit(b))) ? b : a;
}
template <typename T>
T ieee_max(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
  return (a < b || (a == b && std::signbit(a))) ? b : a;
}

HostReference reduce_floating(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                              const Scalar& identity, const std::optional<Scalar>& initial, std::uint64_t depth) {
  const double first = identity.to_double();
  if (op == Op::minimum || op == Op::maximum) {
    // Exact in double for every floating type (the values are only compared).
    double acc = first;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double x = element_as_double(type, data, i);
      acc = op == Op::minimum ? ieee_min(acc, x) : ieee_max(acc, x);
    }
    if (initial) {
      const double x = initial->to_double();
      acc = op == Op::minimum ? ieee_min(x, acc) : ieee_max(x, acc);
    }
    return {round_to(type, acc), 0.0};
  }

  // plus / multiplies in extended precision, with the special values handled exactly.
  long double acc = first;
  long double abs_sum = std::fabs(static_cast<long double>(first));
  bool special = std::isinf(first) || std::isnan(first);
  auto fold = [&](double x) {
    special = special || std::isinf(x) || std::isnan(x);
    if (op == Op::plus) {
      acc += x;
      abs_sum += std::fabs(static_cast<long double>(x));
    } else {
      acc *= x;
    }
  };
  for (std::uint64_t i = 0; i < n; ++i) fold(element_as_double(type, data, i));
  if (initial) fold(initial->to_double());

  HostReference ref{round_to(type, acc), 0.0};
  if (special) {
    // inf/NaN: the outcome does not depend on the order (NaN stays NaN; infinities of one sign stay).
    if (std::isnan(acc)) ref.value = round_to(type, std::numeric_limits<double>::quiet_NaN());
    return ref;
  }
  const bool f64 = type == DataType::f64;
  const long double u = f64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
  const long double min_normal = f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  // A sum's error depends on the tree's height; a product's does not: every multiplication's rounding scales
  // the whole product, whatever the grouping, so m is the number of multiplications (Higham, section 3.1).
  const long double m = static_cast<long double>(op == Op::multiplies ? n + 1 : depth);
  // Past m*u = 1/2 the bound says nothing useful; cap it there (|error| <= sum |x_i| still catches garbage).
  const long double gamma = m * u >= 0.5L ? 1.0L : m * u / (1.0L - m * u);
  long double bound = (op == Op::plus ? gamma * abs_sum : gamma * std::fabs(acc)) + m * min_normal;
  // Rounding the exact value to T for the reference, and the kernel's final rounding for half, both count.
  // An exact value beyond the type's range rounds to infinity, the one right answer (agrees() tests equality
  // first); counting that rounding would make the bound infinite and let any answer pass.
  if (!std::isinf(ref.value.to_double())) bound += std::fabs(static_cast<long double>(ref.value.to_double()) - acc);
  if (type == DataType::f16) bound += std::fabs(acc) * std::ldexp(1.0L, -11) + std::ldexp(1.0L, -25);
  ref.tolerance = static_cast<double>(bound);
  return ref;
}
}  // namespace

double element_as_double(DataType type, std::span<const std::byte> data, std::uint64_t i) {
  switch (type) {
    case DataType::f16: return half_bits_to_float(load<std::uint16_t>(data, i));
    case DataType::f32: return load<float>(data, i);
    default: return load<double>(data, i);
  }
}

Scalar round_to(DataType type, long double value) {
  switch (type) {
    case DataType::f16: return Scalar::from(type, float_to_half_bits(static_cast<float>(static_cast<double>(value))));
    case DataType::f32: return Scalar::from(type, static_cast<float>(value));
    default: return Scalar::from(type, static_cast<double>(value));
  }
}

HostReference host_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                             const Scalar& identity, const std::optional<Scalar>& initial,
                             std::optional<std::uint64_t> combine_depth) {
  if (!is_supported(op, type))
    throw InvalidArgumentError(std::string(name(op)) + " is not defined for " + std::string(name(type)));
  if (data.size() / size_of(type) < n)
    throw InvalidArgumentError("host reference: " + std::to_string(n) + " elements of " + std::string(name(type)) +
                               " need " + std::to_string(n * size_of(type)) + " bytes, got " +
                               std::to_string(data.size()));
  switch (type) {
    case DataType::i8: return reduce_integer<std::int8_t>(op, type, data, n, identity, initial);
    case DataType::i16: return reduce_integer<std::int16_t>(op, type, data, n, identity, initial);
    case DataType::i32: return reduce_integer<std::int32_t>(op, type, data, n, identity, initial);
    case DataType::i64: return reduce_integer<std::int64_t>(op, type, data, n, identity, initial);
    case DataType::u8: return reduce_integer<std::uint8_t>(op, type, data, n, identity, initial);
    case DataType::u16: return reduce_integer<std::uint16_t>(op, type, data, n, identity, initial);
    case DataType::u32: return reduce_integer<std::uint32_t>(op, type, data, n, identity, initial);
    case DataType::u64: return reduce_integer<std::uint64_t>(op, type, data, n, identity, initial);
    case DataType::boolean: return reduce_bool(op, data, n, identity, initial);
    default: return reduce_floating(op, type, data, n, identity, initial, combine_depth.value_or(n + 1));
  }
}

bool agrees(const HostReference& reference, const Scalar& actual, std::string* why) {
  if (actual.type != reference.value.type) {
    if (why) *why = "result type differs";
    return false;
  }
  // Bitwise equality first: it is the only way an infinite reference (a sum that overflows) can agree.
  if (reference.value.bitwise_equal(actual)) return true;
  if (reference.tolerance == 0.0 || std::isnan(reference.value.to_double())) {
    if (why) *why = "expected exactly " + reference.value.to_string() + ", got " + actual.to_string();
    return false;
  }
  const double error = std::fabs(actual.to_double() - reference.value.to_double());
  if (error <= reference.tolerance) return true;
  if (why)
    *why = "expected " + reference.value.to_string() + " within " + std::to_string(reference.tolerance) + ", got " +
           actual.to_string() + " (off by " + std::to_string(error) + ")";
  return false;
}

HostReference reproducible_sum_reference(DataType type, std::span<const std::byte> data, std::uint64_t n,
                                         const std::optional<Scalar>& initial) {
  return {binned_value(binned_sum_state(type, data, n, initial), type), 0.0};
}

}  // namespace zr::core
