#pragma once
// Transform-reductions (-o sum_squares, norm_l2, norm_l1, count_nonzero, count_equal, sum_i64, sum_u64, sum_f32,
// sum_f64) and means and variances (-o mean_var_f32, mean_var_f64): queue::transform_reduce
// (zereduce/transform.hpp) over the workload, placed and timed as every other reduction (run_parts.hpp).
#include "options.hpp"
#include "progress.hpp"
#include "reduce_run.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

// Precondition: options.op is a transform or moments op (resolved: not the device-dependent "mean_var"), and
// check_transform_options(options) passed. A pair the op does not take is refused with zr::InvalidArgumentError.
// The outcome holds one result of core::transform_result_type(op, type); mean_var: the mean, and `moments`.
RunOutcome run_transform_reduction(zr::queue& queue, const Options& options, const Workload& workload,
                                   Progress& progress);

}  // namespace zr::cli
