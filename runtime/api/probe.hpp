#pragma once
#include "api/backend_device.hpp"
#include "zereduce/device.hpp"

namespace zr::api {

// Whether kernels really execute on the device: reduces {1, 2, 3, 4} through the device's own memory and
// plan, and checks for 10. Intel's driver without hardware completes the work without running it, so the
// result never arrives there: "no". An error is "no" with the error as the detail. Every wait of the probe is
// bounded by core::probe_wait_limit(): a device that does not finish in time is "unknown", and, like any
// device that missed a deadline, refuses later work.
kernel_execution probe_execution(BackendDevice& device);

}  // namespace zr::api
