#pragma once
// Appends the core's plans to an application's OpenCL command queues (in-order or out-of-order), reading and
// writing the application's memory in place: cl_mem ranges (sub-buffers made where a range does not start its
// buffer), shared virtual memory, or unified shared memory (cl_intel_unified_shared_memory). Nothing here waits
// on the host. Every append runs after the previous one (they share the executor's scratch buffers) and after
// the application's wait list; its last command's event is returned to the caller, who releases it.
// The checks of the application's objects are here too: a queue, buffer or pointer of another context or
// device, a range past its allocation, a misaligned offset: zr::InvalidArgumentError naming which.
#include <cstdint>
#include <mutex>
#include <span>

#include "opencl/context.hpp"
#include "opencl/executor.hpp"
#include "plan.hpp"

namespace zr::opencl {

class Appender {
 public:
  // Adopts `context` (retained, released when this goes); `device` must be one of its devices.
  Appender(cl_context context, cl_device_id device);
  Appender(const Appender&) = delete;
  Appender& operator=(const Appender&) = delete;
  // Waits for the last appended reduction: it still uses the scratch buffers and kernels that go with this.
  ~Appender();

  Context& context() { return context_; }
  const Context& context() const { return context_; }

  // The reduction `request` (run by `plan`, null when request.n is 0) of the n elements at `input_offset` bytes
  // into `input`, into the element at `result_offset` bytes into `result`.
  cl_event append(const core::Plan* plan, const core::ReductionRequest& request, cl_command_queue queue, cl_mem input,
                  std::uint64_t input_offset, cl_mem result, std::uint64_t result_offset,
                  std::span<const cl_event> wait_list);
  // The same where input and result are pointers into USM or SVM memory of the context.
  cl_event append(const core::Plan* plan, const core::ReductionRequest& request, cl_command_queue queue,
                  const void* input, void* result, std::span<const cl_event> wait_list);

  // An application's kernel with reducers (plans/kernel_reducers.hpp): `variables` are the plan's results,
  // `kernel_pointers` its plan.kernel_pointers (null ones as null memory), all from checked_pointer. Each fill
  // comes first: a variable filled with a pattern (a span's identity).
  struct Fill {
    GlobalMemory memory;
    std::span<const std::byte> pattern;
    std::uint64_t bytes = 0;
  };
  cl_event append_kernel(const core::Plan& plan, cl_command_queue queue, std::span<const GlobalMemory> variables,
                         std::span<const GlobalMemory> kernel_pointers, std::span<const Fill> fills,
                         std::span<const cl_event> wait_list);

  // USM or SVM memory of the context holding [pointer, pointer + bytes), aligned to `type`'s elements; else
  // zr::InvalidArgumentError naming `which` ("the input").
  GlobalMemory checked_pointer(const void* pointer, std::uint64_t bytes, const std::string& which,
                               core::DataType type) const;

 private:
  bool checked_queue_is_out_of_order(cl_command_queue queue) const;
  void check_svm(const void* pointer, std::uint64_t bytes, const std::string& which) const;
  EventHandle fill(cl_command_queue queue, const Fill& fill, std::span<const cl_event> after);
  EventHandle copy(cl_command_queue queue, cl_mem from, std::uint64_t from_offset, cl_mem to, std::uint64_t to_offset,
                   std::uint64_t bytes, std::span<const cl_event> after);
  EventHandle empty_input(cl_command_queue queue, cl_mem result, std::uint64_t result_offset,
                          const core::ReductionRequest& request, std::span<const cl_event> after);
  cl_event finish(EventHandle done);

  Context context_;
  Executor executor_;
  std::uint64_t base_alignment_;
  cl_device_svm_capabilities svm_capabilities_;
  std::mutex mutex_;
  EventHandle last_;  // the previous reduction's last command
};

}  // namespace zr::opencl
