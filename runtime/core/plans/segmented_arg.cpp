#include "plans/segmented_arg.hpp"

#include <algorithm>
#include <bit>

#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"
#include "plans/segmented_span.hpp"

namespace zr::core::plans {

namespace {
constexpr std::size_t kArgCandidateBytes = 16;  // zr_arg.h's zr_arg_<type>: value, then a 64-bit index
constexpr std::size_t kArgKeyBytes = 8;         // segspan.cl's keys: a 32-bit rank, then a 32-bit position
// A slice of a few long segments gives each of its group's work-items at least this many elements: fewer slices
// keep the join short (the H100 took 2.7 ms for one segment of 2^28 f32 cut into 16,896 slices of 16 per item).
constexpr std::uint64_t kSliceElementsPerItem = 256;
// Skewed sizes defer segments longer than lanes x segment_lane_elements x this to a group each. H100, f32 argmax,
// power-law sizes (bench/results/segmented_h100_2026-11-27j/defer_sweep): 8 (256 elements with one lane) took 3.88 ms,
// 4 took 4.19, 16 took 4.75: a longer threshold slows the first launch more than it spares the second.
constexpr std::uint64_t kDeferShare = 8;
}  // namespace

void add_segmented_arg_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                              std::uint64_t mean) {
  const ReductionRequest& request = plan.request;
  const bool cpu = caps.type == DeviceType::cpu;
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const std::uint64_t local = cpu ? 1 : widest_group(caps, tuning, kArgCandidateBytes);
  // Fewer lanes than a sum's: a lane's scan of 16-byte vectors is cheap, the lanes' meeting in local memory is not
  // (16-byte candidates, a barrier a step). A work-item per segment needs no barrier at all (segarg.cl).
  const LaneSplit split =
      cap_lanes(lane_split(caps, tuning, layout, mean, local, local * kSliceElementsPerItem, kDeferShare), tuning, mean,
                tuning.segment_arg_lane_elements, kDeferShare);
  const std::uint64_t lanes = split.lanes;
  std::uint64_t slices = split.slices;
  std::uint64_t defer_above = split.defer_above;
  // zr_arg_grid.h counts a lane's vectors in 32 bits: no lane's share of a slice may reach 2^32 elements.
  slices = std::max(slices, ceil_div(layout.longest, lanes << 32));
  if (slices > 1) defer_above = 0;  // the listing launch scans whole segments
  // Skewed sizes on GPUs, where keys hold the elements: the work split by elements (segmented_span.hpp), so that
  // neither the many short segments' work-items nor the long segments' groups set the pace.
  if (!cpu && defer_above > 0 && spans_can_walk(layout) && arg_keys_fit(request)) {
    add_span_passes(plan, caps, tuning, layout,
                    {"segargspan", "segargspanjoin", kArgKeyBytes, u64(0), true, /*stages_results=*/true});
    plan.reason = "argument of the extreme per segment by keys of value and position, " + plan.reason;
    return;
  }
  const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few or huge segments
  const std::uint64_t per_group = local / lanes;
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  const BufferArg input{BufferArg::Which::input, 0};
  const LocalMemoryArg scratch{local_bytes(local, kArgCandidateBytes)};
  BufferArg partials{BufferArg::Which::none, 0};
  if (slices > 1)
    partials = add_scratch(plan, pieces * kArgCandidateBytes, std::nullopt,
                           "candidates of " + std::to_string(slices) + " slices per segment");
  const DeferredList deferred = add_deferred_list(plan, layout, defer_above);
  auto scan_args = [&](std::uint64_t lanes_of_pass, std::uint64_t defer, std::uint32_t listed) {
    return std::vector<KernelArg>{input, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.length),
                                  u64(layout.segments), u64(slices),
                                  u32(static_cast<std::uint32_t>(std::countr_zero(lanes_of_pass))), partials, result,
                                  scratch, u64(layout.end_step), u64(defer), deferred.buffer, u32(listed)};
  };

  // CPU devices: the barrier-free variants (segarg.cl says why), a work-item per piece.
  KernelPass scan = kernel_pass(cpu ? "segargcpu" : "segarg", request.op, request.type, slices > 1 ? "slices" : "segments");
  scan.local_size = local;
  // Skewed sizes (long segments deferred) keep a work-item per segment: work-items striding over segments of uneven
  // lengths ran power-law f32 argmax 1.12x slower on the H200 (bench/results/segitem_groups_h200_2026-11-29).
  scan.global_size = segment_item_groups(caps, tuning, pieces, per_group, /*even=*/defer_above == 0) * local;
  if (cpu)
    scan.args = {input, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.length), u64(layout.segments),
                 u64(slices), partials, result, u64(layout.end_step)};
  else
    scan.args = scan_args(lanes, defer_above, 0);
  plan.passes.push_back(std::move(scan));
  plan.reason = "argument of the extreme per segment, " + std::to_string(mean) + " elements on average (longest " +
                std::to_string(layout.longest) + "): " +
                (lanes == 1 ? std::string("a work-item") : std::to_string(lanes) + " work-items") + " per segment" +
                (slices > 1 ? ", " + std::to_string(slices) + " slices each, then the best of each segment's slices" : "") +
                (defer_above > 0 ? ", those longer than " + std::to_string(defer_above) + " a group each in a second launch" : "");

  if (defer_above > 0) {
    KernelPass listed = kernel_pass("segarg", request.op, request.type, "long segments");
    listed.local_size = local;
    listed.global_size = std::clamp<std::uint64_t>(deferred.most, 1, wave_groups) * local;
    listed.args = scan_args(local, 0, 1);
    plan.passes.push_back(std::move(listed));
  }
  if (slices == 1) return;
  KernelPass join = kernel_pass(cpu ? "segargcpujoin" : "segargjoin", request.op, request.type, "segments");
  join.local_size = std::min<std::uint64_t>(local, 256);
  join.global_size = std::clamp<std::uint64_t>(layout.segments, 1, wave_groups) * join.local_size;
  join.args = {partials, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.length), u64(layout.segments),
               u64(slices), result};
  if (!cpu) join.args.push_back(LocalMemoryArg{local_bytes(join.local_size, kArgCandidateBytes)});
  join.args.push_back(u64(layout.end_step));
  plan.passes.push_back(std::move(join));
}

}  // namespace zr::core::plans
