#include "opencl/pointer_run.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

#include "opencl/error.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {

// What a pointer became for one run, and what must happen once the run is done.
struct Bound {
  cl_mem mem = nullptr;
  const void* svm = nullptr;  // the host pointer itself, passed as SVM (instead of mem)
  MemHandle owned;
  std::function<void()> after;  // copy back or make host memory current

  GlobalMemory memory() const { return svm ? GlobalMemory{nullptr, svm} : GlobalMemory{mem, nullptr}; }
};

class Binder {
 public:
  Binder(Context& context, const Allocations& allocations, core::RunProfile& profile)
      : context_(context),
        allocations_(allocations),
        profile_(profile),
        alignment_(context.sub_buffer_alignment()),
        any_host_pointer_(context.takes_any_host_pointer()) {}

  Bound bind(const void* pointer, std::uint64_t bytes, bool written) {
    const std::string& device = context_.device().name;
    const auto resolved = allocations_.resolve(pointer);
    // A zero-byte range still needs a valid buffer argument; nothing is read from it.
    const std::uint64_t size = bytes ? bytes : 1;
    Bound bound;
    cl_int code = CL_SUCCESS;
    if (!resolved) {
      if (written || !reads_host_memory_in_place(context_.device()))
        throw InvalidArgumentError("opencl: pointer is not an allocation of device '" + device + "'");
      // The caller's host input, read where it lies: the pointer itself where the kernels take any host pointer
      // (a buffer over it would be a copy there unless the memory met the driver's alignment: Intel's CPU
      // runtime copied 64 MiB of NumPy array per call), else a buffer that is only a view of it.
      if (any_host_pointer_) {
        bound.svm = pointer;
        return bound;
      }
      bound.owned = MemHandle(clCreateBuffer(context_.handle(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, size,
                                             const_cast<void*>(pointer), &code));
      check(code, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", device, std::to_string(size) + " bytes of the host input");
      bound.mem = bound.owned.get();
      return bound;
    }
    if (resolved->kind != AllocationKind::device) {
      auto* host = const_cast<void*>(pointer);
      if (resolved->offset + size > resolved->bytes) host = const_cast<std::byte*>(resolved->base);
      bound.owned = MemHandle(clCreateBuffer(context_.handle(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, host, &code));
      check(code, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", device, std::to_string(size) + " bytes of host memory");
      bound.mem = bound.owned.get();
      if (written) bound.after = map_after_run(bound.mem, size);
      return bound;
    }
    if (resolved->offset == 0) {
      bound.mem = resolved->buffer;
      return bound;
    }
    if (resolved->offset % alignment_ == 0 && resolved->offset + size <= resolved->bytes) {
      const cl_buffer_region region{resolved->offset, size};
      bound.owned = MemHandle(
          clCreateSubBuffer(resolved->buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &code));
      check(code, "clCreateSubBuffer", device, "offset " + std::to_string(resolved->offset));
      bound.mem = bound.owned.get();
      return bound;
    }
    // The device cannot start a buffer at this offset: work on a copy.
    bound.owned = MemHandle(clCreateBuffer(context_.handle(), CL_MEM_READ_WRITE, size, nullptr, &code));
    check(code, "clCreateBuffer", device, "a temporary for an unaligned offset");
    bound.mem = bound.owned.get();
    const std::uint64_t start = core::host_clock_ns();
    check(clEnqueueCopyBuffer(context_.queue(), resolved->buffer, bound.mem, resolved->offset, 0,
                              std::min(size, resolved->bytes - resolved->offset), 0, nullptr, nullptr),
          "clEnqueueCopyBuffer", device, "to a temporary buffer for an unaligned offset");
    context_.finish();
    profile_.copies.push_back({"copy unaligned device range to a temporary buffer", "", start, core::host_clock_ns()});
    if (written) {
      bound.after = [this, mem = bound.mem, dst = resolved->buffer, offset = resolved->offset, size, device] {
        const std::uint64_t begin = core::host_clock_ns();
        check(clEnqueueCopyBuffer(context_.queue(), mem, dst, 0, offset, size, 0, nullptr, nullptr),
              "clEnqueueCopyBuffer", device, "from a temporary buffer back to an unaligned offset");
        context_.finish();
        profile_.copies.push_back({"copy temporary result back to its unaligned place", "", begin, core::host_clock_ns()});
      };
    }
    return bound;
  }

  // A result in the caller's host memory on a CPU device: the kernels write it through a buffer over it (no
  // staging buffer, no two copies of every result through pinned memory), mapped once the run is done.
  Bound bind_host_result(void* pointer, std::uint64_t bytes) {
    const std::uint64_t size = bytes ? bytes : 1;
    cl_int code = CL_SUCCESS;
    Bound bound;
    bound.owned = MemHandle(clCreateBuffer(context_.handle(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, pointer, &code));
    check(code, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", context_.device().name,
          std::to_string(size) + " bytes of results in host memory");
    bound.mem = bound.owned.get();
    bound.after = map_after_run(bound.mem, size);
    return bound;
  }

 private:
  // Mapping makes the host memory hold what the kernels wrote (a no-op where it is the same memory).
  std::function<void()> map_after_run(cl_mem mem, std::uint64_t size) {
    return [this, mem, size] {
      const std::string& device = context_.device().name;
      cl_int map_code = CL_SUCCESS;
      cl_event mapped_event = nullptr;
      void* mapped = clEnqueueMapBuffer(context_.queue(), mem, CL_FALSE, CL_MAP_READ, 0, size, 0, nullptr,
                                        &mapped_event, &map_code);
      check(map_code, "clEnqueueMapBuffer", device, "reading a result back into host memory");
      const EventHandle map_done(mapped_event);
      check(clFlush(context_.queue()), "clFlush", device);
      context_.wait(map_done.get(), "a map of a result in host memory");
      check(clEnqueueUnmapMemObject(context_.queue(), mem, mapped, 0, nullptr, nullptr), "clEnqueueUnmapMemObject",
            device);
      context_.finish();
    };
  }

  Context& context_;
  const Allocations& allocations_;
  core::RunProfile& profile_;
  std::uint64_t alignment_;
  bool any_host_pointer_;
};

// A result kept in host memory: its staging buffer, the pinned host memory the copies around the kernels go
// through, and the caller's memory.
struct StagedResult {
  std::size_t index;
  cl_mem staging;
  std::byte* landing;
  void* host;
  std::uint64_t bytes;
};

// Enqueues a copy between host memory and a staging buffer on the run's queue (non-blocking). With `events`,
// the command's event is kept (a timed run lists the copy in the profile); with `last`, it is returned.
EventHandle enqueue_host_copy(const Context& context, cl_command_queue queue, const StagedResult& staged,
                              bool to_device, bool last, std::vector<EventHandle>* events) {
  const std::string& device = context.device().name;
  cl_event event = nullptr;
  cl_event* wanted = events || last ? &event : nullptr;
  if (to_device) {
    std::memcpy(staged.landing, staged.host, staged.bytes);
    check(clEnqueueWriteBuffer(queue, staged.staging, CL_FALSE, 0, staged.bytes, staged.landing, 0, nullptr, wanted),
          "clEnqueueWriteBuffer", device, [&] { return "initial value of result " + std::to_string(staged.index); });
  } else {
    check(clEnqueueReadBuffer(queue, staged.staging, CL_FALSE, 0, staged.bytes, staged.landing, 0, nullptr, wanted),
          "clEnqueueReadBuffer", device, [&] { return "result " + std::to_string(staged.index); });
  }
  EventHandle owned(event);
  if (events) events->push_back(owned);
  return last ? owned : EventHandle();
}

}  // namespace

bool reads_host_memory_in_place(const Device& device) { return device.type == core::DeviceType::cpu; }

core::RunProfile run_on_pointers(Executor& executor, const Allocations& allocations, const core::Plan& plan,
                                 const void* input, std::span<const core::ResultTarget> results,
                                 Timestamps timestamps, const void* segment_offsets) {
  const std::uint64_t started_ns = core::host_clock_ns();
  Context& context = executor.context();
  context.throw_if_lost();
  core::RunProfile copies;
  Binder binder(context, allocations, copies);
  const std::size_t element = core::size_of(plan.request.type);
  // A kernel with reducers has no input (its own pointer arguments follow).
  Bound bound_input = input || plan.request.n ? binder.bind(input, plan.request.n * element, false) : Bound{};
  // Its pointers may be read and written anywhere in their allocations: bound to the rest of each.
  std::vector<Bound> bound_pointers;
  std::vector<GlobalMemory> kernel_pointers;
  for (const void* pointer : plan.kernel_pointers) {
    if (!pointer) {
      kernel_pointers.push_back({});
      continue;
    }
    const auto resolved = allocations.resolve(pointer);
    if (!resolved)
      throw InvalidArgumentError("opencl: a pointer argument of kernel " + plan.passes.front().entry_point +
                                 " is not an allocation of device '" + context.device().name + "'");
    bound_pointers.push_back(binder.bind(pointer, resolved->bytes - resolved->offset, true));
    kernel_pointers.push_back(bound_pointers.back().memory());
  }
  Bound bound_offsets;
  if (plan.segments && plan.segments->offset_bytes != 0)
    bound_offsets = binder.bind(segment_offsets, (plan.segments->segments + 1) * plan.segments->offset_bytes, false);
  std::vector<Bound> bound_results;
  std::vector<StagedResult> staged;
  std::vector<cl_mem> result_mems;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::uint64_t bytes = core::result_bytes(plan, i);
    // Large results in host memory on a CPU device are written in place; small ones keep the staging, whose
    // one read is cheaper than a buffer made, mapped and unmapped per call.
    if (results[i].host_memory && reads_host_memory_in_place(context.device()) && bytes >= Context::kPinnedCopyBytes) {
      bound_results.push_back(binder.bind_host_result(results[i].pointer, bytes));
      result_mems.push_back(bound_results.back().mem);
      continue;
    }
    if (results[i].host_memory) {
      staged.push_back({i, executor.result_staging(i, bytes), executor.result_landing(i, bytes), results[i].pointer,
                        bytes});
      result_mems.push_back(staged.back().staging);
      continue;
    }
    bound_results.push_back(binder.bind(results[i].pointer, bytes, true));
    result_mems.push_back(bound_results.back().mem);
  }

  // Initial values in, the kernels, results out, all on the in-order queue; the last read's completion is
  // the one wait of an untimed run (which keeps no other events).
  const bool timed = timestamps == Timestamps::on;
  const cl_command_queue queue = timed ? context.queue() : context.untimed_queue();
  std::vector<EventHandle> uploads, downloads;
  std::optional<Submission> submission;
  std::uint64_t enqueued_ns = 0;
  try {
    for (const auto& s : staged)
      if (core::reads_initial_value(plan, s.index))
        enqueue_host_copy(context, queue, s, true, false, timed ? &uploads : nullptr);
    // Untimed, the last result read's event is the one waited for: the kernels need none of their own.
    const Completion completion = !timed && !staged.empty() ? Completion::later_command : Completion::last_pass_event;
    submission = executor.enqueue(plan, bound_input.memory(), result_mems, timestamps, bound_offsets.memory(),
                                  kernel_pointers, completion);
    EventHandle last_read;
    for (std::size_t k = 0; k < staged.size(); ++k)
      last_read = enqueue_host_copy(context, queue, staged[k], false, k + 1 == staged.size(),
                                    timed ? &downloads : nullptr);
    // Timed or not, the last read must have landed in host memory before this returns.
    if (last_read) {
      check(clFlush(queue), "clFlush", context.device().name);
      enqueued_ns = core::host_clock_ns();
      context.wait(last_read.get(), [&] { return "the result read behind " + std::string(core::name(plan.strategy)); });
      submission->completed = !timed;  // the in-order queue ran the kernels before the read
      for (const auto& s : staged) std::memcpy(s.host, s.landing, s.bytes);
    }
  } catch (const Error&) {
    // A failed kernel is the error to report, not the read behind it (where the kernel has an event: untimed,
    // a staged read's error names the strategy instead); and nothing enqueued may still be
    // reading host memory once this returns (unless the device is lost or hung: then it never runs again).
    if (submission) (void)executor.wait(*submission);
    try {
      context.finish(queue);
    } catch (const Error&) {
      // The first error is the one to report.
    }
    throw;
  }

  if (!enqueued_ns) enqueued_ns = core::host_clock_ns();
  core::RunProfile profile = executor.wait(*submission);
  const std::uint64_t completed_ns = core::host_clock_ns();
  profile.host_enqueue_ns = enqueued_ns - started_ns;
  profile.host_wait_ns = completed_ns - enqueued_ns;
  for (auto& bound : bound_results)
    if (bound.after) bound.after();
  for (auto& bound : bound_pointers)
    if (bound.after) bound.after();
  auto add_copies = [&](const std::vector<EventHandle>& events, const char* label) {
    if (!timed) return;
    for (const auto& event : events) {
      core::PassTiming timing{label, "", 0, 0};
      read_event_times(event.get(), timing);
      copies.copies.push_back(std::move(timing));
    }
  };
  add_copies(uploads, "copy initial value to the device");
  add_copies(downloads, "copy result back");
  profile.copies = std::move(copies.copies);
  return profile;
}

void copy_pointers(Context& context, const Allocations& allocations, void* destination, const void* source,
                   std::uint64_t bytes) {
  if (bytes == 0) return;
  context.throw_if_lost();
  const auto from = allocations.resolve(source);
  const auto to = allocations.resolve(destination);
  const bool from_device = from && from->kind == AllocationKind::device;
  const bool to_device = to && to->kind == AllocationKind::device;
  const std::string& device = context.device().name;
  if (from_device && to_device) {
    check(clEnqueueCopyBuffer(context.queue(), from->buffer, to->buffer, from->offset, to->offset, bytes, 0, nullptr,
                              nullptr),
          "clEnqueueCopyBuffer", device);
    context.finish();
  } else if (from_device) {
    context.read(from->buffer, {static_cast<std::byte*>(destination), bytes}, from->offset);
  } else if (to_device) {
    context.write(to->buffer, {static_cast<const std::byte*>(source), bytes}, to->offset);
  } else {
    std::memmove(destination, source, bytes);
  }
}

}  // namespace zr::opencl
