#pragma once
// ze_reduce's segmented and axis reductions (--axis K, --segments FILE) and --output FILE: what they turn the
// input into, checked before any device is touched.
//   --axis K    numpy.<op>(a, axis=K) of an N-D .npy input: the last axis as rows (queue::reduce_rows), the
//               first as an array reduction (--columns), any other by moving it last on the host first.
//   --segments  a 1-D .npy of m+1 non-decreasing offsets (int32, uint32, int64, uint64) into the flat input:
//               m results (queue::reduce_segments, np.add.reduceat's segments with an explicit end).
//   --output    the results as a .npy file of the results' shape (a plain reduction: shape ()).
#include <cstdint>
#include <optional>
#include <vector>

#include "options.hpp"
#include "workload.hpp"

namespace zr::cli {

// Equal rows (offsets empty) or offsets into the flat input, and the shape the results take.
struct Segmentation {
  std::vector<std::uint64_t> offsets;  // segments + 1 entries; empty: `segments` rows of `length`
  std::uint64_t segments = 0;
  std::uint64_t length = 0;  // rows only
  std::vector<std::uint64_t> result_shape;
};

// Usage errors of these options alone (before the input is read).
void check_segment_options(const Options& options);

// For --axis and --segments: the segmentation of `workload` (whose data an inner axis reorders in place, so that
// the reduced axis is last), or, for --axis 0 of an array of 2 or more dimensions, options.columns set to the
// array reduction it is and nullopt. Nothing for other runs.
std::optional<Segmentation> segment_workload(Options& options, Workload& workload);

// The shape --output writes for a run without --axis or --segments: () for one result, (columns,) for more.
std::vector<std::uint64_t> plain_result_shape(const Options& options, const Workload& workload);

}  // namespace zr::cli
