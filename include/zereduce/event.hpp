#pragma once
// The completion of work submitted to a queue, with its profile.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "zereduce/export.hpp"
#include "zereduce/properties.hpp"

namespace zr {

// One step of a submission: a kernel pass (device timestamps) or a copy the runtime made (host clock).
struct pass_profile {
  enum class kind : std::uint8_t { kernel, copy } what = kind::kernel;
  std::string label;   // "partials", "final", "copy input to device", ...
  std::string kernel;  // entry point, empty for copies
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::uint64_t duration_ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

// How each reduction of a submission was run.
struct plan_summary {
  zr::strategy strategy = zr::strategy::tree;
  std::string reason;       // why this strategy, one line
  std::string description;  // the passes and buffers (several lines)
  // The most combines any one input value goes through on its way to the result (summed over the chunks of
  // an input larger than one allocation): the m of the floating-point error bound that ze-reduce's host
  // reference documents (runtime/core/host_reference.hpp) for a floating sum, so that a caller can check one
  // (a product's bound depends on n alone).
  std::uint64_t combine_depth = 0;
  // Reduced on the calling thread, no kernel: a small host input on a CPU device (docs/api.md, "Small inputs").
  // `strategy` then names the device strategy the input's size would otherwise have taken (cpu_chunks).
  bool host_path = false;
};

struct profile {
  std::vector<plan_summary> plans;
  std::vector<pass_profile> passes;
  // False where the device wrote no kernel timestamps: on a queue without property::queue::enable_profiling
  // (a backend may still fill them in), or on Intel's driver without hardware.
  bool timestamps_valid = true;
  std::uint64_t kernel_ns = 0;  // sum of the kernel passes' durations
  std::uint64_t copy_ns = 0;    // sum of the copies' durations
  std::uint64_t host_ns = 0;    // from the start of execution to completion, host clock
  // Where the host's time went, on the same clock (bench/reduce_bench.cpp prints them beside a call's wall time):
  std::uint64_t host_before_ns = 0;   // from the call to the start of execution: the checks of its arguments,
                                      // the plan's lookup, and any time queued behind earlier work
  std::uint64_t host_enqueue_ns = 0;  // within host_ns: binding memory, kernel arguments, enqueuing the commands
  std::uint64_t host_wait_ns = 0;     // within host_ns: from the last enqueue until the host saw the work complete
};

namespace detail {
class event_state;
}

class ZR_API event {
 public:
  event() = default;  // an event that is already complete, with an empty profile
  // Blocks until the work is done; rethrows the error the work failed with (zr::Error).
  void wait() const;
  // Waits at most `timeout`: false if the work is still running then; true once it is done (rethrowing its
  // error, as wait() does). For callers that must stay responsive while waiting (e.g. to a user's interrupt).
  bool wait_for(std::chrono::nanoseconds timeout) const;
  bool is_complete() const;
  // Waits, then returns the profile.
  const profile& get_profile() const;

  explicit event(std::shared_ptr<detail::event_state> state);

 private:
  std::shared_ptr<detail::event_state> state_;
};

}  // namespace zr
