#pragma once
// One queue::reduce call: checked and planned when it is submitted (so a bad request fails before any work,
// with a message naming the problem), executed later on the queue's worker.
//
// Scalar reductions of one call share one read of the input (a fused plan when there are several); each
// array reduction is a column plan of its own. Inputs larger than one device allocation are processed in
// chunks: each chunk's result is folded into the next as its initial value, except for reproducible sums,
// whose chunks leave unrounded partial sums that the host merges and rounds once, and arg-reductions, whose
// chunks' candidates the host compares. Host inputs are copied to the
// device chunk by chunk, except on devices that read host memory in place (CPU devices). Results whose
// variable kernels cannot write in place (ordinary host memory) are staged by the backend within each run.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "api/backend_device.hpp"
#include "binned_sum.hpp"
#include "plan.hpp"
#include "zereduce/reduction.hpp"

namespace zr::api {

class ReductionJob {
 public:
  ReductionJob(BackendDevice& device, const void* input, element_type type, std::uint64_t n, bool host_input,
               std::span<const detail::reduction_spec> specs, core::Timestamps timestamps);

  void execute(profile& out);
  // Whether the calling thread reduces the input itself (core/host_path.hpp): its work is the same on any thread,
  // so the queue runs it where it was submitted rather than waking its worker for it.
  bool on_calling_thread() const { return host_path_; }

 private:
  // Reductions that run as one plan, and the indices of their specs.
  struct Group {
    std::vector<std::size_t> specs;
    std::uint64_t columns = 1;
    bool binned = false;  // a reproducible floating-point sum (its own group)
  };
  core::Plan plan_for(const Group& group, std::uint64_t n, bool first_chunk) const;
  core::ReductionRequest scalar_request(const Group& group, std::uint64_t n, bool first_chunk) const;
  // request_of(spec, ...), less the initial value where initial_on_host_ folds it in on the host.
  core::ReductionRequest planned_request(const detail::reduction_spec& spec, std::uint64_t n, bool first_chunk) const;
  bool folds_initial_on_host(const detail::reduction_spec& spec) const;
  // The variable of a reproducible sum run in chunks: the merged partial sums, with the initial value added
  // unless initialize_to_identity, rounded once (or the partial itself for queue::reduce_partial).
  void write_binned_result(const detail::reduction_spec& spec, const core::ResultTarget& target,
                           const core::BinnedState& merged) const;
  std::shared_ptr<const PlannedRun> first_plan_for(const Group& group) const;
  void check_input() const;
  void check_variable(const detail::reduction_spec& spec) const;
  void check_strategies(const Group& group) const;
  bool takes_host_path() const;
  void execute_on_host(profile& out) const;
  // The columns of an array reduction on the host path into their results (host or device memory).
  void write_host_path_columns(const core::ReductionRequest& request, bool host_variable) const;
  void write_host_path_result(const core::ReductionRequest& request, bool host_variable) const;
  void flip_lowest_bit(const core::ResultTarget& target);  // ZE_REDUCE_FAULT_INJECTION (tests only)

  BackendDevice& device_;
  const void* input_;
  core::DataType type_;
  std::uint64_t n_;
  bool host_input_;
  core::Timestamps timestamps_;
  std::vector<detail::reduction_spec> specs_;
  std::vector<Group> groups_;
  // Made when checking the request (from the device's plan cache for a single scalar reduction); the first
  // chunk runs them.
  std::vector<std::shared_ptr<const PlannedRun>> first_plans_;
  // A single scalar reduction the device has planned before: found once, while checking the request.
  std::shared_ptr<const PlannedRun> cached_scalar_plan_;
  std::uint64_t chunk_elements_ = 0;
  bool binned_groups_ = false;  // a reproducible floating-point sum is among the reductions
  bool binned_in_chunks_ = false;  // ... and the input is larger than one allocation
  // An arg-reduction over more than one chunk: each chunk's {value, index} lands on the host, its index offset
  // by the chunk's first element, and the first of them in the arg order is the result.
  bool arg_in_chunks_ = false;
  bool host_path_ = false;  // reduced on the calling thread (core/host_path.hpp)
  std::uint64_t host_path_limit_ = 0;  // core::host_path_max_bytes of the device, asked once
  // A single scalar reduction in one chunk into a host variable whose initial value joins the result: the kernels
  // run without it and the host folds it in after them with their combine (core::combine_initial). Before, every
  // such call (SYCL's default) copied the initial value to the device first, one command more before the kernel.
  bool initial_on_host_ = false;
};

}  // namespace zr::api
