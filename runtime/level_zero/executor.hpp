#pragma once
// Runs the core's Plans on one Level Zero device. A thin translation: every size, group count and buffer comes
// from the plan; the executor only turns it into driver calls.
//
// A run is ONE sequence of commands: the plan's passes in order with a barrier between consecutive passes
// (each pass reads what the one before it wrote), each launch signalling a kernel-timestamp event. Scratch buffers
// (USM device memory) are allocated per plan shape and kept, their initial fill applied once with
// zeCommandListAppendMemoryFill. Where the run goes:
//   - a shape's recorded command list, kept and submitted again to an in-order queue of the device's compute group
//     (completion waited for on a fence: API 1.4 has no zeCommandListHostSynchronize), as long as the run's input
//     and result buffers are the ones it holds;
//   - otherwise, where the driver offers immediate lists (immediate_list.hpp), the executor's immediate list: a
//     shape's first run, and each run with other buffers, is appended there and starts at once (no list to
//     close, no queue submission), its end waited for on an event; a run whose buffers are those of the shape's
//     last immediate run is recorded, and so is submitted again from then on;
//   - without immediate lists, the recorded list is recorded again.
// An executor is meant for one thread at a time (run() serialises).
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "level_zero/device.hpp"
#include "level_zero/fenced_queue.hpp"
#include "level_zero/immediate_list.hpp"
#include "level_zero/handles.hpp"
#include "plan.hpp"
#include "profile.hpp"
#include "scalar.hpp"

namespace zr::level_zero {

struct ExecutorStats {
  std::uint64_t submissions = 0;          // zeCommandQueueExecuteCommandLists of reductions
  std::uint64_t immediate_runs = 0;       // reductions appended to the immediate command list
  std::uint64_t recordings = 0;           // command lists (re)recorded
  std::uint64_t shapes_prepared = 0;      // plan shapes given scratch buffers, events and a command list
  std::uint64_t scratch_allocations = 0;  // zeMemAllocDevice calls for scratch
  std::uint64_t scratch_fills = 0;        // zeCommandListAppendMemoryFill calls for ScratchBuffer::initial_fill
};

struct RunBuffers;

struct HostResult {
  core::Scalar value;
  core::RunProfile profile;
};

class Executor {
 public:
  explicit Executor(std::shared_ptr<const Device> device, std::size_t max_cached_shapes = 16);
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  ~Executor();

  const Device& device() const { return *device_; }

  // Reduces plan.request.n elements at `input` (USM memory of the device's context) into `device_result` (USM
  // memory holding one element of plan.request.type, read first when plan.request.include_initial); the result
  // stays there. Returns when the device is done. Timings are per pass; timestamps_valid is false when the
  // device never wrote them (Intel's driver without hardware).
  core::RunProfile run(const core::Plan& plan, const void* input, void* device_result);
  // The same for plans with several results (plan.results, in order), each USM memory of the context.
  core::RunProfile run(const core::Plan& plan, const void* input, std::span<void* const> results);
  // The same where results may be ordinary host memory (core::ResultTarget): such a result is staged through
  // the shape's own device buffer and host slot, copied in and out within the same command list.
  // A segmented plan (plan.segments) also reads its offsets, USM memory of the context (null for equal segments).
  core::RunProfile run(const core::Plan& plan, const void* input, std::span<const core::ResultTarget> results,
                       const void* segment_offsets = nullptr);

  // The same, with the result read back to the host; `initial` (of plan.request.type) is the value folded in
  // when plan.request.include_initial.
  HostResult run_to_host(const core::Plan& plan, const void* input, const core::Scalar& initial);

  const ExecutorStats& stats() const { return stats_; }
  std::size_t cached_shapes() const;
  void clear_cache();

 private:
  struct Prepared;
  Prepared& prepare(const core::Plan& plan);
  // Allocates the staging of results in host memory; true when it made new ones (a recorded list holds the old).
  bool prepare_staging(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers);
  // Appends a run of the plan to `list`: initial values in, the passes, results out.
  void append_run(Prepared& prepared, ze_command_list_handle_t list, const core::Plan& plan, const RunBuffers& buffers);
  void record(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers);
  // `started_ns`: when the run began (core::host_clock_ns), for the profile's host stages.
  core::RunProfile submit_and_wait(Prepared& prepared, const core::Plan& plan, std::uint64_t started_ns);
  core::RunProfile run_immediately(Prepared& prepared, const core::Plan& plan, const RunBuffers& buffers,
                                   std::uint64_t started_ns);
  core::RunProfile read_profile(Prepared& prepared, const core::Plan& plan) const;
  // Drops the most recently used shape after a failure: whatever it left (a half-recorded list, counters a
  // kernel did not restore) goes, but a hung device may still run it, so then it is kept, unused.
  void drop_front_after_failure();
  void check_plan(const core::Plan& plan) const;
  void check_buffer(const void* pointer, const char* what) const;

  std::shared_ptr<const Device> device_;
  std::size_t max_cached_shapes_;
  FencedQueue queue_;
  std::list<std::unique_ptr<Prepared>> cache_;  // most recently used first
  std::list<std::unique_ptr<Prepared>> abandoned_;  // what a hung device may still be running
  std::vector<CommandList> abandoned_fills_;
  // Where the driver offers immediate lists; destroyed before what a run on it may still use (a hung device).
  std::optional<ImmediateList> immediate_;
  ExecutorStats stats_;
  mutable std::mutex mutex_;
};

}  // namespace zr::level_zero
