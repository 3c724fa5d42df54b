#include "level_zero/fenced_queue.hpp"

#include <thread>

#include "fault_injection.hpp"
#include "level_zero/result.hpp"
#include "wait_limit.hpp"
#include "zereduce/errors.hpp"

namespace zr::level_zero {

FencedQueue::FencedQueue(const Device& device) : device_(&device) {
  const auto& name = device.name();
  ze_command_queue_desc_t queue_desc{};
  queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  queue_desc.ordinal = device.description().compute_queue_ordinal.value_or(0);
  queue_desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  queue_desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  ze_command_queue_handle_t queue = nullptr;
  ZR_ZE_CHECK(name, zeCommandQueueCreate, device.context(), device.handle(), &queue_desc, &queue);
  queue_ = CommandQueue(queue);
  ze_fence_desc_t fence_desc{};
  fence_desc.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
  ze_fence_handle_t fence = nullptr;
  ZR_ZE_CHECK(name, zeFenceCreate, queue_.get(), &fence_desc, &fence);
  fence_ = Fence(fence);
}

void FencedQueue::lose_device(ze_result_t result, std::string_view call, std::string_view what) const {
  const std::string detail =
      "device lost during " + std::string(what) +
      ". The driver cannot run anything more on it: ze-reduce refuses further work on this device in this process "
      "(other devices keep working). Restart the process to use the device again; if it happens again, run "
      "ze_reduce_conformance on this device and report its JSON report";
  device_->mark_unusable_and_throw(std::make_exception_ptr(
      DeviceLostError("level_zero", std::string(call), static_cast<long long>(result), std::string(result_name(result)),
                      device_->name(), detail)));
}

void FencedQueue::run(ze_command_list_handle_t list, std::string_view what, std::optional<core::Strategy> strategy) {
  const auto& name = device_->name();
  device_->throw_if_unusable();
  const ze_result_t submitted = ZR_ZE_RESULT(zeCommandQueueExecuteCommandLists, queue_.get(), 1, &list, fence_.get());
  if (submitted == ZE_RESULT_ERROR_DEVICE_LOST) lose_device(submitted, "zeCommandQueueExecuteCommandLists", what);
  check(submitted, "zeCommandQueueExecuteCommandLists", name);

  const auto limit = core::wait_limit();
  const bool simulated_loss = strategy && core::injected(core::FaultKind::device_lost, *strategy, name);
  const bool simulated_hang = strategy && core::injected(core::FaultKind::hang, *strategy, name);
  ze_result_t waited = ZR_ZE_RESULT(zeFenceHostSynchronize, fence_.get(), static_cast<std::uint64_t>(limit.count()));
  if (simulated_loss) waited = ZE_RESULT_ERROR_DEVICE_LOST;
  if (simulated_hang) {
    std::this_thread::sleep_for(limit);
    waited = ZE_RESULT_NOT_READY;
  }
  const std::string suffix = simulated_loss || simulated_hang ? " (simulated: ZE_REDUCE_FAULT_INJECTION)" : "";
  if (waited == ZE_RESULT_ERROR_DEVICE_LOST) lose_device(waited, "zeFenceHostSynchronize", std::string(what) + suffix);
  if (waited == ZE_RESULT_NOT_READY)
    device_->mark_unusable_and_throw(std::make_exception_ptr(TimeoutError(
        "level_zero", "zeFenceHostSynchronize", name, std::string(what) + suffix,
        std::chrono::duration<double>(limit).count())));
  check(waited, "zeFenceHostSynchronize", name);
  ZR_ZE_CHECK(name, zeFenceReset, fence_.get());
}

}  // namespace zr::level_zero
