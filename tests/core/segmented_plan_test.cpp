// The segmented plan family (runtime/core/plans/segmented.hpp) as plain data: which kernels a distribution of
// segment sizes gets on each kind of device, their shapes and arguments, the slices of few long segments, the
// error bound's depth, and the layouts refused.
#include <gtest/gtest.h>

#include <bit>
#include <variant>

#include "fake_devices.hpp"
#include "identity.hpp"
#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"
#include "tuning.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {
namespace {

ReductionRequest request(Op op, DataType type, std::uint64_t n, bool include_initial = false) {
  ReductionRequest r;
  r.op = op;
  r.type = type;
  r.n = n;
  r.identity = known_identity(op, type);
  r.include_initial = include_initial;
  return r;
}

SegmentLayout equal(std::uint64_t segments, std::uint64_t length) { return {segments, 0, length, length}; }
SegmentLayout by_offsets(std::uint64_t segments, std::uint64_t longest, std::uint32_t bytes = 8) {
  return {segments, bytes, 0, longest};
}

std::uint64_t u64_arg(const KernelPass& pass, std::size_t i) { return std::get<Scalar>(pass.args[i]).as<std::uint64_t>(); }
const BufferArg& buffer_arg(const KernelPass& pass, std::size_t i) { return std::get<BufferArg>(pass.args[i]); }

Plan plan_for(const Capabilities& caps, std::uint64_t n, const SegmentLayout& layout, Op op = Op::plus,
              DataType type = DataType::f32) {
  return make_segmented_plan(caps, request(op, type, n), layout, tuning_for(caps));
}

const Capabilities kDevices[] = {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu(),
                                 test::pocl_like_cpu(), test::intel_opencl_like_cpu()};

TEST(SegmentedPlan, GivenSegmentsOfAtMostEightWhenPlanningThenOneWorkItemPerSegmentInOnePass) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    for (std::uint64_t length : {1u, 2u, 4u, 8u}) {
      const Plan plan = plan_for(caps, (1u << 20) * length, equal(1u << 20, length));
      ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
      const KernelPass& pass = plan.passes.front();
      const bool cpu = caps.type == DeviceType::cpu;
      // GPUs: four consecutive segments a work-item where none is longer than one element (segquad).
      EXPECT_EQ(pass.entry_point, cpu ? "zr_segitemcpu_plus_f32" : length == 1 ? "zr_segquad_plus_f32" : "zr_segitem_plus_f32");
      EXPECT_EQ(buffer_arg(pass, 2).which, BufferArg::Which::none);  // equal segments read no offsets
      EXPECT_EQ(u64_arg(pass, 4), length);
      EXPECT_EQ(u64_arg(pass, 5), 1u << 20);
      EXPECT_EQ(buffer_arg(pass, 6).which, BufferArg::Which::result);
      EXPECT_EQ(pass.global_size % pass.local_size, 0u);
      EXPECT_LE(pass.local_size, caps.max_work_group_size);
      EXPECT_TRUE(plan.scratch.empty());
      EXPECT_TRUE(plan.request.deterministic);
      ASSERT_EQ(plan.results.size(), 1u);
      EXPECT_EQ(plan.results.front().elements, 1u << 20);
      EXPECT_EQ(combine_depth(plan), length);
      if (!cpu) {  // no more work-items than quads (or segments)
        const std::uint64_t per_item = length == 1 ? kSegmentQuad : 1;
        EXPECT_LT(pass.global_size, (1u << 20) / per_item + pass.local_size) << describe(plan);
      }
    }
    // Offsets: the same family when the longest segment is short, whatever the mean.
    const Plan skewed = plan_for(caps, 1000, by_offsets(900, 8, 4));
    EXPECT_EQ(skewed.passes.front().entry_point,
              caps.type == DeviceType::cpu ? "zr_segitemcpu_plus_f32" : "zr_segitem_plus_f32");
    EXPECT_EQ(buffer_arg(skewed.passes.front(), 2).which, BufferArg::Which::segment_offsets);
    EXPECT_EQ(std::get<Scalar>(skewed.passes.front().args[3]).as<std::uint32_t>(), 4u);
  }
}

TEST(SegmentedPlan, GivenManyMediumSegmentsOnAGpuWhenPlanningThenLanesPerSegmentGrowWithTheMeanLength) {
  for (const auto& caps : {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu()}) {
    SCOPED_TRACE(caps.device_name);
    const Tuning tuning = tuning_for(caps);
    std::uint64_t previous_lanes = 0;
    for (std::uint64_t length : {16u, 32u, 64u, 256u, 1024u}) {
      SCOPED_TRACE(length);
      const std::uint64_t segments = (1u << 26) / length;
      const Plan plan = plan_for(caps, 1u << 26, equal(segments, length));
      ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
      const KernelPass& pass = plan.passes.front();
      ASSERT_EQ(pass.entry_point, "zr_segsub_plus_f32") << describe(plan);
      const std::uint64_t lanes = std::uint64_t{1} << std::get<Scalar>(pass.args[6]).as<std::uint32_t>();
      EXPECT_EQ(pass.local_size % lanes, 0u);
      EXPECT_GE(lanes * tuning.segment_lane_elements, length) << "no lane folds more than segment_lane_elements";
      EXPECT_LE(lanes * 4, length) << "every lane folds at least four";
      EXPECT_GE(lanes, previous_lanes);
      EXPECT_LE(pass.local_size, caps.max_work_group_size);
      EXPECT_EQ(pass.local_size & (pass.local_size - 1), 0u) << "a power of two";
      EXPECT_EQ(combine_depth(plan), (length + lanes - 1) / lanes + static_cast<std::uint64_t>(std::countr_zero(lanes)));
      previous_lanes = lanes;
    }
    EXPECT_GT(previous_lanes, 1u);
  }
}

