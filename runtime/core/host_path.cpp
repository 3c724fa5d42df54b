#include "host_path.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "arg_reference.hpp"
#include "binned_sum.hpp"
#include "half.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

namespace {

// The element as its accumulator: f16 widens to float, bool reads any non-zero byte as 1.
template <typename Element, typename Acc>
inline Acc load(const std::byte* data, std::uint64_t i) {
  Element value;
  std::memcpy(&value, data + i * sizeof(Element), sizeof(Element));
  if constexpr (std::is_same_v<Element, std::uint16_t> && std::is_same_v<Acc, float>) return half_bits_to_float(value);
  else return static_cast<Acc>(value);
}

template <typename T>
constexpr T canonical_nan() {
  return std::numeric_limits<T>::quiet_NaN();  // 0x7fc00000 and 0x7ff8000000000000, as the kernels store
}

template <typename T>
inline T ieee_minimum(T a, T b) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  if (a != a || b != b) return canonical_nan<T>();
  if (a == b) {  // equal operands are the same bits or zeros of both signs: OR keeps -0.0
    Bits x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    x |= y;
    std::memcpy(&a, &x, sizeof x);
    return a;
  }
  return b < a ? b : a;
}

template <typename T>
inline T ieee_maximum(T a, T b) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  if (a != a || b != b) return canonical_nan<T>();
  if (a == b) {  // AND keeps +0.0
    Bits x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    x &= y;
    std::memcpy(&a, &x, sizeof x);
    return a;
  }
  return a < b ? b : a;
}

// The combine of (op, accumulator type), as zr_types.h defines it. Integers wrap: plus and multiplies run in
// an unsigned type at least as wide as unsigned int (no promotion to a signed int that could overflow).
template <typename Acc>
struct Combine {
  Op op;
  Acc operator()(Acc a, Acc b) const {
    if constexpr (std::is_floating_point_v<Acc>) {
      switch (op) {
        case Op::plus: return a + b;
        case Op::multiplies: return a * b;
        case Op::minimum: return ieee_minimum(a, b);
        case Op::maximum: return ieee_maximum(a, b);
        default: return a;
      }
    } else {
      using Wide = std::conditional_t<(sizeof(Acc) < sizeof(unsigned)), unsigned, std::make_unsigned_t<Acc>>;
      switch (op) {
        case Op::plus: return static_cast<Acc>(static_cast<Wide>(a) + static_cast<Wide>(b));
        case Op::multiplies: return static_cast<Acc>(static_cast<Wide>(a) * static_cast<Wide>(b));
        case Op::minimum: return b < a ? b : a;
        case Op::maximum: return a < b ? b : a;
        case Op::bit_and: return a & b;
        case Op::bit_or: return a | b;
        case Op::bit_xor: return a ^ b;
        case Op::logical_and: return static_cast<Acc>(a && b);
        case Op::logical_or: return static_cast<Acc>(a || b);
        default: return a;
      }
    }
  }
};

// kHostLanes accumulators over elements i, i + lanes, ...; the lanes then combined pairwise. The op is a
// template argument so that each loop is compiled for one combine (vectorised where the combine allows).
template <typename Element, typename Acc, Op kOp>
Acc reduce_lanes(const std::byte* data, std::uint64_t n, Acc identity) {
  const Combine<Acc> combine{kOp};
  Acc lane[kHostLanes];
  for (auto& value : lane) value = identity;
  std::uint64_t i = 0;
  for (; i + kHostLanes <= n; i += kHostLanes)
    for (std::uint64_t j = 0; j < kHostLanes; ++j) lane[j] = combine(lane[j], load<Element, Acc>(data, i + j));
  for (std::uint64_t j = 0; i + j < n; ++j) lane[j] = combine(lane[j], load<Element, Acc>(data, i + j));
  for (std::uint64_t width = kHostLanes / 2; width >= 1; width /= 2)
    for (std::uint64_t j = 0; j < width; ++j) lane[j] = combine(lane[j], lane[j + width]);
  return lane[0];
}

