#pragma once
// Runs --axis and --segments reductions (segment_options.hpp) through the public API (queue::reduce_rows,
// queue::reduce_segments), timed as every other run (run_parts.hpp); --verify checks every segment against
// the host reference; --output writes any run's results as a .npy file.
#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"
#include "progress.hpp"
#include "reduce_run.hpp"
#include "segment_options.hpp"
#include "verification.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

RunOutcome run_segmented(zr::queue& queue, const Options& options, const Workload& workload,
                         const Segmentation& segmentation, Progress& progress);

// Each segment against the host reference, within the documented bound of the plan's combine depth.
Verification verify_segments(core::Op op, const Workload& workload, const Segmentation& segmentation,
                             const RunOutcome& outcome);

// The results (of the run's result type) as a .npy file of `shape` (product: the number of results).
void write_results_npy(const std::string& path, core::DataType type, const std::vector<std::uint64_t>& shape,
                       const std::vector<core::Scalar>& results);

}  // namespace zr::cli
