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

struct RunProfile {
  std::vector<PassTiming> passes;
  bool timestamps_valid = true;
  // Copies a backend made around the kernels (an unaligned range moved to a temporary), on the host's
  // steady clock: not comparable with the passes' device clock.
  std::vector<PassTiming> copies;  // false where the device never ran the kernels (Intel's driver without hardware)
  // From the first pass's start to the last pass's end.
  std::uint64_t total_ns() const {
    return passes.empty() || passes.back().end_ns < passes.front().start_ns ? 0
                                                                             : passes.back().end_ns - passes.front().start_ns;
  }
};

}  // namespace zr::core
