#pragma once
// One device's OpenCL context, its in-order profiling queue, its program cache, and buffers.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "capabilities.hpp"
#include "device_fate.hpp"
#include "plan.hpp"
#include "wait_limit.hpp"
#include "opencl/blocking_wait_helper.hpp"
#include "opencl/device.hpp"
#include "opencl/event_wait.hpp"
#include "opencl/handles.hpp"
#include "opencl/intel_usm.hpp"
#include "opencl/kernel_arguments.hpp"
#include "opencl/program_cache.hpp"

namespace zr::opencl {

class PinnedHostBuffer;

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
  // The same in an application's context (opencl_interop): retained, released when this goes, never destroyed
  // here; `device` must be one of its devices (zr::InvalidArgumentError otherwise). The queues are this
  // Context's own, for its copies and fills; appended reductions go to the application's queues.
  Context(Device device, cl_context adopted, ContextOptions options = {});
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Device& device() const { return device_; }
  const core::Capabilities& capabilities() const { return capabilities_; }
  cl_context handle() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  cl_command_queue untimed_queue() const { return untimed_queue_.get(); }
  ProgramCache& programs() { return *programs_; }
  // The device's cl_intel_unified_shared_memory entry points; null when it has none.
  const IntelUsm* intel_usm() const { return intel_usm_ ? &*intel_usm_ : nullptr; }

  // Serialises clSetKernelArg + clEnqueueNDRangeKernel on the cached kernels (a cl_kernel's arguments are
  // shared state); hold it from the first argument to the enqueue.
  std::mutex& launch_mutex() { return launch_mutex_; }
  // What the cached kernels' arguments hold now; read and changed with launch_mutex held.
  KernelArguments& kernel_arguments() { return kernel_arguments_; }

  // Where a sub-buffer may start (CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes), and whether kernels may take any host
  // pointer (fine-grained system SVM: Intel's OpenCL CPU runtime). Queried once: every run binds its pointers.
  std::uint64_t sub_buffer_alignment() const { return sub_buffer_alignment_; }
  bool takes_any_host_pointer() const { return takes_any_host_pointer_; }

  // Whether kernels really execute on this device, when known (see probe_execution in selection.hpp).
  std::optional<bool> executes_kernels() const;

  Buffer create_buffer(std::uint64_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE) const;
  // Copies on the context's queue that return when done (bounded waits, see wait()). Copies of up to
  // kPinnedCopyBytes go through pinned host memory (see PinnedHostBuffer).
  void write(cl_mem buffer, std::span<const std::byte> bytes, std::uint64_t offset = 0) const;
  void read(cl_mem buffer, std::span<std::byte> bytes, std::uint64_t offset = 0) const;
  // Enqueues a fill of the whole buffer with a repeated pattern (non-blocking, in order with later work).
  void fill(const Buffer& buffer, std::span<const std::byte> pattern) const;
  // Waits for everything enqueued on `queue` (default: the profiling queue) so far.
  void finish(cl_command_queue queue = nullptr) const;

  // ---- waits, faults and the device's fate --------------------------------------------------------------------
  // No call here blocks without a bound: every wait is on an event, with the deadline core::wait_limit()
  // (ZE_REDUCE_TIMEOUT_S). `what` names what was waited for in the errors.
  //   - a command that fails with a device fault (see is_device_fault) -> zr::DeviceLostError naming the work
  //     in flight (set_in_flight); other failures -> zr::BackendError;
  //   - the deadline passes -> zr::TimeoutError naming `what` and the seconds.
  // Either of the first and the last makes the context unusable: every later call that would reach the driver
  // throws that same error (throw_if_lost), its queues and context are never released (a driver can block in
  // a release behind work that never finishes), and other devices' contexts are untouched.
  template <typename WhatFn>
    requires std::is_invocable_r_v<std::string, WhatFn>
  void wait(cl_event event, WhatFn&& what) const {
    // `what` is built only on failure: a small reduction waits on every call.
    const auto limit = core::wait_limit();
    const EventWait waited = wait_for_event(event, limit, spin_for_, blocking_helper_.get());
    if (waited.outcome != EventWait::Outcome::complete) fail_wait(waited, limit, std::forward<WhatFn>(what)());
  }
  void wait(cl_event event, std::string_view what) const {
    wait(event, [what] { return std::string(what); });
  }
  // Turns a failed completion (a wait's result, an event's negative status) into the error to throw.
  [[noreturn]] void fail_completion(std::string_view call, cl_int code, std::string_view what) const;
  void throw_if_lost() const;
  bool lost() const;
  // Runs `work`; a zr::DeviceLostError from any of its calls (means_context_gone) makes the context unusable
  // as a failed wait does. The backend's entry points run through it.
  template <typename Work>
  decltype(auto) keep_if_lost(Work&& work) const {
    return fate_.keep_if_lost(device_.name, std::forward<Work>(work));
  }
  // The work the queues were last given, for a fault's message: "zr_tree_plus_f32, zr_final_plus_f32
  // (strategy tree)". Reuses its string's storage: called for every run.
  void set_in_flight(const core::Plan& plan) const;

  ~Context();

  static constexpr std::uint64_t kPinnedCopyBytes = 64 * 1024;

 private:
  // Enqueues one copy between `buffer` and host memory at `host`, waits for it (bounded).
  void copy_and_wait(cl_mem buffer, bool to_device, void* host, std::uint64_t bytes, std::uint64_t offset) const;
  QueueHandle make_queue(cl_command_queue_properties properties) const;
  void require_device_of_context() const;
  cl_event marker(cl_command_queue queue) const;
  [[noreturn]] void mark_lost_and_throw(std::exception_ptr error) const;
  [[noreturn]] void fail_wait(const EventWait& waited, std::chrono::nanoseconds limit, const std::string& what) const;

  Device device_;
  core::Capabilities capabilities_;
  ContextHandle context_;
  QueueHandle queue_;
  QueueHandle untimed_queue_;
  std::unique_ptr<ProgramCache> programs_;
  std::optional<IntelUsm> intel_usm_;
  std::mutex launch_mutex_;
  KernelArguments kernel_arguments_;
  mutable std::mutex state_mutex_;
  core::DeviceFate fate_;  // the error that made the context unusable, if any
  mutable std::string in_flight_;
  std::uint64_t sub_buffer_alignment_ = 1;
  bool takes_any_host_pointer_ = false;
  std::chrono::nanoseconds spin_for_;  // see wait_for_event
  std::unique_ptr<BlockingWaitHelper> blocking_helper_;  // CPU devices only (see BlockingWaitHelper)
  mutable std::mutex pinned_mutex_;  // held for a small copy through pinned_
  mutable std::unique_ptr<PinnedHostBuffer> pinned_;  // made on the first small copy
};

// Codes that, when work completes, mean the device or its context is gone rather than that one command was
// wrong: CL_INVALID_COMMAND_QUEUE, CL_OUT_OF_RESOURCES, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
// CL_CONTEXT_TERMINATED_KHR and codes no header names (NVIDIA's -9999 after a GPU fault).
bool is_device_fault(cl_int code);

}  // namespace zr::opencl
