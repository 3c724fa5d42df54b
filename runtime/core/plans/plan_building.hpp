#pragma once
// The small pieces every plan family builds its passes from: size arithmetic, kernel lookups, scratch
// buffers and by-value arguments. Shared by plan.cpp and the families under plans/, so that each family's
// file holds only its own choices.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "plan.hpp"
#include "tuning.hpp"
#include "user_operator.hpp"

namespace zr::core::plans {

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }
inline std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple) { return ceil_div(value, multiple) * multiple; }
std::uint64_t ceil_log2(std::uint64_t x);

inline Scalar u64(std::uint64_t v) { return Scalar::from(DataType::u64, v); }
inline Scalar u32(std::uint32_t v) { return Scalar::from(DataType::u32, v); }

// A pass of the embedded kernel `variant` for (op, type); throws UnsupportedError naming both when the
// kernel is not embedded.
KernelPass kernel_pass(std::string_view variant, Op op, DataType type, std::string label);

// Appends a scratch buffer (at least 8 bytes) to the plan and returns the argument that names it.
BufferArg add_scratch(Plan& plan, std::uint64_t bytes, std::optional<Scalar> fill, std::string purpose);

// Local memory for one accumulator per work-item (never zero bytes: drivers refuse that).
inline std::uint64_t local_bytes(std::uint64_t local_size, std::size_t acc_size) {
  return std::max<std::uint64_t>(local_size * acc_size, 8);
}

// The largest power of two of work-items a group may have: the tuning's size, within the device's limits,
// with room for an accumulator of acc_size bytes per work-item in local memory.
std::uint64_t widest_group(const Capabilities& caps, const Tuning& tuning, std::size_t acc_size);

// Work-items ("lanes") per segment for segments of `mean` elements on average, a power of two up to widest
// (plans/segmented.cpp: measured for segsub, used by the arg family too).
std::uint64_t segment_lanes(std::uint64_t mean, const Tuning& tuning, std::uint64_t widest);

// Work-items per group for a group per segment of `mean` elements on average (seggroup, segbinned, useggroup): a
// power of two from a sub-group's width up to widest_group(acc_size), growing with the mean segment length.
std::uint64_t segment_group_size(const Capabilities& caps, const Tuning& tuning, std::uint64_t mean_length,
                                 std::size_t acc_size);

// The groups of a GPU launch that gives each of `pieces` a work-item (segitem, segarg's scan, segt/segm), `per_group`
// of them a group: enough for one each, at most compute units x Tuning::segment_item_groups_per_compute_unit (the
// work-items stride over the rest), or 64 waves of groups_per_compute_unit where the tuning names no cap or the
// pieces are of uneven lengths (`even` false: the device then hands a work-item to each as others finish).
std::uint64_t segment_item_groups(const Capabilities& caps, const Tuning& tuning, std::uint64_t pieces,
                                  std::uint64_t per_group, bool even = true);

// Segments fewer than compute units x this get slices (a group per segment would leave the device idle).
inline constexpr std::uint64_t kSegmentGroupsPerComputeUnit = 4;

// The groups of `local` work-items a launch over `elements` takes: one per local x min_elements_per_item (few for
// small inputs), but where the tuning names a wave, at least a wave once there is work for it and beyond it one
// per local x wave_elements_per_item; at most compute units x groups_per_compute_unit. The 1-D reductions' grid
// (plan.cpp), which the sliced segmented plans follow too.
std::uint64_t launch_groups(const Capabilities& caps, const Tuning& tuning, std::uint64_t elements, std::uint64_t local);

// Slices per segment for the plans that give a slice a group (CPUs: a work-item of `local` = 1): 1 where the
// segments are enough to fill the device (compute units x kSegmentGroupsPerComputeUnit), else enough that the
// launch has the groups a 1-D reduction of the same elements would (launch_groups), each slice at least
// `slice_elements` long. (Slicing to the most groups a launch takes instead, 128 per SM on the H100, read segments
// of 2^20..2^28 f32 at 0.89-0.92 of the read probe, where the 1-D grid reads 0.96-0.99.)
std::uint64_t segment_slices(const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                             std::uint64_t mean, std::uint64_t local, std::uint64_t slice_elements);

// How the lane-per-segment families (segarg, segt/segm) split their work: `lanes` work-items per segment (a power
// of two up to the group, more for longer segments, from a thousand elements on at least
// segment_group_elements_per_item each); where the segments are too few to fill the device, `slices` of each, a
// group (CPUs: a work-item) apiece, each at least `slice_elements` long; otherwise, skewed sizes defer every segment
// longer than `defer_above` (0: none) to a second launch: lanes x Tuning::segment_lane_elements x `defer_share`, the
// family's (what its second launch does with a long segment sets it). `local` is the group's size (1 on CPUs).
struct LaneSplit {
  std::uint64_t lanes = 1;
  std::uint64_t slices = 1;
  std::uint64_t defer_above = 0;
};
LaneSplit lane_split(const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout, std::uint64_t mean,
                     std::uint64_t local, std::uint64_t slice_elements, std::uint64_t defer_share);
// A split with at most a lane per `elements` of the mean segment (0: as it is), for kernels whose lanes meet at a cost
// a sum's do not; the deferral threshold follows the lanes.
LaneSplit cap_lanes(LaneSplit split, const Tuning& tuning, std::uint64_t mean, std::uint64_t elements,
                    std::uint64_t defer_share);

// The list of a lane split's deferred segments (defer_above > 0): two uint counters, zeros once (the second launch's
// last group resets them), then room for every segment that can be longer than defer_above, `most` of them: their
// lengths add up to at most n, or with begin and end arrays (which may overlap) to `covered`.
struct DeferredList {
  BufferArg buffer{BufferArg::Which::none, 0};
  std::uint64_t most = 0;
};
DeferredList add_deferred_list(Plan& plan, const SegmentLayout& layout, std::uint64_t defer_above);

// count_equal's value as the transform kernels' LANE argument (zr_transform.h): half compared as float, bool as 0
// or 1; the element type's zero for the other transforms, which ignore it.
Scalar transform_lane_value(const ReductionRequest& request);

// Combines on the longest path through ZR_LOCAL_TREE (spirv_kernels/src/zr_group_tree.h).
std::uint64_t local_tree_depth(std::uint64_t local_size);

// A pass of a user-defined operator's template `variant` (zr_user.h), linked with the operator (once per process);
// throws UnsupportedError when no template is embedded for the operator's element size.
KernelPass user_kernel_pass(std::string_view variant, const UserOperator& op, std::string label);

// Combines on the longest path through zr_user_group_tree (spirv_kernels/src/zr_user.h).
std::uint64_t user_tree_depth(std::uint64_t local_size);

}  // namespace zr::core::plans
