#pragma once
// An application's kernel with reducers, checked against one call and planned: what queue::parallel_for
// (kernel_job.cpp) and the interop reducers' append_parallel_for (opencl_interop.cpp, level_zero_interop.cpp)
// share. A wrong call (argument or reduction count, a reduction unlike its reducer, a property the kernel cannot
// keep, a device lacking the module's features) is refused here, before any work, with the problem named. Each
// caller checks memory its own way (a queue: its device's allocations or host variables; interop: the
// application's USM or SVM) through KernelMemoryChecks.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "capabilities.hpp"
#include "plans/kernel_reducers.hpp"
#include "zereduce/event.hpp"
#include "zereduce/kernel.hpp"

namespace zr::api {

// Each throws zr::InvalidArgumentError naming the problem. `argument`: a non-null pointer argument (its index
// among the kernel's own arguments); `variable`: reduction r's variable of `bytes` bytes.
struct KernelMemoryChecks {
  std::function<void(const void* pointer, std::size_t argument)> argument;
  std::function<void(void* variable, std::uint64_t bytes, std::size_t reduction)> variable;
};

class CheckedKernelLaunch {
 public:
  CheckedKernelLaunch(const core::Capabilities& caps, const std::string& device_name, const kernel& k,
                      const detail::kernel_call& call, const KernelMemoryChecks& checks);

  const core::Plan& plan() const { return plan_; }
  const plan_summary& summary() const { return summary_; }
  std::uint64_t variable_bytes(std::size_t r) const;
  // The variables that must hold the identity before the launch: spans with initialize_to_identity (the kernel
  // folds a span into what its variable holds). Each is `bytes` long, filled with copies of `identity`.
  struct IdentityFill {
    std::size_t reduction = 0;
    core::Scalar identity;
    std::uint64_t bytes = 0;
  };
  const std::vector<IdentityFill>& identity_fills() const { return identity_fills_; }

 private:
  void check_reductions(const core::UserKernel& kernel) const;
  core::KernelReduction reduction_of(const detail::reduction_spec& spec, const core::KernelReducer& reducer) const;

  std::shared_ptr<const core::UserKernel> kernel_;
  std::vector<detail::reduction_spec> specs_;
  core::Plan plan_;
  plan_summary summary_;
  std::vector<IdentityFill> identity_fills_;
};

}  // namespace zr::api
