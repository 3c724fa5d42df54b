#pragma once
// One device's OpenCL context, its in-order profiling queue, its program cache, and buffers.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>

#include "capabilities.hpp"
#include "opencl/device.hpp"
#include "opencl/handles.hpp"
#include "opencl/program_cache.hpp"

namespace zr::opencl {

class Buffer {
 public:
  Buffer() = default;
  Buffer(MemHandle mem, std::uint64_t bytes) : mem_(std::move(mem)), bytes_(bytes) {}
  cl_mem get() const { return mem_.get(); }
  std::uint64_t bytes() const { return bytes_; }

 private:
  MemHandle mem_;
  std::uint64_t bytes_ = 0;
};

struct ContextOptions {
  // How kernels are loaded; unset: ZE_REDUCE_OPENCL_INGESTION if set, else the best the device accepts.
  std::optional<Ingestion> ingestion;
};

class Context {
 public:
  // Queries the device's capabilities (throws on a device reporting nonsense), creates the context and two
  // in-order queues: one with profiling (copies, and runs that want device timestamps) and one without
  // (a profiled kernel costs several microseconds more on some drivers: NVIDIA's about 8 us).
  explicit Context(Device device, ContextOptions options = {});
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Device& device() const { return device_; }
  const core::Capabilities& capabilities() const { return capabilities_; }
  cl_context handle() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_command_queue untimed_queue() const { return untimed_queue_.get(); }
  ProgramCache& programs() { return *programs_; }

  // Serialises clSetKernelArg + clEnqueueNDRangeKernel on the cached kernels (a cl_kernel's arguments are
  // shared state); hold it from the first argument to the enqueue.
  std::mutex& launch_mutex() { return launch_mutex_; }

  // Whether kernels really execute on this device, when known (see probe_execution in selection.hpp).
  std::optional<bool> executes_kernels() const;

  Buffer create_buffer(std::uint64_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) const;
  // Blocking copies on the context's queue.
  void write(cl_mem buffer, std::span<const std::byte> bytes, std::uint64_t offset = 0) const;
  void read(cl_mem buffer, std::span<std::byte> bytes, std::uint64_t offset = 0) const;
  // Enqueues a fill of the whole buffer with a repeated pattern (non-blocking, in order with later work).
  void fill(const Buffer& buffer, std::span<const std::byte> pattern) const;
  void finish() const;

 private:
  QueueHandle make_queue(cl_command_queue_properties properties) const;

  Device device_;
  core::Capabilities capabilities_;
  ContextHandle context_;
  QueueHandle queue_;
  QueueHandle untimed_queue_;
  std::unique_ptr<ProgramCache> programs_;
  std::mutex launch_mutex_;
};

}  // namespace zr::opencl
