#pragma once
// SYCL interoperability, header-only: ze-reduce's reductions of a SYCL application's USM memory, in its own
// sycl::queue's order. A zr::sycl_interop::reducer is made from the application's queue; over the queue's native
// objects (sycl::get_native) it holds the matching interop reducer of the library:
//   - the OpenCL backend: zr::opencl_interop::reducer on the queue's cl_context and cl_device_id; SYCL USM on
//     OpenCL is cl_intel_unified_shared_memory, which that reducer reads in place;
//   - the Level Zero backend: zr::level_zero_interop::reducer on the queue's ze_driver/context/device handles.
// Each reduction runs in the queue's order: after the queue's earlier commands (in-order queue) or after
// `depends_on` (any queue); later commands that depend on its returned event run after it; nothing waits on the
// host. Its passes are appended to the queue's native cl_command_queue after the native events of `depends_on`
// (OpenCL), or to its immediate command list inside a native command group (Level Zero:
// ext_codeplay_enqueue_native_command).
//
// Lifetime: the reducer keeps its backend reducer alive until its last reduction has been appended (the command
// group holds a reference); the memory must live until the returned event completes. The reductions of one
// reducer share its scratch memory: they run one after another (the OpenCL reducer orders them by events; on
// Level Zero give them one in-order queue, or a reducer each).
// Checked before anything is submitted (zr::InvalidArgumentError naming which): a pointer that is not USM of the
// queue's context, device USM of another device, a misaligned pointer; the allocation's range is checked when
// the reduction is appended (as the backend reducers check it).
// Needs a SYCL 2020 implementation with the queue's native handles (get_native hands out references of their own,
// released here) and, on Level Zero, ext_codeplay_enqueue_native_command (DPC++/oneAPI 2024.1 or later);
// docs/interop.md has a complete program.
#include <sycl/sycl.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "zereduce/errors.hpp"
#include "zereduce/level_zero.hpp"
#include "zereduce/opencl.hpp"

namespace zr::sycl_interop {

class reducer {
 public:
  // Throws zr::UnsupportedError for a queue of a backend other than OpenCL and Level Zero, and what the backend
  // reducer's constructor throws.
  explicit reducer(const sycl::queue& queue) : queue_(queue) {
    switch (queue_.get_backend()) {
      case sycl::backend::opencl: {
        const cl_context context = sycl::get_native<sycl::backend::opencl>(queue_.get_context());
        const cl_device_id device = sycl::get_native<sycl::backend::opencl>(queue_.get_device());
        // get_native hands out references of their own (SYCL 2020 OpenCL backend): the reducer retains what it keeps.
        auto made = std::make_shared<zr::opencl_interop::reducer>(context, device);
        clReleaseContext(context);
        clReleaseDevice(device);
        opencl_ = std::move(made);
        break;
      }
      case sycl::backend::ext_oneapi_level_zero:
        level_zero_ = std::make_shared<zr::level_zero_interop::reducer>(
            sycl::get_native<sycl::backend::ext_oneapi_level_zero>(queue_.get_device().get_platform()),
            sycl::get_native<sycl::backend::ext_oneapi_level_zero>(queue_.get_context()),
            sycl::get_native<sycl::backend::ext_oneapi_level_zero>(queue_.get_device()));
        break;
      default:
        throw zr::UnsupportedError("sycl_interop: the queue's backend is neither OpenCL nor Level Zero (device '" +
                                   queue_.get_device().get_info<sycl::info::device::name>() + "')");
    }
  }

  const sycl::queue& queue() const { return queue_; }

  // Submits to the queue the reduction with `op` of the n elements of T at `input` into *result (both USM of the
  // queue's context: device, host or shared), after `depends_on`. Properties as the backend reducers take them:
  // initialize_to_identity, deterministic, reproducible, use_strategy. Returns the command group's event.
  template <typename T, typename BinaryOperation>
  sycl::event reduce(const T* input, std::uint64_t n, T* result, BinaryOperation op, const property_list& properties = {},
                     const std::vector<sycl::event>& depends_on = {}) {
    check_usm(result, sizeof(T), "result");
    if (n) check_usm(input, sizeof(T), "input");
    (void)describe<T>(n, op, properties);  // an op/type/property the device cannot do is refused here, not in the queue
    if (opencl_) return reduce_on_opencl(input, n, result, op, properties, depends_on);
    const ze_command_list_handle_t list = immediate_list();
    return queue_.submit([&](sycl::handler& handler) {
      handler.depends_on(depends_on);
      handler.ext_codeplay_enqueue_native_command(
          [level_zero = level_zero_, list, input, n, result, op, properties](sycl::interop_handle) {
            level_zero->append_reduce<T>(list, input, n, result, op, properties);
          });
    });
  }

