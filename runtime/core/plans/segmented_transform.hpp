#pragma once
// Transform-reductions (norms, sums of squares, counts, widened sums) and means and variances per segment
// (segtransform.cl): each segment transformed and summed, or its {count, mean, m2} merged, in one read. A power of
// two of lanes per segment, from one work-item (tiny segments) to a whole group; where the segments are too few to
// fill the device, slices of each, a group apiece, the segment's last group to finish merging the slices in order.
// CPU devices (segtcpu, segmcpu): a work-item per segment or slice, without barriers, and with slices a second launch
// of the same kernel merging them. Every segment is folded in an
// order set by the launch shape alone: results are deterministic.
#include <cstdint>

#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core::plans {

// Appends the passes of a transform-reduction or a mean and variance per segment to `plan` (request, segments and
// results already set). `mean`: the mean segment length.
void add_segmented_transform_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning,
                                    const SegmentLayout& layout, std::uint64_t mean);

// The most combines any one element goes through on its way to its segment's result (segmented_combine_depth).
std::uint64_t segmented_transform_depth(const Plan& plan);

}  // namespace zr::core::plans
