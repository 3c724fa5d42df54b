#pragma once
// The options of transform-reductions and means and variances (-o norm_l2, count_equal, sum_i64, mean_var, ...),
// checked before any device is used: their result is written, never read, and has a type of its own, so they
// take no --identity, no --initial and no --columns; --equal-to belongs to count_equal alone (which needs it),
// --ddof to mean_var alone. -o mean_var leaves its accumulator to the device (f64 where it has fp64).
#include "options.hpp"
#include "zereduce/device.hpp"

namespace zr::cli {

// zr::InvalidArgumentError naming the option and the op.
void check_transform_options(const Options& options);

// -o mean_var: mean_var_f64 where the device has fp64, mean_var_f32 elsewhere; any other op as given.
core::Op resolve_moments_accumulator(const Options& options, const zr::device& device);

}  // namespace zr::cli
