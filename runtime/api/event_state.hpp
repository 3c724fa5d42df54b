#pragma once
// The completion state an event shares with the queue's worker.
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>

#include "zereduce/event.hpp"

namespace zr::detail {

class event_state {
 public:
  void complete(profile result, std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      profile_ = std::move(result);
      error_ = std::move(error);
      done_ = true;
    }
    done_changed_.notify_all();
  }
  // Waits; rethrows the work's error.
  const profile& wait() {
    std::unique_lock lock(mutex_);
    done_changed_.wait(lock, [this] { return done_; });
    observed_ = true;
    if (error_) std::rethrow_exception(error_);
    return profile_;
  }
  // False while the work runs after `timeout`; else as wait().
  bool wait_for(std::chrono::nanoseconds timeout) {
    std::unique_lock lock(mutex_);
    if (!done_changed_.wait_for(lock, timeout, [this] { return done_; })) return false;
    observed_ = true;
    if (error_) std::rethrow_exception(error_);
    return true;
  }
  bool is_complete() {
    std::lock_guard lock(mutex_);
    return done_;
  }
  // The error, if nobody has seen it through wait() yet (queue::wait reports those).
  std::exception_ptr unobserved_error() {
    std::lock_guard lock(mutex_);
    return observed_ ? nullptr : error_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  bool observed_ = false;
  std::exception_ptr error_;
  profile profile_;
};

}  // namespace zr::detail
