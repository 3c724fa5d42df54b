#pragma once
// The state behind a zr::queue: its device and one worker thread that runs the submitted work in order.
// Submitting only appends to the list, so any number of threads may submit; the order of the list is the
// order of the calls. Small work submitted to an idle queue runs on the calling thread instead: waking the
// worker and being woken by it costs about 15 us, more than a GPU takes for a small reduction.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "api/event_state.hpp"
#include "zereduce/device.hpp"

namespace zr::detail {

class queue_impl {
 public:
  using Work = std::function<void(profile&)>;

  queue_impl(device dev, bool profiling);
  queue_impl(const queue_impl&) = delete;
  queue_impl& operator=(const queue_impl&) = delete;
  ~queue_impl();  // finishes the submitted work first

  const device& get_device() const { return device_; }
  bool profiling() const { return profiling_; }
  // `small`: the work is worth running here when nothing else is queued or running (see the limits below; work on
  // a CPU device's host path counts as small whatever its size: handed to the worker, a 4 MiB f32 maximum on PoCL
  // on 2 cores took 210 us, 79 us of them the reduction, the rest two wake-ups).
  // `called_ns`: when the call that made the work began (core::host_clock_ns), for the profile's host_before_ns.
  std::shared_ptr<event_state> submit(Work work, bool small = false, std::uint64_t called_ns = 0);
  // A copy of at most this many bytes counts as small.
  static constexpr std::uint64_t kInlineBytes = 256 * 1024;
  // A reduction reading at most this many bytes counts as small: it is launch-bound, and the hand-off costs
  // more than reading it (2026-11-23, 512 KiB of f64 handed to the worker: H100 44-50 us against 28 us inline;
  // PoCL on 2 cores 67-97 us against about 45 us for 256 KiB inline).
  static constexpr std::uint64_t kInlineReductionBytes = 1024 * 1024;
  // Waits for everything submitted so far; rethrows the first error no event's wait() has reported.
  void wait();

 private:
  struct Task {
    Work work;
    std::shared_ptr<event_state> state;
    std::uint64_t called_ns = 0;
  };
  void run_worker();
  static void run_task(Task& task);

  device device_;
  bool profiling_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Task> tasks_;
  bool busy_ = false;
  int waiting_ = 0;  // threads in wait()
  bool stopping_ = false;
  std::vector<std::shared_ptr<event_state>> since_last_wait_;
  std::thread worker_;
};

}  // namespace zr::detail
