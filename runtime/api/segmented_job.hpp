#pragma once
// One queue::reduce_segments or queue::reduce_rows call: checked and planned when it is submitted (offsets in host
// memory read and checked there, which also gives the plan its distribution of segment sizes; offsets in device
// memory checked when the job runs, by a kernel where there are more than a few), executed later on the queue's
// worker. Host input, offsets and results are copied or staged as a scalar reduction's are.
#include <cstdint>
#include <vector>

#include <optional>

#include "api/backend_device.hpp"
#include "api/plan_cache.hpp"
#include "api/scoped_allocation.hpp"
#include "plan.hpp"
#include "zereduce/queue.hpp"

namespace zr::api {

class SegmentedJob {
 public:
  SegmentedJob(BackendDevice& device, const void* input, std::uint64_t n, bool host_input,
               const detail::segment_source& segments, const detail::reduction_spec& spec, core::Timestamps timestamps);

  void execute(profile& out);
  // As ReductionJob::on_calling_thread (core/host_path_segments.hpp).
  bool on_calling_thread() const { return host_path_; }

 private:
  // Small host input and host results on a CPU device: the calling thread reduces the segments
  // (core/host_path_segments.hpp), nothing to plan or build.
  bool takes_host_path() const;
  void execute_on_host(profile& out) const;
  void check_request() const;
  void check_offsets_memory();
  // Whether an empty segment has no result: arg-reductions, and user operators without identity under
  // initialize_to_identity; the other ops give the identity.
  bool empty_segments_refused() const;
  void refuse_empty_segment(std::uint64_t s) const;
  // Segment k - 1 of segments + 1 offsets, from offset k - 1 (`previous`) to offset k (`next`), both in range: its
  // length, or the error for a decrease or a refused empty segment.
  std::uint64_t offsets_step(std::uint64_t previous, std::uint64_t next, std::uint64_t k) const;
  // Segment s of begin and end arrays, from their bits: its length, or the error for its bounds.
  std::uint64_t begin_end_length(const std::byte* begin_bits, const std::byte* end_bits, std::uint64_t s) const;
  // Checks offsets (and end offsets) in host memory, when given, which tells the longest segment, and plans.
  void plan(const std::byte* host_offsets, const std::byte* host_ends);
  // Offsets in device memory (at least one segment): checked by a kernel (core/plans/segment_check.hpp), then
  // planned. Bad ones throw the host check's error, from the first bad segment's bounds read back.
  void check_on_device(profile& out);
  void make_plan(const std::optional<core::SegmentLayout>& rows);
  std::uint64_t offset_count() const { return begin_end_ ? layout_.segments : layout_.segments + 1; }

  BackendDevice& device_;
  const void* input_;
  std::uint64_t n_;
  bool host_input_;
  const void* offsets_;
  bool host_offsets_ = false;
  bool begin_end_;  // begin and end arrays: offsets_ holds the begins, ends_ the ends
  const void* ends_;
  bool host_ends_ = false;
  std::vector<std::byte> bounds_;  // begin and end arrays: the begins, then the ends, as the kernels read them
  ScopedAllocation device_bounds_;  // the same on the device, where the arrays are checked there
  bool signed_offsets_ = false;
  bool host_results_ = false;
  detail::reduction_spec spec_;
  core::Timestamps timestamps_;
  core::SegmentLayout layout_;
  bool host_path_ = false;
  std::optional<PlannedRun> planned_;  // made once the offsets have been read; never on the host path
};

}  // namespace zr::api
