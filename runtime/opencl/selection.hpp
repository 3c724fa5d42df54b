#pragma once
// Which OpenCL device to use by default: the first GPU that really executes kernels, else the first such CPU,
// else any other device that does. Intel's OpenCL driver in its no-hardware (AUB capture) mode lists a GPU
// that builds kernels but never runs them; a one-kernel execution probe keeps the default off such devices.
#include <optional>
#include <vector>

#include "opencl/device.hpp"

namespace zr::opencl {

// Builds a one-line kernel from OpenCL C source, runs one work-item that writes a known value, reads it back.
// True when the value arrived. Any failure (no compiler, a build error, a device error, no completion within
// a few seconds) counts as "does not execute" and is logged at debug level. The answer is cached per device
// for the life of the process.
bool probe_execution(const Device& device);

// The cached answer of probe_execution for this device, if it was probed.
std::optional<bool> known_execution(cl_device_id device);

// The devices in the order the default rule considers them: GPUs, then CPUs, then the rest, each in discovery
// order.
std::vector<Device> devices_by_preference(std::vector<Device> devices);

// The first device, by that preference, whose capabilities can be read and that passes the execution probe (devices are
// probed lazily, in order), or nullopt when none does.
std::optional<Device> default_device();

}  // namespace zr::opencl
