#pragma once
// The state behind a zr::queue: its device and one worker thread that runs the submitted work in order.
// Submitting only appends to the list, so any number of threads may submit; the order of the list is the
// order of the calls.
#include <condition_variable>
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

  explicit queue_impl(device dev);
  queue_impl(const queue_impl&) = delete;
  queue_impl& operator=(const queue_impl&) = delete;
  ~queue_impl();  // finishes the submitted work first

  const device& get_device() const { return device_; }
  std::shared_ptr<event_state> submit(Work work);
  // Waits for everything submitted so far; rethrows the first error no event's wait() has reported.
  void wait();

 private:
  struct Task {
    Work work;
    std::shared_ptr<event_state> state;
  };
  void run_worker();

  device device_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Task> tasks_;
  bool busy_ = false;
  bool stopping_ = false;
  std::vector<std::shared_ptr<event_state>> since_last_wait_;
  std::thread worker_;
};

}  // namespace zr::detail
