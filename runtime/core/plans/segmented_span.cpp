#include "plans/segmented_span.hpp"

#include <algorithm>
#include <bit>

#include "plans/plan_building.hpp"
#include "plans/segmented.hpp"

namespace zr::core::plans {

namespace {

// segspan's local memory for `lanes` x segment_span_items tile positions (four pad slots per 32, ZR_TILE_SLOT): each
// position's head (uint) from a 16-byte boundary (up to three slots to reach it) and the marking's three round
// counts; the lanes' scan slots (two buffers) plus the lead piece's value; where the kernel stages its results, an
// accumulator per position.
std::uint64_t span_tile_slots(std::uint64_t lanes, std::uint64_t items) {
  const std::uint64_t positions = lanes * items;
  return 3 + positions + 4 * (positions / 32) + 3;
}
std::uint64_t span_local_bytes(std::uint64_t lanes, std::size_t acc_size, bool stages_results) {
  const std::uint64_t items = segment_span_items(acc_size);
  return span_tile_slots(lanes, items) * 4 + (2 * lanes + 1) * acc_size + 2 * lanes * 4 +
         (stages_results ? lanes * items * acc_size : 0);
}

}  // namespace

bool spans_can_walk(const SegmentLayout& layout) {
  // (Spans follow the elements in order: only segments + 1 offsets, which tile the input, can be walked so. Heads
  // number segments in 32 bits, relative to a tile's first.)
  return layout.offset_bytes != 0 && layout.end_step == 1 && layout.segments < UINT32_MAX;
}

bool arg_keys_fit(const ReductionRequest& request) {
  // A key holds a 32-bit rank and a position's complement in 32 bits; position 2^32 - 1 would meet the identity.
  return size_of(request.type) <= 4 && request.type != DataType::boolean && request.n < UINT32_MAX;
}

void add_span_passes(Plan& plan, const Capabilities& caps, const Tuning& tuning, const SegmentLayout& layout,
                     const SpanKernels& kernels) {
  const ReductionRequest& request = plan.request;
  const std::size_t acc_size = kernels.accumulator_bytes;
  std::uint64_t lanes =
      std::bit_floor(std::clamp<std::uint64_t>(caps.max_work_group_size, 1, std::max<std::uint64_t>(tuning.segment_span_lanes, 1)));
  // Fewer lanes until the tile fits the device's local memory.
  while (lanes > 1 && caps.local_memory_bytes > 0 &&
         span_local_bytes(lanes, acc_size, kernels.stages_results) > caps.local_memory_bytes)
    lanes /= 2;
  const std::uint64_t items = segment_span_items(acc_size);
  const std::uint64_t tile = lanes * items;
  const std::uint64_t tiles = ceil_div(request.n, tile);
  const std::uint64_t groups =
      std::clamp<std::uint64_t>(tiles, 1, std::max<std::uint64_t>(1, caps.compute_units) *
                                                   std::max<std::uint64_t>(tuning.segment_span_groups_per_compute_unit, 1));
  const std::uint64_t span = ceil_div(tiles, groups) * tile;
  const std::uint64_t spans = ceil_div(request.n, span);
  const std::uint64_t wave_groups = std::max<std::uint64_t>(1, caps.compute_units * tuning.groups_per_compute_unit);
  const std::uint32_t include_initial = request.include_initial ? 1 : 0;
  const BufferArg input{BufferArg::Which::input, 0};
  const BufferArg offsets{BufferArg::Which::segment_offsets, 0};
  const BufferArg result{BufferArg::Which::result, 0};
  const BufferArg pieces = add_scratch(plan, 2 * spans * acc_size, std::nullopt, "two pieces per span of the segments crossing it");
  const BufferArg opened = add_scratch(plan, spans * 8, std::nullopt, "the segment opened by each span");

  KernelPass fold = kernel_pass(kernels.fold, request.op, request.type, "spans");
  fold.local_size = lanes;
  fold.global_size = spans * lanes;
  fold.args = {input, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.segments), u64(span), pieces,
               opened, result, kernels.identity, u32(include_initial), LocalMemoryArg{span_tile_slots(lanes, items) * 4},
               LocalMemoryArg{(2 * lanes + 1) * acc_size}, LocalMemoryArg{2 * lanes * 4}};
  if (kernels.stages_results) fold.args.push_back(LocalMemoryArg{tile * acc_size});
  if (kernels.fold_value) fold.args.push_back(*kernels.fold_value);
  plan.passes.push_back(std::move(fold));

  KernelPass join = kernel_pass(kernels.join, request.op, request.type, "segments crossing spans");
  join.local_size = std::min<std::uint64_t>(widest_group(caps, tuning, acc_size), 256);
  join.global_size = std::clamp<std::uint64_t>(ceil_div(spans, join.local_size), 1, wave_groups * 64) * join.local_size;
  join.args = {pieces, opened, u64(request.n), offsets, u32(layout.offset_bytes), u64(layout.segments), u64(span),
               u32(kSpanSerialPieces), result, kernels.identity, u32(include_initial),
               LocalMemoryArg{local_bytes(join.local_size, acc_size)}, LocalMemoryArg{join.local_size * 8},
               LocalMemoryArg{4}};
  if (kernels.join_reads_input) join.args.push_back(input);
  plan.passes.push_back(std::move(join));
  plan.reason = "segments of " + std::to_string(request.n / layout.segments) + " elements on average, skewed (longest " +
                std::to_string(layout.longest) + "): a group per span of " + std::to_string(span) + " elements in tiles of " +
                std::to_string(lanes) + " x " + std::to_string(items) +
                ", then the segments crossing spans from their pieces";
}

}  // namespace zr::core::plans
