#pragma once
// An application's Level Zero driver, context and device as a ze-reduce Device: the context is adopted (used,
// never destroyed), the device described as discovery describes its own. While anything holds it, the same
// (context, device) pair gives the same Device, so its modules are built once per application context.
#include <level_zero/ze_api.h>

#include <memory>

#include "level_zero/device.hpp"

namespace zr::level_zero {

// Throws zr::InvalidArgumentError for a null handle, a driver the loader does not list, a device that is not
// one of that driver's devices (or sub-devices) and a context the driver does not report as usable.
std::shared_ptr<Device> adopt_device(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device);

}  // namespace zr::level_zero
