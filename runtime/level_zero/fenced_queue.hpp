#pragma once
// An asynchronous command queue on the device's compute engine with a fence to wait for what it ran: the
// executor and the copier each own one. Waits are bounded: a device that never signals (a hung GPU; Intel's
// capture-mode driver very rarely) becomes an error instead of a hang.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"

namespace zr::level_zero {

// How long one submission may take before it counts as hung: ZE_REDUCE_TIMEOUT_S seconds (a positive
// number; default 300, far beyond any single reduction or copy, which chunking keeps to one allocation).
std::chrono::nanoseconds submission_time_limit();

class FencedQueue {
 public:
  explicit FencedQueue(const Device& device, std::chrono::nanoseconds time_limit = submission_time_limit());

  // Runs one closed command list and waits for it. Throws zr::BackendError from a failing driver call, or,
  // when the device has not finished within submission_time_limit(), one naming zeFenceHostSynchronize and
  // ZE_RESULT_NOT_READY. After a timeout the queue refuses all further work with that error, and the list
  // may still be running: the caller keeps alive whatever it uses.
  void run(ze_command_list_handle_t list, std::string_view what);
  bool hung() const { return hung_.has_value(); }

 private:
  const Device* device_;
  std::chrono::nanoseconds time_limit_;
  CommandQueue queue_;
  Fence fence_;
  std::optional<std::string> hung_;  // the timeout's message
};

}  // namespace zr::level_zero
