#include "level_zero/copier.hpp"

#include <cstdint>

#include "level_zero/result.hpp"

namespace zr::level_zero {

Copier::Copier(std::shared_ptr<const Device> device) : device_(std::move(device)), queue_(*device_) {}

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
  try {
    queue_.run(list.get(), "a copy of " + std::to_string(bytes) + " bytes");
  } catch (...) {
    if (queue_.hung()) abandoned_.push_back(std::move(list));
    throw;
  }
}

}  // namespace zr::level_zero
