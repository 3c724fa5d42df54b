#pragma once
// How the executor's waits end (FencedQueue's fence, ImmediateList's event): bounded by core::wait_limit()
// (ZE_REDUCE_TIMEOUT_S), a lost device or a hang turned into one clear error, and the device then refusing all
// later work with that error (Device::throw_if_unusable), so that other devices keep working.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "level_zero/device.hpp"
#include "strategy.hpp"

namespace zr::level_zero {

// Throws zr::DeviceLostError naming `call` and `what`, and marks the device unusable.
[[noreturn]] void lose_device(const Device& device, ze_result_t result, std::string_view call, std::string_view what);

// Waits through `synchronize` (a driver's host-synchronize call, given the timeout in nanoseconds; `call` is its
// name) for the work `what` names:
//   - ZE_RESULT_ERROR_DEVICE_LOST: lose_device;
//   - no signal within core::wait_limit(): zr::TimeoutError naming `what` and the seconds (the work may still be
//     running: the caller keeps alive whatever it uses);
//   - any other failure: zr::BackendError.
// `strategy`, for a reduction, is what ZE_REDUCE_FAULT_INJECTION's device_lost and hang kinds match.
void bounded_wait(const Device& device, std::string_view call, std::string_view what,
                  std::optional<core::Strategy> strategy, const std::function<ze_result_t(std::uint64_t)>& synchronize);

}  // namespace zr::level_zero
