// Transforms per segment with skewed sizes in the plan GPUs get (plans/segmented_transform.cpp): the first launch
// folds the short segments and lists the long ones as slices, the second takes a group per slice and the last of a
// segment's slices to finish merges them in order. The conformance sizes never cut a deferred segment into several
// slices on the devices CI has; here the group is narrow (64 work-items, so slices of 16K elements) and segments of
// up to 150K elements are, also with every launch cut to one group (which must then stride over every slice). The
// plan is a GPU's, run on a GPU (below: why not on CPU devices).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "plans/segmented.hpp"
#include "test_support.hpp"
#include "tuning.hpp"

namespace zr::opencl {
namespace {

using core::DataType;
using core::Op;

// Segments of 0 to 12 elements (tens of thousands: enough to fill any GPU, so no slices in the first launch), three of
// 40K to 150K among them, and a few elements after the last.
std::vector<std::uint64_t> skewed_offsets(std::uint64_t n) {
  std::mt19937_64 rng(46);
  std::vector<std::uint64_t> offsets{2};
  while (offsets.back() + 20 < n) {
    const std::size_t k = offsets.size();
    const std::uint64_t size = k == 100 ? 150001 : k == 9000 ? 40000 : k == 15000 ? 65536 : rng() % 13;
    offsets.push_back(std::min(n - 5, offsets.back() + size));
  }
  return offsets;
}

template <typename R>
std::vector<R> run_deferred(Op op, const std::vector<float>& input, const std::vector<std::uint64_t>& offsets,
                            bool one_group, core::Plan* planned) {
  Executor& executor = *test::shared_executor();
  Context& context = executor.context();
  core::Capabilities caps = context.capabilities();
  caps.type = core::DeviceType::gpu;
  caps.max_work_group_size = 64;
  const std::uint64_t segments = offsets.size() - 1;
  core::SegmentLayout layout{segments, 8, 0, 0};
  for (std::uint64_t s = 0; s < segments; ++s) layout.longest = std::max(layout.longest, offsets[s + 1] - offsets[s]);
  core::ReductionRequest request;
  request.op = op;
  request.type = DataType::f32;
  request.n = input.size();
  request.identity = core::Scalar{DataType::f32, {}};
  request.include_initial = false;
  core::Plan plan = core::make_segmented_plan(caps, request, layout, core::tuning_for(caps));
  *planned = plan;
  if (one_group)
    for (auto& pass : plan.passes) pass.global_size = pass.local_size;
  Buffer input_buffer = context.create_buffer(input.size() * sizeof(float));
  Buffer offsets_buffer = context.create_buffer(offsets.size() * sizeof(std::uint64_t));
  Buffer result_buffer = context.create_buffer(segments * sizeof(R));
  context.write(input_buffer.get(), std::as_bytes(std::span(input)));
  context.write(offsets_buffer.get(), std::as_bytes(std::span(offsets)));
  const cl_mem results[] = {result_buffer.get()};
  std::vector<R> got(segments);
  // Twice: the counters and the list are set back to zero by the first run for the second.
  for (int run = 0; run < 2; ++run) {
    (void)executor.wait(executor.enqueue(plan, input_buffer.get(), results, Timestamps::on, offsets_buffer.get()));
    std::vector<R> again(segments);
    context.read(result_buffer.get(), std::as_writable_bytes(std::span(again)));
    if (run == 1) {
      EXPECT_EQ(std::memcmp(again.data(), got.data(), segments * sizeof(R)), 0) << "run 2 gave other bits";
    }
    got = std::move(again);
  }
  return got;
}

void expect_deferred_slices(const core::Plan& plan) {
  ASSERT_EQ(plan.passes.size(), 2u) << core::describe(plan);
  const std::uint64_t slice_elements = std::get<core::Scalar>(plan.passes[0].args[17]).as<std::uint64_t>();
  EXPECT_LT(slice_elements, 40000u) << core::describe(plan);  // every long segment takes several slices
}

std::vector<float> input_of(std::uint64_t n) {
  std::vector<float> x(n);
  for (std::uint64_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 2654435761u) % 17) * 0.5f - 3.0f;  // zeros too
  return x;
}

// The merge of a segment's slices waits on barriers inside a grid-stride loop and behind a branch on local memory:
// GPUs run it (the H100: ZR_TEST_OPENCL_DEVICE=gpu), but CPU runtimes' work-group compilers did not (PoCL 3.1 and
// Intel's CPU runtime ran the last group's store in every work-item as if it were work-item 0, and the slices path
// of few long segments the same), so on CPU devices the test says so and stops; CPU devices run segtcpu, whose
// slices are merged by a second launch.
class OpenclSegmentDeferred : public ::testing::TestWithParam<bool> {  // one group per launch, or the planned launch
 protected:
  void SetUp() override {
    ZR_REQUIRE_TEST_DEVICE();
    if (test::shared_executor()->context().capabilities().type == core::DeviceType::cpu)
      GTEST_SKIP() << "a GPU kernel's merge of slices behind barriers in a loop: CPU runtimes' work-group compilers "
                      "do not run it as GPUs do (run with ZR_TEST_OPENCL_DEVICE=gpu)";
  }
};

TEST_P(OpenclSegmentDeferred, GivenLongSegmentsCutIntoSlicesWhenCountingNonzerosThenEverySegmentIsExact) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::vector<float> input = input_of(600007);
  const auto offsets = skewed_offsets(input.size());
  core::Plan plan;
  const auto got = run_deferred<std::uint64_t>(Op::count_nonzero, input, offsets, GetParam(), &plan);
  expect_deferred_slices(plan);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    std::uint64_t want = 0;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) want += input[i] != 0.0f;
    ASSERT_EQ(got[s], want) << "segment " << s << " [" << offsets[s] << ", " << offsets[s + 1] << ")\n" << core::describe(plan);
  }
}

TEST_P(OpenclSegmentDeferred, GivenLongSegmentsCutIntoSlicesWhenTakingNormsThenEverySegmentIsWithinItsBound) {
  ZR_REQUIRE_TEST_DEVICE();
  const std::vector<float> input = input_of(600007);
  const auto offsets = skewed_offsets(input.size());
  core::Plan plan;
  const auto got = run_deferred<float>(Op::norm_l2, input, offsets, GetParam(), &plan);
  expect_deferred_slices(plan);
  const double depth = static_cast<double>(core::combine_depth(plan));
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    double squares = 0;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) squares += static_cast<double>(input[i]) * input[i];
    // The sum of squares within depth roundings of f32, then a square root.
    const double want = std::sqrt(squares), bound = want * (depth + 2) * 0x1p-24 + 1e-30;
    ASSERT_NEAR(got[s], want, bound) << "segment " << s << " [" << offsets[s] << ", " << offsets[s + 1] << ")\n"
                                     << core::describe(plan);
  }
}

INSTANTIATE_TEST_SUITE_P(Launches, OpenclSegmentDeferred, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "OneGroupPerLaunch" : "PlannedLaunch"; });

}  // namespace
}  // namespace zr::opencl
