#include "opencl/appender.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "data_types.hpp"
#include "opencl/error.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {

template <typename T>
T mem_info(cl_mem mem, cl_mem_info param, const char* what, const std::string& device) {
  T value{};
  check(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr), std::string("clGetMemObjectInfo(") + what + ")", device);
  return value;
}

template <typename T>
T queue_info(cl_command_queue queue, cl_command_queue_info param, const char* what, const std::string& device) {
  T value{};
  check(clGetCommandQueueInfo(queue, param, sizeof(T), &value, nullptr), std::string("clGetCommandQueueInfo(") + what + ")",
        device);
  return value;
}

// Refuses a buffer of another context and a range past its end (the message says which buffer).
void check_range(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes, cl_context context, const std::string& which,
                 const std::string& device) {
  if (!buffer) throw InvalidArgumentError("opencl_interop: the " + which + " buffer is null");
  if (mem_info<cl_context>(buffer, CL_MEM_CONTEXT, "CL_MEM_CONTEXT", device) != context)
    throw InvalidArgumentError("opencl_interop: the " + which + " buffer belongs to another cl_context than the "
                               "reducer's (make a reducer of that context)");
  const auto size = mem_info<std::size_t>(buffer, CL_MEM_SIZE, "CL_MEM_SIZE", device);
  if (offset > size || bytes > size - offset)
    throw InvalidArgumentError("opencl_interop: the " + which + " range of " + std::to_string(bytes) + " bytes at offset " +
                               std::to_string(offset) + " runs past the end of its buffer of " + std::to_string(size) +
                               " bytes");
}

// Where a range of an application's buffer starts within its root buffer (a sub-buffer's own offset added).
struct RootRange {
  cl_mem root;
  std::uint64_t offset;
};
RootRange root_of(cl_mem buffer, std::uint64_t offset, const std::string& device) {
  if (cl_mem root = mem_info<cl_mem>(buffer, CL_MEM_ASSOCIATED_MEMOBJECT, "CL_MEM_ASSOCIATED_MEMOBJECT", device))
    return {root, offset + mem_info<std::size_t>(buffer, CL_MEM_OFFSET, "CL_MEM_OFFSET", device)};
  return {buffer, offset};
}

// A checked range of an application's buffer as a buffer that starts there: the buffer itself at offset 0,
// else a sub-buffer of its root (OpenCL makes no sub-buffers of sub-buffers), which needs the root offset to be
// a multiple of the device's base address alignment.
class BufferRange {
 public:
  BufferRange(cl_mem buffer, std::uint64_t offset, std::uint64_t bytes, std::uint64_t base_alignment,
              const std::string& which, const std::string& device) {
    if (offset == 0) {
      mem_ = buffer;
      return;
    }
    const RootRange range = root_of(buffer, offset, device);
    if (range.offset % base_alignment != 0)
      throw InvalidArgumentError("opencl_interop: the " + which + " offset " + std::to_string(offset) + " (byte " +
                                 std::to_string(range.offset) + " of its buffer) is not a multiple of the device's "
                                 "base address alignment, " + std::to_string(base_alignment) +
                                 " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN), which reading it in place needs");
    const cl_buffer_region region{static_cast<std::size_t>(range.offset), static_cast<std::size_t>(std::max<std::uint64_t>(bytes, 1))};
    cl_int code = CL_SUCCESS;
    // The application's flags stay in force (flags 0 inherits them).
    owned_ = MemHandle(clCreateSubBuffer(range.root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &code));
    check(code, "clCreateSubBuffer", device, [&] { return "the " + which + " range at byte " + std::to_string(range.offset); });
    mem_ = owned_.get();
  }
  // Released when this goes: OpenCL keeps a sub-buffer until the commands that use it are done.
  cl_mem get() const { return mem_; }

 private:
  MemHandle owned_;
  cl_mem mem_ = nullptr;
};

Device checked_device(cl_device_id device) {
  if (!device) throw InvalidArgumentError("opencl_interop: the device is null");
  return describe_device(device);
}

cl_device_svm_capabilities query_svm_capabilities(cl_device_id device) {
  cl_device_svm_capabilities capabilities = 0;
  // OpenCL 1.2 devices do not know the query: they have no SVM.
  if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof capabilities, &capabilities, nullptr) != CL_SUCCESS) return 0;
  return capabilities;
}

