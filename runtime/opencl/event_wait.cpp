#include "opencl/event_wait.hpp"

#include "opencl/blocking_wait_helper.hpp"

#include <algorithm>
#include <thread>

namespace zr::opencl {

namespace {

// Sleeps between queries after that: doubling from the first to the longest.
constexpr auto kFirstNap = std::chrono::microseconds(10);
constexpr auto kLongestNap = std::chrono::microseconds(250);

EventWait outcome_of(cl_int status) {
  if (status < 0) return {EventWait::Outcome::failed, status, false};
  return {};
}

}  // namespace

EventWait wait_for_event(cl_event event, std::chrono::nanoseconds limit, std::chrono::nanoseconds spin_for,
                         BlockingWaitHelper* helper) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto deadline = start + limit;
  auto nap = kFirstNap;
  for (;;) {
    cl_int status = CL_QUEUED;
    const cl_int code =
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
    if (code != CL_SUCCESS) return {EventWait::Outcome::failed, code, true};
    if (status <= CL_COMPLETE) return outcome_of(status);
    const auto now = clock::now();
    if (now >= deadline) return {EventWait::Outcome::timed_out, CL_SUCCESS, false};
    if (now - start < spin_for) {
      std::this_thread::yield();  // a CPU device's worker threads may need this core
      continue;
    }
    if (helper != nullptr) {
      const auto helped = helper->wait_until(event, deadline);
      if (helped == BlockingWaitHelper::Outcome::timed_out) return {EventWait::Outcome::timed_out, CL_SUCCESS, false};
      helper = nullptr;  // once: after it returned, the status query decides; when unavailable, poll
      if (helped == BlockingWaitHelper::Outcome::returned) continue;
    }
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(nap, deadline - now));
    nap = std::min(nap * 2, kLongestNap);
  }
}

}  // namespace zr::opencl
