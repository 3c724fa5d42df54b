#pragma once
// One queue::reduce_segments or queue::reduce_rows call: checked and planned when it is submitted (the offsets
// read and checked on the host, which also gives the plan its distribution of segment sizes), executed later
// on the queue's worker. Host input, offsets and results are copied or staged as a scalar reduction's are.
#include <cstdint>
#include <vector>

#include <optional>

#include "api/backend_device.hpp"
#include "api/plan_cache.hpp"
#include "plan.hpp"
#include "zereduce/queue.hpp"

namespace zr::api {

class SegmentedJob {
 public:
  SegmentedJob(BackendDevice& device, const void* input, std::uint64_t n, bool host_input,
               const detail::segment_source& segments, const detail::reduction_spec& spec, core::Timestamps timestamps);

  void execute(profile& out);

 private:
  // Small host input and host results on a CPU device: the calling thread reduces the segments
  // (core/host_path_segments.hpp), nothing to plan or build.
  bool takes_host_path() const;
  void execute_on_host(profile& out) const;
  void check_request() const;
  void check_offsets_memory();
  // Throws for an arg-reduction (whose empty segments have no result); the other ops give the identity.
  void refuse_empty_segment(std::uint64_t s) const;
  // Checks offsets (and end offsets) read to the host, when given, which tells the longest segment, and plans.
  void plan(const std::byte* host_offsets, const std::byte* host_ends);
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
  bool signed_offsets_ = false;
  bool host_results_ = false;
  detail::reduction_spec spec_;
  core::Timestamps timestamps_;
  core::SegmentLayout layout_;
  bool host_path_ = false;
  std::optional<PlannedRun> planned_;  // made once the offsets have been read; never on the host path
};

}  // namespace zr::api