std::uint64_t query_base_alignment(cl_device_id device, const std::string& name) {
  cl_uint bits = 0;
  check(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr),
        "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", name);
  return std::max<std::uint64_t>(bits / 8, 1);
}

std::vector<cl_event> after_both(std::span<const cl_event> wait_list, const EventHandle& last) {
  std::vector<cl_event> after(wait_list.begin(), wait_list.end());
  if (last) after.push_back(last.get());
  return after;
}

cl_event marker(cl_command_queue queue, std::span<const cl_event> after, const std::string& device) {
  cl_event event = nullptr;
  check(clEnqueueMarkerWithWaitList(queue, static_cast<cl_uint>(after.size()), after.empty() ? nullptr : after.data(), &event),
        "clEnqueueMarkerWithWaitList", device);
  return event;
}

}  // namespace

Appender::Appender(cl_context context, cl_device_id device)
    : context_(checked_device(device), context),
      executor_(context_),
      base_alignment_(query_base_alignment(device, context_.device().name)),
      svm_capabilities_(query_svm_capabilities(device)) {}

Appender::~Appender() {
  if (last_ && !context_.lost()) {
    try {
      context_.wait(last_.get(), "the last appended reduction");
    } catch (const Error&) {
      // A destructor cannot report it; the event's own status tells the application.
    }
  }
}

cl_event Appender::append(const core::Plan* plan, const core::ReductionRequest& request, cl_command_queue queue,
                          cl_mem input, std::uint64_t input_offset, cl_mem result, std::uint64_t result_offset,
                          std::span<const cl_event> wait_list) {
  const std::string& device = context_.device().name;
  const std::uint64_t element = core::size_of(request.type);
  const std::uint64_t n = request.n;
  const bool out_of_order = checked_queue_is_out_of_order(queue);
  if (input_offset % element != 0 || result_offset % element != 0)
    throw InvalidArgumentError("opencl_interop: the " + std::string(input_offset % element ? "input" : "result") +
                               " offset is not a multiple of the " + std::to_string(element) + "-byte " +
                               std::string(core::name(request.type)) + " elements");
  check_range(result, result_offset, element, context_.handle(), "result", device);
  if (n) check_range(input, input_offset, n * element, context_.handle(), "input", device);

  std::lock_guard lock(mutex_);
  std::vector<cl_event> after = after_both(wait_list, last_);
  EventHandle done;
  bool staged_result = false;
  if (n == 0) {
    done = empty_input(queue, result, result_offset, request, after);
  } else {
    const BufferRange input_range(input, input_offset, n * element, base_alignment_, "input", device);
    // A result the kernels cannot address in place (an offset no sub-buffer can start at) is staged: copied
    // into a buffer of this appender and back, on the same queue, ordered by events.
    staged_result = root_of(result, result_offset, device).offset % base_alignment_ != 0;
    const std::optional<BufferRange> result_range =
        staged_result ? std::nullopt
                      : std::optional<BufferRange>(std::in_place, result, result_offset, element, base_alignment_, "result", device);
    const cl_mem staging = staged_result ? executor_.result_staging(0, element) : nullptr;
    EventHandle staged_in;
    if (staged_result && request.include_initial) {
      staged_in = copy(queue, result, result_offset, staging, 0, element, after);
      after.assign(1, staged_in.get());
    }
    const cl_mem results[] = {staged_result ? staging : result_range->get()};
    done = executor_.append(*plan, input_range.get(), results, AppendTarget{queue, after, out_of_order}).done;
    if (staged_result) {
      const cl_event ran = done.get();
      done = copy(queue, staging, 0, result, result_offset, element, std::span<const cl_event>(&ran, 1));
    }
  }
  // The executor flushed its passes; commands enqueued after them here are flushed too, so that a later append
  // to another queue can wait for this one's event without the application flushing first.
  if (n == 0 || staged_result) check(clFlush(queue), "clFlush", device);
  return finish(std::move(done));
}

