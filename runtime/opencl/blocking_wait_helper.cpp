#include "opencl/blocking_wait_helper.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace zr::opencl {

// Shared with the thread, which outlives the helper when it is detached.
struct BlockingWaitHelper::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  cl_event pending = nullptr;  // retained: the event the thread is to block on, or blocks on
  bool busy = false;           // a wait_until is in progress (from hand-over to the thread's release)
  bool done = false;           // the thread returned from clWaitForEvents for the pending event
  bool stop = false;
  bool stuck = false;          // a wait timed out while the thread blocked
  std::thread thread;

  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [this] { return stop || (pending != nullptr && !done); });
      if (pending == nullptr) return;  // stop, nothing in hand
      cl_event event = pending;
      lock.unlock();
      clWaitForEvents(1, &event);  // its result is read from the event's status by the caller
      lock.lock();
      done = true;
      changed.notify_all();
      if (stop) return;
    }
  }
};

BlockingWaitHelper::BlockingWaitHelper() : shared_(std::make_shared<Shared>()) {
  shared_->thread = std::thread([shared = shared_] { shared->run(); });
}

BlockingWaitHelper::~BlockingWaitHelper() {
  std::unique_lock lock(shared_->mutex);
  shared_->stop = true;
  const bool stuck = shared_->stuck;
  shared_->changed.notify_all();
  lock.unlock();
  if (stuck) {
    shared_->thread.detach();
  } else {
    shared_->thread.join();
  }
}

BlockingWaitHelper::Outcome BlockingWaitHelper::wait_until(cl_event event, std::chrono::steady_clock::time_point deadline) {
  Shared& shared = *shared_;
  std::unique_lock lock(shared.mutex);
  if (shared.busy || shared.stuck) return Outcome::unavailable;
  if (clRetainEvent(event) != CL_SUCCESS) return Outcome::unavailable;
  shared.busy = true;
  shared.done = false;
  shared.pending = event;
  shared.changed.notify_all();
  const bool completed = shared.changed.wait_until(lock, deadline, [&shared] { return shared.done; });
  if (!completed) {
    shared.stuck = true;  // the thread keeps the event (and its reference) while it blocks
    return Outcome::timed_out;
  }
  clReleaseEvent(shared.pending);
  shared.pending = nullptr;
  shared.busy = false;
  return Outcome::returned;
}

}  // namespace zr::opencl
