#pragma once
// A thread that makes the blocking clWaitForEvents call a deadline-keeping wait cannot make.
//
// Intel's OpenCL CPU runtime runs a kernel's work-groups on its worker threads and on the host thread that
// blocks in clWaitForEvents or clFinish; its pool leaves a core to that host thread. A host that polls the
// event (wait_for_event: OpenCL has no timed wait) leaves that core idle: on 2 cores, maximum over 2^25 f32
// ran at 18 GB/s polled and 46 GB/s blocked (the same kernel; a side thread blocking gave 43).
// So after its short spin, a wait hands the event to this thread, which blocks on it, and itself sleeps on a
// condition variable until the event completes or the deadline passes. A wait that times out leaves the
// thread blocked on a command that may never finish: it is then detached, never joined (as the context of a
// lost device is never released).
#include <chrono>
#include <memory>

#include "opencl/cl.hpp"

namespace zr::opencl {

class BlockingWaitHelper {
 public:
  BlockingWaitHelper();
  ~BlockingWaitHelper();
  BlockingWaitHelper(const BlockingWaitHelper&) = delete;
  BlockingWaitHelper& operator=(const BlockingWaitHelper&) = delete;

  enum class Outcome {
    returned,     // clWaitForEvents returned: the event completed or failed (its status says which)
    timed_out,    // the deadline passed first
    unavailable,  // the helper is busy with another wait, or blocked since a timeout: poll instead
  };
  // Blocks on `event` on the helper thread until it returns or `deadline` passes.
  Outcome wait_until(cl_event event, std::chrono::steady_clock::time_point deadline);

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace zr::opencl
