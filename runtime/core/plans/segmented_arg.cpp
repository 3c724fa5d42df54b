#include "plans/segmented_arg.hpp"

#include <algorithm>
#include <bit>

#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"

namespace zr::core::plans {

namespace {
constexpr std::size_t kArgCandidateBytes = 16;  // zr_arg.h's zr_arg_<type>: value, then a 64-bit index
// Fewer segments than compute units x this get slices (as the other segmented plans).
constexpr std::uint64_t kBusyGroupsPerComputeUnit = 4;
// Sizes are skewed when the longest segment is this many times the mean: a group per segment then, so that no long
// segment is left to a few lanes.
constexpr std::uint64_t kSkew = 16;
}  // namespace

void add_segmented_arg_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                              std::uint64_t mean) {
  const ReductionRequest& request = plan.request;
  const bool cpu = caps.type == DeviceType::cpu;
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const std::uint64_t busy_groups = std::max<std::uint64_t>(1, caps.compute_units) * kBusyGroupsPerComputeUnit;
  const std::uint64_t local = cpu ? 1 : widest_group(caps, tuning, kArgCandidateBytes);
  const std::uint64_t lane_elements = std::max<std::uint64_t>(tuning.segment_lane_elements, 1);
  std::uint64_t lanes = 1;
  std::uint64_t slices = 1;
  if (!cpu && layout.longest > kSegmentPerItemMaxLength) {
    const bool skewed = layout.longest > kSkew * std::max(mean, lane_elements);
    lanes = skewed ? local : segment_lanes(mean, tuning, local);
  }
  if (layout.segments < busy_groups) {
    // Few segments: a group (on CPUs a work-item) per slice of each, enough slices to fill the device, none
    // shorter than min_elements_per_item per work-item.
    lanes = local;
    const std::uint64_t per_piece = local * std::max<std::uint64_t>(tuning.min_elements_per_item, 16);
    slices = std::clamp<std::uint64_t>(std::min(ceil_div(wave_groups, layout.segments), ceil_div(layout.longest, per_piece)),
                                       1, wave_groups);
  }
  // zr_arg_grid.h counts a lane's vectors in 32 bits: no lane's share of a slice may reach 2^32 elements.
  slices = std::max(slices, ceil_div(layout.longest, lanes << 32));
  const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few or huge segments
  const std::uint64_t per_group = local / lanes;
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  BufferArg partials{BufferArg::Which::none, 0};
  if (slices > 1)
    partials = add_scratch(plan, pieces * kArgCandidateBytes, std::nullopt,
                           "candidates of " + std::to_string(slices) + " slices per segment");

  KernelPass scan = kernel_pass("segarg", request.op, request.type, slices > 1 ? "slices" : "segments");
  scan.local_size = local;
  scan.global_size = std::clamp<std::uint64_t>(ceil_div(pieces, per_group), 1, wave_groups * 64) * local;
  scan.args = {BufferArg{BufferArg::Which::input, 0}, u64(request.n), offsets, u32(layout.offset_bytes),
               u64(layout.length), u64(layout.segments), u64(slices),
               u32(static_cast<std::uint32_t>(std::countr_zero(lanes))), partials, result,
               LocalMemoryArg{local_bytes(local, kArgCandidateBytes)}, u64(layout.end_step)};
  plan.passes.push_back(std::move(scan));
  plan.reason = "argument of the extreme per segment, " + std::to_string(mean) + " elements on average (longest " +
                std::to_string(layout.longest) + "): " +
                (lanes == 1 ? std::string("a work-item") : std::to_string(lanes) + " work-items") + " per segment" +
                (slices > 1 ? ", " + std::to_string(slices) + " slices each, then the best of each segment's slices" : "");
  if (slices == 1) return;

  KernelPass join = kernel_pass("segargjoin", request.op, request.type, "segments");
  join.local_size = cpu ? 1 : std::min<std::uint64_t>(local, 64);
  join.global_size = std::clamp<std::uint64_t>(ceil_div(layout.segments, join.local_size), 1, wave_groups) * join.local_size;
  join.args = {partials, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.length), u64(layout.segments),
               u64(slices), result, u64(layout.end_step)};
  plan.passes.push_back(std::move(join));
}

}  // namespace zr::core::plans
