#include "plans/segmented_transform.hpp"

#include <algorithm>
#include <bit>
#include <optional>

#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"
#include "plans/segmented_span.hpp"

namespace zr::core::plans {

namespace {
// A slice of a few long segments gives each of its group's work-items at least this many elements; so does a slice
// of a deferred segment.
constexpr std::uint64_t kSliceElementsPerItem = 256;

// Skewed sizes defer segments longer than lanes x segment_lane_elements x this; their second launch slices them. H100,
// f32 norm_l2, power-law sizes (bench/results/segmented_h100_2026-11-27j/defer_sweep): 32 (1024 elements with one
// lane) took 2.35 ms, 16 took 2.36, 4 took 3.24 (about 2M segments just above 128 elements, a group of 512 each).
constexpr std::uint64_t kDeferShare = 32;

// The list of deferred slices (segtransform.cl's ZR_DEFERRED_SLICES): four uint counters, zeros once (the second
// launch's last group resets them), then a 16-byte entry per slice, room for every slice the segments longer than
// defer_above can make: at most covered / slice_elements + one more per such segment. Their partials and the
// counters of slices done (zeros once, reset by each segment's last group) are indexed by entry.
struct DeferredSlices {
  BufferArg list{BufferArg::Which::none, 0};
  BufferArg partials{BufferArg::Which::none, 0};
  BufferArg arrivals{BufferArg::Which::none, 0};
  std::uint64_t most = 0;
};
DeferredSlices add_deferred_slices(Plan& plan, const SegmentLayout& layout, std::uint64_t defer_above,
                                   std::uint64_t slice_elements, std::size_t acc_size) {
  DeferredSlices d;
  if (defer_above == 0) return d;
  const std::uint64_t covered = layout.end_step == 1 ? plan.request.n : layout.covered;
  const std::uint64_t segments = std::min(layout.segments, covered / (defer_above + 1));
  d.most = covered / slice_elements + segments;
  const std::string what = "the slices of the segments longer than " + std::to_string(defer_above);
  d.list = add_scratch(plan, 16 + 16 * d.most, Scalar::from(DataType::u32, 0), "four counters and " + what);
  d.partials = add_scratch(plan, d.most * acc_size, std::nullopt, "partials of " + what);
  d.arrivals = add_scratch(plan, d.most * 4, u32(0), "the slices done of each segment longer than " + std::to_string(defer_above));
  return d;
}

std::size_t accumulator_bytes(const ReductionRequest& request) {
  return is_moments_op(request.op) ? moments_bytes(request.op)
                                   : size_of(transform_accumulator_type(request.op, request.type));
}
}  // namespace

void add_segmented_transform_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning,
                                    const SegmentLayout& layout, std::uint64_t mean) {
  const ReductionRequest& request = plan.request;
  const bool moments = is_moments_op(request.op);
  const bool cpu = caps.type == DeviceType::cpu;
  const std::size_t acc_size = accumulator_bytes(request);
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const std::uint64_t local = cpu ? 1 : widest_group(caps, tuning, acc_size);
  const LaneSplit split =
      cap_lanes(lane_split(caps, tuning, layout, mean, local,
                           cpu ? std::max<std::uint64_t>(tuning.min_elements_per_item, 16) : local * kSliceElementsPerItem,
                           kDeferShare),
                tuning, mean, tuning.segment_transform_lane_elements, kDeferShare);
  const std::uint64_t lanes = split.lanes;
  const std::uint64_t slices = split.slices;
  const std::uint64_t defer_above = split.defer_above;
  // Skewed sizes on GPUs: the work split by elements (segmented_span.hpp), so that neither the many short segments'
  // work-items nor the long segments' slices set the pace.
  if (!cpu && !moments && defer_above > 0 && spans_can_walk(layout)) {
    add_span_passes(plan, caps, tuning, layout,
                    {"segtspan", "segtspanjoin", acc_size,
                     Scalar::from(transform_accumulator_type(request.op, request.type), 0), false,
                     /*stages_results=*/false, transform_lane_value(request)});
    plan.reason = "transform-reduction per segment, " + plan.reason;
    return;
  }
  const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few segments
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  BufferArg partials{BufferArg::Which::none, 0};
  BufferArg arrivals{BufferArg::Which::none, 0};
  if (slices > 1) {
    partials = add_scratch(plan, pieces * acc_size, std::nullopt,
                           "partials of " + std::to_string(slices) + " slices per segment");
    if (!cpu) arrivals = add_scratch(plan, layout.segments * 4, u32(0), "the slices of each segment done");
  }
  // count_equal's value; means and variances take a uint they ignore.
  const Scalar value = moments ? u32(0) : transform_lane_value(request);
  const std::uint64_t slice_elements = local * kSliceElementsPerItem;
  const DeferredSlices deferred = cpu ? DeferredSlices{} : add_deferred_slices(plan, layout, defer_above, slice_elements, acc_size);

  KernelPass pass = kernel_pass(moments ? (cpu ? "segmcpu" : "segm") : (cpu ? "segtcpu" : "segt"), request.op, request.type,
                                slices > 1 ? "slices" : "segments");
  pass.local_size = local;
  pass.global_size = (cpu ? std::clamp<std::uint64_t>(ceil_div(pieces, local / lanes), 1, wave_groups)
                         : segment_item_groups(caps, tuning, pieces, local / lanes)) *
                     local;
  const BufferArg result{BufferArg::Which::result, 0};
  auto cpu_args = [&](std::uint32_t joining) {
    return std::vector<KernelArg>{BufferArg{BufferArg::Which::input, 0}, u64(request.n), offsets, u32(layout.offset_bytes),
                                  u64(layout.length), u64(layout.segments), u64(slices), partials, u32(joining), result,
                                  value, u64(layout.end_step)};
  };
  auto gpu_args = [&](std::uint64_t lanes_of_pass, std::uint64_t defer, std::uint32_t listed) {
    return std::vector<KernelArg>{BufferArg{BufferArg::Which::input, 0}, u64(request.n), offsets, u32(layout.offset_bytes),
                                  u64(layout.length), u64(layout.segments), u64(slices),
                                  u32(static_cast<std::uint32_t>(std::countr_zero(lanes_of_pass))),
                                  listed ? deferred.partials : partials, listed ? deferred.arrivals : arrivals,
                                  result, value, LocalMemoryArg{local_bytes(local, acc_size)}, u64(layout.end_step),
                                  u64(defer), deferred.list, u32(listed), u64(slice_elements)};
  };
  pass.args = cpu ? cpu_args(0) : gpu_args(lanes, defer_above, 0);
  // CPU devices merge the slices in a second launch of the same kernel, a work-item per segment (no fences there).
  std::optional<KernelPass> join;
  if (cpu && slices > 1) {
    join = pass;
    join->label = "segments";
    join->global_size = std::clamp<std::uint64_t>(layout.segments, 1, wave_groups);
    join->args = cpu_args(1);
  }
  // Skewed sizes: the slices of the segments listed by the first launch, a group each.
  std::optional<KernelPass> listed;
  if (defer_above > 0) {
    listed = pass;
    listed->label = "long segments";
    listed->global_size = std::clamp<std::uint64_t>(deferred.most, 1, wave_groups) * local;
    listed->args = gpu_args(local, 0, 1);
  }
  plan.passes.push_back(std::move(pass));
  if (join) plan.passes.push_back(std::move(*join));
  if (listed) plan.passes.push_back(std::move(*listed));
  plan.reason = std::string(name(request.op)) + " per segment, " + std::to_string(mean) + " elements on average (longest " +
                std::to_string(layout.longest) + "): " +
                (lanes == 1 ? std::string("a work-item") : std::to_string(lanes) + " work-items") + " per segment" +
                (slices > 1 ? ", " + std::to_string(slices) + " slices each, merged in order" +
                                  std::string(cpu ? " by a second launch" : " by the last to finish") : "") +
                (defer_above > 0 ? ", those longer than " + std::to_string(defer_above) + " a group per slice of " +
                                       std::to_string(slice_elements) + " in a second launch" : "");
}

