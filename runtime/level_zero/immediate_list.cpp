#include "level_zero/immediate_list.hpp"

#include <cstdlib>
#include <cstring>

#include "level_zero/bounded_wait.hpp"
#include "level_zero/fenced_queue.hpp"
#include "level_zero/result.hpp"
#include "profile.hpp"
#include "log.hpp"

namespace zr::level_zero {

namespace {
bool turned_off() {
  const char* value = std::getenv("ZE_REDUCE_LEVEL_ZERO_IMMEDIATE");
  return value && std::strcmp(value, "0") == 0;
}
}  // namespace

std::optional<ImmediateList> ImmediateList::create(const Device& device) {
  if (turned_off()) return std::nullopt;
  const ze_command_queue_desc_t desc = compute_queue_desc(device);
  ze_command_list_handle_t list = nullptr;
  const ze_result_t made = ZR_ZE_RESULT(zeCommandListCreateImmediate, device.context(), device.handle(), &desc, &list);
  if (made != ZE_RESULT_SUCCESS) {
    logger().debug("device '{}': zeCommandListCreateImmediate gave {}: every run uses recorded command lists",
                   device.name(), result_name(made));
    return std::nullopt;
  }
  return ImmediateList(device, CommandList(list));
}

std::uint64_t ImmediateList::finish(ze_event_handle_t done, std::string_view what,
                                    std::optional<core::Strategy> strategy) const {
  const auto& name = device_->name();
  device_->throw_if_unusable();
  const ze_result_t appended = ZR_ZE_RESULT(zeCommandListAppendBarrier, list_.get(), done, 0, nullptr);
  if (appended == ZE_RESULT_ERROR_DEVICE_LOST) lose_device(*device_, appended, "zeCommandListAppendBarrier", what);
  check(appended, "zeCommandListAppendBarrier", name);
  const std::uint64_t appended_ns = core::host_clock_ns();
  bounded_wait(*device_, "zeEventHostSynchronize", what, strategy,
               [&](std::uint64_t timeout_ns) { return ZR_ZE_RESULT(zeEventHostSynchronize, done, timeout_ns); });
  return appended_ns;
}

}  // namespace zr::level_zero
