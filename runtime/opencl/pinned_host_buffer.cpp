#include "opencl/pinned_host_buffer.hpp"

#include <utility>

#include "opencl/error.hpp"

namespace zr::opencl {

PinnedHostBuffer::PinnedHostBuffer(const Context& context, std::uint64_t bytes)
    : context_(&context), buffer_(context.create_buffer(bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR)) {
  const std::string& device = context.device().name;
  cl_int code = CL_SUCCESS;
  cl_event mapped_event = nullptr;
  void* mapped = clEnqueueMapBuffer(context.queue(), buffer_.get(), CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                    0, nullptr, &mapped_event, &code);
  check(code, "clEnqueueMapBuffer", device, "pinned host memory for small copies");
  const EventHandle map_done(mapped_event);
  check(clFlush(context.queue()), "clFlush", device);
  context.wait(map_done.get(), "the map of pinned host memory");
  mapped_ = static_cast<std::byte*>(mapped);
}

PinnedHostBuffer::PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
    : context_(std::exchange(other.context_, nullptr)),
      buffer_(std::move(other.buffer_)),
      mapped_(std::exchange(other.mapped_, nullptr)) {}

PinnedHostBuffer& PinnedHostBuffer::operator=(PinnedHostBuffer&& other) noexcept {
  if (this != &other) {
    unmap();
    context_ = std::exchange(other.context_, nullptr);
    buffer_ = std::move(other.buffer_);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

PinnedHostBuffer::~PinnedHostBuffer() { unmap(); }

void PinnedHostBuffer::unmap() {
  if (!mapped_ || !context_) return;
  // The buffer is released once the unmap has run (clReleaseMemObject waits for the commands that use it).
  // A lost context takes nothing more: its buffers are left to it.
  if (!context_->lost()) (void)clEnqueueUnmapMemObject(context_->queue(), buffer_.get(), mapped_, 0, nullptr, nullptr);
  mapped_ = nullptr;
}

}  // namespace zr::opencl
