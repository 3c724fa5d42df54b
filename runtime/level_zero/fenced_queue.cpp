#include "level_zero/fenced_queue.hpp"

#include "level_zero/bounded_wait.hpp"
#include "level_zero/result.hpp"
#include "profile.hpp"

namespace zr::level_zero {

ze_command_queue_desc_t compute_queue_desc(const Device& device) {
  ze_command_queue_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  desc.ordinal = device.description().compute_queue_ordinal.value_or(0);
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  return desc;
}

FencedQueue::FencedQueue(const Device& device) : device_(&device) {
  const auto& name = device.name();
  const ze_command_queue_desc_t queue_desc = compute_queue_desc(device);
  ze_command_queue_handle_t queue = nullptr;
  ZR_ZE_CHECK(name, zeCommandQueueCreate, device.context(), device.handle(), &queue_desc, &queue);
  queue_ = CommandQueue(queue);
  ze_fence_desc_t fence_desc{};
  fence_desc.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
  ze_fence_handle_t fence = nullptr;
  ZR_ZE_CHECK(name, zeFenceCreate, queue_.get(), &fence_desc, &fence);
  fence_ = Fence(fence);
}

std::uint64_t FencedQueue::run(ze_command_list_handle_t list, std::string_view what,
                               std::optional<core::Strategy> strategy) {
  const auto& name = device_->name();
  device_->throw_if_unusable();
  const ze_result_t submitted = ZR_ZE_RESULT(zeCommandQueueExecuteCommandLists, queue_.get(), 1, &list, fence_.get());
  if (submitted == ZE_RESULT_ERROR_DEVICE_LOST) lose_device(*device_, submitted, "zeCommandQueueExecuteCommandLists", what);
  check(submitted, "zeCommandQueueExecuteCommandLists", name);
  const std::uint64_t submitted_ns = core::host_clock_ns();
  bounded_wait(*device_, "zeFenceHostSynchronize", what, strategy,
               [&](std::uint64_t timeout_ns) { return ZR_ZE_RESULT(zeFenceHostSynchronize, fence_.get(), timeout_ns); });
  ZR_ZE_CHECK(name, zeFenceReset, fence_.get());
  return submitted_ns;
}

}  // namespace zr::level_zero