cl_event Appender::append(const core::Plan* plan, const core::ReductionRequest& request, cl_command_queue queue,
                          const void* input, void* result, std::span<const cl_event> wait_list) {
  const std::string& device = context_.device().name;
  const std::uint64_t element = core::size_of(request.type);
  const bool out_of_order = checked_queue_is_out_of_order(queue);
  const GlobalMemory result_memory = checked_pointer(result, element, "result", request.type);
  const GlobalMemory input_memory =
      request.n ? checked_pointer(input, request.n * element, "input", request.type) : GlobalMemory{};

  std::lock_guard lock(mutex_);
  const std::vector<cl_event> after = after_both(wait_list, last_);
  EventHandle done;
  if (request.n == 0) {
    // No elements: the result keeps its value (a marker orders the returned event), or becomes the identity.
    if (request.include_initial) done = EventHandle(marker(queue, after, device));
    else done = fill(queue, Fill{result_memory, std::span(request.identity.data(), element), element}, after);
    check(clFlush(queue), "clFlush", device);
  } else {
    const GlobalMemory results[] = {result_memory};
    done = executor_.append(*plan, input_memory, results, AppendTarget{queue, after, out_of_order}).done;
  }
  return finish(std::move(done));
}

cl_event Appender::append_kernel(const core::Plan& plan, cl_command_queue queue, std::span<const GlobalMemory> variables,
                                 std::span<const GlobalMemory> kernel_pointers, std::span<const Fill> fills,
                                 std::span<const cl_event> wait_list) {
  const bool out_of_order = checked_queue_is_out_of_order(queue);
  std::lock_guard lock(mutex_);
  std::vector<cl_event> after = after_both(wait_list, last_);
  std::vector<EventHandle> filled;
  for (const Fill& f : fills) filled.push_back(fill(queue, f, after));
  if (!filled.empty()) {
    after.clear();
    for (const EventHandle& event : filled) after.push_back(event.get());
  }
  return finish(executor_.append(plan, GlobalMemory{}, variables, AppendTarget{queue, after, out_of_order}, kernel_pointers).done);
}

// Fills USM or SVM memory with a pattern, after `after`.
EventHandle Appender::fill(cl_command_queue queue, const Fill& f, std::span<const cl_event> after) {
  const std::string& device = context_.device().name;
  if (f.memory.kind == GlobalMemory::Pointer::usm)
    return EventHandle(context_.intel_usm()->fill(queue, const_cast<void*>(f.memory.pointer), f.pattern, f.bytes, after, device));
  cl_event event = nullptr;
  check(clEnqueueSVMMemFill(queue, const_cast<void*>(f.memory.pointer), f.pattern.data(), f.pattern.size(), f.bytes,
                            static_cast<cl_uint>(after.size()), after.empty() ? nullptr : after.data(), &event),
        "clEnqueueSVMMemFill", device, "the identity into a result");
  return EventHandle(event);
}

// The event of an append's last command: the next append waits for it (they share the scratch buffers); the
// caller gets a reference of its own.
cl_event Appender::finish(EventHandle done) {
  if (!done) throw Error("opencl_interop: the reduction's plan enqueued no command (a bug: please report it)");
  check(clRetainEvent(done.get()), "clRetainEvent", context_.device().name);
  last_ = std::move(done);
  return last_.get();
}

bool Appender::checked_queue_is_out_of_order(cl_command_queue queue) const {
  const std::string& device = context_.device().name;
  if (!queue) throw InvalidArgumentError("opencl_interop: the queue is null");
  if (queue_info<cl_context>(queue, CL_QUEUE_CONTEXT, "CL_QUEUE_CONTEXT", device) != context_.handle())
    throw InvalidArgumentError("opencl_interop: the queue belongs to another cl_context than the reducer's");
  if (queue_info<cl_device_id>(queue, CL_QUEUE_DEVICE, "CL_QUEUE_DEVICE", device) != context_.device().id)
    throw InvalidArgumentError("opencl_interop: the queue is of another device than the reducer's ('" + device + "')");
  return (queue_info<cl_command_queue_properties>(queue, CL_QUEUE_PROPERTIES, "CL_QUEUE_PROPERTIES", device) &
          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
}

// A pointer is unified shared memory when the driver knows it as an allocation of this context
// (cl_intel_unified_shared_memory: it says which allocation, so the range and the device are checked); any
// other pointer must be shared virtual memory.
GlobalMemory Appender::checked_pointer(const void* pointer, std::uint64_t bytes, const std::string& which,
                                       core::DataType type) const {
  const std::string& device = context_.device().name;
  if (!pointer) throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is a null pointer");
  const std::uint64_t element = core::size_of(type);
  if (reinterpret_cast<std::uintptr_t>(pointer) % element != 0)
    throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is not aligned to its " +
                               std::to_string(element) + "-byte " + std::string(core::name(type)) + " elements");
  if (const IntelUsm* usm = context_.intel_usm()) {
    if (const auto allocation = usm->allocation_of(context_.handle(), pointer, device)) {
      const std::uint64_t offset = reinterpret_cast<std::uintptr_t>(pointer) - allocation->base;
      if (bytes > allocation->bytes - offset)
        throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " range of " + std::to_string(bytes) +
                                   " bytes at byte " + std::to_string(offset) + " of its USM allocation runs past its end (" +
                                   std::to_string(allocation->bytes) + " bytes)");
      if (allocation->kind == UsmAllocation::Kind::device && allocation->device && allocation->device != context_.device().id)
        throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is device USM of another device than "
                                   "the reducer's ('" + device + "')");
      return {nullptr, pointer, GlobalMemory::Pointer::usm};
    }
    if (!svm_capabilities_)
      throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is no unified shared memory of the "
                                 "reducer's context (cl_intel_unified_shared_memory allocations, SYCL USM of the same "
                                 "native context) and device '" + device + "' has no shared virtual memory");
  }
  check_svm(pointer, bytes, which);
  return {nullptr, pointer, GlobalMemory::Pointer::svm};
}

