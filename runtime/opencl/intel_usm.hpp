#pragma once
// cl_intel_unified_shared_memory, the extension through which Intel's OpenCL drivers (and SYCL's OpenCL backend)
// hand out device, host and shared USM pointers: asking which allocation a pointer lies in, binding a pointer
// to a kernel argument, and filling memory behind a pointer. The entry points are the platform's own
// (clGetExtensionFunctionAddressForPlatform): the ICD loader does not export them.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "opencl/cl.hpp"
#include "opencl/device.hpp"

namespace zr::opencl {

// One USM allocation of a context, as the driver describes it.
struct UsmAllocation {
  enum class Kind { host, device, shared };
  Kind kind = Kind::device;
  std::uintptr_t base = 0;
  std::uint64_t bytes = 0;
  cl_device_id device = nullptr;  // device and shared allocations' device; null for host allocations
};

class IntelUsm {
 public:
  // The extension's entry points on `device`'s platform; nullopt when the device does not list the extension.
  static std::optional<IntelUsm> load(const Device& device);

  // The allocation of `context` that `pointer` lies in; nullopt when it is no USM memory of that context.
  std::optional<UsmAllocation> allocation_of(cl_context context, const void* pointer, const std::string& device) const;
  void set_kernel_arg(cl_kernel kernel, cl_uint index, const void* pointer, const std::string& device) const;
  // Enqueues a fill of `bytes` at `destination` with the repeated `pattern`; returns its event.
  cl_event fill(cl_command_queue queue, void* destination, std::span<const std::byte> pattern, std::uint64_t bytes,
                std::span<const cl_event> wait_list, const std::string& device) const;

 private:
  clGetMemAllocInfoINTEL_fn get_mem_alloc_info_ = nullptr;
  clSetKernelArgMemPointerINTEL_fn set_kernel_arg_mem_pointer_ = nullptr;
  clEnqueueMemFillINTEL_fn enqueue_mem_fill_ = nullptr;
};

}  // namespace zr::opencl
