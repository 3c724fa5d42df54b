// zr::opencl_interop::reducer (include/zereduce/opencl.hpp): the OpenCL executor driven on an application's
// context, queues and buffers. Everything about sizes and passes comes from the core's plan, as for the
// library's own queues; what is here is the checking of the application's handles and their translation.
#include "opencl/cl.hpp"  // before zereduce/opencl.hpp: the OpenCL version the library targets
#include "zereduce/opencl.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/device_impl.hpp"
#include "api/interop_request.hpp"
#include "api/plan_cache.hpp"
#include "opencl/context.hpp"
#include "opencl/error.hpp"
#include "opencl/executor.hpp"
#include "strategy.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl_interop {

namespace detail {

namespace {

template <typename T>
T mem_info(cl_mem mem, cl_mem_info param, const char* what, const std::string& device) {
  T value{};
  opencl::check(clGetMemObjectInfo(mem, param, sizeof(T), &value, nullptr), std::string("clGetMemObjectInfo(") + what + ")",
                device);
  return value;
}

template <typename T>
T queue_info(cl_command_queue queue, cl_command_queue_info param, const char* what, const std::string& device) {
  T value{};
  opencl::check(clGetCommandQueueInfo(queue, param, sizeof(T), &value, nullptr),
                std::string("clGetCommandQueueInfo(") + what + ")", device);
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
    owned_ = opencl::MemHandle(clCreateSubBuffer(range.root, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &code));
    opencl::check(code, "clCreateSubBuffer", device, [&] { return "the " + which + " range at byte " + std::to_string(range.offset); });
    mem_ = owned_.get();
  }
  // Released when this goes: OpenCL keeps a sub-buffer until the commands that use it are done.
  cl_mem get() const { return mem_; }

 private:
  opencl::MemHandle owned_;
  cl_mem mem_ = nullptr;
};

}  // namespace

class reducer_impl {
 public:
  reducer_impl(cl_context context, cl_device_id device)
      : context_(check_device(device), context),
        executor_(context_),
        base_alignment_(query_base_alignment(device, context_.device().name)),
        svm_capabilities_(query_svm_capabilities(device)) {}

  ~reducer_impl() {
    // The last reduction still uses the scratch buffers and kernels that go with this.
    if (last_ && !context_.lost()) {
      try {
        context_.wait(last_.get(), "the last appended reduction");
      } catch (const Error&) {
        // A destructor cannot report it; the event's own status tells the application.
      }
    }
  }

  const opencl::Context& context() const { return context_; }

  cl_event append(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n, cl_mem result,
                  std::uint64_t result_offset, const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
    const std::string& device = context_.device().name;
    const auto type = static_cast<core::DataType>(request.type);
    const std::uint64_t element = core::size_of(type);
    const bool out_of_order = checked_queue_is_out_of_order(queue);
    if (input_offset % element != 0 || result_offset % element != 0)
      throw InvalidArgumentError("opencl_interop: the " + std::string(input_offset % element ? "input" : "result") +
                                 " offset is not a multiple of the " + std::to_string(element) + "-byte " +
                                 std::string(core::name(type)) + " elements");

    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");

    check_range(result, result_offset, element, context_.handle(), "result", device);
    if (n) check_range(input, input_offset, n * element, context_.handle(), "input", device);

    std::lock_guard lock(mutex_);
    // After the application's events and after this reducer's previous reduction (they share scratch buffers).
    std::vector<cl_event> after(wait_list.begin(), wait_list.end());
    if (last_) after.push_back(last_.get());
    opencl::EventHandle done;
    bool staged_result = false;
    if (n == 0) {
      done = empty_input(queue, result, result_offset, reduction, after);
    } else {
      const BufferRange input_range(input, input_offset, n * element, base_alignment_, "input", device);
      const auto planned = plan(reduction);
      // A result the kernels cannot address in place (an offset no sub-buffer can start at) is staged: copied
      // into a buffer of this reducer and back, on the same queue, ordered by events.
      staged_result = root_of(result, result_offset, device).offset % base_alignment_ != 0;
      const std::optional<BufferRange> result_range =
          staged_result ? std::nullopt : std::optional<BufferRange>(std::in_place, result, result_offset, element, base_alignment_, "result", device);
      const cl_mem staging = staged_result ? executor_.result_staging(0, element) : nullptr;
      opencl::EventHandle staged_in;
      if (staged_result && reduction.include_initial) {
        staged_in = copy(queue, result, result_offset, staging, 0, element, after);
        after.assign(1, staged_in.get());
      }
      const cl_mem results[] = {staged_result ? staging : result_range->get()};
      done = executor_.append(planned->plan, input_range.get(), results, opencl::AppendTarget{queue, after, out_of_order}).done;
      if (staged_result) {
        const cl_event ran = done.get();
        done = copy(queue, staging, 0, result, result_offset, element, std::span<const cl_event>(&ran, 1));
      }
    }
    // The executor flushed its passes; commands enqueued after them here are flushed too, so that a later append
    // to another queue can wait for this one's event without the application flushing first.
    if (n == 0 || staged_result) opencl::check(clFlush(queue), "clFlush", device);
    return finish(std::move(done));
  }