TEST(SegmentedPlan, GivenSkewedSizesOnAGpuWhenPlanningThenTheWorkIsSplitByElementsAcrossSegments) {
  const Capabilities caps = test::nvidia_like_gpu();
  // Fifty million segments of five elements on average, the longest of a million (bench's power-law sizes).
  const std::uint64_t n = 1u << 28;
  const Plan plan = plan_for(caps, n, by_offsets(50'000'000, 1'000'000));
  ASSERT_EQ(plan.passes.size(), 2u) << describe(plan);
  const KernelPass& spans = plan.passes[0];
  const KernelPass& join = plan.passes[1];
  EXPECT_EQ(spans.entry_point, "zr_segspan_plus_f32") << describe(plan);
  EXPECT_EQ(join.entry_point, "zr_segjoin_plus_f32");
  const auto span = u64_arg(spans, 5);
  const std::uint64_t items = segment_span_items(4);
  const std::uint64_t tile = spans.local_size * items;
  EXPECT_EQ(span % tile, 0u) << "a span is whole tiles";
  const std::uint64_t span_count = (n + span - 1) / span;
  // A group per span, no more groups than a few per compute unit, and every group busy.
  EXPECT_EQ(spans.global_size, span_count * spans.local_size);
  EXPECT_LE(span_count, caps.compute_units * tuning_for(caps).segment_span_groups_per_compute_unit);
  EXPECT_GE(span_count, caps.compute_units);
  EXPECT_LE(join.global_size, span_count + join.local_size);
  ASSERT_EQ(plan.scratch.size(), 2u);
  EXPECT_EQ(plan.scratch[0].bytes, 2 * span_count * 4) << "two f32 pieces per span";
  EXPECT_EQ(plan.scratch[1].bytes, span_count * 8) << "a 64-bit segment index per span";
  // The kernel reads a lane's heads as uint4 from a 16-byte boundary that it finds itself (a local argument is
  // promised only 4-byte alignment): every position and its pads (four per 32), three round counts, and up to 12
  // bytes of slack to reach the boundary.
  const auto& heads = std::get<LocalMemoryArg>(spans.args.at(11));
  EXPECT_GE(heads.bytes, 4 * (tile + 4 * (tile / 32) + 3) + 12);
  // The plain ops' results are stored from the lanes (no staging argument: segargspan's alone stages them), and the
  // tile's heads and the lanes' scan fit the group's local memory.
  EXPECT_EQ(spans.args.size(), 14u) << describe(plan);
  std::uint64_t local = 0;
  for (const auto& arg : spans.args)
    if (const auto* bytes = std::get_if<LocalMemoryArg>(&arg)) local += bytes->bytes;
  EXPECT_LE(local, caps.local_memory_bytes);
  // A lane's chain, the scan, a carry per tile; then the few pieces of a million-element segment (two per span
  // it crosses) through the join's group tree.
  EXPECT_GE(combine_depth(plan), items + span / tile);
  EXPECT_LE(combine_depth(plan), items + 12 + span / tile + 24);
  // The same mean with no long segment takes lanes; equal segments are never skewed.
  EXPECT_EQ(plan_for(caps, n, by_offsets(50'000'000, 40)).passes.front().entry_point, "zr_segsub_plus_f32");
  // segspan numbers a tile's segments in 32 bits: 2^32 - 1 segments or more take a group each instead.
  const Plan many = plan_for(caps, std::uint64_t{1} << 40, by_offsets(UINT32_MAX, std::uint64_t{1} << 36));
  EXPECT_TRUE(many.passes.front().entry_point.starts_with("zr_seggroup_")) << describe(many);
  EXPECT_EQ(plan_for(caps, std::uint64_t{1} << 40, by_offsets(UINT32_MAX - 1, std::uint64_t{1} << 36)).passes.front().entry_point,
            "zr_segspan_plus_f32");
  // A device with little local memory gets narrower groups.
  Tuning wide = tuning_for(caps);
  wide.segment_span_lanes = 256;
  Capabilities small = caps;
  small.local_memory_bytes = 4096;
  const Plan narrow = make_segmented_plan(small, request(Op::plus, DataType::f64, n), by_offsets(50'000'000, 1'000'000), wide);
  ASSERT_TRUE(narrow.passes[0].entry_point.starts_with("zr_segspan_")) << describe(narrow);
  std::uint64_t narrow_local = 0;
  for (const auto& arg : narrow.passes[0].args)
    if (const auto* bytes = std::get_if<LocalMemoryArg>(&arg)) narrow_local += bytes->bytes;
  EXPECT_LE(narrow_local, small.local_memory_bytes);
  EXPECT_LT(narrow.passes[0].local_size, 256u);
}

TEST(SegmentedPlan, GivenManyLongSegmentsWhenPlanningThenOneGroupPerSegmentSizedByTheMeanLength) {
  const Capabilities caps = test::nvidia_like_gpu();
  std::uint64_t previous_local = 0;
  // Segments enough to fill the device with a group each (the H100-like device runs 132 x 4 groups busily).
  for (std::uint64_t length : {4096u, 8192u, 16384u, 65536u}) {
    const std::uint64_t segments = (1u << 28) / length;
    const Plan plan = plan_for(caps, 1u << 28, equal(segments, length));
    ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
    const KernelPass& pass = plan.passes.front();
    EXPECT_EQ(pass.entry_point, "zr_seggroup_plus_f32");
    EXPECT_EQ(u64_arg(pass, 6), 1u) << "one slice per segment";
    EXPECT_EQ(buffer_arg(pass, 7).which, BufferArg::Which::none);  // no partials
    EXPECT_GE(pass.local_size, previous_local) << "groups never narrow as segments grow";
    EXPECT_LE(pass.local_size, caps.max_work_group_size);
    EXPECT_LE(pass.group_count(), segments);
    // Wide enough to share the segment, narrow enough that each work-item still folds about the tuning's share
    // (a 4096-element segment gave 512-wide groups of 8 elements each, read at 0.72-0.86 of the H100's probe).
    const std::uint64_t per_item = tuning_for(caps).segment_group_elements_per_item;
    EXPECT_GE(length / pass.local_size, per_item / 2) << length;
    previous_local = pass.local_size;
  }
}

TEST(SegmentedPlan, GivenFewLongSegmentsWhenPlanningThenSlicesFillTheDeviceAndAFinalPassFoldsThem) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    const std::uint64_t n = 1ull << 28;
    for (std::uint64_t segments : {1u, 2u, 7u}) {
      const Plan plan = plan_for(caps, n, by_offsets(segments, (n + segments - 1) / segments), Op::maximum, DataType::f64);
      ASSERT_GE(plan.passes.size(), 2u) << describe(plan);
      const KernelPass& first = plan.passes.front();
      const KernelPass& final_pass = plan.passes.back();
      const std::uint64_t slices = u64_arg(first, 6);
      EXPECT_GT(slices, 1u);
      // CPU devices read a piece per work-item (segcpu.cl), GPUs a group per piece; the arguments line up.
      const bool cpu = caps.type == DeviceType::cpu;
      EXPECT_EQ(first.entry_point, cpu ? "zr_segcpu_maximum_f64" : "zr_seggroup_maximum_f64");
      if (cpu) {
        EXPECT_EQ(first.local_size, 1u);
      }
      EXPECT_EQ(final_pass.entry_point, "zr_columnsfinal_maximum_f64");
      ASSERT_EQ(plan.scratch.size(), plan.passes.size() - 1);
      EXPECT_EQ(plan.scratch.front().bytes, std::max<std::uint64_t>(8, segments * slices * 8));
      EXPECT_EQ(buffer_arg(first, 7), (BufferArg{BufferArg::Which::scratch, 0}));
      // The partials are slices x segments: the column passes read them as rows x columns, down to a final
      // pass of at most 64 rows.
      EXPECT_EQ(buffer_arg(plan.passes[1], 0), (BufferArg{BufferArg::Which::scratch, 0}));
      EXPECT_EQ(u64_arg(plan.passes[1], 1), slices);
      for (std::size_t p = 1; p < plan.passes.size(); ++p) EXPECT_EQ(u64_arg(plan.passes[p], 2), segments);
      EXPECT_LE(u64_arg(final_pass, 1), 64u);
      EXPECT_EQ(buffer_arg(final_pass, 3).which, BufferArg::Which::result);
      EXPECT_GE(final_pass.global_size, segments);
      // Each element goes through far fewer combines than a sequential fold of its segment.
      EXPECT_LT(combine_depth(plan), n / segments / 16);
      // (A CPU work-item's piece goes through W-lane states, two of them, W at most 16.)
      EXPECT_GE(combine_depth(plan), n / segments / slices / first.local_size / (cpu ? 32 : 1));
    }
  }
}

