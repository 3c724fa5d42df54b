#pragma once
// A user-defined operator per segment (spirv_kernels/src/usegments.cl, linked with the operator as the 1-D
// templates are): segments of at most kSegmentPerItemMaxLength elements a work-item each (usegitem); longer ones a
// group each (useggroup; on CPU devices a work-item each, groups of one), and where the segments are too few to
// fill the device, slices of each, a group apiece, folded in slice order by usegjoin. Every segment is folded in
// an order set by the launch shape alone: results are deterministic. The operator is called one element at a
// time, so the plans favour simple shapes over the vector reads of the built-in ops.
#include <cstdint>

#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core::plans {

// Appends the passes of a user-defined operator per segment to `plan` (request, segments and results already set).
// `mean`: the mean segment length.
void add_segmented_user_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                               std::uint64_t mean);

// The most combines any one element goes through on its way to its segment's result (segmented_combine_depth).
std::uint64_t segmented_user_depth(const Plan& plan);

}  // namespace zr::core::plans
