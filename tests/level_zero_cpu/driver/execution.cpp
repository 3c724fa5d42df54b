// Command lists, command queues, fences, event pools and events.
//
// A command queue has a worker thread that executes submitted lists on an in-order OpenCL queue, one command at a
// time. Level Zero orders the commands of a list only across barriers and events, so the worker runs the commands
// between two barriers in the reverse of their append order: a list that depends on append order without a
// barrier computes the wrong result here instead of passing by luck. Events and fences are signalled only once
// their work has completed; kernel timestamps are the OpenCL device's profiling times.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "ddi_support.hpp"
#include "faults.hpp"
#include "log.hpp"
#include "objects.hpp"

namespace zrt {

namespace {

// Whether [pointer, pointer + bytes) lies in one allocation of the context (what a GPU could reach).
bool reachable(Context& context, const void* pointer, std::size_t bytes) {
  std::lock_guard lock(context.mutex);
  const Allocation* a = context.find(pointer);
  return a && static_cast<const char*>(pointer) + bytes <= a->base + a->bytes;
}

// A copy may name memory Level Zero did not allocate: Intel's driver pins such host memory for the copy (SYCL's
// queue::memcpy from a std::vector relies on it), so the test driver copies it too. Inside an allocation, the
// copy must end within it.
bool copyable(Context& context, const void* pointer, std::size_t bytes) {
  std::lock_guard lock(context.mutex);
  const Allocation* a = context.find(pointer);
  return !a || static_cast<const char*>(pointer) + bytes <= a->base + a->bytes;
}

struct DeviceFault {
  std::string what;
};

std::uint64_t profiling_time(cl_event event, cl_profiling_info which) {
  cl_ulong value = 0;
  clGetEventProfilingInfo(event, which, sizeof(value), &value, nullptr);
  return value;
}

// Waits for one OpenCL command and returns its device start and end times.
std::pair<std::uint64_t, std::uint64_t> finish(cl_event event, const std::string& what) {
  const cl_int waited = clWaitForEvents(1, &event);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
  const auto times = std::make_pair(profiling_time(event, CL_PROFILING_COMMAND_START), profiling_time(event, CL_PROFILING_COMMAND_END));
  clReleaseEvent(event);
  if (waited != CL_SUCCESS || status != CL_COMPLETE)
    throw DeviceFault{what + " failed on the OpenCL device (status " + std::to_string(status) + ")"};
  return times;
}

std::pair<std::uint64_t, std::uint64_t> run_launch(CommandQueue& q, const LaunchCommand& launch) {
  Kernel& k = *launch.kernel;
  const auto& sig = *k.signature;
  std::lock_guard lock(k.enqueue_mutex);
  for (std::uint32_t i = 0; i < launch.args.size(); ++i) {
    const auto& arg = launch.args[i];
    cl_int set = CL_SUCCESS;
    switch (sig.args[i]) {
      case ArgKind::global_pointer: {
        void* pointer = std::get<void*>(arg);
        if (pointer && !reachable(*q.context, pointer, 1))
          throw DeviceFault{"kernel " + k.name + " argument " + std::to_string(i) +
                            " points outside every allocation of its context: a GPU would fault"};
        set = clSetKernelArgSVMPointer(k.kernel, i, pointer);
        break;
      }
      case ArgKind::local_pointer: set = clSetKernelArg(k.kernel, i, std::get<std::size_t>(arg), nullptr); break;
      case ArgKind::value: {
        const auto& bytes = std::get<std::vector<unsigned char>>(arg);
        set = clSetKernelArg(k.kernel, i, bytes.size(), bytes.data());
        break;
      }
      case ArgKind::sampler_or_image: set = CL_INVALID_ARG_VALUE; break;
    }
    if (set != CL_SUCCESS)
      throw DeviceFault{"setting argument " + std::to_string(i) + " of kernel " + k.name + " failed (" + std::to_string(set) + ")"};
  }
  const std::size_t local[3] = {launch.group_size[0], launch.group_size[1], launch.group_size[2]};
  const std::size_t global[3] = {std::size_t{launch.groups.groupCountX} * local[0], std::size_t{launch.groups.groupCountY} * local[1],
                                 std::size_t{launch.groups.groupCountZ} * local[2]};
  if (global[0] == 0 || global[1] == 0 || global[2] == 0) return {0, 0};
  cl_event event = nullptr;
  const cl_int enqueued = clEnqueueNDRangeKernel(q.queue, k.kernel, 3, nullptr, global, local, 0, nullptr, &event);
  if (enqueued != CL_SUCCESS)
    throw DeviceFault{"clEnqueueNDRangeKernel of " + k.name + " failed (" + std::to_string(enqueued) + ")"};
  return finish(event, "kernel " + k.name);
}

std::pair<std::uint64_t, std::uint64_t> run_copy(CommandQueue& q, const CopyCommand& copy) {
  if (!copyable(*q.context, copy.destination, copy.bytes) || !copyable(*q.context, copy.source, copy.bytes))
    throw DeviceFault{"a memory copy of " + std::to_string(copy.bytes) + " bytes runs past the end of an allocation"};
  cl_event event = nullptr;
  const cl_int enqueued = clEnqueueSVMMemcpy(q.queue, CL_FALSE, copy.destination, copy.source, copy.bytes, 0, nullptr, &event);
  if (enqueued != CL_SUCCESS) throw DeviceFault{"clEnqueueSVMMemcpy failed (" + std::to_string(enqueued) + ")"};
  return finish(event, "a memory copy");
}

std::pair<std::uint64_t, std::uint64_t> run_fill(CommandQueue& q, const FillCommand& fill) {
  if (!reachable(*q.context, fill.destination, fill.bytes))
    throw DeviceFault{"a memory fill of " + std::to_string(fill.bytes) + " bytes reaches outside the context's allocations"};
  cl_event event = nullptr;
  const cl_int enqueued = clEnqueueSVMMemFill(q.queue, fill.destination, fill.pattern.data(), fill.pattern.size(), fill.bytes,
                                              0, nullptr, &event);
  if (enqueued != CL_SUCCESS) throw DeviceFault{"clEnqueueSVMMemFill failed (" + std::to_string(enqueued) + ")"};
  return finish(event, "a memory fill");
}

void wait_for(const std::vector<Event*>& events) {
  for (Event* e : events) e->wait(UINT64_MAX);
}

void run_command(CommandQueue& q, const Command& command) {
  wait_for(command.waits);
  std::pair<std::uint64_t, std::uint64_t> times{0, 0};
  bool timed = true;
  if (const auto* launch = std::get_if<LaunchCommand>(&command.what)) times = run_launch(q, *launch);
  else if (const auto* copy = std::get_if<CopyCommand>(&command.what)) times = run_copy(q, *copy);
  else if (const auto* fill = std::get_if<FillCommand>(&command.what)) times = run_fill(q, *fill);
  else timed = false;
  if (command.signal) {
    if (timed) command.signal->signal_with_timestamps(times.first, times.second);
    else command.signal->signal();
  }
}

}  // namespace

// ---- command queue -------------------------------------------------------------------------------------------

CommandQueue::CommandQueue(Context* c, Device* d) : Object(kTag), context(c), device(d) {
  const auto& backing = state()->backing;
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int error = CL_SUCCESS;
  queue = clCreateCommandQueueWithProperties(backing.context, backing.device, properties, &error);
  if (error != CL_SUCCESS) queue = nullptr;
  worker_ = std::thread([this] { work(); });
}

CommandQueue::~CommandQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
  if (queue) clReleaseCommandQueue(queue);
}

