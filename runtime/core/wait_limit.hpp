#pragma once
// How long any wait on a device may last before it counts as hung. Every backend bounds every wait by it.
//
// ZE_REDUCE_TIMEOUT_S seconds (a positive number; default 300, far beyond any single reduction or copy, which
// chunking keeps to one allocation). A ScopedWaitLimit shortens it for the waits its thread makes while it
// lives: the execution probe uses one, so that a device which never finishes anything is reported as
// "unknown" within seconds instead of holding up device discovery.
#include <chrono>
#include <optional>
#include <string>

namespace zr::core {

std::chrono::nanoseconds wait_limit();

// The limit from ZE_REDUCE_TIMEOUT_S alone (what ScopedWaitLimit cannot lengthen).
std::chrono::nanoseconds configured_wait_limit();

// The execution probe's own deadline: ZE_REDUCE_PROBE_TIMEOUT_S seconds (default 10; never longer than
// configured_wait_limit()). A probe is four numbers: anything slower than this is a device that hangs.
std::chrono::nanoseconds probe_wait_limit();

class ScopedWaitLimit {
 public:
  explicit ScopedWaitLimit(std::chrono::nanoseconds limit);
  ~ScopedWaitLimit();
  ScopedWaitLimit(const ScopedWaitLimit&) = delete;
  ScopedWaitLimit& operator=(const ScopedWaitLimit&) = delete;

 private:
  std::optional<std::chrono::nanoseconds> previous_;
};

// "2.5 s", for messages.
std::string seconds_text(std::chrono::nanoseconds duration);

}  // namespace zr::core
