#pragma once
// Per-pass device timings of one reduction, as both executors report them, and where its host time went.
#include <chrono>
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
  // The host's side of the run, on the steady clock (always kept: two clock reads): from the run's start until
  // its last command was enqueued or submitted (binding memory, kernel arguments, recording or appending the
  // commands), and from then until the host saw the work complete.
  std::uint64_t host_enqueue_ns = 0;
  std::uint64_t host_wait_ns = 0;
  // From the first pass's start to the last pass's end.
  std::uint64_t total_ns() const {
    return passes.empty() || passes.back().end_ns < passes.front().start_ns ? 0
                                                                             : passes.back().end_ns - passes.front().start_ns;
  }
};

// The steady clock in nanoseconds: the host clock of profiles and stage marks.
inline std::uint64_t host_clock_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace zr::core
