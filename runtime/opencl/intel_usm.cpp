#include "opencl/intel_usm.hpp"

#include "opencl/error.hpp"

namespace zr::opencl {

namespace {

template <typename Function>
Function entry_point(cl_platform_id platform, const char* name) {
  return reinterpret_cast<Function>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

std::optional<IntelUsm> IntelUsm::load(const Device& device) {
  std::size_t bytes = 0;
  if (clGetDeviceInfo(device.id, CL_DEVICE_EXTENSIONS, 0, nullptr, &bytes) != CL_SUCCESS || bytes == 0) return std::nullopt;
  std::string extensions(bytes, '\0');
  check(clGetDeviceInfo(device.id, CL_DEVICE_EXTENSIONS, bytes, extensions.data(), nullptr),
        "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)", device.name);
  if (extensions.find("cl_intel_unified_shared_memory") == std::string::npos) return std::nullopt;
  IntelUsm usm;
  usm.get_mem_alloc_info_ = entry_point<clGetMemAllocInfoINTEL_fn>(device.platform, "clGetMemAllocInfoINTEL");
  usm.set_kernel_arg_mem_pointer_ =
      entry_point<clSetKernelArgMemPointerINTEL_fn>(device.platform, "clSetKernelArgMemPointerINTEL");
  usm.enqueue_mem_fill_ = entry_point<clEnqueueMemFillINTEL_fn>(device.platform, "clEnqueueMemFillINTEL");
  // A platform that lists the extension but lacks an entry point is treated as not having it.
  if (!usm.get_mem_alloc_info_ || !usm.set_kernel_arg_mem_pointer_ || !usm.enqueue_mem_fill_) return std::nullopt;
  return usm;
}

std::optional<UsmAllocation> IntelUsm::allocation_of(cl_context context, const void* pointer,
                                                     const std::string& device) const {
  auto info = [&](cl_mem_info_intel param, auto& value, const char* what) {
    check(get_mem_alloc_info_(context, pointer, param, sizeof value, &value, nullptr),
          std::string("clGetMemAllocInfoINTEL(") + what + ")", device);
  };
  cl_unified_shared_memory_type_intel type = CL_MEM_TYPE_UNKNOWN_INTEL;
  info(CL_MEM_ALLOC_TYPE_INTEL, type, "CL_MEM_ALLOC_TYPE_INTEL");
  UsmAllocation allocation;
  switch (type) {
    case CL_MEM_TYPE_HOST_INTEL: allocation.kind = UsmAllocation::Kind::host; break;
    case CL_MEM_TYPE_DEVICE_INTEL: allocation.kind = UsmAllocation::Kind::device; break;
    case CL_MEM_TYPE_SHARED_INTEL: allocation.kind = UsmAllocation::Kind::shared; break;
    default: return std::nullopt;
  }
  void* base = nullptr;
  std::size_t size = 0;
  info(CL_MEM_ALLOC_BASE_PTR_INTEL, base, "CL_MEM_ALLOC_BASE_PTR_INTEL");
  info(CL_MEM_ALLOC_SIZE_INTEL, size, "CL_MEM_ALLOC_SIZE_INTEL");
  info(CL_MEM_ALLOC_DEVICE_INTEL, allocation.device, "CL_MEM_ALLOC_DEVICE_INTEL");
  allocation.base = reinterpret_cast<std::uintptr_t>(base);
  allocation.bytes = size;
  return allocation;
}

void IntelUsm::set_kernel_arg(cl_kernel kernel, cl_uint index, const void* pointer, const std::string& device) const {
  check(set_kernel_arg_mem_pointer_(kernel, index, pointer), "clSetKernelArgMemPointerINTEL", device,
        [&] { return "argument " + std::to_string(index); });
}

cl_event IntelUsm::fill(cl_command_queue queue, void* destination, std::span<const std::byte> pattern, std::uint64_t bytes,
                        std::span<const cl_event> wait_list, const std::string& device) const {
  cl_event event = nullptr;
  check(enqueue_mem_fill_(queue, destination, pattern.data(), pattern.size(), static_cast<std::size_t>(bytes),
                          static_cast<cl_uint>(wait_list.size()), wait_list.empty() ? nullptr : wait_list.data(), &event),
        "clEnqueueMemFillINTEL", device);
  return event;
}

}  // namespace zr::opencl
