#pragma once
// What the public API needs from a backend, for one device: memory, copies, plans and runs. The two
// implementations (level_zero_backend.cpp, opencl_backend.cpp) are thin adapters over runtime/level_zero and
// runtime/opencl; everything backend-neutral (checks, temporaries, chunking, fusing) lives in the runner.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "api/plan_cache.hpp"
#include "capabilities.hpp"
#include "plan.hpp"
#include "profile.hpp"
#include "zereduce/device.hpp"
#include "zereduce/queue.hpp"

namespace zr::api {

// The allocation a pointer lies in, as the backend knows it.
struct Allocation {
  memory_kind kind = memory_kind::unknown;
  const std::byte* base = nullptr;
  std::uint64_t bytes = 0;
};

// The driver's own handles of a device, for the interop headers: Level Zero's driver, context and device
// (ze_*_handle_t), or OpenCL's platform and device (cl_platform_id, cl_device_id; no context).
struct NativeHandles {
  void* driver = nullptr;
  void* context = nullptr;
  void* device = nullptr;
};

class BackendDevice {
 public:
  virtual ~BackendDevice() = default;

  virtual zr::backend backend() const = 0;
  virtual const std::string& name() const = 0;
  virtual const std::string& driver_version() const = 0;
  virtual std::string description() const = 0;
  // The device's place in its driver's hierarchy where the backend has one: Level Zero's "driver.device", or
  // "driver.device.sub-device" for a sub-device (a tile).
  virtual std::optional<std::string> hierarchy_path() const { return std::nullopt; }
  virtual NativeHandles native_handles() const = 0;
  // Throws when the device reported properties no working device has (the message names them).
  virtual const core::Capabilities& capabilities() const = 0;

  virtual void* allocate(memory_kind kind, std::uint64_t bytes) = 0;
  virtual void release(void* pointer) = 0;
  // nullopt: not an allocation of this device (ordinary host memory, another device's, or garbage).
  virtual std::optional<Allocation> find(const void* pointer) const = 0;
  // Whether kernels may read and write an allocation of this kind in place.
  virtual bool kernels_access(memory_kind kind) const = 0;
  // Whether run() takes ordinary host memory (a std::span's data) as its input and kernels read it where it
  // lies: CPU devices, whose memory is the host's. Others get host input copied to a device allocation first.
  virtual bool reads_host_input_in_place() const { return false; }
  // Rethrows the fault that made the device unusable (a lost device, a missed deadline), if any: work that does
  // not reach the driver (the host path) still reports it, as every later call on the device does.
  virtual void throw_if_unusable() const {}
  // Blocking copy between ordinary host memory and this device's allocations, in any direction.
  virtual void copy(void* destination, const void* source, std::uint64_t bytes) = 0;

  // The plan of one scalar reduction (a backend may refine the core's tuning with what its compiler says).
  virtual core::Plan plan(const core::ReductionRequest& request) = 0;
  // Runs a plan: `input` is an allocation of this device that kernels access in place (or ordinary host memory
  // where reads_host_input_in_place()); each result is one too,
  // or ordinary host memory that the run stages (core::ResultTarget). Blocks until the results are in place.
  // A segmented plan (plan.segments) also reads its offsets from `segment_offsets`, memory as the input is.
  virtual core::RunProfile run(const core::Plan& plan, const void* input, std::span<const core::ResultTarget> results,
                               core::Timestamps timestamps, const void* segment_offsets = nullptr) = 0;

  // The plans of recent scalar reductions on this device (plan() above makes them).
  PlanCache& plan_cache() { return plan_cache_; }

 private:
  PlanCache plan_cache_;
};

}  // namespace zr::api
