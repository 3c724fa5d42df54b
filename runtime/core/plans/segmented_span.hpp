#pragma once
// Skewed segment sizes on GPUs, the work split by elements rather than by segments (segspan.cl): a group per span of
// whole tiles (lanes x segment_span_items positions, each lane's read into its registers, the runs joined by a
// segmented scan over the lanes). Segments inside a span are stored at once; those crossing spans are folded from
// two pieces per span by the join pass. Sums, extremes and the other built-in ops fold their accumulators
// (segspan + segjoin); argmin/argmax fold 64-bit keys of value rank and position (segargspan + segargspanjoin);
// transform-reductions fold transformed elements (segtspan + segtspanjoin).
#include <cstdint>
#include <optional>
#include <string>

#include "plan.hpp"
#include "tuning.hpp"

namespace zr::core::plans {

// The join: a segment crossing spans whose pieces are at most this many is folded by one work-item; longer ones by
// the whole group.
inline constexpr std::uint32_t kSpanSerialPieces = 16;

struct SpanKernels {
  std::string fold;            // the per-span kernel's family ("segspan", "segargspan")
  std::string join;            // the join of the segments crossing spans ("segjoin", "segargspanjoin")
  std::size_t accumulator_bytes;
  Scalar identity;
  bool join_reads_input;       // the join's last argument is the input (segargspanjoin reads values back)
  bool stages_results = false;  // the per-span kernel stages a tile's results in local memory (segargspan)
  std::optional<Scalar> fold_value{};  // the per-span kernel's last argument (segtspan: count_equal's value)
};

// Whether the offsets walk the elements in order and number segments in 32 bits, as the span kernels need: segments
// + 1 offsets (not begin/end arrays), fewer than 2^32 - 1 segments.
bool spans_can_walk(const SegmentLayout& layout);

// Whether argmin/argmax over these segments can go by keys: elements of up to 32 bits and positions below 2^32 - 1.
bool arg_keys_fit(const ReductionRequest& request);

// Appends the span passes to `plan` (request, segments and results already set).
void add_span_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                     const SpanKernels& kernels);

}  // namespace zr::core::plans
