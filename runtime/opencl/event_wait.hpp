#pragma once
// Waiting for an OpenCL event with a deadline. OpenCL has no timed wait (clWaitForEvents, clFinish and
// blocking reads wait forever), so a wait polls the event's status for a short while (a small reduction on a
// GPU completes within tens of microseconds, and polling returns sooner than a callback's thread hop), then
// sleeps until the driver's completion callback wakes it or the deadline passes. Sleeping matters on CPU
// devices: a polling host thread would take a core from the device's own worker threads.
#include <chrono>

#include "opencl/cl.hpp"

namespace zr::opencl {

struct EventWait {
  enum class Outcome { complete, failed, timed_out } outcome = Outcome::complete;
  cl_int code = CL_SUCCESS;   // failed: the negative execution status, or the failing query's code
  bool query_failed = false;  // failed because clGetEventInfo itself failed (code is its result)
};

EventWait wait_for_event(cl_event event, std::chrono::nanoseconds limit);

}  // namespace zr::opencl
