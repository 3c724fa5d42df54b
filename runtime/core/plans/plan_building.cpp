#include "plans/plan_building.hpp"

#include <algorithm>
#include <bit>

#include "plans/segmented.hpp"
#include "zereduce/errors.hpp"

namespace zr::core::plans {

std::uint64_t ceil_log2(std::uint64_t x) {
  std::uint64_t bits = 0;
  while (bits < 64 && (1ull << bits) < x) ++bits;
  return bits;
}

KernelPass kernel_pass(std::string_view variant, Op op, DataType type, std::string label) {
  const auto found = find_kernel(variant, op, type);
  if (!found)
    throw UnsupportedError("no '" + std::string(variant) + "' kernel is embedded for " + std::string(name(op)) +
                           " on " + std::string(name(type)));
  KernelPass pass;
  pass.module = found->module;
  pass.entry_point = kernel_entry_point(variant, op, type);
  pass.label = std::move(label);
  return pass;
}

BufferArg add_scratch(Plan& plan, std::uint64_t bytes, std::optional<Scalar> fill, std::string purpose) {
  plan.scratch.push_back({std::max<std::uint64_t>(bytes, 8), std::move(fill), std::move(purpose)});
  return BufferArg{BufferArg::Which::scratch, static_cast<std::uint32_t>(plan.scratch.size() - 1)};
}

std::uint64_t widest_group(const Capabilities& caps, const Tuning& tuning, std::size_t acc_size) {
  std::uint64_t widest = std::min(tuning.work_group_size, caps.max_work_group_size);
  if (caps.local_memory_bytes > 0) widest = std::min<std::uint64_t>(widest, caps.local_memory_bytes / (2 * acc_size));
  return std::bit_floor(std::max<std::uint64_t>(widest, 1));
}

std::uint64_t segment_item_groups(const Capabilities& caps, const Tuning& tuning, std::uint64_t pieces,
                                  std::uint64_t per_group, bool even) {
  const std::uint64_t compute_units = std::max<std::uint64_t>(1, caps.compute_units);
  const std::uint64_t most = even && tuning.segment_item_groups_per_compute_unit > 0
                                 ? compute_units * tuning.segment_item_groups_per_compute_unit
                                 : std::max<std::uint64_t>(1, compute_units * tuning.groups_per_compute_unit) * 64;
  return std::clamp<std::uint64_t>(ceil_div(pieces, std::max<std::uint64_t>(per_group, 1)), 1, most);
}

namespace {
// Fewer segments than compute units x this get slices (as the other segmented plans).
constexpr std::uint64_t kBusyGroupsPerComputeUnit = 4;
// Segments of at least this many elements on average get at least segment_group_elements_per_item per lane.
constexpr std::uint64_t kFullerLanesFrom = 1024;
}  // namespace

std::uint64_t launch_groups(const Capabilities& caps, const Tuning& tuning, std::uint64_t elements, std::uint64_t local) {
  const std::uint64_t most = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  std::uint64_t wanted = ceil_div(std::max<std::uint64_t>(elements, 1), local * tuning.min_elements_per_item);
  if (tuning.wave_groups_per_compute_unit > 0 && tuning.wave_elements_per_item > 0) {
    const std::uint64_t wave = caps.compute_units * tuning.wave_groups_per_compute_unit;
    wanted = std::max(std::min(wanted, wave), ceil_div(elements, local * tuning.wave_elements_per_item));
  }
  return std::clamp<std::uint64_t>(wanted, 1, most);
}

std::uint64_t segment_slices(const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                             std::uint64_t mean, std::uint64_t local, std::uint64_t slice_elements) {
  if (layout.segments == 0 || layout.segments >= std::max<std::uint64_t>(1, caps.compute_units) * kSegmentGroupsPerComputeUnit)
    return 1;
  const std::uint64_t most = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const std::uint64_t groups = launch_groups(caps, tuning, mean * layout.segments, local);
  return std::clamp<std::uint64_t>(
      std::min(ceil_div(groups, layout.segments), ceil_div(layout.longest, std::max<std::uint64_t>(slice_elements, 1))), 1, most);
}

LaneSplit lane_split(const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout, std::uint64_t mean,
                     std::uint64_t local, std::uint64_t slice_elements, std::uint64_t defer_share) {
  const bool cpu = caps.type == DeviceType::cpu;
  const std::uint64_t busy_groups = std::max<std::uint64_t>(1, caps.compute_units) * kBusyGroupsPerComputeUnit;
  LaneSplit split;
  if (!cpu && layout.longest > kSegmentPerItemMaxLength) {
    split.lanes = segment_lanes(mean, tuning, local);
    // From a thousand elements on, fewer and fuller lanes: the lanes' tree and a piece's head and tail are paid per
    // segment. H100, f32 argmax, 2^28 in all: 2^10, 2^12, 2^14 took 441, 416, 408 us with segment_lanes alone and
    // 398, 386, 380 us with 64 elements per lane; 2^8 took 455 us with 8 lanes and 481 with 4.
    const std::uint64_t per_lane = std::max<std::uint64_t>(tuning.segment_group_elements_per_item, 1);
    if (mean >= kFullerLanesFrom)
      split.lanes = std::min(split.lanes, std::bit_floor(std::max<std::uint64_t>(mean / per_lane, 1)));
    // Skewed sizes: the segments far longer than the lanes are made for go to a second launch, a group each, so
    // that none holds a few lanes while the rest of the launch waits.
    split.defer_above = split.lanes * std::max<std::uint64_t>(tuning.segment_lane_elements, 1) * defer_share;
    if (layout.longest <= split.defer_above || split.lanes == local) split.defer_above = 0;
  }
  if (layout.segments < busy_groups) {
    // Few segments: a group (on CPUs a work-item) per slice of each, enough slices to fill the device.
    split.lanes = local;
    split.defer_above = 0;
    split.slices = segment_slices(caps, tuning, layout, mean, local, slice_elements);
  }
  return split;
}

LaneSplit cap_lanes(LaneSplit split, const Tuning& tuning, std::uint64_t mean, std::uint64_t elements,
                    std::uint64_t defer_share) {
  if (elements == 0 || split.slices > 1) return split;
  const std::uint64_t capped = std::bit_floor(std::max<std::uint64_t>(mean / elements, 1));
  if (capped >= split.lanes) return split;
  split.lanes = capped;
  if (split.defer_above > 0) split.defer_above = split.lanes * std::max<std::uint64_t>(tuning.segment_lane_elements, 1) * defer_share;
  return split;
}

DeferredList add_deferred_list(Plan& plan, const SegmentLayout& layout, std::uint64_t defer_above) {
  DeferredList list;
  if (defer_above == 0) return list;
  const std::uint64_t covered = layout.end_step == 1 ? plan.request.n : layout.covered;
  list.most = std::min(layout.segments, covered / (defer_above + 1));
  list.buffer = add_scratch(plan, 8 + 8 * list.most, Scalar::from(DataType::u32, 0),
                            "two counters and the numbers of the segments longer than " + std::to_string(defer_above));
  return list;
}

Scalar transform_lane_value(const ReductionRequest& request) {
  Scalar value = to_accumulator(request.transform_value.type == request.type ? request.transform_value
                                                                            : Scalar{request.type, {}});
  if (request.type == DataType::boolean) value = Scalar::from<std::uint8_t>(DataType::boolean, value.bytes[0] != std::byte{0});
  return value;
}

namespace {
constexpr std::uint64_t kTreeRadix = 8;  // ZR_TREE_RADIX
}

std::uint64_t local_tree_depth(std::uint64_t local_size) {
  std::uint64_t depth = 0;
  for (std::uint64_t active = local_size; active > 1;) {
    const std::uint64_t step = ceil_div(active, kTreeRadix);
    depth += ceil_log2(ceil_div(active, step));
    active = step;
  }
  return depth;
}

// Short segments do not leave most of a wide group idle: at least the tuning's elements per work-item. Never narrower
// than the hardware's lanes (a sub-group, 32 on most GPUs).
std::uint64_t segment_group_size(const Capabilities& caps, const Tuning& tuning, std::uint64_t mean_length,
                                 std::size_t acc_size) {
  const std::uint64_t widest = widest_group(caps, tuning, acc_size);
  std::uint64_t narrowest = 32;
  for (std::uint32_t s : caps.subgroup_sizes) narrowest = std::max<std::uint64_t>(narrowest, s);
  std::uint64_t size = narrowest;
  const std::uint64_t per_item = std::max<std::uint64_t>(tuning.segment_group_elements_per_item, 1);
  while (size * per_item <= mean_length && size * 2 <= widest) size *= 2;
  return std::max<std::uint64_t>(1, std::min(size, widest));
}

KernelPass user_kernel_pass(std::string_view variant, const UserOperator& op, std::string label) {
  const EmbeddedModule* template_module = user_template(variant, op);
  if (!template_module)
    throw UnsupportedError("no '" + std::string(variant) + "' template is embedded for " +
                           std::to_string(op.element_bytes) + "-byte elements");
  KernelPass pass;
  pass.module = &linked_module(*template_module, op);
  pass.entry_point = kernel_entry_point(variant, user_template_bits(variant, op));
  pass.label = std::move(label);
  return pass;
}

// Each step folds up to three more slots into a work-item's accumulator, one after another.
constexpr std::uint64_t kUserTreeRadix = 4;  // ZR_USER_TREE_RADIX
std::uint64_t user_tree_depth(std::uint64_t local_size) {
  std::uint64_t depth = 0;
  for (std::uint64_t active = local_size; active > 1;) {
    const std::uint64_t step = ceil_div(active, kUserTreeRadix);
    depth += ceil_div(active, step) - 1;
    active = step;
  }
  return depth;
}

}  // namespace zr::core::plans
