#include "input_generation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/type_dispatch.hpp"

namespace zr::conformance {
using tools::visit_pair;

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a counter-based generator, so element i depends on (seed, i) only.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Stream {
  std::uint64_t seed;
  std::uint64_t bits(std::uint64_t i) const { return mix(seed ^ mix(i)); }
  double unit(std::uint64_t i) const { return static_cast<double>(bits(i) >> 11) * 0x1.0p-53; }  // [0, 1)
};

template <typename T>
constexpr bool is_float_v = std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

template <typename T>
T from_double(double value) {
  if constexpr (std::is_same_v<T, half>) return half(static_cast<float>(value));
  else return static_cast<T>(value);
}

// Precision p of the type's significand, and its smallest subnormal, for the order-sensitive inputs.
template <typename T>
int significand_bits() {
  if constexpr (std::is_same_v<T, half>) return 11;
  else return std::numeric_limits<T>::digits;
}
template <typename T>
double smallest_subnormal() {
  if constexpr (std::is_same_v<T, half>) return std::ldexp(1.0, -24);
  else return static_cast<double>(std::numeric_limits<T>::denorm_min());
}

// A finite value for floating inputs: uniform in [-1, 1) for sums and comparisons; within 2^-10 of 1 for
// products (a random walk of the exponent that stays far from overflow and underflow up to 2^24 factors).
double finite_value(const Stream& s, std::uint64_t i, bool product) {
  const double u = 2.0 * s.unit(i) - 1.0;
  return product ? 1.0 + u * 0x1.0p-10 : u;
}

// Element i of packed bytes (memcpy: the bytes hold no T objects).
template <typename T>
struct PackedOut {
  std::vector<std::byte>& bytes;
  void set(std::uint64_t i, T value) { std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T)); }
};

template <typename T>
void fill_floating(PackedOut<T> out, op_kind op, InputKind kind, std::uint64_t n, const Stream& s,
                   double identity) {
  const bool product = op == op_kind::multiplies;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double count = static_cast<double>(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    double v = 0.0;
    switch (kind) {
      case InputKind::identity: v = identity; break;
      // Products of one repeated value under- or overflow: -1 keeps them exact (only the sign's parity counts).
      case InputKind::all_equal: v = product ? -1.0 : 0.25 + static_cast<double>(s.bits(0) % 1000) / 4000.0; break;
      case InputKind::ascending:
      case InputKind::descending: {
        const double position = static_cast<double>(kind == InputKind::ascending ? i : n - 1 - i) / count;
        v = product ? 1.0 + position * 0x1.0p-10 : position;
        break;
      }
      case InputKind::signed_zeros: v = (s.bits(i) & 1) ? -0.0 : 0.0; break;
      case InputKind::subnormals: {
        const double magnitude = smallest_subnormal<T>() * static_cast<double>(1 + s.bits(i) % 1000);
        v = (s.bits(i) >> 32) & 1 ? -magnitude : magnitude;
        break;
      }
      case InputKind::order_sensitive: {
        const int p = significand_bits<T>();
        if (product) {
          // (1 + e)(1 - e) = 1 - e^2 is rounded differently in every grouping. e no larger than 2^-10: a
          // device may multiply every 16th factor together first (vector lanes), and (1 +- e)^(n / 16) must
          // stay far inside f32's range, or that grouping overflows to inf and underflows to 0 (inf * 0 = NaN)
          // where the exact product is finite: a legitimate reordering, not a wrong result.
          const double e = std::ldexp(1.0, -std::max(p / 2, 10));
          v = i % 2 ? 1.0 - e : 1.0 + e;
        } else {
          // One large value and many values of half its ulp (in the accumulator: f16 sums in f32): added to the
          // large value one at a time they vanish; summed among themselves first they do not.
          const bool in_f32 = std::is_same_v<T, half>;
          const double big = in_f32 ? 2048.0 : 1.0;
          const double small = in_f32 ? std::ldexp(1.0, -14) : std::ldexp(1.0, -p);
          v = i == s.bits(0) % n ? big : small;
        }
        break;
      }
      default: v = finite_value(s, i, product); break;  // random, and the base of the special-value inputs
    }
    out.set(i, from_double<T>(v));
  }
  if (n == 0) return;
  switch (kind) {
    case InputKind::infinities:
      out.set(n / 3, from_double<T>(inf));
      if ((2 * n) / 3 != n / 3) out.set((2 * n) / 3, from_double<T>(-inf));
      break;
    case InputKind::nan_first: out.set(0, from_double<T>(nan)); break;
    case InputKind::nan_middle: out.set(n / 2, from_double<T>(nan)); break;
    case InputKind::nan_last: out.set(n - 1, from_double<T>(nan)); break;
    default: break;
  }
}