  // Shared virtual memory: the kernels take the pointers themselves (clSetKernelArgSVMPointer).
  cl_event append_svm(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                      const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
    const std::string& device = context_.device().name;
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    const std::uint64_t element = core::size_of(reduction.type);
    if (!svm_capabilities_)
      throw UnsupportedError("opencl_interop: device '" + device + "' has no shared virtual memory "
                             "(CL_DEVICE_SVM_CAPABILITIES is 0): pass cl_mem buffers");
    const bool out_of_order = checked_queue_is_out_of_order(queue);
    check_svm(result, element, "result", reduction.type);
    if (n) check_svm(input, n * element, "input", reduction.type);

    std::lock_guard lock(mutex_);
    std::vector<cl_event> after(wait_list.begin(), wait_list.end());
    if (last_) after.push_back(last_.get());
    opencl::EventHandle done;
    if (n == 0) {
      cl_event event = nullptr;
      const auto count = static_cast<cl_uint>(after.size());
      if (reduction.include_initial)
        opencl::check(clEnqueueMarkerWithWaitList(queue, count, after.empty() ? nullptr : after.data(), &event),
                      "clEnqueueMarkerWithWaitList", device);
      else
        opencl::check(clEnqueueSVMMemFill(queue, result, reduction.identity.data(), element, element, count,
                                          after.empty() ? nullptr : after.data(), &event),
                      "clEnqueueSVMMemFill", device, "the identity into the result");
      done = opencl::EventHandle(event);
      opencl::check(clFlush(queue), "clFlush", device);
    } else {
      const auto planned = plan(reduction);
      const opencl::GlobalMemory results[] = {{nullptr, result}};
      done = executor_.append(planned->plan, opencl::GlobalMemory{nullptr, input}, results,
                              opencl::AppendTarget{queue, after, out_of_order})
                 .done;
    }
    return finish(std::move(done));
  }

  std::shared_ptr<const api::PlannedRun> plan(const core::ReductionRequest& reduction) {
    return plans_.get(reduction, [&] {
      const auto& caps = context_.capabilities();
      return api::planned_run(core::make_plan(caps, reduction, core::choose_strategy(caps, reduction), core::tuning_for(caps)));
    });
  }

  plan_summary describe(std::uint64_t n, const zr::detail::interop_request& request) {
    const core::ReductionRequest reduction = api::core_request(request, n, "opencl_interop");
    if (n == 0) return api::empty_input_summary(reduction);
    return plan(reduction)->summary;
  }

 private:
  static opencl::Device check_device(cl_device_id device) {
    if (!device) throw InvalidArgumentError("opencl_interop: the device is null");
    return opencl::describe_device(device);
  }

  // The event of an append's last command: the next append waits for it (they share the scratch buffers); the
  // caller gets a reference of its own.
  cl_event finish(opencl::EventHandle done) {
    if (!done) throw Error("opencl_interop: the reduction's plan enqueued no command (a bug: please report it)");
    opencl::check(clRetainEvent(done.get()), "clRetainEvent", context_.device().name);
    last_ = std::move(done);
    return last_.get();
  }

