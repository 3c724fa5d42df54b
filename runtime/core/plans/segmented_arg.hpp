#pragma once
// Argmin/argmax per segment (segarg.cl): each segment's first extreme and its index from the segment's begin.
// A power of two of lanes per segment, from one work-item (tiny segments, and every segment on CPU devices, whose
// groups run their work-items one after another: segargcpu, without barriers) to a whole group; where the segments are too few to fill the
// device, slices of each, a group apiece, whose candidates segargjoin picks from. On GPUs, skewed sizes given by offsets
// (elements of up to 32 bits, n < 2^32 - 1) are split by elements instead (plans/segmented_span.hpp). The arg order is
// total, so any plan gives the same result.
#include <cstdint>

#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core::plans {

// Appends the passes of an arg-reduction per segment to `plan` (request, segments and results already set).
// `mean`: the mean segment length.
void add_segmented_arg_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                              std::uint64_t mean);

}  // namespace zr::core::plans