void CommandQueue::submit(Submission submission) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(submission));
    ++submitted_;
  }
  changed_.notify_all();
}

bool CommandQueue::wait_idle(std::uint64_t timeout_ns) {
  std::unique_lock lock(mutex_);
  const auto done = [&] { return completed_ == submitted_; };
  if (timeout_ns == UINT64_MAX) {
    changed_.wait(lock, done);
    return true;
  }
  return changed_.wait_for(lock, std::chrono::nanoseconds(timeout_ns), done);
}

void CommandQueue::work() {
  for (;;) {
    Submission next;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping with nothing left
      next = std::move(pending_.front());
      pending_.pop_front();
    }
    execute(next);
    {
      std::lock_guard lock(mutex_);
      ++completed_;
    }
    changed_.notify_all();
  }
}

void CommandQueue::execute(Submission& submission) {
  if (hung_) return;
  if (submission.never_signal && !submission.fence) {  // an immediate list's commands: they never finish
    logger().warn("injected: the commands of an immediate list on device {} never finish", device->index);
    hung_ = true;
    return;
  }
  Signal outcome = Signal::done;
  if (submission.lose_device || device->lost) {
    if (submission.lose_device) logger().warn("injected: device {} is lost during a submission", device->index);
    device->lost = true;
    outcome = Signal::device_lost;
  } else {
    context->begin_work();
    try {
      for (CommandList* list : submission.lists) {
        // Runs of commands between barriers, each run in reverse append order (see the file comment).
        std::size_t begin = 0;
        const auto& commands = list->commands;
        while (begin < commands.size()) {
          std::size_t end = begin;
          while (end < commands.size() && !std::holds_alternative<BarrierCommand>(commands[end].what)) ++end;
          for (std::size_t i = end; i > begin; --i) run_command(*this, commands[i - 1]);
          if (end < commands.size()) run_command(*this, commands[end]);  // the barrier: its waits and its event
          begin = end + 1;
        }
      }
    } catch (const DeviceFault& fault) {
      logger().error("device {} faulted: {}; it is lost", device->index, fault.what);
      device->lost = true;
      outcome = Signal::device_lost;
    }
    context->end_work();
  }
  // What waits for the events the lost submission would have signalled learns that the device is lost.
  if (outcome == Signal::device_lost)
    for (CommandList* list : submission.lists)
      for (const auto& command : list->commands)
        if (command.signal) command.signal->lose();
  if (submission.fence) {
    if (submission.never_signal) logger().warn("injected: the fence of a submission on device {} never signals", device->index);
    else submission.fence->set(outcome);
  }
}

