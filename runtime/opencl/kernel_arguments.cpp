#include "opencl/kernel_arguments.hpp"

#include <cstring>

namespace zr::opencl {

std::string KernelArguments::key(Kind kind, const void* bytes, std::size_t size) {
  std::string text(1, static_cast<char>(kind));
  if (bytes) text.append(static_cast<const char*>(bytes), size);
  else text.append(reinterpret_cast<const char*>(&size), sizeof(size));  // local memory: its size
  return text;
}

bool KernelArguments::holds(cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size) const {
  const auto found = held_.find(kernel);
  if (found == held_.end() || index >= found->second.size()) return false;
  // Compared in place, as key() lays it out: this runs for every argument of every small reduction.
  const std::string& held = found->second[index];
  const void* value = bytes ? bytes : static_cast<const void*>(&size);
  const std::size_t value_size = bytes ? size : sizeof(size);
  return held.size() == 1 + value_size && held[0] == static_cast<char>(kind) &&
         std::memcmp(held.data() + 1, value, value_size) == 0;
}

void KernelArguments::remember(cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size) {
  auto& arguments = held_[kernel];
  if (arguments.size() <= index) arguments.resize(index + 1);
  arguments[index] = key(kind, bytes, size);
}

void KernelArguments::forget(cl_kernel kernel, cl_uint index) {
  const auto found = held_.find(kernel);
  if (found != held_.end() && index < found->second.size()) found->second[index].clear();
}

}  // namespace zr::opencl
