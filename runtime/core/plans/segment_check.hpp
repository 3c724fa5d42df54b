#pragma once
// The check of a segmented reduction's offsets on the device (the "segcheck" kernel), for offsets in device
// memory: the host then reads four 64-bit values per group, not every offset (50 million 32-bit offsets are 200 MB
// over the bus and a scan on the host, where the reduction itself reads them in well under a millisecond). Its plan
// is plain data like every other: the offsets are its input, the groups' summaries its one result.
#include <cstdint>
#include <optional>
#include <span>

#include "plan.hpp"

namespace zr::core {

struct SegmentCheckRequest {
  std::uint64_t segments = 0;
  std::uint32_t offset_bytes = 4;  // 4 or 8
  std::uint64_t end_step = 1;      // as SegmentLayout::end_step: 1, or `segments` for begin and end arrays
  std::uint64_t n = 0;             // the input's elements: no bound may pass it
  bool signed_offsets = false;     // a negative bound is bad
  bool refuse_empty = false;       // an empty segment is bad (argmin/argmax, user operators without identity)
};

// What the groups found, folded: the first bad segment, if any, and over the good ones the longest and shortest
// lengths (0 and UINT64_MAX when there are none) and the sum of their lengths (saturated).
struct SegmentCheckSummary {
  std::optional<std::uint64_t> first_bad;
  std::uint64_t longest = 0;
  std::uint64_t shortest = UINT64_MAX;
  std::uint64_t covered = 0;
};

inline constexpr std::uint64_t kSegmentCheckWordsPerGroup = 4;

// One pass over the bounds (the input: segments + end_step integers of offset_bytes), a group's summary per group
// (the result: groups x 4 64-bit words). Needs at least one segment.
Plan make_segment_check_plan(const Capabilities& caps, const Tuning& tuning, const SegmentCheckRequest& request);

// Folds the result of that plan (4 words per group, as segcheck.cl writes them).
SegmentCheckSummary fold_segment_check(std::span<const std::uint64_t> words);

}  // namespace zr::core
