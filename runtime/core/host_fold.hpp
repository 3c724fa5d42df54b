#pragma once
// The host path's typed folds (host_path.hpp, host_path_segments.hpp, host_path_columns.hpp): one element type and
// accumulator each, with the kernels' semantics (spirv_kernels/src/zr_types.h). Internal to runtime/core.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "arg_reference.hpp"
#include "half.hpp"
#include "host_extremes.hpp"
#include "host_path.hpp"
#include "zereduce/errors.hpp"

namespace zr::core::host_fold {

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

// Calls f.template operator()<kOp>() with the request's op as a constant, one of the nine ops: a fold compiled
// for one combine.
template <typename F>
void with_op(Op op, F&& f) {
  switch (op) {
    case Op::plus: return f.template operator()<Op::plus>();
    case Op::multiplies: return f.template operator()<Op::multiplies>();
    case Op::minimum: return f.template operator()<Op::minimum>();
    case Op::maximum: return f.template operator()<Op::maximum>();
    case Op::bit_and: return f.template operator()<Op::bit_and>();
    case Op::bit_or: return f.template operator()<Op::bit_or>();
    case Op::bit_xor: return f.template operator()<Op::bit_xor>();
    case Op::logical_and: return f.template operator()<Op::logical_and>();
    case Op::logical_or: return f.template operator()<Op::logical_or>();
    default: break;
  }
  throw Error("host path: " + std::string(name(op)) + " is not one of its ops");
}

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

// The end of a floating minimum/maximum folded with `x < m ? x : m` beside `poisoned`, NaN where an element is a
// NaN (else 0): the canonical NaN then, and a zero result given the sign IEEE 754-2019 asks for (-0.0 below
// +0.0), found by another look at the input only then.
template <typename T, bool kMinimum>
T settle_extreme(const std::byte* data, std::uint64_t n, T result, T poisoned) {
  if (poisoned != poisoned) return canonical_nan<T>();
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

// Elements [i, n) into one scalar accumulator and its probe, as settle_extreme expects them.
template <typename T, bool kMinimum>
void fold_extremes(const std::byte* data, std::uint64_t i, std::uint64_t n, T& result, T& poisoned) {
  for (; i < n; ++i) {
    T x;
    std::memcpy(&x, data + i * sizeof(T), sizeof(T));
    result = kMinimum ? (x < result ? x : result) : (result < x ? x : result);
    if (x != x) poisoned = x;
  }
}

// The same for a few elements (a short segment): one scalar accumulator.
template <typename T, bool kMinimum>
T extreme_scalar(const std::byte* data, std::uint64_t n, T identity) {
  T result = identity, poisoned = 0;
  fold_extremes<T, kMinimum>(data, 0, n, result, poisoned);
  return settle_extreme<T, kMinimum>(data, n, result, poisoned);
}

// Floating minimum/maximum, vectorised by hand in the CPU's widest vectors (host_extremes.hpp): selects
// `x < m ? x : m` (minps/maxps), which pass NaNs by and keep the first of two equal zeros, beside masks of the
// elements that are NaN (x != x). Only then is the input looked at again, for its first NaN (the result is the
// canonical NaN, as ieee_minimum gives); and a zero result is given the sign IEEE 754-2019 asks for (-0.0 below
// +0.0) by one more look, only then. The bits are the same in every vector width.
template <typename T, bool kMinimum>
T extreme_vectorised(const std::byte* data, std::uint64_t n, T identity) {
  ExtremeScan<T> scan = scan_extremes(data, n, identity, kMinimum);
  fold_extremes<T, kMinimum>(data, scan.end, n, scan.result, scan.poisoned);
  return settle_extreme<T, kMinimum>(data, n, scan.result, scan.poisoned);
}

template <typename Element, typename Acc>
Acc reduce_as(Op op, const std::byte* data, std::uint64_t n, Acc identity) {
  if constexpr (std::is_same_v<Element, Acc> && std::is_floating_point_v<Acc>) {
    // Below 128 elements the vectors' set-up and the combine of their lanes cost more than one accumulator.
    if (op == Op::minimum)
      return n < 128 ? extreme_scalar<Acc, true>(data, n, identity) : extreme_vectorised<Acc, true>(data, n, identity);
    if (op == Op::maximum)
      return n < 128 ? extreme_scalar<Acc, false>(data, n, identity) : extreme_vectorised<Acc, false>(data, n, identity);
  }
  Acc result = identity;
  with_op(op, [&]<Op kOp>() { result = reduce_lanes<Element, Acc, kOp>(data, n, identity); });
  return result;
}

// Stores an accumulator as the kernels store a result: f16 rounded once (NaN as 0x7e00), bool as 0 or 1, a
// floating NaN as the canonical one.
template <typename Element, typename Acc>
inline void store(DataType type, Acc result, std::byte* out) {
  if constexpr (std::is_floating_point_v<Acc>) {
    if (result != result) result = canonical_nan<Acc>();
  }
  Element value;
  if constexpr (std::is_same_v<Element, std::uint16_t> && std::is_same_v<Acc, float>) {
    value = result != result ? std::uint16_t{0x7e00} : float_to_half_bits(result);
  } else if constexpr (std::is_same_v<Element, std::uint8_t> && std::is_same_v<Acc, std::uint8_t>) {
    value = static_cast<std::uint8_t>(type == DataType::boolean ? result != 0 : result);
  } else {
    value = static_cast<Element>(result);
  }
  std::memcpy(out, &value, sizeof value);
}

// Reduces n elements from `identity`, folds `initial` in after them when given (one element), and stores the
// result at `out` as the kernels store it. `out` may be `initial`.
template <typename Element, typename Acc>
inline void fold_into(Op op, DataType type, Acc identity, const std::byte* data, std::uint64_t n,
                      const std::byte* initial, std::byte* out) {
  Acc result = reduce_as<Element, Acc>(op, data, n, identity);
  if (initial) result = Combine<Acc>{op}(load<Element, Acc>(initial, 0), result);
  store<Element, Acc>(type, result, out);
}

// argmin/argmax in one pass over the input, in blocks small enough to stay in the first-level cache: each block's
// extreme (the vectorised folds above), kept with the first block that holds the running extreme; then the first
// index in that block of a value equal to it (-0.0 equals +0.0: the first zero of either sign wins, with its own
// sign), as the kernels order candidates (arg_reference.hpp). A block holding a NaN holds the answer: its first
// NaN, returned as the canonical NaN. Two whole looks (the extreme, then its index) cost 1.5x the reads on average.
inline constexpr std::uint64_t kArgBlockBytes = 16 << 10;

template <typename Element, typename Acc>
ArgCandidate arg_as(Op op, DataType type, const std::byte* data, std::uint64_t n) {
  const bool minimum = op == Op::argmin;
  const Acc identity = minimum ? (std::is_floating_point_v<Acc> ? std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::max())
                               : (std::is_floating_point_v<Acc> ? -std::numeric_limits<Acc>::infinity()
                                                                 : std::numeric_limits<Acc>::lowest());
  const Op fold = minimum ? Op::minimum : Op::maximum;
  constexpr std::uint64_t kBlock = kArgBlockBytes / sizeof(Element);
  // The first index from `from` whose element satisfies `matches` (one exists): runs of 64 tested at once (a
  // vectorised OR), then the run that holds it one by one.
  auto first_index = [&](std::uint64_t from, auto matches) {
    constexpr std::uint64_t kRun = 64;
    for (; from + kRun <= n; from += kRun) {
      int hit = 0;
      for (std::uint64_t j = 0; j < kRun; ++j) hit |= matches(load<Element, Acc>(data, from + j));
      if (hit) break;
    }
    while (!matches(load<Element, Acc>(data, from))) ++from;
    return from;
  };
  Acc extreme = identity;
  std::uint64_t extreme_block = 0;
  for (std::uint64_t block = 0; block < n; block += kBlock) {
    const std::uint64_t count = std::min(kBlock, n - block);
    const Acc value = reduce_as<Element, Acc>(fold, data + block * sizeof(Element), count, identity);
    if constexpr (std::is_floating_point_v<Acc>) {
      if (value != value) {  // the first NaN of the input is in this block
        const std::uint64_t index = first_index(block, [](Acc x) { return x != x; });
        Element nan;
        if constexpr (std::is_same_v<Element, std::uint16_t>) nan = 0x7e00;
        else nan = canonical_nan<Element>();
        return {Scalar::from(type, nan), index};
      }
    }
    if (block == 0 || (minimum ? value < extreme : extreme < value)) {
      extreme = value;
      extreme_block = block;
    }
  }
  const std::uint64_t index = first_index(extreme_block, [extreme](Acc x) { return x == extreme; });
  Element value;
  std::memcpy(&value, data + index * sizeof(Element), sizeof(Element));
  return {Scalar::from(type, value), index};
}

// Calls f.template operator()<Element, Acc>() with the type's stored element and its accumulator: f16 is held
// as its bits and accumulated in float, bool as a byte.
template <typename F>
void with_element_types(DataType type, F&& f) {
  switch (type) {
    case DataType::i8: return f.template operator()<std::int8_t, std::int8_t>();
    case DataType::i16: return f.template operator()<std::int16_t, std::int16_t>();
    case DataType::i32: return f.template operator()<std::int32_t, std::int32_t>();
    case DataType::i64: return f.template operator()<std::int64_t, std::int64_t>();
    case DataType::u8: return f.template operator()<std::uint8_t, std::uint8_t>();
    case DataType::u16: return f.template operator()<std::uint16_t, std::uint16_t>();
    case DataType::u32: return f.template operator()<std::uint32_t, std::uint32_t>();
    case DataType::u64: return f.template operator()<std::uint64_t, std::uint64_t>();
    case DataType::f16: return f.template operator()<std::uint16_t, float>();
    case DataType::f32: return f.template operator()<float, float>();
    case DataType::f64: return f.template operator()<double, double>();
    case DataType::boolean: return f.template operator()<std::uint8_t, std::uint8_t>();
  }
  throw Error("host path: unknown element type");
}

}  // namespace zr::core::host_fold
