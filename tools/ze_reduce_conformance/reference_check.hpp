#pragma once
// The comparison of a device result with ze-reduce's host reference (runtime/core/host_reference.hpp): an
// independent sequential fold. What "agrees" means:
//   - integers, bool, minimum and maximum (every type): bit for bit. For floating minimum/maximum that
//     includes IEEE 754-2019 semantics: -0.0 below +0.0, and any NaN gives the canonical quiet NaN.
//   - floating plus and multiplies: within the host reference's bound, which depends on n and the inputs,
//     not on a fixed tolerance:
//       sum:     |computed - exact| <= gamma(m) * sum |x_i| + m * min_normal  (+ half an ulp of f16 when f16)
//       product: |computed - exact| <= gamma(m) * |exact|  + m * min_normal
//     with gamma(m) = m u / (1 - m u), u the accumulator's unit roundoff (2^-24 for f16 and f32, 2^-53 for
//     f64) (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 3.1 and 4.2). For sums m is
//     the combine depth the library reports for the plan it ran (the most roundings any one input goes
//     through). For products m is n + 1, whatever the plan: each multiplication's rounding error scales the
//     whole product, so all of them count, not just those on one input's path (a tree of height 13 over
//     4097 factors can be off by far more than gamma(13); the order_sensitive input shows it). The
//     min_normal term admits devices that flush subnormals, as OpenCL allows for single precision.
//     A result bitwise equal to the reference always agrees (also when the exact value overflows to inf).
//     When the reference is NaN, any NaN agrees: IEEE 754 does not say which NaN a sum or product returns
//     (x86 gives a negative one for inf - inf); only minimum/maximum promise the canonical one.
//   - transform-reductions (zereduce/transform.hpp): counts and integer sums bit for bit; sums of squares,
//     norms and widened floating sums within runtime/core/transform_reference.hpp's bound for the reported
//     combine depth.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "conformance_case.hpp"
#include "moments_reference.hpp"
#include "reference_memo.hpp"
#include "scalar.hpp"

namespace zr::conformance {

// SYCL 2020's known identity of (op, type), as the public headers define it.
core::Scalar known_identity(element_type type, op_kind op);

// The variable's value before the reduction: folded into the result unless initialize_to_identity. Never
// the identity (or the check could not tell whether it was folded in): bool alternates with the seed.
core::Scalar initial_value(element_type type, op_kind op, std::uint64_t seed);

// nullopt when `actual` agrees with the host reference over `input`; otherwise what was expected and got.
// With a memo, the reference is made once per input (reference_memo.hpp): pass one only for the case's own
// input, the one the memo's use_input names.
std::optional<std::string> disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                        const core::Scalar& initial, const core::Scalar& actual,
                                        std::uint64_t combine_depth, ReferenceMemo* memo = nullptr);

// argmin/argmax: nullopt when the value (bit for bit, NaN canonical) and the index are the host reference's
// (runtime/core/arg_reference.hpp: a sequential scan, ties to the first index, the first NaN wins).
std::optional<std::string> arg_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                            const core::Scalar& actual_value, std::uint64_t actual_index,
                                            ReferenceMemo* memo = nullptr);

// mean_var_f32/f64: nullopt when the count is exact and the mean and m2 are within the bounds of
// runtime/core/moments_reference.hpp for the reported combine depth.
std::optional<std::string> moments_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                const core::Moments& actual, std::uint64_t combine_depth,
                                                ReferenceMemo* memo = nullptr);

// count_equal's value: the input's middle element (so that the count is rarely 0), zero for an empty input.
core::Scalar counted_value(const ConformanceCase& c, std::span<const std::byte> input);

// Whether the case's result is checked within a bound (floating plus, multiplies and the rounded
// transform-reductions) rather than exactly.
bool checked_within_bound(element_type type, op_kind op);

}  // namespace zr::conformance