TEST(SegmentedPlan, GivenMoreSegmentsThanGroupsCanCountWhenPlanningThenGroupsLoopOverThem) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    const Plan items = plan_for(caps, 1ull << 40, equal(1ull << 40, 1), Op::bit_or, DataType::u8);
    EXPECT_LT(items.passes.front().group_count(), 1ull << 31);
    const Plan groups = plan_for(caps, 1ull << 40, equal(1ull << 24, 1ull << 16), Op::bit_or, DataType::u8);
    EXPECT_EQ(groups.passes.front().entry_point,
              caps.type == DeviceType::cpu ? "zr_segcpu_bit_or_u8" : "zr_seggroup_bit_or_u8");
    EXPECT_LT(groups.passes.front().group_count(), 1ull << 31);
  }
}

TEST(SegmentedPlan, GivenATuningThatCapsAWorkItemPerSegmentWhenPlanningThenTheGridStopsThereAndWorkItemsStride) {
  const Capabilities caps = test::nvidia_like_gpu();
  const Tuning tuned = tuning_for(caps);
  ASSERT_GT(tuned.segment_item_groups_per_compute_unit, 0u);  // NVIDIA's measured cap
  Tuning uncapped = tuned;
  uncapped.segment_item_groups_per_compute_unit = 0;
  const std::uint64_t cap = caps.compute_units * tuned.segment_item_groups_per_compute_unit;
  const std::uint64_t segments = 1ull << 28;
  // segitem (plain ops), segarg (arg-reductions) and segt (transform-reductions) over segments of one element.
  for (const Op op : {Op::plus, Op::argmax, Op::norm_l2}) {
    SCOPED_TRACE(name(op));
    // segquad's work-items take four consecutive segments at a time.
    const std::uint64_t per_item = op == Op::plus ? kSegmentQuad : 1;
    const Plan capped = make_segmented_plan(caps, request(op, DataType::f32, segments), equal(segments, 1), tuned);
    const Plan wide = make_segmented_plan(caps, request(op, DataType::f32, segments), equal(segments, 1), uncapped);
    ASSERT_EQ(capped.passes.size(), 1u) << describe(capped);
    EXPECT_EQ(capped.passes.front().entry_point, wide.passes.front().entry_point);
    EXPECT_EQ(capped.passes.front().group_count(), cap) << describe(capped);
    // Without the cap a work-item per segment (or quad), the grid the cap replaces.
    EXPECT_EQ(wide.passes.front().group_count() * wide.passes.front().local_size, segments / per_item) << describe(wide);
    // Fewer segments than the cap's work-items: a work-item each (or per quad), as before.
    const std::uint64_t few = cap * capped.passes.front().local_size / 4;
    const Plan small = make_segmented_plan(caps, request(op, DataType::f32, few), equal(few, 1), tuned);
    EXPECT_EQ(small.passes.front().group_count() * small.passes.front().local_size, few / per_item) << describe(small);
  }
  // Skewed sizes whose long segments an arg-reduction defers to a second launch (f64: no 64-bit keys hold its
  // values): a work-item per short segment still (striding over uneven lengths was slower), the grid the tuning
  // without a cap gives.
  const std::uint64_t skewed_segments = 1ull << 26;
  const Plan skewed = make_segmented_plan(caps, request(Op::argmax, DataType::f64, 1ull << 28),
                                          by_offsets(skewed_segments, 1u << 20), tuned);
  const Plan skewed_wide = make_segmented_plan(caps, request(Op::argmax, DataType::f64, 1ull << 28),
                                               by_offsets(skewed_segments, 1u << 20), uncapped);
  ASSERT_EQ(skewed.passes.size(), 2u) << describe(skewed);
  EXPECT_GT(u64_arg(skewed.passes.front(), 12), 0u);  // segments deferred
  EXPECT_EQ(skewed.passes.front().group_count(), skewed_wide.passes.front().group_count());
  EXPECT_GT(skewed.passes.front().group_count(), cap);
}

TEST(SegmentedPlan, GivenACpuDeviceWhenPlanningThenAWorkItemTakesContiguousPiecesOfSegments) {
  for (const auto& caps : {test::pocl_like_cpu(), test::intel_opencl_like_cpu()}) {
    SCOPED_TRACE(caps.device_name);
    const std::uint64_t per_item = tuning_for(caps).min_elements_per_item;
    // Segments of up to 8 take segitemcpu's scalar loop, each work-item a contiguous block of segments of a few
    // tens of KiB (so a few hundred blocks for 64 MiB, not a work-item per segment); longer ones a work-item per
    // contiguous run of pieces (segcpu.cl, local size 1), one piece per segment when the segments are enough to
    // share out, else slices of at least min_elements_per_item folded by the column passes.
    for (std::uint64_t length : {1u, 8u}) {
      const KernelPass items = plan_for(caps, 1u << 24, equal((1u << 24) / length, length)).passes.front();
      EXPECT_EQ(items.entry_point, "zr_segitemcpu_plus_f32");
      EXPECT_EQ(items.local_size, 1u);
      EXPECT_GE(items.global_size, 2 * caps.compute_units);
      EXPECT_LE(items.global_size, (1u << 24) / 1024) << "a block of at least 4 KiB of input per work-item";
    }
    EXPECT_EQ(plan_for(caps, 3, equal(3, 1)).passes.front().global_size, 1u);
    for (const Plan& pieces : {plan_for(caps, 1u << 24, equal((1u << 24) / 64, 64)),
                               plan_for(caps, 1000 * per_item, by_offsets(1000, per_item + 1))}) {
      EXPECT_EQ(pieces.passes.front().entry_point, "zr_segcpu_plus_f32") << describe(pieces);
      EXPECT_EQ(pieces.passes.front().local_size, 1u);
      EXPECT_EQ(u64_arg(pieces.passes.front(), 6), 1u);
      EXPECT_EQ(pieces.passes.size(), 1u);
      EXPECT_LE(pieces.passes.front().global_size, caps.compute_units * tuning_for(caps).groups_per_compute_unit);
    }
    const Plan one_row = plan_for(caps, 1u << 24, equal(1, 1u << 24));
    const std::uint64_t slices = u64_arg(one_row.passes.front(), 6);
    EXPECT_GT(slices, 1u) << describe(one_row);
    EXPECT_GE((1u << 24) / slices, per_item);
    EXPECT_EQ(one_row.passes.front().global_size, slices);
    EXPECT_EQ(one_row.passes.back().entry_point, "zr_columnsfinal_plus_f32");
  }
  // GPUs keep several work-items for the same segments.
  EXPECT_EQ(plan_for(test::pvc_like_gpu(), 1u << 24, equal((1u << 24) / 64, 64)).passes.front().entry_point,
            "zr_segsub_plus_f32");
}

