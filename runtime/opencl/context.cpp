// clCreateCommandQueue is the only way to make a queue on an OpenCL 1.x device, and clEnqueueMarker the only
// marker on an OpenCL 1.1 one.
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "opencl/context.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "fault_injection.hpp"
#include "opencl/error.hpp"
#include "opencl/pinned_host_buffer.hpp"
#include "log.hpp"
#include "opencl/selection.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

namespace {

std::uint64_t query_sub_buffer_alignment(const Device& device) {
  cl_uint bits = 0;
  check(clGetDeviceInfo(device.id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(bits), &bits, nullptr),
        "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", device.name);
  return bits >= 8 ? bits / 8 : 1;
}

bool query_takes_any_host_pointer(const Device& device) {
  cl_device_svm_capabilities capabilities = 0;
  // OpenCL 1.2 devices do not know the query: they have no SVM.
  if (clGetDeviceInfo(device.id, CL_DEVICE_SVM_CAPABILITIES, sizeof capabilities, &capabilities, nullptr) != CL_SUCCESS)
    return false;
  return (capabilities & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0;
}

}  // namespace

Context::Context(Device device, ContextOptions options) : Context(std::move(device), nullptr, std::move(options)) {}

Context::Context(Device device, cl_context adopted, ContextOptions options)
    : device_(std::move(device)),
      capabilities_(query_capabilities(device_)),
      sub_buffer_alignment_(query_sub_buffer_alignment(device_)),
      takes_any_host_pointer_(query_takes_any_host_pointer(device_)),
      spin_for_(device_.type == core::DeviceType::gpu ? std::chrono::microseconds(5000)
                                                      : std::chrono::microseconds(200)) {
  if (device_.type == core::DeviceType::cpu) blocking_helper_ = std::make_unique<BlockingWaitHelper>();
  if (adopted) {
    check(clRetainContext(adopted), "clRetainContext", device_.name, "the application's context");
    context_ = ContextHandle(adopted);
    require_device_of_context();
  } else {
    cl_int code = CL_SUCCESS;
    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                reinterpret_cast<cl_context_properties>(device_.platform), 0};
    context_ = ContextHandle(clCreateContext(properties, 1, &device_.id, nullptr, nullptr, &code));
    if (core::injected_lost_context(device_.name)) code = -9999;  // as NVIDIA's OpenCL, once the device is gone
    check(code, "clCreateContext", device_.name);
  }
  queue_ = make_queue(CL_QUEUE_PROFILING_ENABLE);
  untimed_queue_ = make_queue(0);
  const auto ingestion = options.ingestion ? options.ingestion : ingestion_from_env();
  programs_ = std::make_unique<ProgramCache>(context_.get(), device_, capabilities_, ingestion);
  intel_usm_ = IntelUsm::load(device_);
  logger().debug("opencl: context on {}", device_.description());
}

void Context::require_device_of_context() const {
  std::size_t bytes = 0;
  check(clGetContextInfo(context_.get(), CL_CONTEXT_DEVICES, 0, nullptr, &bytes), "clGetContextInfo(CL_CONTEXT_DEVICES)",
        device_.name);
  std::vector<cl_device_id> devices(bytes / sizeof(cl_device_id));
  check(clGetContextInfo(context_.get(), CL_CONTEXT_DEVICES, bytes, devices.data(), nullptr),
        "clGetContextInfo(CL_CONTEXT_DEVICES)", device_.name);
  if (std::find(devices.begin(), devices.end(), device_.id) == devices.end())
    throw InvalidArgumentError("opencl: device '" + device_.name + "' is not one of the " + std::to_string(devices.size()) +
                               " device(s) of the application's context");
}

QueueHandle Context::make_queue(cl_command_queue_properties properties) const {
  cl_int code = CL_SUCCESS;
  QueueHandle queue;
  if (parse_opencl_version(device_.version) >= 20) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    queue = QueueHandle(clCreateCommandQueueWithProperties(context_.get(), device_.id, list, &code));
    check(code, "clCreateCommandQueueWithProperties", device_.name);
  } else {
    queue = QueueHandle(clCreateCommandQueue(context_.get(), device_.id, properties, &code));
    check(code, "clCreateCommandQueue", device_.name);
  }
  return queue;
}

std::optional<bool> Context::executes_kernels() const { return known_execution(device_.id); }

Buffer Context::create_buffer(std::uint64_t bytes, cl_mem_flags flags) const {
  if (bytes == 0) {
    throw InvalidArgumentError("opencl: a buffer of 0 bytes was asked for on device '" + device_.name + "'");
  }
  throw_if_lost();
  cl_int code = CL_SUCCESS;
  MemHandle mem(clCreateBuffer(context_.get(), flags, bytes, nullptr, &code));
  check(code, "clCreateBuffer", device_.name, std::to_string(bytes) + " bytes");
  return Buffer(std::move(mem), bytes);
}

void Context::copy_and_wait(cl_mem buffer, bool to_device, void* host, std::uint64_t bytes,
                            std::uint64_t offset) const {
  cl_event done = nullptr;
  if (to_device)
    check(clEnqueueWriteBuffer(queue_.get(), buffer, CL_FALSE, offset, bytes, host, 0, nullptr, &done),
          "clEnqueueWriteBuffer", device_.name, std::to_string(bytes) + " bytes");
  else
    check(clEnqueueReadBuffer(queue_.get(), buffer, CL_FALSE, offset, bytes, host, 0, nullptr, &done),
          "clEnqueueReadBuffer", device_.name, std::to_string(bytes) + " bytes");
  const EventHandle event(done);
  check(clFlush(queue_.get()), "clFlush", device_.name);
  wait(event.get(), [&] {
    return std::string(to_device ? "a write of " : "a read of ") + std::to_string(bytes) +
           (to_device ? " bytes to the device" : " bytes from the device");
  });
}

