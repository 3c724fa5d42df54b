#pragma once
// Segmented reductions in the suite: the segments each SegmentShape cuts a case's n elements into, one run
// through queue::reduce_segments (queue::reduce_rows for rows), and the check of every segment against the
// host reference of that segment alone (the same reference, and bound, as a reduction of it on its own).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "conformance_case.hpp"
#include "scalar.hpp"

namespace zr::conformance {

// A case's segments, seeded by c.seed: segment s is [begins[s], ends[s]) within [0, c.n]. Every shape but
// begin_end gives them as segments + 1 non-decreasing `offsets` (the first may be above 0), which is how they
// go to the library; begin_end as begin and end arrays.
struct CaseSegments {
  std::vector<std::uint64_t> offsets;  // empty for begin_end
  std::vector<std::uint64_t> begins, ends;
  std::uint64_t count() const { return begins.size(); }
};
CaseSegments case_segments(const ConformanceCase& c);

// Segment s's value before the reduction (folded in unless initialize_to_identity), as packed bytes.
std::vector<std::byte> segment_initial_values(const ConformanceCase& c, std::uint64_t segments);

struct SegmentedRun {
  std::vector<std::byte> results;  // one element per segment, packed
  std::uint64_t combine_depth = 0;
  std::string kernels;  // the passes that ran, for messages
  bool host_path = false;  // the calling thread reduced it (CPU devices, small host input)
};

// Reduces the case's input (a device allocation of q's device) into host results starting from `initial`.
// The offsets (or begins and ends) go in as the seed picks: device or host memory, 64- or 32-bit integers.
// `operand`: count_equal's value (element type), ignored by the other ops.
SegmentedRun reduce_segments_once(queue& q, const ConformanceCase& c, const void* input, const CaseSegments& segments,
                                  std::span<const std::byte> initial, const core::Scalar& operand);

// nullopt when every segment agrees with its host reference; else the first disagreements.
std::optional<std::string> segments_disagreement(const ConformanceCase& c, std::span<const std::byte> input,
                                                 const CaseSegments& segments, std::span<const std::byte> initial,
                                                 const core::Scalar& operand, const SegmentedRun& run);

}  // namespace zr::conformance