TEST(SegmentedPlan, GivenNoSegmentsWhenPlanningThenNothingRuns) {
  const Plan plan = plan_for(test::nvidia_like_gpu(), 0, equal(0, 0));
  EXPECT_TRUE(plan.passes.empty());
  EXPECT_EQ(plan.results.front().elements, 0u);
  EXPECT_EQ(combine_depth(plan), 0u);
}

TEST(SegmentedPlan, GivenInitialValuesWhenPlanningThenEveryPassThatStoresFoldsThemAndTheDepthCountsThem) {
  const Capabilities caps = test::nvidia_like_gpu();
  const Plan items = make_segmented_plan(caps, request(Op::plus, DataType::i32, 400, true), equal(100, 4), tuning_for(caps));
  EXPECT_EQ(std::get<Scalar>(items.passes.front().args[8]).as<std::uint32_t>(), 1u);
  EXPECT_EQ(combine_depth(items), 5u);
  const Plan sliced = make_segmented_plan(caps, request(Op::plus, DataType::i32, 1u << 26, true), by_offsets(1, 1u << 26),
                                          tuning_for(caps));
  EXPECT_EQ(std::get<Scalar>(sliced.passes.front().args[10]).as<std::uint32_t>(), 1u);
  EXPECT_EQ(std::get<Scalar>(sliced.passes.back().args[5]).as<std::uint32_t>(), 1u);
  EXPECT_EQ(std::get<Scalar>(sliced.passes.front().args[10]).as<std::uint32_t>(), 1u);
}

// Begin and end arrays stored one after the other: every kernel reads a segment's end `segments` offsets after
// its begin, the mean comes from the segments' own lengths (they may overlap or leave the input out), and the
// element-split plan, which walks the input in order, is never chosen.
TEST(SegmentedPlan, GivenBeginAndEndArraysWhenPlanningThenEveryKernelReadsTheEndSegmentsAfterTheBegin) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    auto bounds = [](std::uint64_t segments, std::uint64_t longest, std::uint64_t covered) {
      SegmentLayout layout = by_offsets(segments, longest);
      layout.end_step = segments;
      layout.covered = covered;
      return layout;
    };
    const std::uint64_t n = 1u << 24;
    for (const SegmentLayout& layout : {bounds(1u << 20, 6, 3u << 20), bounds(1u << 16, 700, 400u << 16),
                                        bounds(1u << 12, 1u << 20, 1u << 30), bounds(3, n, 2 * n),
                                        bounds(50'000'000, 1'000'000, 250'000'000)}) {
      const Plan plan = plan_for(caps, n, layout);
      ASSERT_FALSE(plan.passes.empty());
      const KernelPass& first = plan.passes.front();
      EXPECT_FALSE(first.entry_point.starts_with("zr_segspan_")) << describe(plan);
      EXPECT_EQ(u64_arg(first, first.args.size() - 1), layout.segments) << describe(plan);
      EXPECT_EQ(buffer_arg(first, 2).which, BufferArg::Which::segment_offsets);
    }
    // 2^16 segments of 400 on average in an input of 2^16 elements: the segments' mean, not n's, sets the plan.
    const Plan covered = plan_for(caps, 1u << 16, bounds(1u << 16, 700, 400u << 16));
    EXPECT_EQ(covered.passes.front().entry_point, caps.type == DeviceType::cpu ? "zr_segcpu_plus_f32" : "zr_segsub_plus_f32")
        << describe(covered);
    // The offsets of segments + 1 and equal segments end at the next bound.
    EXPECT_EQ(u64_arg(plan_for(caps, n, equal(1u << 20, 16)).passes.front(),
                      plan_for(caps, n, equal(1u << 20, 16)).passes.front().args.size() - 1),
              1u);
  }
}

// Reproducible floating sums: one pass of segbinned for every layout and device (a group per segment, each
// work-item with a 64-byte binned state in local memory), never a plain-sum kernel.
TEST(SegmentedPlan, GivenAReproducibleFloatingSumWhenPlanningThenEverySegmentIsOneGroupsBinnedSum) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    for (DataType type : {DataType::f32, DataType::f64, DataType::f16}) {
      ReductionRequest r = request(Op::plus, type, 1u << 24);
      r.reproducible = true;
      SegmentLayout bounds = by_offsets(1000, 1u << 20);
      bounds.end_step = 1000;
      bounds.covered = 1u << 24;
      for (const SegmentLayout& layout : {equal(1u << 22, 4), equal(16, 1u << 20), by_offsets(50'000, 1u << 22), bounds}) {
        const Plan plan = make_segmented_plan(caps, r, layout, tuning_for(caps));
        ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
        const KernelPass& pass = plan.passes.front();
        EXPECT_EQ(pass.entry_point, "zr_segbinned_plus_" + std::string(name(type)));
        EXPECT_TRUE(plan.scratch.empty());
        EXPECT_EQ(u64_arg(pass, 5), layout.segments);
        EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[8]).bytes, pass.local_size * 64);
        EXPECT_EQ(u64_arg(pass, 9), layout.end_step);
        EXPECT_LE(pass.local_size * 64, caps.local_memory_bytes ? caps.local_memory_bytes : UINT64_MAX);
        EXPECT_LE(pass.group_count(), layout.segments);
      }
    }
  }
}

