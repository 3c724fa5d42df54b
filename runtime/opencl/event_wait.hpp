#pragma once
// Waiting for an OpenCL event with a deadline. OpenCL has no timed wait (clWaitForEvents, clFinish and
// blocking reads wait forever), so a wait polls the event's status: yielding between queries for `spin_for`,
// then sleeping between them, 10 us at first, doubling up to 250 us. Context::wait spins for 5 ms on a GPU
// (a reduction of 2^30 floats takes 1.4 ms on an H100: a sleep would add up to its length to every wait) and
// for 200 us on a CPU device, whose worker threads need the cores a spinning host thread would take. After
// the spin, a CPU device's wait goes to its BlockingWaitHelper (see there: Intel's CPU runtime works on the
// thread that blocks) when one is given.
//
// Not the completion callback (clSetEventCallback): older PoCL (Debian's 3.1) calls it with the event
// unlocked and holds no reference of its own meanwhile (later PoCL retains the event across the call for
// this reason), so a waiter woken by it could release the event under PoCL's feet. Polling asks nothing of
// the driver but clGetEventInfo.
#include <chrono>

#include "opencl/cl.hpp"

namespace zr::opencl {

struct EventWait {
  enum class Outcome { complete, failed, timed_out } outcome = Outcome::complete;
  cl_int code = CL_SUCCESS;   // failed: the negative execution status, or the failing query's code
  bool query_failed = false;  // failed because clGetEventInfo itself failed (code is its result)
};

class BlockingWaitHelper;

EventWait wait_for_event(cl_event event, std::chrono::nanoseconds limit, std::chrono::nanoseconds spin_for,
                         BlockingWaitHelper* helper = nullptr);

}  // namespace zr::opencl
