#include "api/plan_cache.hpp"

#include <algorithm>

namespace zr::api {

namespace {
bool same_shape(const core::ReductionRequest& a, const core::ReductionRequest& b) {
  return a.op == b.op && a.type == b.type && a.identity.type == b.identity.type &&
         a.identity.bytes == b.identity.bytes && a.include_initial == b.include_initial &&
         a.deterministic == b.deterministic && a.reproducible == b.reproducible &&
         a.binned_state_output == b.binned_state_output && a.strategy == b.strategy &&
         a.transform_value.type == b.transform_value.type && a.transform_value.bytes == b.transform_value.bytes &&
         a.user_operator == b.user_operator;
}

bool same_request(const core::ReductionRequest& a, const core::ReductionRequest& b) {
  return a.n == b.n && same_shape(a, b);
}

bool same_checked_shape(const core::ReductionRequest& a, const core::ReductionRequest& b) {
  return (a.n == b.n || !core::is_binned_sum(a)) && same_shape(a, b);
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

bool PlanCache::checked(const core::ReductionRequest& request) {
  std::lock_guard lock(mutex_);
  const auto found = std::find_if(checked_.begin(), checked_.end(),
                                  [&](const core::ReductionRequest& r) { return same_checked_shape(r, request); });
  if (found == checked_.end()) return false;
  std::rotate(found, found + 1, checked_.end());
  return true;
}

void PlanCache::remember_checked(const core::ReductionRequest& request) {
  std::lock_guard lock(mutex_);
  if (checked_.size() == kCapacity) checked_.erase(checked_.begin());
  checked_.push_back(request);
}

}  // namespace zr::api
