#include "plans/segmented.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "plans/columns.hpp"
#include "plans/plan_building.hpp"
#include "plans/segmented_arg.hpp"
#include "plans/segmented_span.hpp"
#include "plans/segmented_transform.hpp"
#include "plans/segmented_user.hpp"
#include "strategy.hpp"
#include "zereduce/errors.hpp"

namespace zr::core {

using namespace plans;

namespace {

Scalar offset_bytes_arg(const SegmentLayout& layout) { return u32(layout.offset_bytes); }

// segitemcpu: the input bytes of a work-item's block of segments.
constexpr std::uint64_t kCpuSegmentItemBlockBytes = 64 * 1024;

// segsub takes at most this many lanes per segment (more: a group per segment, seggroup); sizes are skewed when
// the longest segment is more than this many times the mean (or the lanes' share).
constexpr std::uint64_t kSegmentMaxLanes = 32;
constexpr std::uint64_t kSegmentSkew = 16;

// Reproducible sums of segments (segbinned.cl): a group per segment, each work-item's binned sum of a strided
// share merged exactly, so a segment's bits are those of its own 1-D reproducible sum whatever the plan.
constexpr std::size_t kBinnedStateBytes = 64;  // zr_binned.h's zr_binned
void add_binned_pass(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                     std::uint64_t mean) {
  const ReductionRequest& request = plan.request;
  KernelPass pass = kernel_pass("segbinned", Op::plus, request.type, "segments");
  pass.local_size = segment_group_size(caps, tuning, mean, kBinnedStateBytes);
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  pass.global_size = std::clamp<std::uint64_t>(layout.segments, 1, wave_groups * 64) * pass.local_size;
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  pass.args = {BufferArg{BufferArg::Which::input, 0}, u64(request.n), offsets, offset_bytes_arg(layout),
               u64(layout.length), u64(layout.segments), BufferArg{BufferArg::Which::result, 0},
               u32(request.include_initial ? 1 : 0), LocalMemoryArg{local_bytes(pass.local_size, kBinnedStateBytes)},
               u64(layout.end_step)};
  plan.reason = "reproducible sums of segments of " + std::to_string(mean) + " elements on average (longest " +
                std::to_string(layout.longest) + "): a group of " + std::to_string(pass.local_size) +
                " per segment, binned sums merged exactly";
  plan.passes.push_back(std::move(pass));
}

}  // namespace

// Lanes per segment for segsub: about sqrt(mean) / 2, and enough that none folds more than the tuning's
// segment_lane_elements on average. Measured on the H100 (bench/results/segmented_h100.md, the sweep): f32 sums
// of 16-element segments read best with 2 lanes (0.88 of the read probe, against 0.66 with 1 and 0.71 with 4),
// 64 with 4, 256 with 8, 1024 with 32; segments of 4096 read better with a group each (0.88 against 0.70).
std::uint64_t plans::segment_lanes(std::uint64_t mean, const Tuning& tuning, std::uint64_t widest) {
  const auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(mean)));
  const std::uint64_t wanted = std::max(root / 2, mean / std::max<std::uint64_t>(tuning.segment_lane_elements, 1));
  return std::bit_floor(std::clamp<std::uint64_t>(wanted, 1, widest));
}

