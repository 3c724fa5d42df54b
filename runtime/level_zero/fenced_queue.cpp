#include "level_zero/fenced_queue.hpp"

#include <cstdlib>
#include <sstream>

#include "level_zero/result.hpp"
#include "log.hpp"

namespace zr::level_zero {

std::chrono::nanoseconds submission_time_limit() {
  static const std::chrono::nanoseconds limit = [] {
    constexpr double kDefaultSeconds = 300;
    double seconds = kDefaultSeconds;
    if (const char* text = std::getenv("ZE_REDUCE_TIMEOUT_S"); text && *text) {
      char* end = nullptr;
      const double parsed = std::strtod(text, &end);
      if (end && *end == '\0' && parsed > 0 && parsed < 1e6) {
        seconds = parsed;
      } else {
        logger().warn("ZE_REDUCE_TIMEOUT_S='{}' is not a positive number of seconds: using {} s", text,
                      kDefaultSeconds);
      }
    }
    return std::chrono::nanoseconds(static_cast<std::int64_t>(seconds * 1e9));
  }();
  return limit;
}

FencedQueue::FencedQueue(const Device& device, std::chrono::nanoseconds time_limit)
    : device_(&device), time_limit_(time_limit) {
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

void FencedQueue::run(ze_command_list_handle_t list, std::string_view what) {
  const auto& name = device_->name();
  if (hung_) throw_error("zeFenceHostSynchronize", ZE_RESULT_NOT_READY, name, *hung_);
  ZR_ZE_CHECK(name, zeCommandQueueExecuteCommandLists, queue_.get(), 1, &list, fence_.get());
  const auto limit = time_limit_;
  if (!ZR_ZE_READY(name, zeFenceHostSynchronize, fence_.get(), static_cast<std::uint64_t>(limit.count()))) {
    std::ostringstream text;
    text << "the device did not finish " << what << " within " << std::chrono::duration<double>(limit).count()
         << " s (ZE_REDUCE_TIMEOUT_S): the GPU or its driver hangs; this device's queue takes no more work";
    hung_ = text.str();
    throw_error("zeFenceHostSynchronize", ZE_RESULT_NOT_READY, name, *hung_);
  }
  ZR_ZE_CHECK(name, zeFenceReset, fence_.get());
}

}  // namespace zr::level_zero
