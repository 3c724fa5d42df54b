#pragma once
// Runs a zr::core::Plan on a Context's in-order queue: one NDRange per pass, in order, with the plan's
// scratch buffers. Scratch buffers are cached and reused across runs: one set per kind of plan (the initial
// fills of its buffers), each buffer grown when a plan needs more; a buffer's initial fill is applied once,
// when it is allocated (the kernels restore such contents before they finish). A thin translation: every
// size comes from the plan.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "opencl/context.hpp"
#include "opencl/pinned_host_buffer.hpp"
#include "opencl/handles.hpp"
#include "plan.hpp"
#include "profile.hpp"
#include "scalar.hpp"

namespace zr::opencl {

// Timed runs go to the context's profiling queue with an event per pass; untimed runs go to its queue
// without profiling, with no event per pass.
using core::Timestamps;

// The enqueued passes of one run; wait() turns it into a RunProfile.
struct Submission {
  // A submission lives no longer than its plan (it is waited for, or its `done` event taken, while the plan is
  // held): the names are views of the plan's passes, not copies made on every small reduction.
  struct Pass {
    EventHandle event;  // null in an untimed run
    std::string_view label;
    std::string_view kernel;
  };
  std::vector<Pass> passes;
  cl_command_queue queue = nullptr;  // where the passes went: later commands of the run belong there too
  core::Strategy strategy = core::Strategy::tree;
  // Untimed runs: the last pass's event (no profiling), what wait() waits for, unless a caller has already
  // waited for a command behind the passes on the same in-order queue and set `completed`.
  EventHandle done;
  bool completed = false;
  // The event of the last pass (null when the plan had no passes or the run is untimed): later work on other
  // queues can wait on it.
  cl_event last_event() const { return passes.empty() ? nullptr : passes.back().event.get(); }
};

// Where an application's reduction goes (opencl_interop): its queue, after its events. On an out-of-order queue
// each pass waits for the one before it.
struct AppendTarget {
  cl_command_queue queue = nullptr;
  std::span<const cl_event> wait_list;
  bool out_of_order = false;
};

// How the caller of an untimed run learns that its passes are done: from the submission's `done` event (the last
// pass's), or from a command of its own behind them on the same in-order queue (a result read), which makes that
// event unneeded. On NVIDIA's OpenCL asking for it cost 1-2 us of a 14-16 us reduction into a host variable
// (bench/results/latency_h200_2026-12-01).
enum class Completion : bool { last_pass_event, later_command };

// Global memory a kernel argument names: a buffer object, or a pointer into shared virtual memory of the context
// (clSVMAlloc, set with clSetKernelArgSVMPointer) or into its unified shared memory (cl_intel_unified_shared_memory,
// set with clSetKernelArgMemPointerINTEL); any address inside an allocation.
struct GlobalMemory {
  enum class Pointer { svm, usm };
  cl_mem buffer = nullptr;
  const void* pointer = nullptr;
  Pointer kind = Pointer::svm;
  bool null() const { return !buffer && !pointer; }
};

class Executor {
 public:
  explicit Executor(Context& context);
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  Context& context() const { return context_; }