Plan make_segmented_plan(const Capabilities& caps, const ReductionRequest& request, const SegmentLayout& layout,
                         const Tuning& tuning) {
  if (layout.offset_bytes != 0 && layout.offset_bytes != 4 && layout.offset_bytes != 8)
    throw InvalidArgumentError("segment offsets are 4- or 8-byte integers, not " + std::to_string(layout.offset_bytes) +
                               "-byte ones");
  if (layout.offset_bytes == 0 && layout.segments > 0 &&
      (layout.length > request.n / layout.segments || layout.length * layout.segments != request.n))
    throw InvalidArgumentError(std::to_string(layout.segments) + " segments of " + std::to_string(layout.length) +
                               " elements do not make up n = " + std::to_string(request.n));
  if (layout.end_step != 1 && (layout.offset_bytes == 0 || layout.end_step != layout.segments))
    throw InvalidArgumentError("a segment's end is 1 offset after its begin (segments + 1 offsets) or `segments` "
                               "offsets after it (begin and end arrays), not " + std::to_string(layout.end_step));
  if (layout.longest > request.n)
    throw InvalidArgumentError("the longest segment (" + std::to_string(layout.longest) + " elements) is longer than n = " +
                               std::to_string(request.n));
  if (request.identity.type != request.type)
    throw InvalidArgumentError("identity is a " + std::string(name(request.identity.type)) + " value but the data is " +
                               std::string(name(request.type)));
  const Op op = request.op;
  const DataType type = request.type;
  const std::size_t acc_size = size_of(accumulator_type(type));
  const Scalar identity = to_accumulator(request.identity);
  const std::uint32_t include_initial = request.include_initial ? 1 : 0;
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  const BufferArg result{BufferArg::Which::result, 0};

  Plan plan;
  plan.request = request;
  plan.request.deterministic = true;
  plan.segments = layout;
  plan.results = {{op, request.identity, request.include_initial, layout.segments}};
  plan.strategy = Strategy::tree;
  if (layout.segments == 0) {
    plan.reason = "no segments: nothing to run";
    return plan;
  }
  const std::uint64_t mean = (layout.end_step == 1 ? request.n : layout.covered) / layout.segments;
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  if (is_user_op(op)) {
    add_segmented_user_passes(plan, caps, tuning, layout, mean);
    return plan;
  }
  if (is_binned_sum(request)) {
    add_binned_pass(plan, caps, tuning, layout, mean);
    return plan;
  }
  if (is_arg_op(op)) {
    add_segmented_arg_passes(plan, caps, tuning, layout, mean);
    return plan;
  }
  if (is_transform_op(op) || is_moments_op(op)) {
    add_segmented_transform_passes(plan, caps, tuning, layout, mean);
    return plan;
  }

  // Segments of a few elements: a work-item each, one scalar loop (on GPUs four consecutive one-element ones at a
  // time, segquad; CPU devices read longer ones with segcpu's vector states, below).
  if (layout.longest <= kSegmentPerItemMaxLength) {
    // CPU devices run a group's work-items one after another: there each work-item takes a contiguous block of
    // segments of about kCpuSegmentItemBlockBytes of input (segitemcpu), walking its share in order (2-core
    // machine, 2^24 segments of one f32, kernel time: Intel's CPU runtime 140 ms with a segment per work-item).
    const bool cpu = caps.type == DeviceType::cpu;
    // GPUs: segments of at most one element take segquad, four consecutive ones a work-item at a time.
    const char* family = cpu ? "segitemcpu" : layout.longest <= kSegmentQuadMaxLength ? "segquad" : "segitem";
    KernelPass pass = kernel_pass(family, op, type, "segments");
    if (cpu) {
      const std::uint64_t block =
          std::max<std::uint64_t>(1, kCpuSegmentItemBlockBytes / (std::max<std::uint64_t>(mean, 1) * size_of(type)));
      pass.local_size = 1;
      pass.global_size = std::clamp<std::uint64_t>(ceil_div(layout.segments, block), 1, UINT32_MAX);
    } else {
      const std::uint64_t per_item = layout.longest <= kSegmentQuadMaxLength ? kSegmentQuad : 1;
      pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.work_group_size, caps.max_work_group_size));
      pass.global_size =
          segment_item_groups(caps, tuning, ceil_div(layout.segments, per_item), pass.local_size) * pass.local_size;
    }
    pass.args = {input, u64(request.n), offsets, offset_bytes_arg(layout), u64(layout.length), u64(layout.segments),
                 result, identity, u32(include_initial), u64(layout.end_step)};
    plan.reason = "segments of at most " + std::to_string(layout.longest) + " elements: a work-item per segment";
    plan.passes.push_back(std::move(pass));
    return plan;
  }

  const std::uint64_t busy_groups = std::max<std::uint64_t>(1, caps.compute_units) * kSegmentGroupsPerComputeUnit;
  // Many segments of up to a few hundred elements: a power of two of lanes each, several segments per group, so
  // that a group's barriers serve all its segments.
  const std::uint64_t widest = widest_group(caps, tuning, acc_size);
  const std::uint64_t lanes = segment_lanes(mean, tuning, widest);
  // Skewed sizes (the longest far above the mean) keep a group per segment: with a few lanes each, one long
  // segment would hold the whole launch (power-law sizes on the H100: 0.38x CUB with lanes, 2x with groups).
  const bool skewed = layout.longest > kSegmentSkew * std::max(mean, lanes * tuning.segment_lane_elements);
  if (caps.type != DeviceType::cpu && layout.segments >= busy_groups && !skewed && lanes <= kSegmentMaxLanes &&
      lanes < widest) {
    KernelPass pass = kernel_pass("segsub", op, type, "segments");
    pass.local_size = widest;
    const std::uint64_t per_group = widest / lanes;
    pass.global_size = std::clamp<std::uint64_t>(ceil_div(layout.segments, per_group), 1, wave_groups * 64) * widest;
    pass.args = {input, u64(request.n), offsets, offset_bytes_arg(layout), u64(layout.length), u64(layout.segments),
                 u32(static_cast<std::uint32_t>(std::countr_zero(lanes))), result, identity, u32(include_initial),
                 LocalMemoryArg{local_bytes(widest, acc_size)}, u64(layout.end_step)};
    plan.reason = "segments of " + std::to_string(mean) + " elements on average (longest " + std::to_string(layout.longest) +
                  "): " + std::to_string(lanes) + " work-items per segment, " + std::to_string(per_group) + " segments per group";
    plan.passes.push_back(std::move(pass));
    return plan;
  }

  // CPU devices: a work-item per contiguous (segment, slice) piece, cpu.cl's vector states (segcpu.cl); when
  // the segments are too few to give every core several, slices enough for cpu_chunks' share of pieces per core.
  if (caps.type == DeviceType::cpu) {
    const std::uint64_t slices =
        segment_slices(caps, tuning, layout, mean, 1, std::max<std::uint64_t>(tuning.min_elements_per_item, 16));
    const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few segments
    KernelPass pass = kernel_pass("segcpu", op, type, slices > 1 ? "partials" : "segments");
    pass.local_size = 1;
    pass.global_size = std::clamp<std::uint64_t>(pieces, 1, wave_groups);
    BufferArg partials{BufferArg::Which::none, 0};
    if (slices > 1)
      partials = add_scratch(plan, pieces * acc_size, std::nullopt, "segment partials, " + std::to_string(slices) + " slices each");
    pass.args = {input, u64(request.n), offsets, offset_bytes_arg(layout), u64(layout.length), u64(layout.segments),
                 u64(slices), partials, result, identity, u32(include_initial), u64(layout.end_step)};
    plan.passes.push_back(std::move(pass));
    plan.reason = "segments of " + std::to_string(mean) + " elements on average (longest " + std::to_string(layout.longest) +
                  "), CPU device: a work-item per contiguous piece" +
                  (slices > 1 ? ", " + std::to_string(slices) + " slices each folded by a final pass" : "");
    if (slices > 1) append_column_passes(plan, caps, tuning, partials, false, slices, layout.segments);
    return plan;
  }

  if (skewed && spans_can_walk(layout)) {
    add_span_passes(plan, caps, tuning, layout, {"segspan", "segjoin", acc_size, identity, false});
    return plan;
  }

  const std::uint64_t local = segment_group_size(caps, tuning, mean, acc_size);
  // Too few segments to keep every compute unit busy with several groups: each is cut into slices, a group
  // each (as many groups as a 1-D reduction of the same elements takes), folded by the column passes.
  const std::uint64_t slices =
      segment_slices(caps, tuning, layout, mean, local, local * std::max<std::uint64_t>(tuning.min_elements_per_item, 16));
  const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few segments
  const std::uint64_t groups = std::clamp<std::uint64_t>(pieces, 1, wave_groups * 64);
  KernelPass pass = kernel_pass("seggroup", op, type, slices > 1 ? "partials" : "segments");
  pass.local_size = local;
  pass.global_size = groups * local;
  BufferArg partials{BufferArg::Which::none, 0};
  if (slices > 1)
    partials = add_scratch(plan, pieces * acc_size, std::nullopt, "segment partials, " + std::to_string(slices) + " slices each");
  pass.args = {input, u64(request.n), offsets, offset_bytes_arg(layout), u64(layout.length), u64(layout.segments),
               u64(slices), partials, result, identity, u32(include_initial), LocalMemoryArg{local_bytes(local, acc_size)},
               u64(layout.end_step)};
  plan.passes.push_back(std::move(pass));
  plan.reason = "segments of " + std::to_string(mean) + " elements on average (longest " + std::to_string(layout.longest) +
                "): a group of " + std::to_string(local) + " per segment" +
                (slices > 1 ? ", " + std::to_string(slices) + " slices each folded by a final pass" : "");
  // The partials are rows of slices over columns of segments: the column passes fold them in slice order.
  if (slices > 1) append_column_passes(plan, caps, tuning, partials, false, slices, layout.segments);
  return plan;
}