// Floating minimum/maximum, vectorised by hand (GCC's and Clang's vector extensions: the compiler's SLP pass left
// the select scalar, 4x slower): 8 vectors of `x < m ? x : m` (minps/maxps), which pass NaNs by and keep the first
// of two equal zeros, beside 8 vectors of x * 0, which turn NaN where an input is NaN or infinite. Only then is the
// input looked at again, for a NaN (the result is the canonical NaN, as ieee_minimum gives); and a zero result
// is given the sign IEEE 754-2019 asks for (-0.0 below +0.0) by one more look, only then.
template <typename T, bool kMinimum>
T extreme_vectorised(const std::byte* data, std::uint64_t n, T identity) {
  typedef T Vector __attribute__((vector_size(16)));
  constexpr std::uint64_t kWidth = 16 / sizeof(T), kVectors = 8, kStep = kWidth * kVectors;
  Vector lane[kVectors], probe[kVectors];
  for (auto& v : lane) v = Vector{} + identity;
  for (auto& v : probe) v = Vector{};
  std::uint64_t i = 0;
  for (; i + kStep <= n; i += kStep)
    for (std::uint64_t k = 0; k < kVectors; ++k) {
      Vector x;
      std::memcpy(&x, data + (i + k * kWidth) * sizeof(T), sizeof x);
      lane[k] = kMinimum ? (x < lane[k] ? x : lane[k]) : (lane[k] < x ? x : lane[k]);
      probe[k] += x * 0;
    }
  T result = identity, poisoned = 0;  // not identity * 0: the identities are infinities
  for (std::uint64_t k = 0; k < kVectors; ++k)
    for (std::uint64_t j = 0; j < kWidth; ++j) {
      result = kMinimum ? ieee_minimum(result, lane[k][j]) : ieee_maximum(result, lane[k][j]);
      poisoned += probe[k][j];
    }
  for (; i < n; ++i) {
    T x;
    std::memcpy(&x, data + i * sizeof(T), sizeof(T));
    result = kMinimum ? ieee_minimum(result, x) : ieee_maximum(result, x);
    poisoned += x * 0;
  }
  if (poisoned != poisoned) {  // an infinity or a NaN somewhere: is it a NaN?
    for (std::uint64_t k = 0; k < n; ++k) {
      T x;
      std::memcpy(&x, data + k * sizeof(T), sizeof(T));
      if (x != x) return canonical_nan<T>();
    }
  }
  if (result != result) return canonical_nan<T>();
  if (result == 0) {  // which zero: -0.0 for minimum when there is one, +0.0 for maximum when there is one
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    Bits signs = kMinimum ? 0 : ~Bits{0};  // OR (minimum) or AND (maximum) of the zeros' bits
    for (std::uint64_t k = 0; k < n; ++k) {
      Bits bits;
      std::memcpy(&bits, data + k * sizeof(T), sizeof bits);
      const bool zero = (bits << 1) == 0;
      signs = kMinimum ? (signs | (zero ? bits : 0)) : (signs & (zero ? bits : ~Bits{0}));
    }
    const bool negative = (signs >> (sizeof(Bits) * 8 - 1)) != 0;
    result = negative ? -T{0} : T{0};
  }
  return result;
}

template <typename Element, typename Acc>
Acc reduce_as(Op op, const std::byte* data, std::uint64_t n, Acc identity) {
  if constexpr (std::is_same_v<Element, Acc> && std::is_floating_point_v<Acc>) {
    if (op == Op::minimum) return extreme_vectorised<Acc, true>(data, n, identity);
    if (op == Op::maximum) return extreme_vectorised<Acc, false>(data, n, identity);
  }
  switch (op) {
    case Op::plus: return reduce_lanes<Element, Acc, Op::plus>(data, n, identity);
    case Op::multiplies: return reduce_lanes<Element, Acc, Op::multiplies>(data, n, identity);
    case Op::minimum: return reduce_lanes<Element, Acc, Op::minimum>(data, n, identity);
    case Op::maximum: return reduce_lanes<Element, Acc, Op::maximum>(data, n, identity);
    case Op::bit_and: return reduce_lanes<Element, Acc, Op::bit_and>(data, n, identity);
    case Op::bit_or: return reduce_lanes<Element, Acc, Op::bit_or>(data, n, identity);
    case Op::bit_xor: return reduce_lanes<Element, Acc, Op::bit_xor>(data, n, identity);
    case Op::logical_and: return reduce_lanes<Element, Acc, Op::logical_and>(data, n, identity);
    case Op::logical_or: return reduce_lanes<Element, Acc, Op::logical_or>(data, n, identity);
    default: break;
  }
  throw Error("host path: " + std::string(name(op)) + " is not one of its ops");
}

