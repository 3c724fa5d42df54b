#pragma once
// Means and variances on the host (Op::mean_var_f32, Op::mean_var_f64): the count, mean and m2 (the sum of
// squared deviations from the mean) of the data in long double by two passes (the mean, then the squared
// deviations from it), written apart from the kernels' pairwise merges (spirv_kernels/src/zr_moments.h), and
// the bounds any merge order in the accumulator's precision A meets, with m the combining depth (n + 1 when not
// given) and u the unit roundoff of A:
//   |mean - exact| <= 6 (m + 2) u max|x|
//   |m2 - exact|   <= 16 (m + 2) u (sqrt(m2 * sum x^2) + m2) + 4 n (m + 2) (u max|x|)^2 + 4 (n + m) min_normal
// The first term is Chan, Golub and LeVeque's bound for pairwise updates (relative error kappa u log n, kappa =
// sqrt(sum x^2 / m2)) with the depth for log n; the second admits the rounding of each block's mean, which a
// mean far from zero makes large against a small m2 in f32; the third flushed subnormals. The count is exact.
// A NaN or an infinity in the input makes mean and m2 NaN; where an overflow of A is possible (4 n max|x|^2
// beyond A's range), NaN is accepted too.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "data_types.hpp"

namespace zr::core {

struct Moments {
  std::uint64_t count = 0;
  long double mean = 0;
  long double m2 = 0;
};

struct MomentsReference {
  Moments exact;
  long double mean_tolerance = 0;
  long double m2_tolerance = 0;
  bool nan_expected = false;  // a NaN or infinity in the input
  bool nan_allowed = false;   // an overflow of the accumulator is possible
};

MomentsReference moments_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                                   std::optional<std::uint64_t> combine_depth = std::nullopt);

// The result the kernels write (zr::moments<A>: u64 count, then mean and m2 as A), read from moments_bytes(op).
Moments moments_from_bytes(Op op, const std::byte* result);

bool agrees(const MomentsReference& reference, const Moments& actual, std::string* why = nullptr);

}  // namespace zr::core
