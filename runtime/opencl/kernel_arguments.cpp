#include "opencl/kernel_arguments.hpp"

namespace zr::opencl {

std::string KernelArguments::key(Kind kind, const void* bytes, std::size_t size) {
  std::string text(1, static_cast<char>(kind));
  if (bytes) text.append(static_cast<const char*>(bytes), size);
  else text.append(reinterpret_cast<const char*>(&size), sizeof(size));  // local memory: its size
  return text;
}

bool KernelArguments::holds(cl_kernel kernel, cl_uint index, Kind kind, const void* bytes, std::size_t size) const {
  const auto found = held_.find(kernel);
  if (found == held_.end() || index >= found->second.size() || found->second[index].empty()) return false;
  return found->second[index] == key(kind, bytes, size);
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