TEST(SegmentedPlan, GivenAnArgReductionWhenPlanningThenLanesFollowTheSizesAndFewSegmentsGetSlicesAndAJoin) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    const bool cpu = caps.type == DeviceType::cpu;
    auto lanes_of = [&](const KernelPass& pass) {
      return cpu ? 1ull : 1ull << std::get<Scalar>(pass.args[7]).as<std::uint32_t>();
    };
    // CPU devices run the barrier-free variants, whose arguments have no lanes and no local memory.
    const std::string scan_kernel = cpu ? "zr_segargcpu_" : "zr_segarg_";
    const std::size_t partials_arg = cpu ? 7 : 8, result_arg = cpu ? 8 : 9;
    for (Op op : {Op::argmin, Op::argmax}) {
      const std::string suffix = std::string(name(op)) + "_f32";
      // Many segments: one pass, each result stored at once (16 bytes, arg_result<float>), from the lanes' tree.
      std::uint64_t previous_lanes = 0;
      for (std::uint64_t length : {4u, 64u, 1024u, 1u << 16}) {
        const std::uint64_t segments = (1ull << 30) / length;
        const Plan plan = plan_for(caps, segments * length, equal(segments, length), op);
        ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
        const KernelPass& pass = plan.passes.front();
        EXPECT_EQ(pass.entry_point, scan_kernel + suffix);
        EXPECT_EQ(u64_arg(pass, 6), 1u);  // one slice
        EXPECT_EQ(buffer_arg(pass, partials_arg).which, BufferArg::Which::none);
        EXPECT_EQ(buffer_arg(pass, result_arg).which, BufferArg::Which::result);
        if (!cpu) {
          EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[10]).bytes, std::max<std::uint64_t>(8, pass.local_size * 16));
        }
        EXPECT_EQ(result_bytes(plan, 0), segments * 16);
        const std::uint64_t lanes = lanes_of(pass);
        EXPECT_LE(lanes, pass.local_size);
        EXPECT_GE(lanes, previous_lanes);  // longer segments, more lanes each
        if (cpu) {
          EXPECT_EQ(lanes, 1u);  // CPU groups run their work-items one after another: one each
        } else {
          // A lane per segment_arg_lane_elements (64) of the mean segment at most: one for 4 and 64, with no tree.
          if (length <= 64) {
            EXPECT_EQ(lanes, 1u);
          }
          EXPECT_LE(lanes, std::max<std::uint64_t>(length / 64, 1));
        }
        previous_lanes = lanes;
        EXPECT_EQ(combine_depth(plan), 0u);  // compares, never rounds
      }
      if (!cpu) {
        EXPECT_GT(previous_lanes, 1u);
        // Skewed sizes that spans cannot walk (begin and end arrays): lanes for the mean; the segments far longer
        // are listed by the first launch (a counter and their numbers in scratch, filled with zeros once) and taken
        // by a second launch, a group each.
        SegmentLayout begins_and_ends = by_offsets(1u << 22, 1u << 20);
        begins_and_ends.end_step = begins_and_ends.segments;
        begins_and_ends.covered = 1u << 24;
        const Plan skewed = plan_for(caps, 1u << 24, begins_and_ends, op);
        ASSERT_EQ(skewed.passes.size(), 2u) << describe(skewed);
        const KernelPass& first = skewed.passes[0];
        const KernelPass& listed = skewed.passes[1];
        EXPECT_EQ(lanes_of(first), 1u);
        const std::uint64_t defer_above = u64_arg(first, 12);
        EXPECT_GT(defer_above, 0u);
        EXPECT_LT(defer_above, 1u << 20);
        EXPECT_EQ(std::get<Scalar>(first.args[14]).as<std::uint32_t>(), 0u);
        EXPECT_EQ(listed.entry_point, "zr_segarg_" + suffix);
        EXPECT_EQ(lanes_of(listed), listed.local_size);
        EXPECT_EQ(u64_arg(listed, 12), 0u);
        EXPECT_EQ(std::get<Scalar>(listed.args[14]).as<std::uint32_t>(), 1u);
        ASSERT_EQ(skewed.scratch.size(), 1u);
        EXPECT_EQ(buffer_arg(first, 13), (BufferArg{BufferArg::Which::scratch, 0}));
        EXPECT_EQ(buffer_arg(listed, 13), (BufferArg{BufferArg::Which::scratch, 0}));
        EXPECT_GE(skewed.scratch.front().bytes, 8 + 8 * ((1u << 24) / (defer_above + 1)));
        ASSERT_TRUE(skewed.scratch.front().initial_fill.has_value());
        EXPECT_TRUE(skewed.scratch.front().initial_fill->bitwise_equal(Scalar::from(DataType::u32, 0)));
        // Begin and end arrays may overlap: every segment can be long although n is small. The list holds them all.
        SegmentLayout overlapping = by_offsets(100'000, 1u << 14);
        overlapping.end_step = overlapping.segments;
        overlapping.covered = 100'000ull * 1000;
        const Plan windows = plan_for(caps, 1u << 16, overlapping, op);
        ASSERT_EQ(windows.passes.size(), 2u) << describe(windows);
        const std::uint64_t windows_defer = u64_arg(windows.passes[0], 12);
        ASSERT_GT(windows_defer, 0u);
        const std::uint64_t could_defer = std::min<std::uint64_t>(overlapping.segments, overlapping.covered / (windows_defer + 1));
        EXPECT_GT(could_defer, (1u << 16) / (windows_defer + 1));
        EXPECT_GE(windows.scratch.front().bytes, 8 + 8 * could_defer);
      }
      // Few long segments: slices (a group each on GPUs), their candidates in scratch, then a work-item per segment
      // takes the best of its slices.
      const Plan few = plan_for(caps, 1ull << 28, by_offsets(3, 1ull << 27), op);
      ASSERT_EQ(few.passes.size(), 2u) << describe(few);
      const std::uint64_t slices = u64_arg(few.passes[0], 6);
      EXPECT_GT(slices, 1u);
      ASSERT_EQ(few.scratch.size(), 1u);
      EXPECT_EQ(few.scratch.front().bytes, 3 * slices * 16);
      EXPECT_EQ(buffer_arg(few.passes[0], partials_arg), (BufferArg{BufferArg::Which::scratch, 0}));
      EXPECT_EQ(few.passes[1].entry_point, (cpu ? "zr_segargcpujoin_" : "zr_segargjoin_") + suffix);
      EXPECT_EQ(buffer_arg(few.passes[1], 0), (BufferArg{BufferArg::Which::scratch, 0}));
      EXPECT_EQ(u64_arg(few.passes[1], 6), slices);
      EXPECT_EQ(buffer_arg(few.passes[1], 7).which, BufferArg::Which::result);
      EXPECT_EQ(few.passes[1].global_size, 3u * few.passes[1].local_size);  // a group per segment
    }
  }
}

