// clCreateCommandQueue is the only way to make a queue on an OpenCL 1.x device.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "opencl/context.hpp"

#include "opencl/error.hpp"
#include "log.hpp"
#include "opencl/selection.hpp"
#include "zereduce/errors.hpp"

namespace zr::opencl {

Context::Context(Device device, ContextOptions options)
    : device_(std::move(device)), capabilities_(query_capabilities(device_)) {
  cl_int code = CL_SUCCESS;
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(device_.platform), 0};
  context_ = ContextHandle(clCreateContext(properties, 1, &device_.id, nullptr, nullptr, &code));
  check(code, "clCreateContext", device_.name);
  queue_ = make_queue(CL_QUEUE_PROFILING_ENABLE);
  untimed_queue_ = make_queue(0);
  const auto ingestion = options.ingestion ? options.ingestion : ingestion_from_env();
  programs_ = std::make_unique<ProgramCache>(context_.get(), device_, capabilities_, ingestion);
  logger().debug("opencl: context on {}", device_.description());
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
  cl_int code = CL_SUCCESS;
  MemHandle mem(clCreateBuffer(context_.get(), flags, bytes, nullptr, &code));
  check(code, "clCreateBuffer", device_.name, std::to_string(bytes) + " bytes");
  return Buffer(std::move(mem), bytes);
}

void Context::write(cl_mem buffer, std::span<const std::byte> bytes, std::uint64_t offset) const {
  if (bytes.empty()) return;
  check(clEnqueueWriteBuffer(queue_.get(), buffer, CL_TRUE, offset, bytes.size(), bytes.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer", device_.name, std::to_string(bytes.size()) + " bytes");
}

void Context::read(cl_mem buffer, std::span<std::byte> bytes, std::uint64_t offset) const {
  if (bytes.empty()) return;
  check(clEnqueueReadBuffer(queue_.get(), buffer, CL_TRUE, offset, bytes.size(), bytes.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer", device_.name, std::to_string(bytes.size()) + " bytes");
}

void Context::fill(const Buffer& buffer, std::span<const std::byte> pattern) const {
  check(clEnqueueFillBuffer(queue_.get(), buffer.get(), pattern.data(), pattern.size(), 0, buffer.bytes(), 0, nullptr,
                            nullptr),
        "clEnqueueFillBuffer", device_.name,
        std::to_string(buffer.bytes()) + " bytes with a " + std::to_string(pattern.size()) + "-byte pattern");
}

void Context::finish() const { check(clFinish(queue_.get()), "clFinish", device_.name); }

}  // namespace zr::opencl
