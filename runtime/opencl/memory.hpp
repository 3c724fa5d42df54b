#pragma once
// Unified-shared-memory style allocations on OpenCL devices, which (without vendor USM extensions) only
// know buffer objects. A device allocation is a cl_mem plus an address range reserved in this process with
// no access rights: the address is unique and ordinary pointer arithmetic works on it, but dereferencing it
// on the host faults, as device memory of a discrete GPU would. Host and shared allocations are ordinary,
// page-aligned host memory that buffers are made over (CL_MEM_USE_HOST_PTR) when a kernel needs them.
// resolve() turns any pointer into the allocation it lies in.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "opencl/context.hpp"

namespace zr::opencl {

enum class AllocationKind { device, host, shared };

struct ResolvedPointer {
  AllocationKind kind = AllocationKind::device;
  const std::byte* base = nullptr;  // the allocation's start
  std::uint64_t bytes = 0;          // the allocation's size
  cl_mem buffer = nullptr;          // device allocations only
  std::uint64_t offset = 0;         // of the pointer from base
};

class Allocations {
 public:
  explicit Allocations(Context& context);
  Allocations(const Allocations&) = delete;
  Allocations& operator=(const Allocations&) = delete;
  ~Allocations();

  void* allocate(AllocationKind kind, std::uint64_t bytes);
  // Throws zr::InvalidArgumentError when `pointer` is not the start of a live allocation.
  void release(void* pointer);
  std::optional<ResolvedPointer> resolve(const void* pointer) const;

 private:
  struct Entry;
  Context& context_;
  mutable std::mutex mutex_;
  std::map<const std::byte*, std::unique_ptr<Entry>> entries_;  // by base address
};

}  // namespace zr::opencl
