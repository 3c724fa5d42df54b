#include "level_zero/fenced_queue.hpp"

#include "level_zero/result.hpp"

namespace zr::level_zero {

FencedQueue create_fenced_compute_queue(const Device& device) {
  const auto& name = device.name();
  ze_command_queue_desc_t queue_desc{};
  queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  queue_desc.ordinal = device.description().compute_queue_ordinal.value_or(0);
  queue_desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  queue_desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  ze_command_queue_handle_t queue = nullptr;
  ZR_ZE_CHECK(name, zeCommandQueueCreate, device.context(), device.handle(), &queue_desc, &queue);
  FencedQueue fenced{CommandQueue(queue), Fence()};
  ze_fence_desc_t fence_desc{};
  fence_desc.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
  ze_fence_handle_t fence = nullptr;
  ZR_ZE_CHECK(name, zeFenceCreate, fenced.queue.get(), &fence_desc, &fence);
  fenced.fence = Fence(fence);
  return fenced;
}

}  // namespace zr::level_zero
