#pragma once
// OpenCL interoperability: ze-reduce's reductions inside an application's own OpenCL objects. A
// zr::opencl_interop::reducer is made from the application's cl_context and one of its devices; it appends
// reductions of the application's memory (cl_mem at any aligned offset, USM or SVM pointers) to its command queues,
// in their order, with an event wait list and a returned cl_event, and never waits on the host for them.
//
// Lifetime: the reducer retains the context (and releases it when destroyed): it never destroys what it did not
// create. Its kernels are built in that context once, on the first reduction of each kind. The buffers and
// queues stay the application's; a reduction's buffers must live until its event completes, and the reducer
// must outlive the reductions it appended (its destructor waits for the last one).
// Ordering: a reduction runs after the commands of `wait_list` and, on an in-order queue, after everything
// enqueued there before it; later commands that depend on its result must come after it on an in-order queue
// or wait for its event. The reductions of one reducer run one after another, whatever queues they go to (they
// share its scratch buffers): on an out-of-order queue or across queues, each waits for the one before.
// Results follow SYCL's rule: the value already at the result is combined with the reduction unless the
// properties hold initialize_to_identity. docs/interop.md has a complete program.
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "zereduce/device.hpp"
#include "zereduce/event.hpp"
#include "zereduce/export.hpp"
#include "zereduce/interop_request.hpp"
#include "zereduce/kernel.hpp"

namespace zr::opencl_interop {

// The OpenCL device of a ze-reduce device (one of zr::get_devices()), for an application that starts from
// ze-reduce's device list and makes its own context on it: nullopt for a device of another backend.
ZR_API std::optional<cl_device_id> native_device_of(const zr::device& device);

namespace detail {
class reducer_impl;
}  // namespace detail

class ZR_API reducer {
 public:
  // `device` must be one of `context`'s devices. Throws zr::InvalidArgumentError otherwise, zr::BackendError
  // when the driver refuses a query, zr::UnsupportedError for a device that reports impossible properties.
  reducer(cl_context context, cl_device_id device);
  reducer(reducer&&) noexcept;
  reducer& operator=(reducer&&) noexcept;
  ~reducer();

  cl_context context() const;
  cl_device_id device() const;

  // Appends to `queue` (of this context and device, in-order or out-of-order) the reduction with `op` of the n
  // elements of T that start `input_offset` bytes into `input`, into the T that lies `result_offset` bytes into
  // `result` (both buffers of this context, or sub-buffers of them). The input is read in place: its offset
  // (within its root buffer) must be 0 or a multiple of the device's base address alignment
  // (CL_DEVICE_MEM_BASE_ADDR_ALIGN, 128 bytes on PoCL), as a sub-buffer's; the result may lie at any multiple
  // of sizeof(T) (one the device cannot address in place is staged through a 1-element copy, on the same queue).
  // It runs after `wait_list` and returns the event of its last command: the caller releases it
  // (clReleaseEvent). Properties: initialize_to_identity, deterministic, reproducible, use_strategy.
  template <typename T, typename BinaryOperation>
  cl_event append_reduce(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n,
                         cl_mem result, std::uint64_t result_offset, BinaryOperation, const property_list& properties = {},
                         std::span<const cl_event> wait_list = {}) {
    const auto request = zr::detail::make_interop_request<T, BinaryOperation>(properties);
    return append(queue, input, input_offset, n, result, result_offset, request, wait_list);
  }

  // The same over pointers into the application's memory: the n elements of T at `input` into *result, read and
  // written in place by the kernels. Each pointer is either
  //  - unified shared memory of this context (cl_intel_unified_shared_memory: clDeviceMemAllocINTEL,
  //    clHostMemAllocINTEL, clSharedMemAllocINTEL, or a SYCL queue's malloc_device/host/shared on the OpenCL
  //    backend): the driver says which allocation it lies in, so a range past its end, device memory of another
  //    device and a pointer of another context are refused (zr::InvalidArgumentError); or
  //  - shared virtual memory of this context (clSVMAlloc, coarse- or fine-grained; CL_DEVICE_SVM_CAPABILITIES).
  //    OpenCL cannot say which context an SVM pointer belongs to: on CPU devices and devices with fine-grained
  //    system SVM any pointer is taken (their kernels address all host memory); on others the driver must
  //    recognise it as SVM (CL_MEM_USES_SVM_POINTER), else zr::InvalidArgumentError, and some drivers (PoCL)
  //    recognise an allocation's start only. With coarse-grained SVM the application maps the result before the
  //    host reads it.
  // A device with neither gives zr::UnsupportedError.
  template <typename T, typename BinaryOperation>
  cl_event append_reduce(cl_command_queue queue, const T* input, std::uint64_t n, T* result, BinaryOperation,
                         const property_list& properties = {}, std::span<const cl_event> wait_list = {}) {
    return append_pointers(queue, input, n, result, zr::detail::make_interop_request<T, BinaryOperation>(properties),
                           wait_list);
  }

  // Appends to `queue` a launch of an application's kernel with reducers (zereduce/kernel.hpp, docs/kernels.md),
  // as zr::queue::parallel_for runs it: the range, the kernel, its own arguments, then its reductions. Its pointer
  // arguments and the reductions' variables are USM or SVM pointers of this context, as for the pointer
  // append_reduce above (an argument anywhere in its allocation; a span reduction's variable its elements);
  // scalars are passed by value (at most 8 bytes). With initialize_to_identity a span is filled with the
  // identity on the queue first. It runs after `wait_list` and returns the event of the launch: the caller
  // releases it. A wrong call is refused before anything is enqueued, with the problem named.
  template <typename Range, typename... Rest>
  cl_event append_parallel_for(cl_command_queue queue, std::span<const cl_event> wait_list, const Range& range,
                               const kernel& k, const Rest&... rest) {
    return append_kernel(queue, k, zr::detail::make_kernel_call(range, rest...), wait_list);
  }
  template <typename Range, typename... Rest>
  cl_event append_parallel_for(cl_command_queue queue, const Range& range, const kernel& k, const Rest&... rest) {
    return append_kernel(queue, k, zr::detail::make_kernel_call(range, rest...), {});
  }

  // What the reduction of n elements of T with `op` and `properties` runs: its strategy, passes and combine
  // depth (the m of the documented floating-point bound), as a zr::queue's profile reports them.
  template <typename T, typename BinaryOperation>
  plan_summary describe(std::uint64_t n, BinaryOperation, const property_list& properties = {}) const {
    return describe_of(n, zr::detail::make_interop_request<T, BinaryOperation>(properties));
  }

 private:
  cl_event append_pointers(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                           const zr::detail::interop_request& request, std::span<const cl_event> wait_list);
  plan_summary describe_of(std::uint64_t n, const zr::detail::interop_request& request) const;
  cl_event append_kernel(cl_command_queue queue, const kernel& k, const zr::detail::kernel_call& call,
                         std::span<const cl_event> wait_list);
  cl_event append(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n, cl_mem result,
                  std::uint64_t result_offset, const zr::detail::interop_request& request,
                  std::span<const cl_event> wait_list);

  std::unique_ptr<detail::reducer_impl> impl_;
};

}  // namespace zr::opencl_interop
