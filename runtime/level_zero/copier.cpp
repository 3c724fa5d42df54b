#include "level_zero/copier.hpp"

#include <cstdint>
#include <limits>

#include "level_zero/fenced_queue.hpp"

namespace zr::level_zero {

namespace {
constexpr std::uint64_t kNoTimeout = std::numeric_limits<std::uint64_t>::max();
}

Copier::Copier(std::shared_ptr<const Device> device) : device_(std::move(device)) {
  auto fenced = create_fenced_compute_queue(*device_);
  queue_ = std::move(fenced.queue);
  fence_ = std::move(fenced.fence);
}

void Copier::copy(void* destination, const void* source, std::uint64_t bytes) {
  if (bytes == 0) return;
  const auto& name = device_->name();
  std::lock_guard lock(mutex_);
  ze_command_list_desc_t list_desc{};
  list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  list_desc.commandQueueGroupOrdinal = device_->description().compute_queue_ordinal.value_or(0);
  ze_command_list_handle_t raw = nullptr;
  ZR_ZE_CHECK(name, zeCommandListCreate, device_->context(), device_->handle(), &list_desc, &raw);
  CommandList list(raw);
  ZR_ZE_CHECK(name, zeCommandListAppendMemoryCopy, list.get(), destination, source, bytes, nullptr, 0, nullptr);
  ZR_ZE_CHECK(name, zeCommandListClose, list.get());
  ze_command_list_handle_t handle = list.get();
  ZR_ZE_CHECK(name, zeCommandQueueExecuteCommandLists, queue_.get(), 1, &handle, fence_.get());
  ZR_ZE_CHECK(name, zeFenceHostSynchronize, fence_.get(), kNoTimeout);
  ZR_ZE_CHECK(name, zeFenceReset, fence_.get());
}

}  // namespace zr::level_zero
