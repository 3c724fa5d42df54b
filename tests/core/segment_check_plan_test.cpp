// The device check of segment offsets (runtime/core/plans/segment_check.hpp) as plain data: its one pass, its
// arguments and result on every kind of device, the groups' summaries folded, and the requests refused.
#include <gtest/gtest.h>

#include <bit>
#include <variant>

#include "fake_devices.hpp"
#include "plans/segment_check.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

const Capabilities kDevices[] = {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu(),
                                 test::pocl_like_cpu(), test::intel_opencl_like_cpu()};

std::uint64_t scalar_arg(const KernelPass& pass, std::size_t i) { return std::get<Scalar>(pass.args[i]).as<std::uint64_t>(); }

TEST(SegmentCheckPlan, GivenOffsetsOfEachWidthWhenPlanningThenOnePassReadsThemAndWritesFourWordsPerGroup) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    for (std::uint32_t width : {4u, 8u})
      for (std::uint64_t segments : {1ull, 4095ull, 50'000'000ull, 1ull << 33}) {
        SegmentCheckRequest request;
        request.segments = segments;
        request.offset_bytes = width;
        request.n = 1ull << 40;
        request.signed_offsets = width == 8;
        request.refuse_empty = segments == 1;
        const Plan plan = make_segment_check_plan(caps, tuning_for(caps), request);
        ASSERT_EQ(plan.passes.size(), 1u);
        const KernelPass& pass = plan.passes.front();
        EXPECT_EQ(pass.entry_point, width == 4 ? "zr_segcheck_u32" : "zr_segcheck_u64");
        EXPECT_EQ(plan.request.type, width == 4 ? DataType::u32 : DataType::u64);
        EXPECT_EQ(plan.request.n, segments + 1);  // the bounds the kernel reads
        EXPECT_TRUE(std::has_single_bit(pass.local_size));
        EXPECT_LE(pass.local_size, caps.max_work_group_size);
        const std::uint64_t groups = pass.group_count();
        EXPECT_GE(groups, 1u);
        EXPECT_LE(groups, 1024u);
        EXPECT_EQ(pass.global_size % pass.local_size, 0u);
        ASSERT_EQ(plan.results.size(), 1u);
        EXPECT_EQ(plan.results[0].elements, groups);
        EXPECT_EQ(result_bytes(plan, 0), groups * 32);
        EXPECT_FALSE(reads_initial_value(plan, 0));
        EXPECT_EQ(std::get<BufferArg>(pass.args[0]).which, BufferArg::Which::input);
        EXPECT_EQ(scalar_arg(pass, 1), segments);
        EXPECT_EQ(scalar_arg(pass, 2), 1u);
        EXPECT_EQ(scalar_arg(pass, 3), 1ull << 40);
        EXPECT_EQ(scalar_arg(pass, 4), width == 8 ? 1u : 0u);
        EXPECT_EQ(scalar_arg(pass, 5), segments == 1 ? 1u : 0u);
        EXPECT_EQ(std::get<BufferArg>(pass.args[6]).which, BufferArg::Which::result);
        EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[7]).bytes, pass.local_size * 32);
        // Small checks take few groups; large ones every group it may.
        if (segments == 1) {
          EXPECT_EQ(groups, 1u);
        }
        if (segments >= 50'000'000) {
          EXPECT_EQ(groups, 1024u);
        }
      }
  }
}

TEST(SegmentCheckPlan, GivenBeginAndEndArraysWhenPlanningThenTheKernelReadsBothHalves) {
  SegmentCheckRequest request;
  request.segments = 1000;
  request.end_step = 1000;
  request.n = 5000;
  const Plan plan = make_segment_check_plan(test::pvc_like_gpu(), tuning_for(test::pvc_like_gpu()), request);
  EXPECT_EQ(plan.request.n, 2000u);
  EXPECT_EQ(scalar_arg(plan.passes.front(), 2), 1000u);
}

TEST(SegmentCheckPlan, GivenGroupSummariesWhenFoldingThenTheFirstBadSegmentAndTheExtremesAreTheWholeInputs) {
  const std::uint64_t none = UINT64_MAX;
  // Three groups: one without good segments, two with; a bad segment in the last two.
  const std::vector<std::uint64_t> words = {none, 0, none, 0,  //
                                            900, 17, 3, 1000,  //
                                            42, 5, 1, UINT64_MAX - 10};
  const SegmentCheckSummary summary = fold_segment_check(words);
  ASSERT_TRUE(summary.first_bad);
  EXPECT_EQ(*summary.first_bad, 42u);
  EXPECT_EQ(summary.longest, 17u);
  EXPECT_EQ(summary.shortest, 1u);
  EXPECT_EQ(summary.covered, UINT64_MAX);  // saturated, not wrapped

  const SegmentCheckSummary good = fold_segment_check(std::vector<std::uint64_t>{none, 4, 2, 6, none, 9, 9, 9});
  EXPECT_FALSE(good.first_bad);
  EXPECT_EQ(good.longest, 9u);
  EXPECT_EQ(good.shortest, 2u);
  EXPECT_EQ(good.covered, 15u);
}

TEST(SegmentCheckPlan, GivenNoSegmentsOrOddWidthsWhenPlanningThenInvalidArgument) {
  SegmentCheckRequest request;
  const Capabilities caps = test::nvidia_like_gpu();
  EXPECT_THROW(make_segment_check_plan(caps, tuning_for(caps), request), InvalidArgumentError);
  request.segments = 5;
  request.offset_bytes = 2;
  EXPECT_THROW(make_segment_check_plan(caps, tuning_for(caps), request), InvalidArgumentError);
}

}  // namespace
}  // namespace zr::core
