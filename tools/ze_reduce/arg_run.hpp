#pragma once
// -o argmin / -o argmax: queue::argmin/argmax (zereduce/arg_result.hpp) over the workload, placed and timed as
// every other reduction (run_parts.hpp). The outcome holds the value as its one result and the index beside it.
#include "options.hpp"
#include "progress.hpp"
#include "reduce_run.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

// Precondition: core::is_arg_op(options.op), and check_arg_options(options) passed. A bool workload is refused
// with zr::InvalidArgumentError; so is n = 0, by the library.
RunOutcome run_arg_reduction(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress);

}  // namespace zr::cli