void Context::write(cl_mem buffer, std::span<const std::byte> bytes, std::uint64_t offset) const {
  if (bytes.empty()) return;
  throw_if_lost();
  if (bytes.size() > kPinnedCopyBytes) {
    copy_and_wait(buffer, true, const_cast<std::byte*>(bytes.data()), bytes.size(), offset);
    return;
  }
  std::lock_guard lock(pinned_mutex_);
  if (!pinned_) pinned_ = std::make_unique<PinnedHostBuffer>(*this, kPinnedCopyBytes);
  std::memcpy(pinned_->data(), bytes.data(), bytes.size());
  copy_and_wait(buffer, true, pinned_->data(), bytes.size(), offset);
}

void Context::read(cl_mem buffer, std::span<std::byte> bytes, std::uint64_t offset) const {
  if (bytes.empty()) return;
  throw_if_lost();
  if (bytes.size() > kPinnedCopyBytes) {
    copy_and_wait(buffer, false, bytes.data(), bytes.size(), offset);
    return;
  }
  std::lock_guard lock(pinned_mutex_);
  if (!pinned_) pinned_ = std::make_unique<PinnedHostBuffer>(*this, kPinnedCopyBytes);
  copy_and_wait(buffer, false, pinned_->data(), bytes.size(), offset);
  std::memcpy(bytes.data(), pinned_->data(), bytes.size());
}

void Context::fill(const Buffer& buffer, std::span<const std::byte> pattern) const {
  throw_if_lost();
  check(clEnqueueFillBuffer(queue_.get(), buffer.get(), pattern.data(), pattern.size(), 0, buffer.bytes(), 0, nullptr,
                            nullptr),
        "clEnqueueFillBuffer", device_.name,
        std::to_string(buffer.bytes()) + " bytes with a " + std::to_string(pattern.size()) + "-byte pattern");
}

cl_event Context::marker(cl_command_queue queue) const {
  cl_event event = nullptr;
  if (parse_opencl_version(device_.version) >= 12)
    check(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &event), "clEnqueueMarkerWithWaitList", device_.name);
  else
    check(clEnqueueMarker(queue, &event), "clEnqueueMarker", device_.name);
  return event;
}

void Context::finish(cl_command_queue queue) const {
  throw_if_lost();
  if (!queue) queue = queue_.get();
  const EventHandle done(marker(queue));
  check(clFlush(queue), "clFlush", device_.name);
  wait(done.get(), "the commands queued before a marker");
}

bool is_device_fault(cl_int code) {
  switch (code) {
    case CL_INVALID_COMMAND_QUEUE:
    case CL_OUT_OF_RESOURCES:
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
    case -1121:  // CL_CONTEXT_TERMINATED_KHR
      return true;
    default:
      return code < 0 && error_name(code) == "CL_UNKNOWN_ERROR";
  }
}

void Context::fail_wait(const EventWait& waited, std::chrono::nanoseconds limit, const std::string& what) const {
  if (waited.outcome == EventWait::Outcome::failed)
    fail_completion(waited.query_failed ? "clGetEventInfo" : "command execution", waited.code, what);
  std::string in_flight;
  {
    std::lock_guard lock(state_mutex_);
    in_flight = in_flight_;
  }
  mark_lost_and_throw(std::make_exception_ptr(
      TimeoutError("opencl", "event wait", device_.name,
                   what + (in_flight.empty() ? "" : " (last work submitted: " + in_flight + ")"),
                   std::chrono::duration<double>(limit).count())));
}

void Context::fail_completion(std::string_view call, cl_int code, std::string_view what) const {
  if (!is_device_fault(code)) throw_error(call, code, device_.name, std::string(what));
  std::string in_flight;
  {
    std::lock_guard lock(state_mutex_);
    in_flight = in_flight_;
  }
  const std::string detail =
      "device lost during " + std::string(what) + (in_flight.empty() ? "" : "; work in flight: " + in_flight) +
      ". " + std::string(core::kLostDeviceAdvice);
  mark_lost_and_throw(std::make_exception_ptr(
      DeviceLostError("opencl", std::string(call), code, std::string(error_name(code)), device_.name, detail)));
}

void Context::mark_lost_and_throw(std::exception_ptr error) const {
  logger().error("opencl: device '{}' is unusable from now on", device_.name);
  fate_.fail(std::move(error));
}

void Context::throw_if_lost() const { fate_.throw_if_failed(); }

bool Context::lost() const { return fate_.failed(); }

void Context::set_in_flight(const core::Plan& plan) const {
  std::lock_guard lock(state_mutex_);
  in_flight_.clear();
  for (const core::KernelPass& pass : plan.passes) {
    if (!in_flight_.empty()) in_flight_ += ", ";
    in_flight_ += pass.entry_point;
  }
  in_flight_ += " (strategy ";
  in_flight_ += core::name(plan.strategy);
  in_flight_ += ')';
}

Context::~Context() {
  pinned_.reset();  // its unmap goes to the queue
  if (!lost()) return;
  // Work may still be queued and never finish: releasing the queues or the context could block in the driver.
  queue_.abandon();
  untimed_queue_.abandon();
  context_.abandon();
}

}  // namespace zr::opencl
