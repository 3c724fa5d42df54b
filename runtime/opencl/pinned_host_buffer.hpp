#pragma once
// Host memory the device reads and writes directly: a CL_MEM_ALLOC_HOST_PTR buffer, mapped for its whole life.
// Small copies between a device buffer and ordinary (pageable) host memory go through one: NVIDIA's driver
// stages a non-blocking copy into pageable memory through a thread of its own, so a 4-byte read behind a
// kernel completed in 24-50 us instead of 15 us into pinned memory, less than its own blocking read's 16 us
// (H100, bench/blocking_wait_probe.cpp). Elsewhere (PoCL) it is ordinary memory and costs one memcpy.
#include <cstddef>
#include <cstdint>

#include "opencl/context.hpp"

namespace zr::opencl {

class PinnedHostBuffer {
 public:
  PinnedHostBuffer() = default;
  // Maps the buffer with a bounded wait (Context::wait).
  PinnedHostBuffer(const Context& context, std::uint64_t bytes);
  PinnedHostBuffer(PinnedHostBuffer&& other) noexcept;
  PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept;
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
  ~PinnedHostBuffer();

  std::byte* data() const { return mapped_; }
  std::uint64_t bytes() const { return buffer_.bytes(); }

 private:
  void unmap();

  const Context* context_ = nullptr;
  Buffer buffer_;
  std::byte* mapped_ = nullptr;
};

}  // namespace zr::opencl