// Reduces, folds the initial value in (when asked) and stores the result as the kernels store it.
template <typename Element, typename Acc>
Scalar finish(const ReductionRequest& request, std::span<const std::byte> data, const Scalar& initial) {
  const Combine<Acc> combine{request.op};
  const Acc identity = load<Element, Acc>(request.identity.data(), 0);
  Acc result = reduce_as<Element, Acc>(request.op, data.data(), request.n, identity);
  if (request.include_initial) result = combine(load<Element, Acc>(initial.data(), 0), result);
  if constexpr (std::is_floating_point_v<Acc>) {
    if (result != result) result = canonical_nan<Acc>();
  }
  if constexpr (std::is_same_v<Element, std::uint16_t> && std::is_same_v<Acc, float>) {
    return Scalar::from(request.type, result != result ? std::uint16_t{0x7e00} : float_to_half_bits(result));
  } else if constexpr (std::is_same_v<Element, std::uint8_t> && std::is_same_v<Acc, std::uint8_t>) {
    return Scalar::from(request.type, static_cast<std::uint8_t>(request.type == DataType::boolean ? result != 0 : result));
  } else {
    return Scalar::from(request.type, static_cast<Element>(result));
  }
}

// argmin/argmax in two looks: the extreme value (the vectorised extremes above; a NaN anywhere is the answer),
// then the first index holding a value equal to it (-0.0 equals +0.0: the first zero of either sign wins, with
// its own sign), as the kernels order candidates (arg_reference.hpp).
template <typename Element, typename Acc>
ArgCandidate arg_as(Op op, DataType type, const std::byte* data, std::uint64_t n) {
  const bool minimum = op == Op::argmin;
  const Acc identity = minimum ? (std::is_floating_point_v<Acc> ? std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::max())
                               : (std::is_floating_point_v<Acc> ? -std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::lowest());
  const Acc extreme = minimum ? reduce_as<Element, Acc>(Op::minimum, data, n, identity)
                              : reduce_as<Element, Acc>(Op::maximum, data, n, identity);
  // The first index whose element satisfies `matches`: blocks of 64 tested at once (a vectorised OR), then the
  // block that holds it one by one.
  auto first_index = [&](auto matches) {
    constexpr std::uint64_t kBlock = 64;
    std::uint64_t block = 0;
    for (; block + kBlock <= n; block += kBlock) {
      int hit = 0;
      for (std::uint64_t j = 0; j < kBlock; ++j) hit |= matches(load<Element, Acc>(data, block + j));
      if (hit) break;
    }
    while (!matches(load<Element, Acc>(data, block))) ++block;
    return block;
  };
  std::uint64_t index = 0;
  if constexpr (std::is_floating_point_v<Acc>) {
    if (extreme != extreme) {  // the first NaN
      index = first_index([](Acc x) { return x != x; });
      Element nan;
      if constexpr (std::is_same_v<Element, std::uint16_t>) nan = 0x7e00;
      else nan = canonical_nan<Element>();
      return {Scalar::from(type, nan), index};
    }
  }
  index = first_index([extreme](Acc x) { return x == extreme; });
  Element value;
  std::memcpy(&value, data + index * sizeof(Element), sizeof(Element));
  return {Scalar::from(type, value), index};
}

std::uint64_t host_path_bytes_from_environment(std::uint64_t fallback) {
  const char* text = std::getenv("ZE_REDUCE_HOST_PATH_MAX_BYTES");
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] == '-')
    throw InvalidArgumentError(std::string("ZE_REDUCE_HOST_PATH_MAX_BYTES=") + text +
                               " is not a whole number of bytes (0 turns the host path off)");
  return value;
}

}  // namespace

bool host_path_serves(const ReductionRequest& request) {
  if (request.strategy || request.binned_state_output || request.user_operator) return false;
  if (is_arg_op(request.op)) return request.n > 0 && request.type != DataType::boolean;
  bool basic = false;
  for (Op op : kAllOps) basic = basic || op == request.op;
  return basic && (!request.reproducible || !is_floating(request.type) || is_binned_sum(request) ||
                   request.op != Op::multiplies);
}

