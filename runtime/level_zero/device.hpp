#pragma once
// Level Zero discovery: zeInit once per process, every driver, every device and every sub-device (listed as
// a device of its own, after its root device). ZE_AFFINITY_MASK is applied by the driver itself: the devices
// listed are those the driver exposes under it. When no Level Zero driver is usable, the list is empty and
// the reason is logged once at debug level: that is not an error.
#include <level_zero/ze_api.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capabilities.hpp"
#include "device_fate.hpp"
#include "level_zero/device_info.hpp"
#include "level_zero/handles.hpp"
#include "level_zero/module_cache.hpp"

namespace zr::level_zero {

class Device {
 public:
  Device(std::shared_ptr<const Context> context, ze_driver_handle_t driver, ze_device_handle_t device,
         DeviceDescription description);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device();

  const DeviceDescription& description() const { return description_; }
  // "Intel(R) Graphics [0x0bd5]" (with " (sub-device N)" for sub-devices).
  const std::string& name() const { return name_; }
  // Whether the device reports properties kernels can run with; problem() says what is wrong when not.
  bool usable() const { return capabilities_.has_value(); }
  const std::string& problem() const { return problem_; }
  // The core's view of the device. Throws DevicePropertyError (naming the property) for an unusable device.
  const core::Capabilities& capabilities() const;

  ze_driver_handle_t driver() const { return driver_; }
  ze_device_handle_t handle() const { return device_; }
  ze_context_handle_t context() const { return context_->get(); }
  const std::shared_ptr<const Context>& shared_context() const { return context_; }

  ModuleCache& modules() const { return *modules_; }

  // Unified-shared-memory allocations in this device's context.
  Memory allocate_device(std::uint64_t bytes, std::uint64_t alignment = 64) const;
  Memory allocate_host(std::uint64_t bytes, std::uint64_t alignment = 64) const;
  Memory allocate_shared(std::uint64_t bytes, std::uint64_t alignment = 64) const;
  // The kind of USM allocation `pointer` lies in as this device's context sees it (ZE_MEMORY_TYPE_UNKNOWN for
  // memory Level Zero did not allocate in it).
  ze_memory_type_t memory_type(const void* pointer) const;
  // The USM allocation of this device's context that `pointer` lies in: its base and size (zeMemGetAddressRange),
  // or nullopt for memory Level Zero did not allocate in this context.
  struct AddressRange {
    const void* base = nullptr;
    std::uint64_t bytes = 0;
    ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  };
  std::optional<AddressRange> allocation_of(const void* pointer) const;

  // Kernels are shared by every executor of the device; setting their arguments and appending them to a
  // command list happen under this lock.
  std::mutex& recording_mutex() const { return recording_mutex_; }

  // A device that was lost (ZE_RESULT_ERROR_DEVICE_LOST) or hung (a fence past its deadline) refuses all later
  // work with the error that made it so; other devices are untouched. See FencedQueue.
  [[noreturn]] void mark_unusable_and_throw(std::exception_ptr error) const;
  void throw_if_unusable() const;
  bool unusable() const;
  // Runs `work`; a ZE_RESULT_ERROR_DEVICE_LOST from any of its calls (a module build, an allocation) makes the
  // device unusable as one at a fence does. The backend's entry points run through it.
  template <typename Work>
  decltype(auto) keep_if_lost(Work&& work) const {
    return fate_.keep_if_lost(name_, std::forward<Work>(work));
  }

 private:
  std::shared_ptr<const Context> context_;
  ze_driver_handle_t driver_;
  ze_device_handle_t device_;
  DeviceDescription description_;
  std::string name_;
  std::optional<core::Capabilities> capabilities_;
  std::string problem_;
  std::unique_ptr<ModuleCache> modules_;
  mutable std::mutex recording_mutex_;
  core::DeviceFate fate_;
};

// Every Level Zero device, enumerated once per process (root devices, each followed by its sub-devices).
// Empty when zeInit fails or finds no driver (logged once at debug level). Enumeration errors after a
// successful zeInit throw BackendError.
const std::vector<std::shared_ptr<Device>>& devices();

// Why devices() is empty (empty text when it is not): "zeInit failed with ZE_RESULT_ERROR_UNINITIALIZED", ...
std::string_view unavailable_reason();

}  // namespace zr::level_zero
