#pragma once
// The core's request for a typed interop call (zereduce/interop_request.hpp), shared by the OpenCL and the
// Level Zero interop entry points.
#include <cstdint>

#include "plan.hpp"
#include "zereduce/event.hpp"
#include "zereduce/interop_request.hpp"

namespace zr::api {

// Throws zr::InvalidArgumentError when n elements of the type are more bytes than 64 bits count; `who` starts
// the message ("opencl_interop").
// What describe() says of a reduction of no elements: nothing runs (the strategy is the one asked for, if any).
plan_summary empty_input_summary(const core::ReductionRequest& request);

core::ReductionRequest core_request(const zr::detail::interop_request& request, std::uint64_t n, const char* who);

}  // namespace zr::api
