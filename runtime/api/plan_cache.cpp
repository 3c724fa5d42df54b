#include "api/plan_cache.hpp"

#include <algorithm>

namespace zr::api {

namespace {
bool same_request(const core::ReductionRequest& a, const core::ReductionRequest& b) {
  return a.op == b.op && a.type == b.type && a.n == b.n && a.identity.type == b.identity.type &&
         a.identity.bytes == b.identity.bytes && a.include_initial == b.include_initial &&
         a.deterministic == b.deterministic && a.reproducible == b.reproducible &&
         a.binned_state_output == b.binned_state_output && a.strategy == b.strategy &&
         a.transform_value.type == b.transform_value.type && a.transform_value.bytes == b.transform_value.bytes &&
         a.user_operator == b.user_operator;
}
}  // namespace

PlannedRun planned_run(core::Plan plan) {
  plan_summary summary{static_cast<strategy>(plan.strategy), plan.reason, core::describe(plan),
                       core::combine_depth(plan)};
  return {std::move(plan), std::move(summary)};
}

std::shared_ptr<const PlannedRun> PlanCache::find(const core::ReductionRequest& request) {
  std::lock_guard lock(mutex_);
  const auto found =
      std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return same_request(e.request, request); });
  if (found == entries_.end()) return nullptr;
  std::rotate(found, found + 1, entries_.end());
  return entries_.back().planned;
}

std::shared_ptr<const PlannedRun> PlanCache::get(const core::ReductionRequest& request,
                                                 const std::function<PlannedRun()>& make) {
  if (auto cached = find(request)) return cached;
  // Planned outside the lock: two threads asking at once both plan, and the second entry only ages out.
  auto planned = std::make_shared<const PlannedRun>(make());
  std::lock_guard lock(mutex_);
  if (entries_.size() == kCapacity) entries_.erase(entries_.begin());
  entries_.push_back({request, planned});
  return planned;
}

}  // namespace zr::api
