#pragma once
// An asynchronous command queue on the device's compute engine with a fence to wait for what it ran: the
// executor and the copier each own one. Waits are bounded by core::wait_limit() (ZE_REDUCE_TIMEOUT_S): a device
// that never signals (a hung GPU; Intel's capture-mode driver very rarely) becomes an error instead of a hang.
#include <optional>
#include <string>
#include <string_view>

#include "level_zero/device.hpp"
#include "level_zero/handles.hpp"
#include "strategy.hpp"

namespace zr::level_zero {

class FencedQueue {
 public:
  explicit FencedQueue(const Device& device);

  // Runs one closed command list and waits for it. `what` names the work in errors; `strategy`, for a
  // reduction, is what ZE_REDUCE_FAULT_INJECTION's device_lost and hang kinds match.
  //   - a failing driver call: zr::BackendError;
  //   - ZE_RESULT_ERROR_DEVICE_LOST: zr::DeviceLostError naming `what`;
  //   - no signal within core::wait_limit(): zr::TimeoutError naming `what` and the seconds; the list may still
  //     be running, so the caller keeps alive whatever it uses.
  // The last two make the device refuse all later work with that same error (Device::throw_if_unusable).
  void run(ze_command_list_handle_t list, std::string_view what, std::optional<core::Strategy> strategy = {});
  bool hung() const { return device_->unusable(); }

 private:
  [[noreturn]] void lose_device(ze_result_t result, std::string_view call, std::string_view what) const;

  const Device* device_;
  CommandQueue queue_;
  Fence fence_;
};

}  // namespace zr::level_zero
