#pragma once
// The plans of the last few distinct scalar reductions a device ran, with their summaries. A small reduction
// costs the host more to check, plan and describe than the device needs to run it (on the H100, the
// executor alone took 18-21 us for a blocking 2^10..2^16 reduction and the public API 23-34 us before this
// cache), and applications repeat the same reduction: a repeated request skips the strategy choice, the plan
// and its description. Plans depend on the request and the device alone, so they never go stale.
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "plan.hpp"
#include "strategy.hpp"
#include "zereduce/event.hpp"

namespace zr::api {

// A plan with what a profile reports of it.
struct PlannedRun {
  core::Plan plan;
  plan_summary summary;
};

PlannedRun planned_run(core::Plan plan);

class PlanCache {
 public:
  static constexpr std::size_t kCapacity = 16;

  // The cached plan of `request`, or null.
  std::shared_ptr<const PlannedRun> find(const core::ReductionRequest& request);
  // The cached plan of `request`, or the one `make` returns (cached when it returns; nothing is cached when
  // it throws, so a refused request is refused again with the same message).
  std::shared_ptr<const PlannedRun> get(const core::ReductionRequest& request,
                                        const std::function<PlannedRun()>& make);

  // Whether a request of this shape has passed core::choose_strategy on this device before. The host path plans
  // nothing, and choosing a strategy only to learn that the device allows the request was a third of a small
  // host-path call (issue 42). The shape leaves n out, except for binned sums, whose limit on n is the one
  // refusal that depends on it.
  bool checked(const core::ReductionRequest& request);
  void remember_checked(const core::ReductionRequest& request);

 private:
  struct Entry {
    core::ReductionRequest request;
    std::shared_ptr<const PlannedRun> planned;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;  // most recently used last
  std::vector<core::ReductionRequest> checked_;  // as entries_
};

}  // namespace zr::api