template <typename T>
void fill_integer(PackedOut<T> out, op_kind op, InputKind kind, std::uint64_t n, const Stream& s, T identity) {
  using U = std::make_unsigned_t<T>;
  // Odd factors keep a wrapped product non-zero (any even factor count >= bits would make it 0).
  const U odd = op == op_kind::multiplies ? U{1} : U{0};
  const auto lowest = static_cast<U>(std::numeric_limits<T>::lowest());
  const U range = static_cast<U>(static_cast<U>(std::numeric_limits<T>::max()) - lowest);
  for (std::uint64_t i = 0; i < n; ++i) {
    U v = 0;
    switch (kind) {
      case InputKind::identity: v = static_cast<U>(identity); break;
      case InputKind::all_equal: v = static_cast<U>(static_cast<std::int64_t>(s.bits(0) % 201) - 100); break;
      case InputKind::ascending:
      case InputKind::descending: {
        // Spread over the type's whole range (so sums wrap), non-decreasing (non-increasing) in i.
        const std::uint64_t at = kind == InputKind::ascending ? i : n - 1 - i;
        const auto step = static_cast<unsigned __int128>(range) * at / n;
        v = static_cast<U>(lowest + static_cast<U>(step));
        break;
      }
      case InputKind::integer_overflow: v = static_cast<U>(std::numeric_limits<T>::max() - s.bits(i) % 4); break;
      default: v = static_cast<U>(s.bits(i)); break;
    }
    out.set(i, static_cast<T>(kind == InputKind::identity ? v : static_cast<U>(v | odd)));
  }
}

void fill_bool(PackedOut<std::uint8_t> out, InputKind kind, std::uint64_t n, const Stream& s, bool identity) {
  // Any non-zero byte is true: the inputs use many different ones.
  for (std::uint64_t i = 0; i < n; ++i) {
    switch (kind) {
      case InputKind::identity: out.set(i, identity ? 1 : 0); break;
      case InputKind::all_equal: out.set(i, static_cast<std::uint8_t>(1 + s.bits(0) % 255)); break;
      default: {
        const std::uint64_t r = s.bits(i);
        out.set(i, r % 8 == 0 ? 0 : static_cast<std::uint8_t>(1 + (r >> 8) % 255));
        break;
      }
    }
  }
}

}  // namespace

op_kind input_family(element_type type, op_kind op, InputKind kind) {
  if (kind == InputKind::identity || op == op_kind::multiplies) return value_op(op, type);
  return op_kind::plus;
}

std::vector<std::byte> make_input(element_type type, op_kind op, InputKind kind, std::uint64_t n, std::uint64_t seed) {
  const Stream stream{seed};
  op = value_op(op, type);  // argmin/argmax read the inputs of minimum/maximum (the identity input: all +-inf)
  return visit_pair(type, op, [&](auto type_tag, auto op_tag) {
    using T = typename decltype(type_tag)::type;
    using Op = typename decltype(op_tag)::type;
    const T identity = known_identity_v<Op, T>;
    std::vector<std::byte> bytes(n * sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      fill_bool({bytes}, kind, n, stream, identity);
    } else if constexpr (is_float_v<T>) {
      // Every floating identity (0, 1, +-inf) is exact in float.
      fill_floating<T>({bytes}, op, kind, n, stream, static_cast<double>(static_cast<float>(identity)));
    } else {
      fill_integer<T>({bytes}, op, kind, n, stream, identity);
    }
    return bytes;
  });
}

}  // namespace zr::conformance
