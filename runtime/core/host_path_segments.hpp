#pragma once
// The host path of segmented reductions: small host input on a CPU device reduced on the calling thread, segment
// by segment, instead of through the device's queue (host_path.hpp says why; the same crossover in bytes). Each
// segment has the segment kernels' semantics: its elements from the identity, its initial value folded in after
// them when asked, an empty one the identity (or its initial value), argmin/argmax the first extreme's index
// within the segment, a reproducible sum the bits of the 1-D reproducible sum of its elements.
#include <cstddef>
#include <cstdint>

#include "strategy.hpp"

namespace zr::core {

// Where the segments lie in the input: rows of `length` elements, or offsets (count + 1 of them: segment s is
// [offsets[s], offsets[s + 1])), or each segment's begin and end. Offsets are 4- or 8-byte integers the caller
// has checked: none negative or past the input, no end before its begin.
struct HostSegments {
  std::uint64_t count = 0;
  std::uint64_t length = 0;           // rows: every segment's length; unused with begins
  const std::byte* begins = nullptr;  // the offsets, or with `ends` each segment's begin; null: rows
  const std::byte* ends = nullptr;    // each segment's end; null: `begins` are offsets
  std::uint32_t offset_bytes = 8;
};

// Reduces every segment of `data` (request.n elements of request.type) into `results`: one element each, or
// kArgResultBytes (value, then 64-bit index) for argmin/argmax. With request.include_initial each result's value
// is read first and folded in after its segment. The requests host_path_serves serves; argmin/argmax need every
// segment non-empty.
void host_path_reduce_segments(const ReductionRequest& request, const std::byte* data, const HostSegments& segments,
                               std::byte* results);

// The most combines one element of a segment of `longest` elements goes through, its initial value's included.
std::uint64_t host_path_segment_combine_depth(std::uint64_t longest);

}  // namespace zr::core
