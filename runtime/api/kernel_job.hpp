#pragma once
// One queue::parallel_for of an application's kernel with reducers: the kernel loaded and checked against the
// call (its arguments and reductions), linked with its epilogue and planned when it is submitted, so that a bad
// call fails before any work with a message naming the problem; run later on the queue's worker.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "api/backend_device.hpp"
#include "plans/kernel_reducers.hpp"
#include "zereduce/kernel.hpp"
#include "zereduce/reduction.hpp"

namespace zr::api {

class KernelJob {
 public:
  KernelJob(BackendDevice& device, const kernel& k, std::uint64_t global, std::uint64_t local,
            std::span<const detail::kernel_arg> args, std::span<const detail::reduction_spec> specs,
            bool arg_after_reduction, core::Timestamps timestamps);

  void execute(profile& out);
  // The indices the kernel runs for (for the queue's choice of running small work inline).
  std::uint64_t indices() const { return indices_; }

 private:
  void check_reductions(const core::UserKernel& kernel) const;
  core::KernelReduction reduction_of(const detail::reduction_spec& spec, const core::KernelReducer& reducer) const;
  // initialize_to_identity of a span: its variable filled with the identity before the launch.
  void fill_with_identity(const detail::reduction_spec& spec, const core::ResultTarget& target) const;

  BackendDevice& device_;
  core::Timestamps timestamps_;
  std::uint64_t indices_ = 0;
  std::vector<detail::reduction_spec> specs_;
  std::vector<core::ResultTarget> targets_;
  std::shared_ptr<const core::UserKernel> kernel_;
  core::Plan plan_;
  plan_summary summary_;
};

}  // namespace zr::api