std::uint64_t segmented_transform_depth(const Plan& plan) {
  const KernelPass& pass = plan.passes.front();
  const bool cpu = pass.entry_point.starts_with("zr_segtcpu_") || pass.entry_point.starts_with("zr_segmcpu_");
  const std::uint64_t slices = std::get<Scalar>(pass.args[6]).as<std::uint64_t>();
  const std::uint64_t lanes_log2 = cpu ? 0 : std::get<Scalar>(pass.args[7]).as<std::uint32_t>();
  // A lane's chain through its share of a slice, the lanes' pairwise tree; then the slices, a work-item's chain
  // through its share of them and the group's pairwise tree. Deferred segments (at most defer_above elements stay in
  // the first launch): in the second, a group's lane chain through a slice of at most slice_elements and its tree,
  // then, for a segment of several slices, the merge of its slices as above.
  const std::uint64_t longest = plan.segments->longest;
  const std::uint64_t defer_above = cpu ? 0 : std::get<Scalar>(pass.args[14]).as<std::uint64_t>();
  const std::uint64_t piece = ceil_div(defer_above > 0 ? std::min(longest, defer_above) : longest, slices);
  // segt (not segm) reads equal rows of one slice, none deferred, as 16-byte vectors (segtransform.cl).
  const bool vector_rows = pass.entry_point.starts_with("zr_segt_") && slices == 1 && defer_above == 0;
  std::uint64_t depth = (vector_rows ? segment_lane_chain(*plan.segments, plan.request.type, lanes_log2)
                                     : ceil_div(piece, std::uint64_t{1} << lanes_log2)) +
                        lanes_log2;
  if (slices > 1) depth += cpu ? slices : ceil_div(slices, pass.local_size) + ceil_log2(pass.local_size);
  if (defer_above > 0) {
    const std::uint64_t slice_elements = std::get<Scalar>(pass.args[17]).as<std::uint64_t>();
    const std::uint64_t deferred_slices = ceil_div(longest, slice_elements);
    std::uint64_t deferred = ceil_div(std::min(longest, slice_elements), pass.local_size) + ceil_log2(pass.local_size);
    if (deferred_slices > 1) deferred += ceil_div(deferred_slices, pass.local_size) + ceil_log2(pass.local_size);
    depth = std::max(depth, deferred);
  }
  return depth;
}

}  // namespace zr::core::plans