  // What the reduction of n elements of T with `op` and `properties` runs: its strategy, passes and combine depth.
  template <typename T, typename BinaryOperation>
  plan_summary describe(std::uint64_t n, BinaryOperation op, const property_list& properties = {}) const {
    return opencl_ ? opencl_->describe<T>(n, op, properties) : level_zero_->describe<T>(n, op, properties);
  }

 private:
  // SYCL's OpenCL backend has no native command groups (DPC++ 2026: UR_RESULT_ERROR_UNSUPPORTED_FEATURE), so the
  // reduction is appended to the queue's native cl_command_queue directly, with the native events of
  // `depends_on` as its wait list. That native queue is in-order exactly when the SYCL queue is: an in-order
  // queue's earlier and later commands are ordered around the reduction by the native queue itself; on an
  // out-of-order queue only `depends_on` and the returned event order it, as SYCL's own rule says. (No SYCL
  // barrier is used: DPC++ 2026 faults asking an in-order queue's barrier event for its native event.)
  template <typename T, typename BinaryOperation>
  sycl::event reduce_on_opencl(const T* input, std::uint64_t n, T* result, BinaryOperation op,
                               const property_list& properties, const std::vector<sycl::event>& depends_on) {
    std::vector<cl_event> waits;
    for (const sycl::event& event : depends_on) {
      // A command SYCL completed without the device (an empty copy, a barrier of an in-order queue) has no native
      // event, and DPC++ 2026 faults when asked for one: a completed event needs no waiting anyway.
      if (event.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete)
        continue;
      for (cl_event native : sycl::get_native<sycl::backend::opencl>(event)) waits.push_back(native);
    }
    const cl_command_queue native = sycl::get_native<sycl::backend::opencl>(queue_);
    cl_event done = nullptr;
    try {
      done = opencl_->append_reduce<T>(native, input, n, result, op, properties, waits);
    } catch (...) {
      release(native, waits);
      throw;
    }
    release(native, waits);
    // The SYCL event takes the reference append_reduce handed out.
    return sycl::make_event<sycl::backend::opencl>(std::vector<cl_event>{done}, queue_.get_context());
  }

  static void release(cl_command_queue queue, const std::vector<cl_event>& events) {
    clReleaseCommandQueue(queue);
    for (cl_event event : events) clReleaseEvent(event);
  }

  // The queue's command list; SYCL's Level Zero backend hands a command queue instead only when the queue does
  // not use immediate command lists (SYCL_PI_LEVEL_ZERO_USE_IMMEDIATE_COMMANDLISTS=0), which this reducer cannot
  // append to without a list and fence of its own.
  // (interop_handle::get_native_queue cannot return Level Zero's handle variant in DPC++ 2026: the queue's own
  // get_native is asked instead.)
  ze_command_list_handle_t immediate_list() const {
    const auto handle = sycl::get_native<sycl::backend::ext_oneapi_level_zero>(queue_);
    if (const auto* list = std::get_if<ze_command_list_handle_t>(&handle)) return *list;
    throw zr::UnsupportedError("sycl_interop: the Level Zero queue has no immediate command list (a SYCL queue made "
                               "with SYCL_PI_LEVEL_ZERO_USE_IMMEDIATE_COMMANDLISTS=0): use immediate command lists");
  }

  void check_usm(const void* pointer, std::uint64_t element, const char* which) const {
    if (!pointer) throw zr::InvalidArgumentError(std::string("sycl_interop: the ") + which + " is a null pointer");
    if (reinterpret_cast<std::uintptr_t>(pointer) % element != 0)
      throw zr::InvalidArgumentError(std::string("sycl_interop: the ") + which + " is not aligned to its " +
                                     std::to_string(element) + "-byte elements");
    const sycl::usm::alloc kind = sycl::get_pointer_type(pointer, queue_.get_context());
    if (kind == sycl::usm::alloc::unknown)
      throw zr::InvalidArgumentError(std::string("sycl_interop: the ") + which + " is not USM of the queue's context "
                                     "(sycl::malloc_device/host/shared with this queue or its context)");
    if (kind == sycl::usm::alloc::device && sycl::get_pointer_device(pointer, queue_.get_context()) != queue_.get_device())
      throw zr::InvalidArgumentError(std::string("sycl_interop: the ") + which + " is device USM of another device than "
                                     "the queue's");
  }

  sycl::queue queue_;
  std::shared_ptr<zr::opencl_interop::reducer> opencl_;
  std::shared_ptr<zr::level_zero_interop::reducer> level_zero_;
};

}  // namespace zr::sycl_interop
