#include "api/queue_impl.hpp"

#include "profile.hpp"
#include "zereduce/errors.hpp"

namespace zr::detail {

queue_impl::queue_impl(device dev, bool profiling)
    : device_(std::move(dev)),
      profiling_(profiling),
      worker_([this] { run_worker(); }) {}

queue_impl::~queue_impl() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

std::shared_ptr<event_state> queue_impl::submit(Work work, bool small, std::uint64_t called_ns) {
  auto state = std::make_shared<event_state>();
  std::unique_lock lock(mutex_);
  // Keep only what queue::wait may still have to report, so a queue nobody waits on does not grow.
  if (since_last_wait_.size() >= 64)
    std::erase_if(since_last_wait_, [](const auto& s) { return s->is_complete() && !s->unobserved_error(); });
  since_last_wait_.push_back(state);
  if (small && tasks_.empty() && !busy_) {
    // Nothing is ahead of it, and while busy_ holds, later submissions queue behind it: the order is kept.
    busy_ = true;
    lock.unlock();
    Task task{std::move(work), state, called_ns};
    run_task(task);
    lock.lock();
    busy_ = false;
    // Wake only who has something to do now: waking the idle worker for nothing costs a system call and a
    // context switch, a sizeable part of a small reduction on a 2-core machine.
    const bool wake = !tasks_.empty() || waiting_ > 0;
    lock.unlock();
    if (wake) changed_.notify_all();
    return state;
  }
  tasks_.push_back({std::move(work), state, called_ns});
  lock.unlock();
  changed_.notify_all();
  return state;
}

void queue_impl::wait() {
  std::vector<std::shared_ptr<event_state>> submitted;
  {
    std::unique_lock lock(mutex_);
    ++waiting_;
    changed_.wait(lock, [this] { return tasks_.empty() && !busy_; });
    --waiting_;
    submitted.swap(since_last_wait_);
  }
  for (const auto& state : submitted)
    if (auto error = state->unobserved_error()) std::rethrow_exception(error);
}

void queue_impl::run_task(Task& task) {
  profile result;
  std::exception_ptr error;
  const std::uint64_t start_ns = core::host_clock_ns();
  if (task.called_ns && start_ns > task.called_ns) result.host_before_ns = start_ns - task.called_ns;
  try {
    task.work(result);
  } catch (...) {
    error = std::current_exception();
  }
  result.host_ns = core::host_clock_ns() - start_ns;
  task.state->complete(std::move(result), error);
}

void queue_impl::run_worker() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // A task running on a submitting thread (busy_) finishes before the next one starts.
    changed_.wait(lock, [this] { return !busy_ && (stopping_ || !tasks_.empty()); });
    if (tasks_.empty()) return;  // stopping, and everything is done
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    busy_ = true;
    lock.unlock();
    run_task(task);
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace zr::detail
