#pragma once
// Per-pass device timings of one reduction, as both executors report them.
#include <cstdint>
#include <string>
#include <vector>

namespace zr::core {

struct PassTiming {
  std::string label;        // the plan pass's label ("partials", "final", ...)
  std::string kernel;       // entry point
  std::uint64_t start_ns = 0;  // device clock, nanoseconds
  std::uint64_t end_ns = 0;
  std::uint64_t duration_ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

// Whether a run records device timestamps (the queue property enable_profiling): a backend may skip them
// when off, where timing a kernel costs launch time.
enum class Timestamps : bool { off, on };

struct RunProfile {
  std::vector<PassTiming> passes;
  // False where the passes carry no device times: an untimed run, or a device that never ran the kernels
  // (Intel's driver without hardware).
  bool timestamps_valid = true;
  // Copies a backend made around the kernels (an unaligned range moved to a temporary, a result staged in or
  // out): on the device clock or the host's steady clock, not comparable with the passes' device clock.
  std::vector<PassTiming> copies;
  // From the first pass's start to the last pass's end.
  std::uint64_t total_ns() const {
    return passes.empty() || passes.back().end_ns < passes.front().start_ns ? 0
                                                                             : passes.back().end_ns - passes.front().start_ns;
  }
};

}  // namespace zr::core
