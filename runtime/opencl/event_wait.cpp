#include "opencl/event_wait.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace zr::opencl {

namespace {

// How long a wait polls before it sleeps on the completion callback.
constexpr auto kPollFor = std::chrono::microseconds(100);

// Shared by the waiter and the driver's callback, which may run after a timed-out waiter has gone.
struct CompletionSignal {
  std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  cl_int status = CL_COMPLETE;
};

void CL_CALLBACK on_completion(cl_event, cl_int status, void* user_data) {
  // The callback owns the reference the waiter handed over (see wait_for_event).
  const std::unique_ptr<std::shared_ptr<CompletionSignal>> reference(
      static_cast<std::shared_ptr<CompletionSignal>*>(user_data));
  CompletionSignal& signal = **reference;
  {
    std::lock_guard lock(signal.mutex);
    signal.done = true;
    signal.status = status;
  }
  signal.done_changed.notify_all();
}

// The event's execution status, or a failed query.
bool query_status(cl_event event, cl_int& status, EventWait& failure) {
  const cl_int code =
      clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
  if (code == CL_SUCCESS) return true;
  failure = {EventWait::Outcome::failed, code, true};
  return false;
}

EventWait outcome_of(cl_int status) {
  if (status < 0) return {EventWait::Outcome::failed, status, false};
  return {};
}

}  // namespace

EventWait wait_for_event(cl_event event, std::chrono::nanoseconds limit) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto deadline = start + limit;
  EventWait failure;
  cl_int status = CL_QUEUED;
  while (clock::now() - start < kPollFor) {
    if (!query_status(event, status, failure)) return failure;
    if (status <= CL_COMPLETE) return outcome_of(status);
    std::this_thread::yield();  // a CPU device's worker threads may need this core
  }

  auto signal = std::make_shared<CompletionSignal>();
  auto reference = std::make_unique<std::shared_ptr<CompletionSignal>>(signal);
  if (clSetEventCallback(event, CL_COMPLETE, on_completion, reference.get()) == CL_SUCCESS) {
    reference.release();  // now the callback's
    std::unique_lock lock(signal->mutex);
    if (!signal->done_changed.wait_until(lock, deadline, [&] { return signal->done; }))
      return {EventWait::Outcome::timed_out, CL_SUCCESS, false};
    return outcome_of(signal->status);
  }
  // No callbacks on this driver: poll, sleeping a little longer each time.
  for (auto nap = std::chrono::microseconds(20);; nap = std::min(nap * 2, std::chrono::microseconds(1000))) {
    if (!query_status(event, status, failure)) return failure;
    if (status <= CL_COMPLETE) return outcome_of(status);
    if (clock::now() >= deadline) return {EventWait::Outcome::timed_out, CL_SUCCESS, false};
    std::this_thread::sleep_for(nap);
  }
}

}  // namespace zr::opencl