  // Enqueues every pass (non-blocking). `input` holds plan.request.n elements (may be null when n is 0);
  // `result` holds one element of the request's type and, when plan.request.include_initial, the initial value
  // it is combined with. Both stay owned by the caller and must live until the run completes.
  Submission enqueue(const core::Plan& plan, cl_mem input, cl_mem result);
  // The same for plans with several results (plan.results, in order).
  // A segmented plan (plan.segments) also reads `segment_offsets` (null for equal segments).
  Submission enqueue(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results,
                     Timestamps timestamps = Timestamps::on, cl_mem segment_offsets = nullptr);
  // The same where the input and the segment offsets may be pointers (shared virtual memory); `kernel_pointers`
  // are plan.kernel_pointers as the device's memory (a kernel with reducers).
  Submission enqueue(const core::Plan& plan, GlobalMemory input, std::span<const cl_mem> results, Timestamps timestamps,
                     GlobalMemory segment_offsets, std::span<const GlobalMemory> kernel_pointers = {},
                     Completion completion = Completion::last_pass_event);
  // Enqueues every pass on the application's queue (untimed; nothing waits on the host): the submission's
  // `done` is the last pass's event.
  Submission append(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results, const AppendTarget& target);
  // The same where the input and results may be pointers (shared virtual memory, unified shared memory);
  // `kernel_pointers` as for enqueue.
  Submission append(const core::Plan& plan, GlobalMemory input, std::span<const GlobalMemory> results,
                    const AppendTarget& target, std::span<const GlobalMemory> kernel_pointers = {});
  // Waits for the passes (bounded: Context::wait) and reads their timestamps; throws zr::BackendError if a
  // pass failed, zr::DeviceLostError if the device faulted, zr::TimeoutError if the passes did not finish in
  // time.
  core::RunProfile wait(const Submission& submission) const;
  // enqueue + wait.
  core::RunProfile run(const core::Plan& plan, cl_mem input, cl_mem result);
  core::RunProfile run(const core::Plan& plan, cl_mem input, std::span<const cl_mem> results);

  // Convenience: copies `input` (plan.request.n elements of plan.request.type, as bytes) to the device,
  // initialises the result with `initial` (ignored unless plan.request.include_initial), runs the plan and
  // reads back the result. Temporary device buffers are made per call.
  core::Scalar run(const core::Plan& plan, std::span<const std::byte> input, const core::Scalar& initial,
                   core::RunProfile* profile = nullptr);

  // How many scratch buffer sets are cached (one per distinct list of initial fills).
  std::size_t cached_scratch_sets() const;

  // Kernel arguments this executor set, and those it found holding their value already (kernel_arguments.hpp).
  struct ArgumentCounts {
    std::uint64_t set = 0;
    std::uint64_t kept = 0;
  };
  ArgumentCounts argument_counts() const {
    std::lock_guard lock(context_.launch_mutex());
    return argument_counts_;
  }

  // A device buffer of at least `bytes` for result `index` of a run whose result lives in host memory (see
  // core::ResultTarget): kept and grown, so small reductions into host variables allocate nothing. Runs that
  // use them must not overlap (the caller serialises them).
  cl_mem result_staging(std::size_t index, std::uint64_t bytes);
  // Pinned host memory of at least `bytes` for the same result: its initial value is written to the device
  // from there and the result read back into it (see PinnedHostBuffer). Kept and grown likewise.
  std::byte* result_landing(std::size_t index, std::uint64_t bytes);

 private:
  Submission enqueue_on(const core::Plan& plan, GlobalMemory input, std::span<const GlobalMemory> results,
                        Timestamps timestamps, const AppendTarget& target, GlobalMemory segment_offsets = {},
                        std::span<const GlobalMemory> kernel_pointers = {},
                        Completion completion = Completion::last_pass_event);
  core::RunProfile wait_untimed(const Submission& submission) const;
  // ZE_REDUCE_FAULT_INJECTION's device_lost and hang, through the same paths as real ones.
  void inject_faults(const Submission& submission) const;

  using ScratchKey = std::vector<std::vector<std::byte>>;  // each buffer's initial fill (empty: none)
  const std::vector<Buffer>& scratch_for(const core::Plan& plan);

  Context& context_;
  mutable std::mutex scratch_mutex_;
  std::map<ScratchKey, std::vector<Buffer>> scratch_;
  std::vector<Buffer> result_staging_;
  std::vector<PinnedHostBuffer> result_landing_;
  ArgumentCounts argument_counts_;  // guarded by the context's launch_mutex
};

// The device-clock start and end of a completed command of a profiling queue; false where the driver has
// none (the timing is then left as it was).
bool read_event_times(cl_event event, core::PassTiming& timing);

}  // namespace zr::opencl