std::uint64_t host_path_max_bytes(const Capabilities& caps) {
  if (caps.type != DeviceType::cpu) return 0;
  // Read once: a small reduction's host time is what the host path is for.
  static const std::optional<std::uint64_t> configured = [] {
    const std::uint64_t unset = UINT64_MAX;
    const std::uint64_t value = host_path_bytes_from_environment(unset);
    return value == unset ? std::nullopt : std::optional<std::uint64_t>(value);
  }();
  return configured ? *configured : tuning_for(caps).host_path_max_bytes / std::max<std::uint64_t>(1, caps.compute_units);
}

Scalar host_path_reduce(const ReductionRequest& request, std::span<const std::byte> data, const Scalar& initial) {
  if (is_binned_sum(request)) {
    BinnedState state = binned_add_all(BinnedState{}, data, request.n, request.type);
    if (request.include_initial)
      state = binned_add_all(state, std::span<const std::byte>(initial.data(), initial.size()), 1, request.type);
    return binned_value(state, request.type);
  }
  switch (request.type) {
    case DataType::i8: return finish<std::int8_t, std::int8_t>(request, data, initial);
    case DataType::i16: return finish<std::int16_t, std::int16_t>(request, data, initial);
    case DataType::i32: return finish<std::int32_t, std::int32_t>(request, data, initial);
    case DataType::i64: return finish<std::int64_t, std::int64_t>(request, data, initial);
    case DataType::u8: return finish<std::uint8_t, std::uint8_t>(request, data, initial);
    case DataType::u16: return finish<std::uint16_t, std::uint16_t>(request, data, initial);
    case DataType::u32: return finish<std::uint32_t, std::uint32_t>(request, data, initial);
    case DataType::u64: return finish<std::uint64_t, std::uint64_t>(request, data, initial);
    case DataType::f16: return finish<std::uint16_t, float>(request, data, initial);
    case DataType::f32: return finish<float, float>(request, data, initial);
    case DataType::f64: return finish<double, double>(request, data, initial);
    case DataType::boolean: return finish<std::uint8_t, std::uint8_t>(request, data, initial);
  }
  throw Error("host path: unknown element type");
}

ArgCandidate host_path_arg_reduce(const ReductionRequest& request, std::span<const std::byte> data) {
  const Op op = request.op;
  const DataType type = request.type;
  const std::byte* bytes = data.data();
  const std::uint64_t n = request.n;
  if (!is_arg_op(op) || n == 0) throw Error("host path: an arg-reduction needs argmin or argmax and an element");
  switch (type) {
    case DataType::i8: return arg_as<std::int8_t, std::int8_t>(op, type, bytes, n);
    case DataType::i16: return arg_as<std::int16_t, std::int16_t>(op, type, bytes, n);
    case DataType::i32: return arg_as<std::int32_t, std::int32_t>(op, type, bytes, n);
    case DataType::i64: return arg_as<std::int64_t, std::int64_t>(op, type, bytes, n);
    case DataType::u8: return arg_as<std::uint8_t, std::uint8_t>(op, type, bytes, n);
    case DataType::u16: return arg_as<std::uint16_t, std::uint16_t>(op, type, bytes, n);
    case DataType::u32: return arg_as<std::uint32_t, std::uint32_t>(op, type, bytes, n);
    case DataType::u64: return arg_as<std::uint64_t, std::uint64_t>(op, type, bytes, n);
    case DataType::f16: return arg_as<std::uint16_t, float>(op, type, bytes, n);
    case DataType::f32: return arg_as<float, float>(op, type, bytes, n);
    case DataType::f64: return arg_as<double, double>(op, type, bytes, n);
    case DataType::boolean: break;
  }
  throw Error("host path: argmin and argmax take integer or floating-point values");
}

std::uint64_t host_path_combine_depth(std::uint64_t n) {
  std::uint64_t lanes_depth = 0;
  for (std::uint64_t width = 1; width < kHostLanes; width *= 2) ++lanes_depth;
  return (n + kHostLanes - 1) / kHostLanes + lanes_depth + 1;  // + 1: the initial value
}

}  // namespace zr::core
