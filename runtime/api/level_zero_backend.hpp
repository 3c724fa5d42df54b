#pragma once
#include <memory>

#include "api/backend_device.hpp"
#include "level_zero/device.hpp"

namespace zr::api {

std::unique_ptr<BackendDevice> make_level_zero_backend(std::shared_ptr<level_zero::Device> device);

}  // namespace zr::api
