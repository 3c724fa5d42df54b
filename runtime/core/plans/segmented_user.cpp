#include "plans/segmented_user.hpp"

#include <algorithm>

#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"
#include "zereduce/errors.hpp"

namespace zr::core::plans {

void add_segmented_user_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                               std::uint64_t mean) {
  const ReductionRequest& request = plan.request;
  if (!request.user_operator) throw InvalidArgumentError("a user-defined reduction names no operator");
  const UserOperator& op = *request.user_operator;
  const std::uint64_t slot = op.slot_bytes();
  const std::uint64_t flag = sizeof(std::uint32_t);
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg offsets{layout.offset_bytes ? BufferArg::Which::segment_offsets : BufferArg::Which::none, 0};
  const BufferArg results{BufferArg::Which::result, 0};
  const Scalar include_initial = u32(request.include_initial ? 1 : 0);
  const Scalar offset_bytes = u32(layout.offset_bytes);
  const std::string operator_name = "user operator '" + op.name + "'";

  if (layout.longest <= kSegmentPerItemMaxLength) {
    KernelPass pass = user_kernel_pass("usegitem", op, "segments");
    pass.local_size = std::max<std::uint64_t>(1, std::min(tuning.work_group_size, caps.max_work_group_size));
    pass.global_size =
        std::clamp<std::uint64_t>(ceil_div(layout.segments, pass.local_size), 1, wave_groups * 64) * pass.local_size;
    pass.args = {input, u64(request.n), offsets, offset_bytes, u64(layout.length), u64(layout.segments), results,
                 include_initial, u64(layout.end_step)};
    plan.passes.push_back(std::move(pass));
    plan.reason = operator_name + ", segments of at most " + std::to_string(layout.longest) +
                  " elements: a work-item per segment";
    return;
  }

  const bool cpu = caps.type == DeviceType::cpu;
  const std::uint64_t local = cpu ? 1 : segment_group_size(caps, tuning, mean, slot + flag);
  const std::uint64_t slices =
      segment_slices(caps, tuning, layout, mean, local, local * std::max<std::uint64_t>(tuning.min_elements_per_item, 16));
  const std::uint64_t pieces = layout.segments * slices;  // no overflow: slices > 1 only for few segments
  KernelPass fold = user_kernel_pass("useggroup", op, slices > 1 ? "partials" : "segments");
  fold.local_size = local;
  fold.global_size = std::clamp<std::uint64_t>(pieces, 1, cpu ? wave_groups : wave_groups * 64) * local;
  BufferArg partials{BufferArg::Which::none, 0};
  BufferArg flags{BufferArg::Which::none, 0};
  if (slices > 1) {
    partials = add_scratch(plan, pieces * slot, std::nullopt, "segment accumulators, " + std::to_string(slices) + " slices each");
    flags = add_scratch(plan, pieces * flag, std::nullopt, "whether each slice's accumulator holds a value");
  }
  fold.args = {input, u64(request.n), offsets, offset_bytes, u64(layout.length), u64(layout.segments), u64(slices),
               partials, flags, results, include_initial, LocalMemoryArg{local_bytes(local, slot)},
               LocalMemoryArg{local_bytes(local, flag)}, u64(layout.end_step)};
  plan.passes.push_back(std::move(fold));
  plan.reason = operator_name + ", segments of " + std::to_string(mean) + " elements on average (longest " +
                std::to_string(layout.longest) + "): " + (cpu ? "a work-item" : "a group of " + std::to_string(local)) +
                " per segment" + (slices > 1 ? ", " + std::to_string(slices) + " slices each folded in order" : "");
  if (slices == 1) return;

  KernelPass join = user_kernel_pass("usegjoin", op, "slices");
  join.local_size = std::max<std::uint64_t>(1, std::min(tuning.work_group_size, caps.max_work_group_size));
  join.global_size = std::clamp<std::uint64_t>(ceil_div(layout.segments, join.local_size), 1, wave_groups * 64) * join.local_size;
  join.args = {partials, flags, u64(layout.segments), u64(slices), results, include_initial};
  plan.passes.push_back(std::move(join));
}

std::uint64_t segmented_user_depth(const Plan& plan) {
  const SegmentLayout& layout = *plan.segments;
  const std::uint64_t initial = plan.request.include_initial ? 1 : 0;
  const KernelPass& first = plan.passes.front();
  // One combine more than the elements where the accumulator starts from the identity.
  if (first.entry_point.starts_with("zr_usegitem_")) return layout.longest + 1 + initial;
  const std::uint64_t slices = std::get<Scalar>(first.args[6]).as<std::uint64_t>();
  const std::uint64_t slice = ceil_div(layout.longest, slices);
  const std::uint64_t joined = slices > 1 ? slices + 1 : 0;
  return ceil_div(slice, first.local_size) + 1 + user_tree_depth(first.local_size) + joined + initial;
}

}  // namespace zr::core::plans