TEST(SegmentedPlan, GivenAnArgReductionOverSkewedOffsetsOnAGpuWhenPlanningThenSpansFoldKeysAndTheJoinReadsTheInput) {
  for (const auto& caps : {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu()}) {
    SCOPED_TRACE(caps.device_name);
    for (Op op : {Op::argmin, Op::argmax}) {
      for (DataType type : {DataType::f32, DataType::i8, DataType::u32, DataType::f16}) {
        SCOPED_TRACE(name(type));
        if (type == DataType::f16 && !caps.fp16) continue;
        const std::string suffix = std::string(name(op)) + "_" + std::string(name(type));
        const std::uint64_t n = 1u << 24;
        const Plan plan = plan_for(caps, n, by_offsets(1u << 22, 1u << 20, 4), op, type);
        ASSERT_EQ(plan.passes.size(), 2u) << describe(plan);
        const KernelPass& fold = plan.passes[0];
        const KernelPass& join = plan.passes[1];
        EXPECT_EQ(fold.entry_point, "zr_segargspan_" + suffix);
        EXPECT_EQ(join.entry_point, "zr_segargspanjoin_" + suffix);
        // Keys: the identity is key 0, the pieces two 8-byte keys per span, and the lanes' tile 8 positions each.
        const std::uint64_t span = u64_arg(fold, 5);
        EXPECT_EQ(span % (fold.local_size * 8), 0u);
        EXPECT_TRUE(std::get<Scalar>(fold.args[9]).bitwise_equal(Scalar::from(DataType::u64, 0)));
        ASSERT_EQ(plan.scratch.size(), 2u);
        EXPECT_EQ(plan.scratch[0].bytes, 2 * ((n + span - 1) / span) * 8);
        EXPECT_EQ(buffer_arg(fold, 8).which, BufferArg::Which::result);
        EXPECT_EQ(result_bytes(plan, 0), (1u << 22) * 16u);
        // The fold stages a tile's 16-byte results (a key per position, its last argument); the join takes results'
        // values back from the input.
        ASSERT_EQ(fold.args.size(), 15u) << describe(plan);
        EXPECT_EQ(std::get<LocalMemoryArg>(fold.args.back()).bytes, fold.local_size * 8 * 8);
        EXPECT_EQ(buffer_arg(join, join.args.size() - 1).which, BufferArg::Which::input);
        EXPECT_EQ(combine_depth(plan), 0u);
      }
      // Elements of 64 bits, or positions past 2^32 - 2: no key holds them, the long segments are deferred.
      for (const auto& [type, n] : {std::pair{DataType::f64, 1ull << 24}, std::pair{DataType::f32, 1ull << 32}}) {
        if (type == DataType::f64 && !caps.fp64) continue;
        const Plan deferred = plan_for(caps, n, by_offsets(n / 4, 1u << 20), op, type);
        ASSERT_FALSE(deferred.passes.empty());
        EXPECT_TRUE(deferred.passes[0].entry_point.starts_with("zr_segarg_")) << describe(deferred);
      }
    }
  }
  // CPU devices keep their barrier-free work-item per segment.
  const Plan cpu = plan_for(test::pocl_like_cpu(), 1u << 24, by_offsets(1u << 22, 1u << 20, 4), Op::argmax);
  EXPECT_TRUE(cpu.passes[0].entry_point.starts_with("zr_segargcpu_")) << describe(cpu);
}

TEST(SegmentedPlan, GivenATransformOverSkewedOffsetsOnAGpuWhenPlanningThenSpansFoldTransformedElements) {
  for (const auto& caps : {test::nvidia_like_gpu(), test::pvc_like_gpu(), test::tgllp_like_gpu()}) {
    SCOPED_TRACE(caps.device_name);
    struct Case {
      Op op;
      DataType type;
      std::size_t acc_size;
    };
    for (const Case& c : {Case{Op::norm_l2, DataType::f32, 4}, Case{Op::count_equal, DataType::i64, 8},
                          Case{Op::sum_f64, DataType::f32, 8}}) {
      SCOPED_TRACE(name(c.op));
      if (c.op == Op::sum_f64 && !caps.fp64) continue;
      const std::uint64_t n = 1u << 24;
      ReductionRequest r = request(c.op, c.type, n);
      if (c.op == Op::count_equal) r.transform_value = Scalar::from(DataType::i64, std::int64_t{-3});
      const Plan plan = make_segmented_plan(caps, r, by_offsets(1u << 22, 1u << 20, 4), tuning_for(caps));
      ASSERT_EQ(plan.passes.size(), 2u) << describe(plan);
      const std::string suffix = std::string(name(c.op)) + "_" + std::string(name(c.type));
      EXPECT_EQ(plan.passes[0].entry_point, "zr_segtspan_" + suffix);
      EXPECT_EQ(plan.passes[1].entry_point, "zr_segtspanjoin_" + suffix);
      // The tile: 16 positions a lane for 4-byte accumulators, 8 for 8-byte ones; pieces of the accumulator's size.
      const std::uint64_t span = u64_arg(plan.passes[0], 5);
      EXPECT_EQ(span % (plan.passes[0].local_size * (c.acc_size == 8 ? 8 : 16)), 0u);
      EXPECT_EQ(plan.scratch[0].bytes, 2 * ((n + span - 1) / span) * c.acc_size);
      // The empty accumulator as the identity, and count_equal's value (a lane's type) as the fold's last argument.
      const Scalar identity = std::get<Scalar>(plan.passes[0].args[9]);
      EXPECT_EQ(identity.size(), c.acc_size);
      EXPECT_EQ(identity.as<std::uint64_t>() & (c.acc_size == 8 ? ~0ull : 0xffffffffull), 0u);
      EXPECT_TRUE(std::get<Scalar>(plan.passes[0].args.back()).bitwise_equal(plans::transform_lane_value(r)));
      EXPECT_GT(combine_depth(plan), 0u);
    }
  }
  // Means and variances keep their slices of deferred segments.
  const Plan moments = plan_for(test::nvidia_like_gpu(), 1u << 24, by_offsets(1u << 22, 1u << 20, 4), Op::mean_var_f32);
  EXPECT_TRUE(moments.passes[0].entry_point.starts_with("zr_segm_")) << describe(moments);
}

