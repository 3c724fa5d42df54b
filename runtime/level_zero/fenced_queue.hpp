#pragma once
// An asynchronous command queue on the device's compute engine with a fence to wait for what it ran: the
// executor and the copier each own one. Waits are bounded by core::wait_limit() (ZE_REDUCE_TIMEOUT_S): a device
// that never signals (a hung GPU; Intel's capture-mode driver very rarely) becomes an error instead of a hang.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"
#include "strategy.hpp"

namespace zr::level_zero {

// An asynchronous queue of normal priority on the device's compute engine (its lists' as well).
ze_command_queue_desc_t compute_queue_desc(const Device& device);

class FencedQueue {
 public:
  explicit FencedQueue(const Device& device);

  // Runs one closed command list and waits for it (bounded_wait.hpp: a lost device, a hang, a failing call). `what`
  // names the work in errors; `strategy`, for a reduction, is what ZE_REDUCE_FAULT_INJECTION's kinds match.
  // Returns when the list was submitted (core::host_clock_ns): the wait began then.
  std::uint64_t run(ze_command_list_handle_t list, std::string_view what, std::optional<core::Strategy> strategy = {});
  bool hung() const { return device_->unusable(); }

 private:
  const Device* device_;
  CommandQueue queue_;
  Fence fence_;
};

}  // namespace zr::level_zero
