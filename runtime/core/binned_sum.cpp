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

// Bin b's unit is 2^(e0 + b*W); b_top(x) is the lowest b with |x| < 2^(e0 + (b+1)*W - 1).
int top_bin_of(double x, const BinnedFormat& format) {
  const int above = std::ilogb(x) + 2 - format.e0;
  return (above + format.width - 1) / format.width - 1;
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
  const int top = top_bin_of(x, format);
  if (top > state.top) state = raised(state, top - state.top);
  // The pieces from the top down, each x's remainder rounded to nearest even at the bin's unit. On the host
  // in long double (x86: 64-bit significand), where the remainders are exact: the device computes the same
  // pieces in the element's compute type with scaled extraction constants.
  long double rest = std::ldexp(static_cast<long double>(x), -(format.e0 + static_cast<int>(state.top) * format.width));
  for (int k = 0; k < kBinnedBins; ++k) {
    const long double unit = std::ldexp(1.0L, -k * format.width);
    const long double piece = std::nearbyint(rest / unit) * unit;  // the default rounding: to nearest even
    rest -= piece;
    state.bins[k] += static_cast<std::int64_t>(std::ldexp(piece, k * format.width));
  }
  return state;
}

BinnedState binned_add_all(BinnedState state, std::span<const std::byte> data, std::uint64_t n, DataType type) {
  for (std::uint64_t i = 0; i < n; ++i) state = binned_add(state, element_value(data, i, type), type);
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
