#pragma once
// The host reference: an independent, sequential implementation of every (op, type) reduction with the same
// semantics as the kernels, used by the tests and by ze_reduce --verify.
//
// Integer, bool, minimum and maximum results are exact and must match bit for bit. Floating-point sums and
// products depend on the order of evaluation, so the reference computes them in extended precision and gives
// an error bound that any evaluation order in the accumulator's precision satisfies:
//   sum:     |computed - exact| <= gamma(m) * sum |x_i|  + m * min_normal   (+ half an ulp when rounding to f16)
//   product: |computed - exact| <= gamma(m) * |exact|    + m * min_normal
// with m, for a sum, the height of the combining tree (the most roundings one input goes through; folding in
// an identity is exact): combine_depth(plan) for a plan, n + 1 (any order at all) when not given; for a
// product always n + 1, since every multiplication's rounding scales the whole product whatever the tree; gamma(m) = m*u / (1 - m*u) and u the unit roundoff of the accumulator (2^-24 for f32 and f16,
// 2^-53 for f64) (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., sections 3.1 and 4.2).
// The min_normal term allows for devices that flush subnormals to zero, which OpenCL permits for single
// precision. When an input is infinite or NaN the result is fully determined and must match exactly.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "data_types.hpp"
#include "scalar.hpp"

namespace zr::core {

struct HostReference {
  Scalar value;            // exact result, or the extended-precision result rounded to the element type
  double tolerance = 0.0;  // allowed absolute error; 0 means the result must be bitwise equal
};

// data holds n elements of `type`, packed. `initial` is folded in when present (SYCL's default behaviour).
HostReference host_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                             const Scalar& identity, const std::optional<Scalar>& initial,
                             std::optional<std::uint64_t> combine_depth = std::nullopt);

// A reproducible floating-point sum (property::reduction::reproducible): the host model of the binned sum
// (binned_sum.hpp), which devices must match bit for bit (tolerance 0). That model is checked against exact
// sums within its bound by the core tests and the conformance suite.
HostReference reproducible_sum_reference(DataType type, std::span<const std::byte> data, std::uint64_t n,
                                         const std::optional<Scalar>& initial);

// Element i of packed floating-point data (f16, f32, f64) as a double, exactly.
double element_as_double(DataType type, std::span<const std::byte> data, std::uint64_t i);
// `value` rounded to the floating type (to nearest even; half through float).
Scalar round_to(DataType type, long double value);

// Whether `actual` agrees with the reference; when not, `why` (if given) says how far off it is.
bool agrees(const HostReference& reference, const Scalar& actual, std::string* why = nullptr);

}  // namespace zr::core
