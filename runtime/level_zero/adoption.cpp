#include "level_zero/adoption.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "zereduce/errors.hpp"

namespace zr::level_zero {

namespace {

std::vector<ze_driver_handle_t> all_drivers() {
  std::uint32_t count = 0;
  ZR_ZE_CHECK("", zeDriverGet, &count, nullptr);
  std::vector<ze_driver_handle_t> drivers(count);
  if (count) ZR_ZE_CHECK("", zeDriverGet, &count, drivers.data());
  drivers.resize(count);
  return drivers;
}

std::vector<ze_device_handle_t> devices_of(ze_driver_handle_t driver) {
  std::uint32_t count = 0;
  ZR_ZE_CHECK("", zeDeviceGet, driver, &count, nullptr);
  std::vector<ze_device_handle_t> handles(count);
  if (count) ZR_ZE_CHECK("", zeDeviceGet, driver, &count, handles.data());
  handles.resize(count);
  return handles;
}

std::vector<ze_device_handle_t> sub_devices_of(ze_device_handle_t device) {
  std::uint32_t count = 0;
  ZR_ZE_CHECK("", zeDeviceGetSubDevices, device, &count, nullptr);
  std::vector<ze_device_handle_t> handles(count);
  if (count) ZR_ZE_CHECK("", zeDeviceGetSubDevices, device, &count, handles.data());
  handles.resize(count);
  return handles;
}

struct Place {
  std::uint32_t driver = 0, device = 0;
  std::optional<std::uint32_t> sub_device;
};

// Where the device sits in the loader's list: its driver's index, its own, and its sub-device index.
Place place_of(ze_driver_handle_t driver, ze_device_handle_t device) {
  const auto drivers = all_drivers();
  for (std::uint32_t d = 0; d < drivers.size(); ++d) {
    if (drivers[d] != driver) continue;
    const auto roots = devices_of(driver);
    for (std::uint32_t i = 0; i < roots.size(); ++i) {
      if (roots[i] == device) return {d, i, std::nullopt};
      const auto subs = sub_devices_of(roots[i]);
      for (std::uint32_t s = 0; s < subs.size(); ++s)
        if (subs[s] == device) return {d, i, s};
    }
    throw InvalidArgumentError("level_zero_interop: the device is not one of the driver's devices or sub-devices "
                               "(a device of another driver?)");
  }
  throw InvalidArgumentError("level_zero_interop: the driver is not one of the Level Zero loader's drivers "
                             "(zeDriverGet does not list it)");
}

}  // namespace

std::shared_ptr<Device> adopt_device(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device) {
  if (!driver) throw InvalidArgumentError("level_zero_interop: the driver is null");
  if (!context) throw InvalidArgumentError("level_zero_interop: the context is null");
  if (!device) throw InvalidArgumentError("level_zero_interop: the device is null");
  // The application initialised Level Zero to have these handles; zeInit again is harmless.
  if (const ze_result_t init = ZR_ZE_RESULT(zeInit, 0); init != ZE_RESULT_SUCCESS)
    throw InvalidArgumentError("level_zero_interop: zeInit failed with " + std::string(result_name(init)) +
                               ": these cannot be Level Zero handles of this process");
  const Place place = place_of(driver, device);
  if (const ze_result_t status = ZR_ZE_RESULT(zeContextGetStatus, context); status != ZE_RESULT_SUCCESS)
    throw InvalidArgumentError("level_zero_interop: the context is not usable (zeContextGetStatus: " +
                               std::string(result_name(status)) + ")");

  static std::mutex mutex;
  static std::map<std::pair<ze_context_handle_t, ze_device_handle_t>, std::weak_ptr<Device>> adopted;
  std::lock_guard lock(mutex);
  std::erase_if(adopted, [](const auto& entry) { return entry.second.expired(); });
  auto& slot = adopted[{context, device}];
  if (auto existing = slot.lock()) return existing;
  auto made = std::make_shared<Device>(std::make_shared<const Context>(context, Context::Ownership::adopted), driver, device,
                                       query_device(driver, device, place.driver, place.device, place.sub_device));
  slot = made;
  return made;
}

}  // namespace zr::level_zero
