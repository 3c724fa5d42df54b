#include "api/memory_checks.hpp"

#include <sstream>

#include "zereduce/errors.hpp"

namespace zr::api {

std::string address(const void* pointer) {
  std::ostringstream text;
  text << pointer;
  return text.str();
}

bool is_host_range(const BackendDevice& device, const void* pointer, std::uint64_t bytes,
                   const std::function<std::string()>& what, bool host_allowed) {
  const auto allocation = device.find(pointer);
  if (!allocation) {
    if (host_allowed) return true;
    throw InvalidArgumentError(
        what() + " at " + address(pointer) + " is not memory of device '" + device.name() +
        "' (it is ordinary host memory or another device's allocation): allocate it with queue::malloc_device, "
        "malloc_host or malloc_shared, or pass a std::span to have the data copied");
  }
  if (!device.kernels_access(allocation->kind))
    throw UnsupportedError("device '" + device.name() + "' cannot read " + std::string(to_string(allocation->kind)) +
                           " memory in kernels: use malloc_device, or pass a std::span");
  const auto* start = static_cast<const std::byte*>(pointer);
  const std::uint64_t offset = static_cast<std::uint64_t>(start - allocation->base);
  if (offset > allocation->bytes || bytes > allocation->bytes - offset)
    throw InvalidArgumentError(what() + " (" + std::to_string(bytes) + " bytes) at offset " + std::to_string(offset) +
                               " runs past the end of its allocation of " + std::to_string(allocation->bytes) +
                               " bytes on device '" + device.name() + "'");
  return false;
}

}  // namespace zr::api
