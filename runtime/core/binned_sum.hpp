#pragma once
// The reproducible sum's binned state on the host (property::reduction::reproducible; the method and its
// error bound are described in spirv_kernels/src/zr_binned.h). It is written separately from the kernels and
// must agree with them bit for bit: the tests compare device results with this model, and the model with
// exact sums (exact_sum.hpp). Devices' partial states can be read, merged and rounded here (one reduction
// over several devices or MPI ranks merges their states, not their rounded values).
#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "data_types.hpp"
#include "scalar.hpp"

namespace zr::core {

inline constexpr int kBinnedBins = 4;

// The kernels' zr_binned (a long8), field for field.
struct BinnedState {
  std::array<std::int64_t, kBinnedBins> bins{};  // bins[k]: units of bin top - k
  std::int64_t top = 0;
  std::int64_t flags = 0;  // kSeen*
  std::array<std::int64_t, 2> unused{};
  bool operator==(const BinnedState&) const = default;
};
static_assert(sizeof(BinnedState) == 64);

inline constexpr std::int64_t kSeenPositiveInfinity = 1;
inline constexpr std::int64_t kSeenNegativeInfinity = 2;
inline constexpr std::int64_t kSeenNan = 4;

// The binning of an element type: f16 and f32 data share f32's (they are summed in float on devices).
struct BinnedFormat {
  int width;     // W: bits per bin
  int e0;        // exponent of global bin 0's unit
  int mantissa;  // significand bits of the element type, and its least (subnormal) exponent
  int min_exponent;
};
BinnedFormat binned_format(DataType type);  // f16, f32 or f64

// The largest n a reproducible sum of `type` accepts: no bin's integer sum can overflow up to it.
std::uint64_t binned_max_elements(DataType type);

// Adds one value (an f16, f32 or f64 value, held exactly by a double) to a state.
BinnedState binned_add(BinnedState state, double value, DataType type);
BinnedState binned_add_all(BinnedState state, std::span<const std::byte> data, std::uint64_t n, DataType type);
// The state of n values and, when given, the reduction variable's initial value (one more input).
BinnedState binned_sum_state(DataType type, std::span<const std::byte> data, std::uint64_t n,
                             const std::optional<Scalar>& initial);
BinnedState binned_merge(BinnedState a, BinnedState b);
// The state's value rounded once, to nearest even, to the element type (NaN and infinities from the flags).
Scalar binned_value(const BinnedState& state, DataType type);

// An upper bound on |binned_value - exact sum| for a state holding `count` values: what the values below the
// window lose (less than half the lowest bin's unit each) plus half an ulp of the result.
double binned_error_bound(const BinnedState& state, std::uint64_t count, DataType type);

}  // namespace zr::core
