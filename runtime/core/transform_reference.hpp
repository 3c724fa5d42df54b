#pragma once
// Transform-reductions on the host (Op::sum_squares ... Op::sum_f64, data_types.hpp): a sequential reference
// written independently of the kernels, with the error bound every evaluation order in the op's accumulator
// satisfies. Counts and integer sums are exact (tolerance 0). For the floating-point sums of terms t_i
// (x*x, |x| or x, in the accumulator's precision):
//   |computed - exact| <= gamma(m) * (1 + u) * sum |t_i| + [u * sum |t_i| for squares, each rounded once]
//                         + (n + m) * min_normal (subnormal terms and sums flushed)
// plus the rounding to the result type (half an ulp of f16 for f16 results), with m the combining depth
// (core::combine_depth; n + 1 when not given), u and gamma as in host_reference.hpp. norm_l2 is the square
// root of that sum: its bound is how far the root moves across the sum's interval, plus 3 ulp of the
// accumulator for the device's sqrt (OpenCL's single-precision accuracy), plus the rounding to f16.
// Infinite or NaN results are determined exactly (a NaN as the canonical quiet NaN).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "data_types.hpp"
#include "host_reference.hpp"
#include "scalar.hpp"

namespace zr::core {

// data holds n elements of `type`; `value` is count_equal's value (element type; ignored by the other ops).
// The reference's value has transform_result_type(op, type).
HostReference transform_reference(Op op, DataType type, std::span<const std::byte> data, std::uint64_t n,
                                  const Scalar& value, std::optional<std::uint64_t> combine_depth = std::nullopt);

}  // namespace zr::core
