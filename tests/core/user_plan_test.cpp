// A user operator's plans (plan.cpp, zr_user.h): their combine depth counts every combine on the longest
// path, where the operator takes one element or slot at a time and the group tree folds three more slots into
// a work-item's accumulator a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "fake_devices.hpp"
#include "plan.hpp"
#include "sample_operators.hpp"
#include "strategy.hpp"
#include "user_operator.hpp"

namespace zr::core {
namespace {

ReductionRequest user_sum_request(std::uint64_t n, Strategy strategy) {
  const auto& source = zr_operators::f32_sum;
  ReductionRequest r;
  r.op = Op::user;
  r.user_operator = load_user_operator({source.name, {source.spirv, source.spirv_words}, source.opencl_c_source});
  r.type = r.user_operator->element_bits();
  r.identity = Scalar{r.type, {}};  // unused by user operators, typed as the API types it
  r.n = n;
  r.include_initial = false;
  r.strategy = strategy;
  return r;
}

// The combines on work-item 0's path through one group's tree, by replaying zr_user_group_tree's data flow:
// each step, work-item i < s folds slots i + s, i + 2s, i + 3s into its own, one after another.
std::uint64_t replayed_tree_depth(std::uint64_t local_size) {
  std::vector<std::uint64_t> depth(local_size, 0);
  for (std::uint64_t active = local_size; active > 1;) {
    const std::uint64_t step = (active + 3) / 4;
    for (std::uint64_t i = 0; i < step; ++i)
      for (std::uint64_t from = i + step; from < active; from += step) depth[i] = std::max(depth[i], depth[from]) + 1;
    active = step;
  }
  return depth[0];
}

TEST(UserPlan, GivenAGpuUserSum_WhenPlanned_ThenItsDepthHoldsEachWorkItemsChainAndBothGroupTrees) {
  const std::uint64_t n = 1ull << 24;
  std::size_t planned = 0;
  for (const Capabilities& caps : {test::pvc_like_gpu(), test::nvidia_like_gpu()})
  for (Strategy s : {Strategy::tree, Strategy::last_group}) {
    const ReductionRequest r = user_sum_request(n, s);
    if (why_unavailable(s, caps, r)) continue;
    const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
    ++planned;
    const KernelPass& first = plan.passes.front();
    // The group that combines the partials: the last to finish (last_group), or the final pass's one group.
    const std::uint64_t last_size = s == Strategy::last_group ? first.local_size : plan.passes.back().local_size;
    const std::uint64_t chain = n / first.global_size;  // a work-item's share, one element at a time
    const std::uint64_t trees = replayed_tree_depth(first.local_size) + replayed_tree_depth(last_size);
    EXPECT_GE(combine_depth(plan), chain + trees) << name(s) << "\n" << describe(plan);
    EXPECT_LE(combine_depth(plan), chain + trees + 64) << name(s) << "\n" << describe(plan);
  }
  EXPECT_GT(planned, 0u);
}

TEST(UserPlan, GivenACpuUserSum_WhenPlanned_ThenItsDepthHoldsTheWholeChunk) {
  const Capabilities caps = test::pocl_like_cpu();
  const std::uint64_t n = (1ull << 20) + 7;
  const ReductionRequest r = user_sum_request(n, Strategy::cpu_chunks);
  const Plan plan = make_plan(caps, r, choose_strategy(caps, r));
  const std::uint64_t items = plan.passes.front().global_size;
  EXPECT_GE(combine_depth(plan), n / items) << describe(plan);  // a chunk in index order, one element at a time
}

}  // namespace
}  // namespace zr::core
