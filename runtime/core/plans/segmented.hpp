#pragma once
// Segmented reductions: result s reduces the elements of segment s on its own (row sums, per-key totals,
// np.add.reduceat). The plan is chosen from the distribution of segment sizes (SegmentLayout):
//   - "segitem":  one work-item per segment, for segments so short that a group would idle ("segitemcpu" on CPU
//                 devices: a work-item per contiguous block of such segments; rows of one element are a map;
//                 "segquad" on GPUs for segments of at most one element: four consecutive ones a work-item);
//   - "segcpu":   on CPU devices (whose groups run their work-items one after another), every longer segment: a
//                 work-item per contiguous run of pieces folded with cpu.cl's vector states, and slices of few
//                 long segments folded by the column passes;
//   - "segsub":   on GPUs, many segments of up to a few hundred elements: a power of two of work-items per
//                 segment (about Tuning::segment_lane_elements elements each), several segments per group;
//   - "seggroup": on GPUs, one work-group per segment, its size following the mean segment length, and, where the
//                 segments are too few to fill the device, several groups ("slices") per segment whose
//                 partials a "columnsfinal" pass folds in slice order;
//   - "segspan" + "segjoin": on GPUs, skewed sizes given by offsets (the longest far above the mean: power-law
//                 counts, CSR rows): the work split by elements, a group per span of whole tiles (lanes x
//                 segment_span_items positions, each lane's read into its registers, the runs joined by a
//                 segmented scan over the lanes); segments inside a span are stored at once, those crossing spans
//                 are folded from two pieces per span by segjoin.
//   - "segarg" (+ "segargjoin"): argmin/argmax per segment (plans/segmented_arg.hpp); skewed sizes by offsets on
//                 GPUs as spans of 64-bit keys, "segargspan" + "segargspanjoin" (plans/segmented_span.hpp).
//   - "usegitem", "useggroup" (+ "usegjoin"): user-defined operators per segment (plans/segmented_user.hpp).
//   - "segbinned": reproducible floating-point sums (zr_binned.h), a group per segment: each segment's result has
//                 the bits of the 1-D reproducible sum of that segment, on any device.
// Every path folds each segment in a fixed order set by the launch shape alone, so results are deterministic.
// An empty segment gives the identity (then folded with the segment's initial value, as SYCL says).
#include <cstdint>
#include <optional>

#include "plan.hpp"

namespace zr::core {

// Throws InvalidArgumentError for a layout that cannot describe request.n elements (offset_bytes not 0, 4 or 8;
// equal segments that do not add up to n), UnsupportedError for an (op, type) without segmented kernels.
Plan make_segmented_plan(const Capabilities& caps, const ReductionRequest& request, const SegmentLayout& layout,
                         const Tuning& tuning);

// Offsets (segments + 1 of them) that start at 0 and step by one length L up to n describe rows of L, as
// np.add.reduceat over np.arange(0, n, L) or a CSR matrix with the same count in every row give them: the layout of
// those rows, whose plans read no offsets, or nullopt for any other offsets. `first` and `last` are offsets 0 and
// `segments`, `shortest` the shortest segment (the host's scan of the offsets finds them with `longest`). On an H200
// the rows took 0.71-0.86x the offsets' time at segments of 2^0..2^6 (f32 sums and maxima, 2^28 elements).
std::optional<SegmentLayout> equal_offsets_as_rows(const SegmentLayout& layout, std::uint64_t n, std::uint64_t first,
                                                   std::uint64_t last, std::uint64_t shortest);

// The most combines any one element goes through on its way to its segment's result (see combine_depth).
std::uint64_t segmented_combine_depth(const Plan& plan);

// The longest chain of a lane of segsub or segt (2^lanes_log2 lanes a segment) through its share of a segment: every
// 2^lanes_log2-th element, or where the kernels read equal rows as 16-byte vectors (spirv_kernels/src/
// zr_vector_rows.h: rows a multiple of a vector long, not bool or f16), every 2^lanes_log2-th vector, whole.
std::uint64_t segment_lane_chain(const SegmentLayout& layout, DataType type, std::uint64_t lanes_log2);

// Segments up to this long (the longest of them) run one work-item per segment (segitem, segquad, segitemcpu).
inline constexpr std::uint64_t kSegmentPerItemMaxLength = 8;
// On GPUs segments of at most kSegmentQuadMaxLength elements take segquad, which gives a work-item kSegmentQuad
// consecutive segments at a time: one vector of bounds for them, and one vector load and store where they are one
// element each. On the H200, one-element segments by 32-bit offsets took 0.60-0.82x segitem's time, f32 rows of one
// 0.82-0.89x (f64 rows within 2%); segments of four as quads took 1.2-1.8x (bench/results/segquad_h200_2026-11-29).
inline constexpr std::uint64_t kSegmentQuad = 4;
inline constexpr std::uint64_t kSegmentQuadMaxLength = 1;

// segspan's tile positions per lane, held in the lane's registers (segspan.cl's ZR_SPAN_ITEMS): 16, or 8 for 8-byte
// accumulators, whose 16 spilled on PVC (and took f64 1.18-1.31x longer on an H200). For f32 in registers, 8 took
// 1.18-1.26x as long as 16 (H200, power-law sums and maxima: bench/results/segspan_oneround_h200_2026-11-28/); the
// kernel took 50 registers on NVIDIA in its first form in registers.
constexpr std::uint64_t segment_span_items(std::size_t accumulator_bytes) { return accumulator_bytes == 8 ? 8 : 16; }

}  // namespace zr::core
