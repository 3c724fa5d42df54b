#pragma once
#include <memory>

#include "api/backend_device.hpp"
#include "opencl/device.hpp"

namespace zr::api {

std::unique_ptr<BackendDevice> make_opencl_backend(opencl::Device device);

}  // namespace zr::api
