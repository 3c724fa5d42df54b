#include "opencl/selection.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

#include "opencl/error.hpp"
#include "opencl/handles.hpp"
#include "log.hpp"
#include "wait_limit.hpp"

namespace zr::opencl {

namespace {
constexpr cl_uint kProbeValue = 0x5EED1234u;
constexpr cl_uint kHostSentinel = 0xFFFFFFFFu;
constexpr const char* kProbeSource = "kernel void zr_execution_probe(global uint* out) { out[0] = 0x5EED1234u; }";

std::mutex probe_mutex;
std::map<cl_device_id, bool>& probe_results() {
  static std::map<cl_device_id, bool> results;
  return results;
}

// Throws on any failure; false when the kernel ran to completion but the value did not arrive (or the
// commands did not complete in time).
bool run_probe(const Device& device) {
  const std::string& name = device.name;
  cl_int code = CL_SUCCESS;
  ContextHandle context(clCreateContext(nullptr, 1, &device.id, nullptr, nullptr, &code));
  check(code, "clCreateContext", name);
  QueueHandle queue(clCreateCommandQueueWithProperties(context.get(), device.id, nullptr, &code));
  check(code, "clCreateCommandQueueWithProperties", name);
  const char* source = kProbeSource;
  ProgramHandle program(clCreateProgramWithSource(context.get(), 1, &source, nullptr, &code));
  check(code, "clCreateProgramWithSource", name, "execution probe");
  code = clBuildProgram(program.get(), 1, &device.id, "", nullptr, nullptr);
  check(code, "clBuildProgram", name, "execution probe");
  KernelHandle kernel(clCreateKernel(program.get(), "zr_execution_probe", &code));
  check(code, "clCreateKernel", name, "execution probe");
  cl_uint initial = 0;
  MemHandle buffer(
      clCreateBuffer(context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(initial), &initial, &code));
  check(code, "clCreateBuffer", name, "execution probe");
  cl_mem mem = buffer.get();
  check(clSetKernelArg(kernel.get(), 0, sizeof(mem), &mem), "clSetKernelArg", name, "execution probe");
  const std::size_t one = 1;
  check(clEnqueueNDRangeKernel(queue.get(), kernel.get(), 1, nullptr, &one, &one, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel", name, "execution probe");
  cl_uint result = kHostSentinel;
  cl_event raw_event = nullptr;
  check(clEnqueueReadBuffer(queue.get(), mem, CL_FALSE, 0, sizeof(result), &result, 0, nullptr, &raw_event),
        "clEnqueueReadBuffer", name, "execution probe");
  EventHandle read_done(raw_event);
  check(clFlush(queue.get()), "clFlush", name, "execution probe");
  // Poll rather than block: a device that never runs anything must not hang the caller.
  const auto limit = core::probe_wait_limit();
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    cl_int status = CL_QUEUED;
    check(clGetEventInfo(read_done.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
          "clGetEventInfo", name, "execution probe");
    if (status < 0) throw_error("execution probe", status, name, "the probe's commands failed");
    if (status == CL_COMPLETE) break;
    if (std::chrono::steady_clock::now() > deadline) {
      logger().debug("opencl: execution probe on '{}' did not complete in {}", name, core::seconds_text(limit));
      // Releasing what still has work queued can block in the driver behind that work: leak it instead.
      read_done.abandon();
      buffer.abandon();
      kernel.abandon();
      program.abandon();
      queue.abandon();
      context.abandon();
      return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  if (result != kProbeValue) {
    logger().debug("opencl: execution probe on '{}' read back {:#x} instead of {:#x}", name, result, kProbeValue);
  }
  return result == kProbeValue;
}
}  // namespace

bool probe_execution(const Device& device) {
  std::lock_guard lock(probe_mutex);
  auto& results = probe_results();
  if (auto found = results.find(device.id); found != results.end()) return found->second;
  bool executes = false;
  try {
    executes = run_probe(device);
  } catch (const std::exception& error) {
    logger().debug("opencl: execution probe on '{}' failed: {}", device.name, error.what());
  }
  logger().info("opencl: device {} {} kernels", device.description(), executes ? "executes" : "does NOT execute");
  results[device.id] = executes;
  return executes;
}

std::optional<bool> known_execution(cl_device_id device) {
  std::lock_guard lock(probe_mutex);
  auto& results = probe_results();
  if (auto found = results.find(device); found != results.end()) return found->second;
  return std::nullopt;
}

std::vector<Device> devices_by_preference(std::vector<Device> devices) {
  auto rank = [](const Device& d) {
    switch (d.type) {
      case core::DeviceType::gpu: return 0;
      case core::DeviceType::cpu: return 1;
      default: return 2;
    }
  };
  std::stable_sort(devices.begin(), devices.end(), [&](const Device& a, const Device& b) { return rank(a) < rank(b); });
  return devices;
}

std::optional<Device> default_device() {
  for (Device& device : devices_by_preference(list_devices())) {
    try {
      query_capabilities(device);
    } catch (const std::exception& error) {
      logger().debug("opencl: skipping device '{}': {}", device.name, error.what());
      continue;
    }
    if (probe_execution(device)) {
      logger().debug("opencl: default device is {}", device.description());
      return std::move(device);
    }
  }
  logger().warn("opencl: no OpenCL device executes kernels");
  return std::nullopt;
}

}  // namespace zr::opencl