TEST(SegmentedPlan, GivenATransformOrMomentsWhenPlanningThenOnePassWithLanesAndFewSegmentsGetSlicesMergedByTheLast) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    const bool cpu = caps.type == DeviceType::cpu;
    // CPU devices run the barrier-free variants, whose arguments have no lanes, no local memory and no arrival
    // counts (a second launch merges the slices, `joining` 1 in place of the counts).
    const std::size_t partials_arg = cpu ? 7 : 8, arrivals_arg = cpu ? 8 : 9, result_arg = cpu ? 9 : 10;
    auto lanes_of = [&](const KernelPass& pass) {
      return cpu ? 1ull : 1ull << std::get<Scalar>(pass.args[7]).as<std::uint32_t>();
    };
    struct Case {
      Op op;
      std::string kernel;  // without the variant
      std::uint64_t result_size, acc_size;
    };
    const Case cases[] = {{Op::norm_l2, "norm_l2_f32", 4, 4}, {Op::count_nonzero, "count_nonzero_f32", 8, 8},
                          {Op::mean_var_f32, "mean_var_f32_f32", 16, 16}};
    for (const Case& c : cases) {
      const bool moments = is_moments_op(c.op);
      const std::string variant = std::string(moments ? "zr_segm" : "zr_segt") + (cpu ? "cpu_" : "_");
      // Many segments: one pass, each result finished and stored at once; more lanes for longer segments.
      std::uint64_t previous_lanes = 0;
      for (std::uint64_t length : {4u, 64u, 1024u, 1u << 16}) {
        const std::uint64_t segments = (1ull << 30) / length;
        const Plan plan = plan_for(caps, segments * length, equal(segments, length), c.op);
        ASSERT_EQ(plan.passes.size(), 1u) << describe(plan);
        const KernelPass& pass = plan.passes.front();
        EXPECT_EQ(pass.entry_point, variant + c.kernel);
        EXPECT_EQ(u64_arg(pass, 6), 1u);  // one slice
        EXPECT_EQ(buffer_arg(pass, partials_arg).which, BufferArg::Which::none);
        if (cpu) {
          EXPECT_EQ(std::get<Scalar>(pass.args[arrivals_arg]).as<std::uint32_t>(), 0u);
        } else {
          EXPECT_EQ(buffer_arg(pass, arrivals_arg).which, BufferArg::Which::none);
        }
        EXPECT_EQ(buffer_arg(pass, result_arg).which, BufferArg::Which::result);
        EXPECT_TRUE(plan.scratch.empty());
        EXPECT_EQ(result_bytes(plan, 0), segments * c.result_size);
        EXPECT_FALSE(reads_initial_value(plan, 0));
        const std::uint64_t lanes = lanes_of(pass);
        EXPECT_LE(lanes, pass.local_size);
        EXPECT_GE(lanes, previous_lanes);
        if (!cpu) {
          EXPECT_EQ(std::get<LocalMemoryArg>(pass.args[12]).bytes, std::max<std::uint64_t>(8, pass.local_size * c.acc_size));
        }
        previous_lanes = lanes;
        // A lane's chain through its segment and the lanes' tree.
        EXPECT_EQ(combine_depth(plan), length / lanes + static_cast<std::uint64_t>(std::countr_zero(lanes)));
      }
      if (!cpu) {
        // A lane per segment_transform_lane_elements (16) of the mean segment at most: rows of 16 get one each (a sum
        // takes two), with no tree.
        const Plan sixteen = plan_for(caps, 1ull << 30, equal((1ull << 30) / 16, 16), c.op);
        EXPECT_EQ(lanes_of(sixteen.passes.front()), 1u) << describe(sixteen);
        EXPECT_GT(previous_lanes, 1u);
        // Skewed sizes that spans cannot walk (begin and end arrays): lanes for the mean; the segments far longer are
        // listed by the first launch as slices of slice_elements (four counters and an entry per slice in scratch,
        // zeros once) and taken by a second launch of the same kernel, a group per slice, with partials and counters
        // of slices done of their own (zeros once).
        SegmentLayout begins_and_ends = by_offsets(1u << 22, 1u << 20);
        begins_and_ends.end_step = begins_and_ends.segments;
        begins_and_ends.covered = 1u << 24;
        const Plan skewed = plan_for(caps, 1u << 24, begins_and_ends, c.op);
        ASSERT_EQ(skewed.passes.size(), 2u) << describe(skewed);
        const KernelPass& first = skewed.passes[0];
        const KernelPass& listed = skewed.passes[1];
        EXPECT_EQ(lanes_of(first), 1u);
        const std::uint64_t defer_above = u64_arg(first, 14);
        EXPECT_GT(defer_above, 0u);
        EXPECT_LT(defer_above, 1u << 20);
        EXPECT_EQ(std::get<Scalar>(first.args[16]).as<std::uint32_t>(), 0u);
        EXPECT_EQ(listed.entry_point, first.entry_point);
        EXPECT_EQ(lanes_of(listed), listed.local_size);
        EXPECT_EQ(u64_arg(listed, 14), 0u);
        EXPECT_EQ(std::get<Scalar>(listed.args[16]).as<std::uint32_t>(), 1u);
        const std::uint64_t slice_elements = u64_arg(first, 17);
        EXPECT_EQ(u64_arg(listed, 17), slice_elements);
        EXPECT_LT(slice_elements, 1u << 20);  // the longest segment takes several groups
        const std::uint64_t most = (1u << 24) / slice_elements + (1u << 24) / (defer_above + 1);
        ASSERT_EQ(skewed.scratch.size(), 3u);
        EXPECT_EQ(buffer_arg(first, 15), (BufferArg{BufferArg::Which::scratch, 0}));
        EXPECT_EQ(buffer_arg(listed, 15), (BufferArg{BufferArg::Which::scratch, 0}));
        EXPECT_EQ(skewed.scratch[0].bytes, 16 + 16 * most);
        EXPECT_EQ(buffer_arg(listed, partials_arg), (BufferArg{BufferArg::Which::scratch, 1}));
        EXPECT_EQ(skewed.scratch[1].bytes, most * c.acc_size);
        EXPECT_EQ(buffer_arg(listed, arrivals_arg), (BufferArg{BufferArg::Which::scratch, 2}));
        EXPECT_EQ(skewed.scratch[2].bytes, most * 4);
        for (std::size_t b : {0u, 2u}) {
          ASSERT_TRUE(skewed.scratch[b].initial_fill.has_value());
          EXPECT_TRUE(skewed.scratch[b].initial_fill->bitwise_equal(Scalar::from(DataType::u32, 0)));
        }
        EXPECT_EQ(buffer_arg(first, partials_arg), (BufferArg{BufferArg::Which::none, 0}));
        // The longer of two paths: a deferred segment's (a group's lane chain and tree through a slice, then the merge
        // of its slices) and the first launch's longest segment (one lane through defer_above elements).
        const std::uint64_t local = listed.local_size, log2_local = static_cast<std::uint64_t>(std::countr_zero(local));
        const std::uint64_t slices_of_longest = ((1u << 20) + slice_elements - 1) / slice_elements;
        EXPECT_EQ(combine_depth(skewed), std::max<std::uint64_t>(defer_above, (slice_elements + local - 1) / local + log2_local +
                                                                                  (slices_of_longest + local - 1) / local + log2_local));
      }
      // Few long segments: slices (a group each on GPUs), their partials in scratch. GPUs: an arrival count per
      // segment (zeros once; the last slice resets it), one pass. CPUs: a second launch merges the slices.
      const Plan few = plan_for(caps, 1ull << 28, by_offsets(3, 1ull << 27), c.op);
      ASSERT_EQ(few.passes.size(), cpu ? 2u : 1u) << describe(few);
      const KernelPass& pass = few.passes[0];
      const std::uint64_t slices = u64_arg(pass, 6);
      EXPECT_GT(slices, 1u);
      EXPECT_EQ(lanes_of(pass), pass.local_size);
      ASSERT_EQ(few.scratch.size(), cpu ? 1u : 2u);
      EXPECT_EQ(few.scratch[0].bytes, 3 * slices * c.acc_size);
      EXPECT_EQ(buffer_arg(pass, partials_arg), (BufferArg{BufferArg::Which::scratch, 0}));
      if (cpu) {
        const KernelPass& join = few.passes[1];
        EXPECT_EQ(join.entry_point, pass.entry_point);
        EXPECT_EQ(std::get<Scalar>(join.args[arrivals_arg]).as<std::uint32_t>(), 1u);
        EXPECT_EQ(buffer_arg(join, partials_arg), (BufferArg{BufferArg::Which::scratch, 0}));
        EXPECT_EQ(join.global_size, 3u);  // a work-item per segment
        EXPECT_EQ(combine_depth(few), ((1ull << 27) + slices - 1) / slices + slices);
      } else {
        EXPECT_EQ(few.scratch[1].bytes, 12u);
        ASSERT_TRUE(few.scratch[1].initial_fill.has_value());
        EXPECT_TRUE(few.scratch[1].initial_fill->bitwise_equal(Scalar::from(DataType::u32, 0)));
        EXPECT_EQ(buffer_arg(pass, arrivals_arg), (BufferArg{BufferArg::Which::scratch, 1}));
      }
    }
  }
}

