#include "level_zero/bounded_wait.hpp"

#include <chrono>
#include <string>
#include <thread>

#include "device_fate.hpp"
#include "fault_injection.hpp"
#include "level_zero/result.hpp"
#include "wait_limit.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

void lose_device(const Device& device, ze_result_t result, std::string_view call, std::string_view what) {
  const std::string detail =
      "device lost during " + std::string(what) + ". " + core::kLostDeviceAdvice;
  device.mark_unusable_and_throw(std::make_exception_ptr(
      DeviceLostError("level_zero", std::string(call), static_cast<long long>(result), std::string(result_name(result)),
                      device.name(), detail)));
}

void bounded_wait(const Device& device, std::string_view call, std::string_view what,
                  std::optional<core::Strategy> strategy, const std::function<ze_result_t(std::uint64_t)>& synchronize) {
  const auto& name = device.name();
  const auto limit = core::wait_limit();
  const bool simulated_loss = strategy && core::injected(core::FaultKind::device_lost, *strategy, name);
  const bool simulated_hang = strategy && core::injected(core::FaultKind::hang, *strategy, name);
  ze_result_t waited = synchronize(static_cast<std::uint64_t>(limit.count()));
  if (simulated_loss) waited = ZE_RESULT_ERROR_DEVICE_LOST;
  if (simulated_hang) {
    std::this_thread::sleep_for(limit);
    waited = ZE_RESULT_NOT_READY;
  }
  const std::string suffix = simulated_loss || simulated_hang ? " (simulated: ZE_REDUCE_FAULT_INJECTION)" : "";
  if (waited == ZE_RESULT_ERROR_DEVICE_LOST) lose_device(device, waited, call, std::string(what) + suffix);
  if (waited == ZE_RESULT_NOT_READY)
    device.mark_unusable_and_throw(std::make_exception_ptr(
        TimeoutError("level_zero", std::string(call), name, std::string(what) + suffix,
                     std::chrono::duration<double>(limit).count())));
  check(waited, call, name);
}

}  // namespace zr::level_zero
