#pragma once
// Every OpenCL call is checked; a failure becomes zr::BackendError("opencl", call, code, CL_ERROR_NAME, device,
// detail).
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "opencl/cl.hpp"

namespace zr::opencl {

// "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for codes no header names.
std::string_view error_name(cl_int code);

// Codes that any call may return once the driver's context is gone, whatever the call asked for:
// CL_CONTEXT_TERMINATED_KHR, and -9999, which NVIDIA's OpenCL returns from every call (a build, a flush) once
// a kernel has faulted. throw_error makes them zr::DeviceLostError; the backend then refuses the device's later
// work with that one error (Context::keep_if_lost). is_device_fault (context.hpp) is the wider set for
// completions.
bool means_context_gone(cl_int code);

// Throws zr::DeviceLostError for codes that means_context_gone accepts, zr::BackendError for the others.
[[noreturn]] void throw_error(std::string_view call, cl_int code, std::string_view device, std::string detail = {});

inline void check(cl_int code, std::string_view call, std::string_view device, std::string detail = {}) {
  if (code != CL_SUCCESS) throw_error(call, code, device, std::move(detail));
}

// The same with the detail built only on failure: a small reduction's launch path checks about ten calls,
// and building their messages up front cost it a few microseconds of the host's time.
template <typename DetailFn>
  requires std::is_invocable_r_v<std::string, DetailFn>
inline void check(cl_int code, std::string_view call, std::string_view device, DetailFn&& detail) {
  if (code != CL_SUCCESS) throw_error(call, code, device, std::forward<DetailFn>(detail)());
}

}  // namespace zr::opencl