TEST(SegmentedPlan, GivenLayoutsThatCannotDescribeTheInputWhenPlanningThenInvalidArgument) {
  const Capabilities caps = test::nvidia_like_gpu();
  EXPECT_THROW(plan_for(caps, 100, by_offsets(10, 10, 2)), InvalidArgumentError);   // 16-bit offsets
  EXPECT_THROW(plan_for(caps, 100, equal(10, 11)), InvalidArgumentError);          // 110 elements
  EXPECT_THROW(plan_for(caps, 100, equal(3, 33)), InvalidArgumentError);           // 99 elements
  EXPECT_THROW(plan_for(caps, 100, by_offsets(2, 101)), InvalidArgumentError);     // longer than n
  EXPECT_THROW(plan_for(caps, 1ull << 63, equal(4, 1ull << 62)), InvalidArgumentError);  // 2^64 wraps to 0
  SegmentLayout ends_elsewhere = by_offsets(10, 10);
  ends_elsewhere.end_step = 9;  // neither the next offset nor the end array's
  EXPECT_THROW(plan_for(caps, 100, ends_elsewhere), InvalidArgumentError);
  SegmentLayout rows_with_ends = equal(10, 10);
  rows_with_ends.end_step = 10;  // equal segments have no end array
  EXPECT_THROW(plan_for(caps, 100, rows_with_ends), InvalidArgumentError);
  ReductionRequest wrong = request(Op::plus, DataType::f32, 100);
  wrong.identity = known_identity(Op::plus, DataType::f64);
  EXPECT_THROW(make_segmented_plan(caps, wrong, equal(10, 10), tuning_for(caps)), InvalidArgumentError);
}

TEST(SegmentedPlan, GivenFewLongSegmentsWhenPlanningThenTheSlicesTakeTheGroupsOfAOneDimensionalReduction) {
  for (const auto& caps : kDevices) {
    SCOPED_TRACE(caps.device_name);
    const Tuning tuning = tuning_for(caps);
    const std::uint64_t n = 1ull << 28;
    for (std::uint64_t segments : {1u, 7u, 64u, 256u}) {
      if (segments >= caps.compute_units * plans::kSegmentGroupsPerComputeUnit) continue;
      const std::uint64_t total = segments * (n / segments);
      const Plan plan = plan_for(caps, total, equal(segments, n / segments), Op::plus, DataType::f32);
      const KernelPass& first = plan.passes.front();
      const std::uint64_t one_dimensional = plans::launch_groups(caps, tuning, total, first.local_size);
      const std::uint64_t groups = caps.type == DeviceType::cpu ? first.global_size : first.group_count();
      EXPECT_GE(groups, std::min(one_dimensional, segments * (n / segments / first.local_size))) << describe(plan);
      EXPECT_LT(groups, one_dimensional + segments) << describe(plan);
    }
  }
  // The shape measured on the H100: 2^28 f32 in 256 segments reads as 2,048 groups of 512, 256 elements a work-item
  // (the 1-D reduction's grid there), not 128 groups per SM of 31 elements each.
  const Capabilities nvidia = test::nvidia_like_gpu();
  const Plan plan = plan_for(nvidia, 1ull << 28, equal(256, 1ull << 20), Op::plus, DataType::f32);
  EXPECT_EQ(plan.passes.front().local_size, 512u);
  EXPECT_EQ(plan.passes.front().group_count() * 512 * 256, 1ull << 28) << describe(plan);
}

// Offsets that are rows in all but name (from 0, one length, up to n) are planned as those rows; any other offsets,
// and begin/end arrays, keep their own layout.
TEST(SegmentedPlan, GivenOffsetsOfEqualSegmentsFromZeroToNWhenAskedThenTheyAreRowsAndNothingElseIs) {
  const SegmentLayout offsets = by_offsets(1000, 16, 4);
  const auto rows = equal_offsets_as_rows(offsets, 16000, 0, 16000, 16);
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(*rows, equal(1000, 16));
  const Plan plan = plan_for(test::nvidia_like_gpu(), 16000, *rows);
  EXPECT_EQ(buffer_arg(plan.passes.front(), 2).which, BufferArg::Which::none);  // the rows read no offsets
  EXPECT_FALSE(equal_offsets_as_rows(offsets, 16000, 0, 16000, 15));   // one segment shorter
  EXPECT_FALSE(equal_offsets_as_rows(offsets, 16005, 0, 16000, 16));   // elements after the last segment
  EXPECT_FALSE(equal_offsets_as_rows(offsets, 16003, 3, 16003, 16));   // elements before the first
  EXPECT_FALSE(equal_offsets_as_rows(by_offsets(1000, 0, 4), 0, 0, 0, 0));  // empty segments only
  EXPECT_FALSE(equal_offsets_as_rows(by_offsets(0, 0, 8), 0, 0, 0, UINT64_MAX));  // no segments
  EXPECT_FALSE(equal_offsets_as_rows(equal(1000, 16), 16000, 0, 16000, 16));  // rows already
  SegmentLayout begin_end = offsets;
  begin_end.end_step = begin_end.segments;
  begin_end.covered = 16000;
  EXPECT_FALSE(equal_offsets_as_rows(begin_end, 16000, 0, 16000, 16));
  // 64-bit sizes: 2^33 segments of 2^8 elements.
  const auto wide = equal_offsets_as_rows(by_offsets(1ull << 33, 256, 8), 1ull << 41, 0, 1ull << 41, 256);
  ASSERT_TRUE(wide.has_value());
  EXPECT_EQ(*wide, equal(1ull << 33, 256));
}

TEST(SegmentedPlan, GivenRowsThatTheKernelsReadAsVectorsWhenCountingALanesChainThenItTakesWholeVectors) {
  const SegmentLayout rows_of_20{.segments = 1000, .offset_bytes = 0, .length = 20, .longest = 20};
  const SegmentLayout offsets_up_to_20{.segments = 1000, .offset_bytes = 4, .length = 0, .longest = 20};
  // 20 f32 are 5 vectors: lane 0 of 4 takes vectors 0 and 4, 8 elements, where every fourth element would be 5.
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::f32, 2), 8u);
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::f32, 0), 20u);
  // Offsets, bool and f16 keep element loads; rows of 20 f64 are 10 vectors of 2, three per lane of 4.
  EXPECT_EQ(segment_lane_chain(offsets_up_to_20, DataType::f32, 2), 5u);
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::f16, 2), 5u);
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::boolean, 2), 5u);
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::f64, 2), 6u);
  // 20 is not a multiple of 8 i16 or 16 i8: element loads.
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::i16, 2), 5u);
  EXPECT_EQ(segment_lane_chain(rows_of_20, DataType::i8, 2), 5u);
}

}  // namespace
}  // namespace zr::core
