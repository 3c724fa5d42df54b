#include "level_zero/device.hpp"

#include "log.hpp"

namespace zr::level_zero {

Device::Device(std::shared_ptr<const Context> context, ze_driver_handle_t driver, ze_device_handle_t device,
               DeviceDescription description)
    : context_(std::move(context)),
      driver_(driver),
      device_(device),
      description_(std::move(description)),
      name_(description_.display_name()) {
  try {
    capabilities_ = to_capabilities(description_);
  } catch (const DevicePropertyError& e) {
    problem_ = e.what();
    logger().warn("{}", problem_);
  }
  modules_ = std::make_unique<ModuleCache>(*this);
}

Device::~Device() = default;

const core::Capabilities& Device::capabilities() const {
  if (!capabilities_) to_capabilities(description_);  // throws the DevicePropertyError again
  return *capabilities_;
}

Memory Device::allocate_device(std::uint64_t bytes, std::uint64_t alignment) const {
  ze_device_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  void* pointer = nullptr;
  ZR_ZE_CHECK(name_, zeMemAllocDevice, context(), &desc, bytes, alignment, device_, &pointer);
  return Memory(context_, pointer, bytes, Memory::Kind::device);
}

Memory Device::allocate_host(std::uint64_t bytes, std::uint64_t alignment) const {
  ze_host_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void* pointer = nullptr;
  ZR_ZE_CHECK(name_, zeMemAllocHost, context(), &desc, bytes, alignment, &pointer);
  return Memory(context_, pointer, bytes, Memory::Kind::host);
}

Memory Device::allocate_shared(std::uint64_t bytes, std::uint64_t alignment) const {
  ze_device_mem_alloc_desc_t device_desc{};
  device_desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  ze_host_mem_alloc_desc_t host_desc{};
  host_desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void* pointer = nullptr;
  ZR_ZE_CHECK(name_, zeMemAllocShared, context(), &device_desc, &host_desc, bytes, alignment, device_, &pointer);
  return Memory(context_, pointer, bytes, Memory::Kind::shared);
}

ze_memory_type_t Device::memory_type(const void* pointer) const {
  ze_memory_allocation_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
  ze_device_handle_t owner = nullptr;
  ZR_ZE_CHECK(name_, zeMemGetAllocProperties, context(), pointer, &properties, &owner);
  return properties.type;
}

std::optional<Device::AddressRange> Device::allocation_of(const void* pointer) const {
  const ze_memory_type_t type = memory_type(pointer);
  if (type == ZE_MEMORY_TYPE_UNKNOWN) return std::nullopt;
  void* base = nullptr;
  std::size_t bytes = 0;
  ZR_ZE_CHECK(name_, zeMemGetAddressRange, context(), pointer, &base, &bytes);
  return AddressRange{base, bytes, type};
}

namespace {

struct Discovery {
  std::vector<std::shared_ptr<Device>> devices;
  std::string unavailable;
};

std::vector<ze_device_handle_t> sub_devices(ze_device_handle_t device, std::string_view where) {
  std::uint32_t count = 0;
  ZR_ZE_CHECK(where, zeDeviceGetSubDevices, device, &count, nullptr);
  std::vector<ze_device_handle_t> handles(count);
  if (count > 0) ZR_ZE_CHECK(where, zeDeviceGetSubDevices, device, &count, handles.data());
  handles.resize(count);
  return handles;
}

Discovery discover() {
  Discovery found;
  // zeInit fails (ZE_RESULT_ERROR_UNINITIALIZED) when the loader finds no driver, or a driver finds no device
  // (including a ZE_AFFINITY_MASK that hides every device). After a failed zeInit no other call may be made:
  // the loader's 1.8 dispatch tables are then left dangling and zeDriverGet crashes.
  const ze_result_t init = ZR_ZE_RESULT(zeInit, 0);
  if (init != ZE_RESULT_SUCCESS) {
    found.unavailable = "zeInit failed with " + std::string(result_name(init)) + ": no Level Zero driver or device";
    logger().debug("Level Zero is not available ({}); no Level Zero devices are listed", found.unavailable);
    return found;
  }
  std::uint32_t driver_count = 0;
  ZR_ZE_CHECK("", zeDriverGet, &driver_count, nullptr);
  std::vector<ze_driver_handle_t> drivers(driver_count);
  if (driver_count > 0) ZR_ZE_CHECK("", zeDriverGet, &driver_count, drivers.data());
  drivers.resize(driver_count);
  if (drivers.empty()) {
    found.unavailable = "the Level Zero loader found no driver";
    logger().debug("Level Zero is not available ({}); no Level Zero devices are listed", found.unavailable);
    return found;
  }

  for (std::uint32_t d = 0; d < drivers.size(); ++d) {
    const std::string where = "level_zero driver " + std::to_string(d);
    std::uint32_t device_count = 0;
    ZR_ZE_CHECK(where, zeDeviceGet, drivers[d], &device_count, nullptr);
    std::vector<ze_device_handle_t> handles(device_count);
    if (device_count > 0) ZR_ZE_CHECK(where, zeDeviceGet, drivers[d], &device_count, handles.data());
    handles.resize(device_count);
    if (handles.empty()) continue;

    // One context per driver, shared by its devices and sub-devices.
    ze_context_desc_t context_desc{};
    context_desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
    ze_context_handle_t raw_context = nullptr;
    ZR_ZE_CHECK(where, zeContextCreate, drivers[d], &context_desc, &raw_context);
    auto context = std::make_shared<const Context>(raw_context);

    for (std::uint32_t i = 0; i < handles.size(); ++i) {
      auto root = std::make_shared<Device>(context, drivers[d], handles[i], query_device(drivers[d], handles[i], d, i, std::nullopt));
      const auto subs = sub_devices(handles[i], root->name());
      found.devices.push_back(std::move(root));
      for (std::uint32_t s = 0; s < subs.size(); ++s) {
        found.devices.push_back(
            std::make_shared<Device>(context, drivers[d], subs[s], query_device(drivers[d], subs[s], d, i, s)));
      }
    }
  }
  if (found.devices.empty()) {
    found.unavailable = "the Level Zero drivers report no device";
    logger().debug("Level Zero is not available ({}); no Level Zero devices are listed", found.unavailable);
  }
  for (const auto& device : found.devices) {
    logger().debug("Level Zero device {}: {}{}", device->description().path(), device->name(),
                   device->usable() ? "" : " (unusable: " + device->problem() + ")");
  }
  return found;
}

const Discovery& discovery() {
  static const Discovery instance = discover();
  return instance;
}

}  // namespace

const std::vector<std::shared_ptr<Device>>& devices() { return discovery().devices; }

std::string_view unavailable_reason() { return discovery().unavailable; }

void Device::mark_unusable_and_throw(std::exception_ptr error) const {
  logger().error("level_zero: device '{}' is unusable from now on", name_);
  fate_.fail(std::move(error));
}

void Device::throw_if_unusable() const { fate_.throw_if_failed(); }

bool Device::unusable() const { return fate_.failed(); }

}  // namespace zr::level_zero
