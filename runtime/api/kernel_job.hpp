#pragma once
// One queue::parallel_for of an application's kernel with reducers: checked and planned when it is submitted
// (kernel_launch.hpp), so that a bad call fails before any work with a message naming the problem; run later on
// the queue's worker. Its variables may be host memory or the device's allocations.
#include <cstdint>
#include <vector>

#include "api/backend_device.hpp"
#include "api/kernel_launch.hpp"

namespace zr::api {

class KernelJob {
 public:
  KernelJob(BackendDevice& device, const kernel& k, const detail::kernel_call& call, core::Timestamps timestamps);

  void execute(profile& out);
  // The indices the kernel runs for (for the queue's choice of running small work inline).
  std::uint64_t indices() const { return indices_; }

 private:
  BackendDevice& device_;
  core::Timestamps timestamps_;
  std::uint64_t indices_ = 0;
  std::vector<core::ResultTarget> targets_;  // filled by launch_'s checks: declared before it
  CheckedKernelLaunch launch_;
};

}  // namespace zr::api
