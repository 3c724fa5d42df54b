#pragma once
// Runs the requested reduction (or arg-reduction, arg_run.hpp, or transform-reduction, transform_run.hpp) on a queue through the public API: the input is
// copied to the device once (or handed over as host data, in chunks, when it is larger than one device
// allocation), then reduced warm-up + timed times; every run's events give the per-pass kernel times.
#include <cstdint>
#include <optional>
#include <vector>

#include "options.hpp"
#include "progress.hpp"
#include "scalar.hpp"
#include "workload.hpp"
#include "zereduce/zereduce.hpp"

namespace zr::cli {

struct IterationTiming {
  std::uint64_t wall_ns = 0;    // submit to completion, host clock (what a blocking caller waits)
  std::uint64_t kernel_ns = 0;  // the kernel passes, device timestamps
  std::uint64_t copy_ns = 0;    // copies the library made (host input, result read-back)
  bool timestamps_valid = true;
};

// mean_var: what zr::moments<A> holds, in the accumulator type A, and the variance and standard deviation it
// gives for --ddof.
struct MomentsOutcome {
  std::uint64_t count = 0;
  core::Scalar mean, m2, variance, stddev;
  std::uint64_t ddof = 0;
};

// A mean_var result as reported: its count, mean and m2 in the accumulator type, and the variance and standard
// deviation that --ddof asks for.
template <typename A>
MomentsOutcome moments_outcome(const zr::moments<A>& m, core::DataType accumulator, std::uint64_t ddof) {
  return {m.count,
          core::Scalar::from<A>(accumulator, m.mean),
          core::Scalar::from<A>(accumulator, m.m2),
          core::Scalar::from<A>(accumulator, m.variance(ddof)),
          core::Scalar::from<A>(accumulator, m.stddev(ddof)),
          ddof};
}

struct RunOutcome {
  std::vector<core::Scalar> results;  // one per column, from the last timed run (transforms: of their result
                                      // type; mean_var: the mean)
  std::optional<std::uint64_t> index;  // argmin/argmax: the index of results[0] (their one result)
  std::vector<std::uint64_t> indices;  // argmin/argmax per segment: each result's index from its segment's begin
  std::optional<MomentsOutcome> moments;  // mean_var only
  std::vector<MomentsOutcome> segment_moments;  // mean_var per segment, one each (results then hold the means)
  std::optional<core::Scalar> equal_to;   // count_equal's value
  core::Scalar identity;              // the identity the reduction used (known or --identity; argmin/argmax:
                                      // the value their kernels start from, minimum's or maximum's identity)
  std::optional<core::Scalar> initial;  // folded into the result (absent with --init-to-identity)
  std::vector<zr::plan_summary> plans;
  std::vector<zr::pass_profile> last_passes;
  std::vector<IterationTiming> timings;  // the timed runs
  bool input_on_device = true;           // false: reduced from host memory, copies included in every run
  std::uint64_t upload_ns = 0;           // the one copy of the input to the device
};

RunOutcome run_reduction(zr::queue& queue, const Options& options, const Workload& workload, Progress& progress);

// The read probe (docs/ze_reduce.md): the same bytes reduced with bit_or as 32-bit words (bytes when the size is
// not a multiple of 4), the cheapest complete read of them through the same API. Median kernel time of the
// timed runs; nullopt when the device's timestamps are not valid or the input does not fit one allocation.
std::optional<std::uint64_t> measure_read_probe_ns(zr::queue& queue, const Options& options, const Workload& workload,
                                                   Progress& progress);

std::uint64_t median(std::vector<std::uint64_t> values);

}  // namespace zr::cli