  bool checked_queue_is_out_of_order(cl_command_queue queue) const {
    const std::string& device = context_.device().name;
    if (!queue) throw InvalidArgumentError("opencl_interop: the queue is null");
    if (queue_info<cl_context>(queue, CL_QUEUE_CONTEXT, "CL_QUEUE_CONTEXT", device) != context_.handle())
      throw InvalidArgumentError("opencl_interop: the queue belongs to another cl_context than the reducer's");
    if (queue_info<cl_device_id>(queue, CL_QUEUE_DEVICE, "CL_QUEUE_DEVICE", device) != context_.device().id)
      throw InvalidArgumentError("opencl_interop: the queue is of another device than the reducer's ('" + device + "')");
    return (queue_info<cl_command_queue_properties>(queue, CL_QUEUE_PROPERTIES, "CL_QUEUE_PROPERTIES", device) &
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  }

  // OpenCL cannot be asked which context an SVM pointer belongs to; it can be asked whether a buffer made over
  // the pointer uses it as SVM (CL_MEM_USES_SVM_POINTER). Devices whose kernels address all host memory (fine-
  // grained system SVM, CPU devices) take any pointer; on others the driver must recognise it (PoCL, for one,
  // recognises an allocation's start only).
  void check_svm(const void* pointer, std::uint64_t bytes, const char* which, core::DataType type) const {
    const std::string& device = context_.device().name;
    if (!pointer) throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is a null pointer");
    const std::uint64_t element = core::size_of(type);
    if (reinterpret_cast<std::uintptr_t>(pointer) % element != 0)
      throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is not aligned to its " +
                                 std::to_string(element) + "-byte " + std::string(core::name(type)) + " elements");
    if ((svm_capabilities_ & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) || context_.device().type == core::DeviceType::cpu) return;
    cl_int code = CL_SUCCESS;
    const opencl::MemHandle probe(clCreateBuffer(context_.handle(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                                 static_cast<std::size_t>(bytes), const_cast<void*>(pointer), &code));
    cl_bool uses_svm = CL_FALSE;
    if (code == CL_SUCCESS)
      opencl::check(clGetMemObjectInfo(probe.get(), CL_MEM_USES_SVM_POINTER, sizeof uses_svm, &uses_svm, nullptr),
                    "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)", device);
    if (!uses_svm)
      throw InvalidArgumentError(std::string("opencl_interop: the ") + which + " is not shared virtual memory of the "
                                 "reducer's context as device '" + device + "' recognises it (clSVMAlloc memory of "
                                 "this context; this driver may need an allocation's start): pass cl_mem buffers");
  }

  static cl_device_svm_capabilities query_svm_capabilities(cl_device_id device) {
    cl_device_svm_capabilities capabilities = 0;
    // OpenCL 1.2 devices do not know the query: they have no SVM.
    if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof capabilities, &capabilities, nullptr) != CL_SUCCESS) return 0;
    return capabilities;
  }

  static std::uint64_t query_base_alignment(cl_device_id device, const std::string& name) {
    cl_uint bits = 0;
    opencl::check(clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr),
                  "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", name);
    return std::max<std::uint64_t>(bits / 8, 1);
  }

  opencl::EventHandle copy(cl_command_queue queue, cl_mem from, std::uint64_t from_offset, cl_mem to, std::uint64_t to_offset,
                           std::uint64_t bytes, std::span<const cl_event> after) {
    cl_event event = nullptr;
    opencl::check(clEnqueueCopyBuffer(queue, from, to, from_offset, to_offset, bytes, static_cast<cl_uint>(after.size()),
                                      after.empty() ? nullptr : after.data(), &event),
                  "clEnqueueCopyBuffer", context_.device().name, "the staged result");
    return opencl::EventHandle(event);
  }

  // No elements: the result keeps its value (a marker orders the returned event), or becomes the identity.
  opencl::EventHandle empty_input(cl_command_queue queue, cl_mem result, std::uint64_t result_offset,
                                  const core::ReductionRequest& reduction, const std::vector<cl_event>& after) {
    const std::string& device = context_.device().name;
    cl_event event = nullptr;
    const auto count = static_cast<cl_uint>(after.size());
    if (reduction.include_initial) {
      opencl::check(clEnqueueMarkerWithWaitList(queue, count, after.empty() ? nullptr : after.data(), &event),
                    "clEnqueueMarkerWithWaitList", device);
    } else {
      const std::size_t bytes = core::size_of(reduction.type);
      opencl::check(clEnqueueFillBuffer(queue, result, reduction.identity.data(), bytes, result_offset, bytes, count,
                                        after.empty() ? nullptr : after.data(), &event),
                    "clEnqueueFillBuffer", device, "the identity into the result");
    }
    return opencl::EventHandle(event);
  }

  opencl::Context context_;
  opencl::Executor executor_;
  std::uint64_t base_alignment_;
  cl_device_svm_capabilities svm_capabilities_;
  api::PlanCache plans_;
  std::mutex mutex_;
  opencl::EventHandle last_;  // the previous reduction's last command
};

}  // namespace detail

reducer::reducer(cl_context context, cl_device_id device) {
  if (!context) throw InvalidArgumentError("opencl_interop: the context is null");
  impl_ = std::make_unique<detail::reducer_impl>(context, device);
}
reducer::reducer(reducer&&) noexcept = default;
reducer& reducer::operator=(reducer&&) noexcept = default;
reducer::~reducer() = default;

cl_context reducer::context() const { return impl_->context().handle(); }
cl_device_id reducer::device() const { return impl_->context().device().id; }

cl_event reducer::append_svm(cl_command_queue queue, const void* input, std::uint64_t n, void* result,
                             const zr::detail::interop_request& request, std::span<const cl_event> wait_list) {
  return impl_->append_svm(queue, input, n, result, request, wait_list);
}

plan_summary reducer::describe_of(std::uint64_t n, const zr::detail::interop_request& request) const {
  return impl_->describe(n, request);
}

std::optional<cl_device_id> native_device_of(const zr::device& device) {
  if (device.get_backend() != zr::backend::opencl) return std::nullopt;
  return static_cast<cl_device_id>(device.impl()->backend().native_handles().device);
}

cl_event reducer::append(cl_command_queue queue, cl_mem input, std::uint64_t input_offset, std::uint64_t n, cl_mem result,
                         std::uint64_t result_offset, const zr::detail::interop_request& request,
                         std::span<const cl_event> wait_list) {
  return impl_->append(queue, input, input_offset, n, result, result_offset, request, wait_list);
}

}  // namespace zr::opencl_interop
