#pragma once
// The checks every request makes of the memory it names before any work: a range must lie inside one
// allocation of the device that kernels may access, or be ordinary host memory where the caller copies it.
#include <cstdint>
#include <functional>
#include <string>

#include "api/backend_device.hpp"

namespace zr::api {

std::string address(const void* pointer);

// Whether [pointer, pointer + bytes) is ordinary host memory (false: it lies in an allocation of `device`).
// Throws InvalidArgumentError naming `what` when it starts in an allocation but runs past its end, or when it
// is host memory and `host_allowed` is false; UnsupportedError when kernels cannot access the allocation's kind.
// `what` is called only for an error's message: every small reduction checks its input.
bool is_host_range(const BackendDevice& device, const void* pointer, std::uint64_t bytes,
                   const std::function<std::string()>& what, bool host_allowed);
inline bool is_host_range(const BackendDevice& device, const void* pointer, std::uint64_t bytes, const std::string& what,
                          bool host_allowed) {
  return is_host_range(device, pointer, bytes, [&what] { return what; }, host_allowed);
}

}  // namespace zr::api
