#include "binned_sum.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "half.hpp"

namespace zr::core {

namespace {
constexpr BinnedFormat kF32{16, -149, 24, -149};
constexpr BinnedFormat kF16{16, -149, 11, -24};
constexpr BinnedFormat kF64{20, -1074, 53, -1074};

// A finite, non-zero double as significand * 2^exponent (integers), and its ilogb, read from its bits.
struct Decomposed {
  std::int64_t significand;
  int exponent;
  int log2;  // floor(log2 |x|)
};
Decomposed decompose(double x) {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto field = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t magnitude = field == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  const int exponent = field == 0 ? -1074 : field - 1075;
  const int log2 = exponent + 63 - std::countl_zero(magnitude);
  const auto significand = static_cast<std::int64_t>(magnitude);
  return {bits >> 63 ? -significand : significand, exponent, log2};
}

// Bin b's unit is 2^(e0 + b*W); b_top(x) is the lowest b with |x| < 2^(e0 + (b+1)*W - 1).
int top_bin_of(const Decomposed& x, const BinnedFormat& format) {
  const int above = x.log2 + 2 - format.e0;
  return (above + format.width - 1) / format.width - 1;
}

// value / 2^shift rounded to nearest, ties to even (shift >= 0; |value| < 2^100).
__int128 rounded_shift(__int128 value, int shift) {
  if (shift == 0) return value;
  if (shift > 110) return 0;  // |value| < 2^100 <= 2^(shift - 1): below half a unit
  const __int128 quotient = value >> shift;  // floor
  const __int128 rest = value - (quotient << shift);
  const __int128 half = static_cast<__int128>(1) << (shift - 1);
  return rest > half || (rest == half && (quotient & 1)) ? quotient + 1 : quotient;
}

BinnedState raised(BinnedState s, std::int64_t by) {
  for (std::int64_t i = 0; i < by && i < kBinnedBins; ++i) {
    for (int k = kBinnedBins - 1; k > 0; --k) s.bins[k] = s.bins[k - 1];
    s.bins[0] = 0;
  }
  s.top += by;
  return s;
}

double element_value(std::span<const std::byte> data, std::uint64_t i, DataType type) {
  switch (type) {
    case DataType::f16: {
      std::uint16_t bits;
      std::memcpy(&bits, data.data() + i * 2, 2);
      return half_bits_to_float(bits);
    }
    case DataType::f32: {
      float v;
      std::memcpy(&v, data.data() + i * 4, 4);
      return v;
    }
    case DataType::f64: {
      double v;
      std::memcpy(&v, data.data() + i * 8, 8);
      return v;
    }
    default: throw std::invalid_argument("reproducible sums take f16, f32 or f64");
  }
}
}  // namespace

BinnedFormat binned_format(DataType type) {
  switch (type) {
    case DataType::f16: return kF16;
    case DataType::f32: return kF32;
    case DataType::f64: return kF64;
    default: throw std::invalid_argument("reproducible sums take f16, f32 or f64");
  }
}

std::uint64_t binned_max_elements(DataType type) {
  // Each value adds at most 2^(W-1) units to a bin (and an initial value one more): n * 2^(W-1) < 2^62 keeps
  // every bin, and the carries of rounding, inside 63 bits.
  return std::uint64_t{1} << (63 - binned_format(type).width);
}

BinnedState binned_add(BinnedState state, double x, DataType type) {
  if (std::isnan(x)) {
    state.flags |= kSeenNan;
    return state;
  }
  if (std::isinf(x)) {
    state.flags |= x > 0 ? kSeenPositiveInfinity : kSeenNegativeInfinity;
    return state;
  }
  if (x == 0) return state;
  const BinnedFormat format = binned_format(type);
  const Decomposed d = decompose(x);
  const int top = top_bin_of(d, format);
  if (top > state.top) state = raised(state, top - state.top);
  // The pieces from the top down, each the remainder rounded to nearest even at its bin's unit, in exact
  // integer arithmetic: the remainder is an integer in units of 2^low (the lowest bin's unit, or x's last bit
  // if that is lower). The device computes the same pieces in floating point (zr_binned.h).
  const int lowest_unit = format.e0 + (static_cast<int>(state.top) - (kBinnedBins - 1)) * format.width;
  const int low = std::min(d.exponent, lowest_unit);
  __int128 rest = static_cast<__int128>(d.significand) << (d.exponent - low);  // |rest| < 2^(4W) or 2^53
  for (int k = 0; k < kBinnedBins; ++k) {
    const int shift = lowest_unit + (kBinnedBins - 1 - k) * format.width - low;
    const __int128 piece = rounded_shift(rest, shift);
    if (piece == 0) continue;
    rest -= piece << shift;
    state.bins[k] += static_cast<std::int64_t>(piece);
  }
  return state;
}

BinnedState binned_add_all(BinnedState state, std::span<const std::byte> data, std::uint64_t n, DataType type) {
  for (std::uint64_t i = 0; i < n; ++i) state = binned_add(state, element_value(data, i, type), type);
  return state;
}

BinnedState binned_sum_state(DataType type, std::span<const std::byte> data, std::uint64_t n,
                             const std::optional<Scalar>& initial) {
  BinnedState state = binned_add_all({}, data, n, type);
  if (initial) state = binned_add_all(state, std::as_bytes(std::span(initial->bytes)), 1, type);
  return state;
}

BinnedState binned_merge(BinnedState a, BinnedState b) {
  const std::int64_t top = std::max(a.top, b.top);
  a = raised(a, top - a.top);
  b = raised(b, top - b.top);
  for (int k = 0; k < kBinnedBins; ++k) a.bins[k] += b.bins[k];
  a.flags |= b.flags;
  return a;
}

namespace {
// The state's finite value as Z * 2^low, Z exact in 128 bits (bin 0's 63 bits above 3 W <= 60 more).
struct Exact {
  __int128 z;
  int low;
};
Exact exact_of(const BinnedState& s, const BinnedFormat& format) {
  __int128 z = 0;
  for (int k = 0; k < kBinnedBins; ++k) z += static_cast<__int128>(s.bins[k]) << ((kBinnedBins - 1 - k) * format.width);
  return {z, format.e0 + (static_cast<int>(s.top) - (kBinnedBins - 1)) * format.width};
}

double rounded(const Exact& exact, const BinnedFormat& format) {
  if (exact.z == 0) return 0.0;
  const bool negative = exact.z < 0;
  const unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(exact.z) : static_cast<unsigned __int128>(exact.z);
  const std::uint64_t high = static_cast<std::uint64_t>(magnitude >> 64);
  const int length = high ? 128 - std::countl_zero(high) : 64 - std::countl_zero(static_cast<std::uint64_t>(magnitude));
  const int last = std::max({0, length - format.mantissa, format.min_exponent - exact.low});
  unsigned __int128 significand = last >= 128 ? 0 : magnitude >> last;
  if (last > 0) {
    const unsigned __int128 below = last >= 128 ? magnitude : magnitude & ((static_cast<unsigned __int128>(1) << last) - 1);
    const unsigned __int128 half = static_cast<unsigned __int128>(1) << (last - 1);
    if (below > half || (below == half && (significand & 1))) ++significand;
  }
  const double value = std::ldexp(static_cast<double>(static_cast<std::uint64_t>(significand)), exact.low + last);
  return negative ? -value : value;
}
}  // namespace

Scalar binned_value(const BinnedState& state, DataType type) {
  const BinnedFormat format = binned_format(type);
  double value = 0.0;
  if ((state.flags & kSeenNan) || (state.flags & 3) == 3)
    value = std::numeric_limits<double>::quiet_NaN();
  else if (state.flags & kSeenPositiveInfinity)
    value = std::numeric_limits<double>::infinity();
  else if (state.flags & kSeenNegativeInfinity)
    value = -std::numeric_limits<double>::infinity();
  else
    value = rounded(exact_of(state, format), format);
  // value is exactly representable in the element type (or beyond its range: an infinity).
  switch (type) {
    case DataType::f16: return Scalar::from(DataType::f16, float_to_half_bits(static_cast<float>(value)));
    case DataType::f32: return Scalar::from(DataType::f32, static_cast<float>(value));
    default: return Scalar::from(DataType::f64, value);
  }
}

double binned_error_bound(const BinnedState& state, std::uint64_t count, DataType type) {
  const BinnedFormat format = binned_format(type);
  const Exact exact = exact_of(state, format);
  const double lost_each = std::ldexp(0.5, exact.low);
  const double result = std::fabs(rounded(exact, format));
  const int result_exponent = result == 0 ? format.min_exponent : std::max(std::ilogb(result) - format.mantissa + 1, format.min_exponent);
  return static_cast<double>(count) * lost_each + std::ldexp(0.5, result_exponent);
}

}  // namespace zr::core