// OpenCL cannot be asked which context an SVM pointer belongs to; it can be asked whether a buffer made over
// the pointer uses it as SVM (CL_MEM_USES_SVM_POINTER). Devices whose kernels address all host memory (fine-
// grained system SVM, CPU devices) take any pointer; on others the driver must recognise it (PoCL, for one,
// recognises an allocation's start only).
void Appender::check_svm(const void* pointer, std::uint64_t bytes, const std::string& which) const {
  const std::string& device = context_.device().name;
  if (!svm_capabilities_)
    throw UnsupportedError("opencl_interop: device '" + device + "' has neither shared virtual memory "
                           "(CL_DEVICE_SVM_CAPABILITIES is 0) nor cl_intel_unified_shared_memory: pass cl_mem buffers");
  if ((svm_capabilities_ & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) || context_.device().type == core::DeviceType::cpu) return;
  cl_int code = CL_SUCCESS;
  const MemHandle probe(clCreateBuffer(context_.handle(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                       static_cast<std::size_t>(bytes), const_cast<void*>(pointer), &code));
  cl_bool uses_svm = CL_FALSE;
  if (code == CL_SUCCESS)
    check(clGetMemObjectInfo(probe.get(), CL_MEM_USES_SVM_POINTER, sizeof uses_svm, &uses_svm, nullptr),
          "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)", device);
  if (!uses_svm)
    throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is not shared virtual memory of the "
                               "reducer's context as device '" + device + "' recognises it (clSVMAlloc memory of "
                               "this context; this driver may need an allocation's start): pass cl_mem buffers");
}

EventHandle Appender::copy(cl_command_queue queue, cl_mem from, std::uint64_t from_offset, cl_mem to, std::uint64_t to_offset,
                           std::uint64_t bytes, std::span<const cl_event> after) {
  cl_event event = nullptr;
  check(clEnqueueCopyBuffer(queue, from, to, from_offset, to_offset, bytes, static_cast<cl_uint>(after.size()),
                            after.empty() ? nullptr : after.data(), &event),
        "clEnqueueCopyBuffer", context_.device().name, "the staged result");
  return EventHandle(event);
}

// No elements: the result keeps its value (a marker orders the returned event), or becomes the identity.
EventHandle Appender::empty_input(cl_command_queue queue, cl_mem result, std::uint64_t result_offset,
                                  const core::ReductionRequest& request, std::span<const cl_event> after) {
  const std::string& device = context_.device().name;
  if (request.include_initial) return EventHandle(marker(queue, after, device));
  cl_event event = nullptr;
  const std::size_t bytes = core::size_of(request.type);
  check(clEnqueueFillBuffer(queue, result, request.identity.data(), bytes, result_offset, bytes,
                            static_cast<cl_uint>(after.size()), after.empty() ? nullptr : after.data(), &event),
        "clEnqueueFillBuffer", device, "the identity into the result");
  return EventHandle(event);
}

}  // namespace zr::opencl