ze_result_t ZE_APICALL command_queue_create(ze_context_handle_t context, ze_device_handle_t device,
                                            const ze_command_queue_desc_t* desc, ze_command_queue_handle_t* out) {
  auto* c = object_of<Context>(context);
  auto* d = object_of<Device>(device);
  if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (d->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  auto queue = std::make_unique<CommandQueue>(c, d);
  if (!queue->queue) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  *out = handle_of<ze_command_queue_handle_t>(queue.release());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_destroy(ze_command_queue_handle_t handle) {
  auto* q = object_of<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<CommandQueue> owned(q);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_execute(ze_command_queue_handle_t handle, std::uint32_t count,
                                             ze_command_list_handle_t* lists, ze_fence_handle_t fence) {
  auto* q = object_of<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!lists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Submission submission;
  if (fence) {
    submission.fence = object_of<Fence>(fence);
    if (!submission.fence || submission.fence->queue != q) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  std::vector<std::string> kernels;
  for (std::uint32_t i = 0; i < count; ++i) {
    auto* list = object_of<CommandList>(lists[i]);
    if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!list->closed || list->immediate() || list->device != q->device) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    for (const auto& c : list->commands)
      if (const auto* launch = std::get_if<LaunchCommand>(&c.what)) kernels.push_back(launch->kernel->name);
    submission.lists.push_back(list);
  }
  if (q->device->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  flush_immediate_lists();  // a list submitted now may wait for their events
  submission.lose_device = fault_fires(FaultKind::device_lost, q->device->index, kernels);
  submission.never_signal = fault_fires(FaultKind::fence_hang, q->device->index, kernels);
  q->submit(std::move(submission));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_queue_synchronize(ze_command_queue_handle_t handle, std::uint64_t timeout) {
  auto* q = object_of<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!q->wait_idle(timeout)) return ZE_RESULT_NOT_READY;
  return q->device->lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

// ---- command list --------------------------------------------------------------------------------------------

ze_result_t ZE_APICALL command_list_create(ze_context_handle_t context, ze_device_handle_t device,
                                           const ze_command_list_desc_t* desc, ze_command_list_handle_t* out) {
  auto* c = object_of<Context>(context);
  auto* d = object_of<Device>(device);
  if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->commandQueueGroupOrdinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *out = handle_of<ze_command_list_handle_t>(make_handle_object<CommandList>(c, d));
  return ZE_RESULT_SUCCESS;
}

// ---- immediate command lists ------------------------------------------------------------------------------

namespace {
std::mutex immediate_mutex;
std::vector<CommandList*> immediate_lists;

// Hands the list's held commands to its queue as one segment (caller holds immediate_mutex).
void flush_locked(CommandList& list) {
  if (list.commands.empty()) return;
  auto segment = std::make_unique<CommandList>(list.context, list.device);
  segment->commands = std::move(list.commands);
  list.commands.clear();
  segment->closed = true;
  Submission submission;
  submission.lists.push_back(segment.get());
  // Injected faults meet an immediate list's commands as they meet a submission (faults.hpp).
  std::vector<std::string> kernels;
  for (const auto& c : segment->commands)
    if (const auto* launch = std::get_if<LaunchCommand>(&c.what)) kernels.push_back(launch->kernel->name);
  submission.lose_device = fault_fires(FaultKind::device_lost, list.device->index, kernels);
  submission.never_signal = fault_fires(FaultKind::fence_hang, list.device->index, kernels);
  list.segments.push_back(std::move(segment));
  list.immediate_queue->submit(std::move(submission));
}
}  // namespace

void flush_immediate_lists() {
  std::lock_guard lock(immediate_mutex);
  for (CommandList* list : immediate_lists) flush_locked(*list);
}

CommandList::~CommandList() {
  if (!immediate_queue) return;
  {
    std::lock_guard lock(immediate_mutex);
    flush_locked(*this);
    std::erase(immediate_lists, this);
  }
  immediate_queue.reset();  // runs what was handed over, then stops
  segments.clear();
}

ze_result_t ZE_APICALL command_list_create_immediate(ze_context_handle_t context, ze_device_handle_t device,
                                                     const ze_command_queue_desc_t* desc, ze_command_list_handle_t* out) {
  auto* c = object_of<Context>(context);
  auto* d = object_of<Device>(device);
  if (!c || !d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (d->lost) return ZE_RESULT_ERROR_DEVICE_LOST;
  auto list = std::make_unique<CommandList>(c, d);
  list->immediate_queue = std::make_unique<CommandQueue>(c, d);
  if (!list->immediate_queue->queue) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  std::lock_guard lock(immediate_mutex);
  immediate_lists.push_back(list.get());
  *out = handle_of<ze_command_list_handle_t>(list.release());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_destroy(ze_command_list_handle_t handle) {
  auto* list = object_of<CommandList>(handle);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<CommandList> owned(list);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_close(ze_command_list_handle_t handle) {
  auto* list = object_of<CommandList>(handle);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (list->immediate()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // immediate lists are never closed
  list->closed = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_reset(ze_command_list_handle_t handle) {
  auto* list = object_of<CommandList>(handle);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  list->commands.clear();
  list->closed = false;
  return ZE_RESULT_SUCCESS;
}

// The common part of every append: an open list, a valid signal event and wait events.
ze_result_t append(ze_command_list_handle_t handle, Command command, ze_event_handle_t signal, std::uint32_t wait_count,
                   ze_event_handle_t* waits) {
  auto* list = object_of<CommandList>(handle);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (list->closed) {
    logger().error("a command was appended to a closed command list");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (signal) {
    command.signal = object_of<Event>(signal);
    if (!command.signal) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  if (wait_count > 0 && !waits) return ZE_RESULT_ERROR_INVALID_SIZE;
  for (std::uint32_t i = 0; i < wait_count; ++i) {
    auto* e = object_of<Event>(waits[i]);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command.waits.push_back(e);
  }
  const bool barrier = std::holds_alternative<BarrierCommand>(command.what);
  if (list->immediate()) {
    std::lock_guard lock(immediate_mutex);
    list->commands.push_back(std::move(command));
    if (barrier) flush_locked(*list);
    return ZE_RESULT_SUCCESS;
  }
  list->commands.push_back(std::move(command));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL command_list_append_barrier(ze_command_list_handle_t list, ze_event_handle_t signal,
                                                   std::uint32_t wait_count, ze_event_handle_t* waits) {
  return append(list, Command{BarrierCommand{}, nullptr, {}}, signal, wait_count, waits);
}

ze_result_t ZE_APICALL command_list_append_memory_copy(ze_command_list_handle_t list, void* destination, const void* source,
                                                       std::size_t bytes, ze_event_handle_t signal, std::uint32_t wait_count,
                                                       ze_event_handle_t* waits) {
  if (!destination || !source) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append(list, Command{CopyCommand{destination, source, bytes}, nullptr, {}}, signal, wait_count, waits);
}

ze_result_t ZE_APICALL command_list_append_memory_fill(ze_command_list_handle_t list, void* destination, const void* pattern,
                                                       std::size_t pattern_size, std::size_t bytes, ze_event_handle_t signal,
                                                       std::uint32_t wait_count, ze_event_handle_t* waits) {
  if (!destination || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0 || bytes % pattern_size != 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  const auto* p = static_cast<const unsigned char*>(pattern);
  FillCommand fill{destination, std::vector<unsigned char>(p, p + pattern_size), bytes};
  return append(list, Command{std::move(fill), nullptr, {}}, signal, wait_count, waits);
}

ze_result_t ZE_APICALL command_list_append_launch_kernel(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                                                         const ze_group_count_t* groups, ze_event_handle_t signal,
                                                         std::uint32_t wait_count, ze_event_handle_t* waits) {
  auto* k = object_of<Kernel>(kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!groups) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (k->group_size[0] == 0) {
    logger().error("kernel {} is launched without zeKernelSetGroupSize", k->name);
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  }
  for (std::size_t i = 0; i < k->args.size(); ++i) {
    if (std::holds_alternative<std::monostate>(k->args[i])) {
      logger().error("kernel {} is launched with argument {} never set", k->name, i);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
  }
  if (auto* l = object_of<CommandList>(list); l && (k->module->device != l->device || k->module->context != l->context)) {
    logger().error("kernel {} of a module of another {} is appended to a command list", k->name,
                   k->module->device != l->device ? "device" : "context");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  LaunchCommand launch{k, k->args, {k->group_size[0], k->group_size[1], k->group_size[2]}, *groups};
  return append(list, Command{std::move(launch), nullptr, {}}, signal, wait_count, waits);
}

// ---- fences --------------------------------------------------------------------------------------------------

void Fence::set(Signal s) {
  {
    std::lock_guard lock(mutex);
    state = s;
  }
  changed.notify_all();
}

ze_result_t ZE_APICALL fence_create(ze_command_queue_handle_t queue, const ze_fence_desc_t* desc, ze_fence_handle_t* out) {
  auto* q = object_of<CommandQueue>(queue);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto* fence = make_handle_object<Fence>(q);
  if (desc->flags & ZE_FENCE_FLAG_SIGNALED) fence->state = Signal::done;
  *out = handle_of<ze_fence_handle_t>(fence);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL fence_destroy(ze_fence_handle_t handle) {
  auto* fence = object_of<Fence>(handle);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<Fence> owned(fence);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fence_result(Signal s) {
  switch (s) {
    case Signal::none: return ZE_RESULT_NOT_READY;
    case Signal::done: return ZE_RESULT_SUCCESS;
    case Signal::device_lost: return ZE_RESULT_ERROR_DEVICE_LOST;
  }
  return ZE_RESULT_ERROR_UNKNOWN;
}

ze_result_t ZE_APICALL fence_host_synchronize(ze_fence_handle_t handle, std::uint64_t timeout) {
  auto* fence = object_of<Fence>(handle);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_lock lock(fence->mutex);
  const auto signalled = [&] { return fence->state != Signal::none; };
  if (timeout == UINT64_MAX) fence->changed.wait(lock, signalled);
  else fence->changed.wait_for(lock, std::chrono::nanoseconds(timeout), signalled);
  return fence_result(fence->state);
}

ze_result_t ZE_APICALL fence_query_status(ze_fence_handle_t handle) {
  auto* fence = object_of<Fence>(handle);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard lock(fence->mutex);
  return fence_result(fence->state);
}

ze_result_t ZE_APICALL fence_reset(ze_fence_handle_t handle) {
  auto* fence = object_of<Fence>(handle);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  fence->set(Signal::none);
  return ZE_RESULT_SUCCESS;
}

// ---- events --------------------------------------------------------------------------------------------------

void Event::signal() {
  {
    std::lock_guard lock(mutex);
    signalled = true;
  }
  changed.notify_all();
}

void Event::signal_with_timestamps(std::uint64_t start, std::uint64_t end) {
  {
    std::lock_guard lock(mutex);
    start_ns = start;
    end_ns = end;
    has_timestamp = true;
    signalled = true;
  }
  changed.notify_all();
}

bool Event::wait(std::uint64_t timeout_ns) {
  std::unique_lock lock(mutex);
  if (timeout_ns == UINT64_MAX) {
    changed.wait(lock, [&] { return signalled || lost; });
    return true;
  }
  return changed.wait_for(lock, std::chrono::nanoseconds(timeout_ns), [&] { return signalled || lost; });
}

void Event::lose() {
  {
    std::lock_guard lock(mutex);
    if (signalled) return;
    lost = true;
  }
  changed.notify_all();
}

ze_result_t ZE_APICALL event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t* desc, std::uint32_t,
                                         ze_device_handle_t*, ze_event_pool_handle_t* out) {
  if (!object_of<Context>(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  auto* pool = make_handle_object<EventPool>(desc->count, desc->flags);
  pool->used.assign(desc->count, false);
  *out = handle_of<ze_event_pool_handle_t>(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_pool_destroy(ze_event_pool_handle_t handle) {
  auto* pool = object_of<EventPool>(handle);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_ptr<EventPool> owned(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_create(ze_event_pool_handle_t pool_handle, const ze_event_desc_t* desc, ze_event_handle_t* out) {
  auto* pool = object_of<EventPool>(pool_handle);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard lock(pool->mutex);
  if (desc->index >= pool->count || pool->used[desc->index]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  pool->used[desc->index] = true;
  *out = handle_of<ze_event_handle_t>(make_handle_object<Event>(pool, desc->index));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_destroy(ze_event_handle_t handle) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  {
    std::lock_guard lock(event->pool->mutex);
    event->pool->used[event->index] = false;
  }
  std::unique_ptr<Event> owned(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_signal(ze_event_handle_t handle) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  event->signal();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_host_synchronize(ze_event_handle_t handle, std::uint64_t timeout) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  flush_immediate_lists();
  if (!event->wait(timeout)) return ZE_RESULT_NOT_READY;
  std::lock_guard lock(event->mutex);
  return event->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_DEVICE_LOST;
}

ze_result_t ZE_APICALL event_query_status(ze_event_handle_t handle) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  flush_immediate_lists();
  std::lock_guard lock(event->mutex);
  return event->signalled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL event_host_reset(ze_event_handle_t handle) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard lock(event->mutex);
  event->signalled = false;
  event->lost = false;
  event->has_timestamp = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL event_query_kernel_timestamp(ze_event_handle_t handle, ze_kernel_timestamp_result_t* result) {
  auto* event = object_of<Event>(handle);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!result) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if ((event->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(event->mutex);
  if (!event->signalled) return ZE_RESULT_NOT_READY;
  result->global.kernelStart = result->context.kernelStart = event->start_ns;
  result->global.kernelEnd = result->context.kernelEnd = event->end_ns;
  return ZE_RESULT_SUCCESS;
}

void install(ze_command_queue_dditable_t& t) {
  t.pfnCreate = command_queue_create;
  t.pfnDestroy = command_queue_destroy;
  t.pfnExecuteCommandLists = command_queue_execute;
  t.pfnSynchronize = command_queue_synchronize;
}

void install(ze_command_list_dditable_t& t) {
  t.pfnCreate = command_list_create;
  t.pfnCreateImmediate = command_list_create_immediate;
  t.pfnDestroy = command_list_destroy;
  t.pfnClose = command_list_close;
  t.pfnReset = command_list_reset;
  t.pfnAppendBarrier = command_list_append_barrier;
  t.pfnAppendMemoryCopy = command_list_append_memory_copy;
  t.pfnAppendMemoryFill = command_list_append_memory_fill;
  t.pfnAppendLaunchKernel = command_list_append_launch_kernel;
}

void install(ze_fence_dditable_t& t) {
  t.pfnCreate = fence_create;
  t.pfnDestroy = fence_destroy;
  t.pfnHostSynchronize = fence_host_synchronize;
  t.pfnQueryStatus = fence_query_status;
  t.pfnReset = fence_reset;
}

void install(ze_event_pool_dditable_t& t) {
  t.pfnCreate = event_pool_create;
  t.pfnDestroy = event_pool_destroy;
}

void install(ze_event_dditable_t& t) {
  t.pfnCreate = event_create;
  t.pfnDestroy = event_destroy;
  t.pfnHostSignal = event_host_signal;
  t.pfnHostSynchronize = event_host_synchronize;
  t.pfnQueryStatus = event_query_status;
  t.pfnHostReset = event_host_reset;
  t.pfnQueryKernelTimestamp = event_query_kernel_timestamp;
}

}  // namespace zrt
