// The device's cache of scalar plans (runtime/api/plan_cache.hpp): a repeated request reuses its plan, any
// field that changes the plan makes a new one, a refused request is not cached, and the oldest entry goes
// first. No device: the plans here are made by hand.
#include "api/plan_cache.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "identity.hpp"

namespace zr::api {
namespace {

core::ReductionRequest sum_of(std::uint64_t n) {
  core::ReductionRequest request;
  request.op = core::Op::plus;
  request.type = core::DataType::f32;
  request.n = n;
  request.identity = core::known_identity(core::Op::plus, core::DataType::f32);
  return request;
}

struct CountingPlanner {
  int calls = 0;
  PlannedRun operator()(const core::ReductionRequest& request) {
    ++calls;
    core::Plan plan;
    plan.request = request;
    plan.reason = "made for n = " + std::to_string(request.n);
    return planned_run(plan);
  }
};

TEST(PlanCache, GivenTheSameRequestTwice_WhenPlanned_ThenTheSecondReusesTheFirstPlan) {
  PlanCache cache;
  CountingPlanner planner;
  const auto request = sum_of(1024);
  const auto first = cache.get(request, [&] { return planner(request); });
  const auto second = cache.get(request, [&] { return planner(request); });
  EXPECT_EQ(planner.calls, 1);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(second->summary.reason, "made for n = 1024");
  EXPECT_EQ(cache.find(request).get(), first.get());
}

TEST(PlanCache, GivenRequestsThatDifferInOneField_WhenPlanned_ThenEachGetsItsOwnPlan) {
  PlanCache cache;
  CountingPlanner planner;
  std::vector<core::ReductionRequest> requests(7, sum_of(1024));
  requests[1].n = 1025;
  requests[2].op = core::Op::maximum;
  requests[3].identity = core::Scalar::from(core::DataType::f32, -0.0f);
  requests[4].include_initial = false;
  requests[5].deterministic = true;
  requests[6].strategy = core::Strategy::tree;
  for (const auto& r : requests) (void)cache.get(r, [&] { return planner(r); });
  EXPECT_EQ(planner.calls, 7);
  for (const auto& r : requests) EXPECT_EQ(cache.find(r)->plan.request.n, r.n);
}

TEST(PlanCache, GivenAPlannerThatThrows_WhenAskedAgain_ThenItIsAskedAgain) {
  PlanCache cache;
  int calls = 0;
  const auto request = sum_of(7);
  auto refuse = [&]() -> PlannedRun {
    ++calls;
    throw std::runtime_error("no kernel");
  };
  EXPECT_THROW((void)cache.get(request, refuse), std::runtime_error);
  EXPECT_THROW((void)cache.get(request, refuse), std::runtime_error);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.find(request), nullptr);
}

TEST(PlanCache, GivenMoreRequestsThanItHolds_WhenPlanned_ThenTheLeastRecentlyUsedIsDropped) {
  PlanCache cache;
  CountingPlanner planner;
  for (std::uint64_t n = 0; n < PlanCache::kCapacity; ++n) (void)cache.get(sum_of(n), [&] { return planner(sum_of(n)); });
  ASSERT_NE(cache.find(sum_of(0)), nullptr);  // now the most recent: n = 1 is the oldest
  (void)cache.get(sum_of(PlanCache::kCapacity), [&] { return planner(sum_of(PlanCache::kCapacity)); });
  EXPECT_NE(cache.find(sum_of(0)), nullptr);
  EXPECT_EQ(cache.find(sum_of(1)), nullptr);
  EXPECT_NE(cache.find(sum_of(PlanCache::kCapacity)), nullptr);
}

}  // namespace
}  // namespace zr::api
