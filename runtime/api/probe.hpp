#pragma once
#include "api/backend_device.hpp"

namespace zr::api {

// Whether kernels really execute on the device: reduces {1, 2, 3, 4} through the device's own memory and
// plan, and checks for 10. Any error counts as "no" (logged at debug level). Intel's driver without hardware
// completes the work without running it, so the result never arrives there.
bool probe_execution(BackendDevice& device);

}  // namespace zr::api