std::optional<SegmentLayout> equal_offsets_as_rows(const SegmentLayout& layout, std::uint64_t n, std::uint64_t first,
                                                   std::uint64_t last, std::uint64_t shortest) {
  const bool offsets = layout.offset_bytes != 0 && layout.end_step == 1;
  const std::uint64_t length = layout.longest;
  if (!offsets || layout.segments == 0 || length == 0 || shortest != length || first != 0 || last != n ||
      length > n / layout.segments || length * layout.segments != n)
    return std::nullopt;
  return SegmentLayout{layout.segments, 0, length, length};
}

std::uint64_t segment_lane_chain(const SegmentLayout& layout, DataType type, std::uint64_t lanes_log2) {
  const std::uint64_t lanes = std::uint64_t{1} << lanes_log2;
  const bool vector_loads = type != DataType::boolean && type != DataType::f16;
  const std::uint64_t vector = 16 / std::max<std::size_t>(size_of(type), 1);
  if (vector_loads && layout.offset_bytes == 0 && layout.longest % vector == 0)
    return ceil_div(layout.longest / vector, lanes) * vector;
  return ceil_div(layout.longest, lanes);
}

std::uint64_t segmented_combine_depth(const Plan& plan) {
  if (!plan.segments || plan.passes.empty()) return 0;
  const SegmentLayout& layout = *plan.segments;
  const std::uint64_t initial = plan.request.include_initial ? 1 : 0;
  const KernelPass& first = plan.passes.front();
  if (first.entry_point.starts_with("zr_useg")) return segmented_user_depth(plan);
  if (first.entry_point.starts_with("zr_segarg")) return 0;  // arg-reductions compare, never round
  const bool spans = first.entry_point.starts_with("zr_segspan_") || first.entry_point.starts_with("zr_segtspan_");
  if (!spans && (first.entry_point.starts_with("zr_segt") || first.entry_point.starts_with("zr_segm")))
    return segmented_transform_depth(plan);
  if (first.entry_point.starts_with("zr_segitem_") || first.entry_point.starts_with("zr_segitemcpu_") ||
      first.entry_point.starts_with("zr_segquad_"))
    return layout.longest + initial;
  if (first.entry_point.starts_with("zr_segbinned_")) return layout.longest + initial;  // exact until rounded once
  if (first.entry_point.starts_with("zr_segsub_")) {
    const std::uint64_t lanes_log2 = std::get<Scalar>(first.args[6]).as<std::uint32_t>();
    return segment_lane_chain(layout, plan.request.type, lanes_log2) + lanes_log2 + initial;
  }
  if (first.entry_point.starts_with("zr_segcpu_")) {
    // A piece of 2W or more (W of 2 to 16, two states on alternate blocks of W): each lane's chain through its
    // blocks, the masked tail step, the merge of the states, the fold of the lanes (at most 4 halvings), the
    // combine with the identity; W = 2 bounds the chain from above. A shorter piece (under 32) folds in a
    // scalar loop. Then the column passes over the slices.
    const std::uint64_t slices = std::get<Scalar>(first.args[6]).as<std::uint64_t>();
    const std::uint64_t piece = ceil_div(layout.longest, slices);
    std::uint64_t depth = std::max<std::uint64_t>(std::min<std::uint64_t>(piece, 31), ceil_div(piece, 4) + 1 + 1 + 4 + 1) + initial;
    for (std::size_t p = 1; p < plan.passes.size(); ++p) depth += column_pass_depth(plan.passes[p]);
    return depth;
  }
  if (spans) {
    // A lane's chain (at most segment_span_items elements after the identity), the lanes' scan (log2 of the group's
    // width halvings, then the run before the lane's first head and the carry from the tiles before), one more per
    // tile of the span for that carry; a segment crossing spans then goes through segjoin: one work-item's chain
    // through its pieces (at most two per span and one more), or a lane's share of them and the group's tree;
    // then the initial value.
    const std::uint64_t span = std::get<Scalar>(first.args[5]).as<std::uint64_t>();
    const DataType accumulator = is_transform_op(plan.request.op) ? transform_accumulator_type(plan.request.op, plan.request.type)
                                                                  : accumulator_type(plan.request.type);
    const std::uint64_t items = segment_span_items(size_of(accumulator));
    const std::uint64_t tiles = ceil_div(span, first.local_size * items);
    const std::uint64_t in_span = items + 1 + std::bit_width(first.local_size) + 2 + tiles;
    const KernelPass& join = plan.passes.at(1);
    const std::uint64_t pieces = 2 * (ceil_div(layout.longest, span) + 1);
    const std::uint64_t joined = std::min<std::uint64_t>(pieces, kSpanSerialPieces) + 1;
    // The group's path: eight chains per lane over its share (the last under eight into the first), merged in
    // three steps.
    const std::uint64_t share = ceil_div(pieces, join.local_size);
    const std::uint64_t shared = ceil_div(share, 8) + 7 + 1 + 3 + local_tree_depth(join.local_size);
    return in_span + std::max(joined, shared) + initial;
  }
  // seggroup: a work-item's chain through its share of a slice (16-byte vectors of up to 16 lanes folded one
  // lane after another, a scalar head and tail), the group's tree, then the column passes over the slices.
  const std::uint64_t slices = std::get<Scalar>(first.args[6]).as<std::uint64_t>();
  const std::uint64_t slice = ceil_div(layout.longest, slices);
  const std::uint64_t lanes = std::max<std::uint64_t>(1, 16 / size_of(plan.request.type));
  const std::uint64_t chain = lanes * (ceil_div(ceil_div(slice, lanes), first.local_size) + 1) + 2 * lanes;
  std::uint64_t depth = chain + local_tree_depth(first.local_size) + 1 + initial;
  for (std::size_t p = 1; p < plan.passes.size(); ++p) depth += column_pass_depth(plan.passes[p]);
  return depth;
}

}  // namespace zr::core
