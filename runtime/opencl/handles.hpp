#pragma once
// Reference-counted owners of OpenCL objects: copying retains, destruction releases.
#include <utility>

#include "opencl/cl.hpp"

namespace zr::opencl {

template <typename T, cl_int (*Retain)(T), cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  // Takes over one reference (what clCreate* returns).
  explicit Handle(T handle) : handle_(handle) {}
  Handle(const Handle& other) : handle_(other.handle_) {
    if (handle_) Retain(handle_);
  }
  Handle(Handle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Handle& operator=(Handle other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~Handle() {
    if (handle_) Release(handle_);
  }

  T get() const { return handle_; }
  // Gives the reference up without releasing it: for the objects of a hung or lost device, whose release
  // can block in the driver behind work that never finishes.
  void abandon() { handle_ = nullptr; }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  T handle_ = nullptr;
};

namespace detail {
// Wrappers give the template plain function pointers whatever calling-convention macros the headers use.
inline cl_int retain(cl_context h) { return clRetainContext(h); }
inline cl_int release(cl_context h) { return clReleaseContext(h); }
inline cl_int retain(cl_command_queue h) { return clRetainCommandQueue(h); }
inline cl_int release(cl_command_queue h) { return clReleaseCommandQueue(h); }
inline cl_int retain(cl_program h) { return clRetainProgram(h); }
inline cl_int release(cl_program h) { return clReleaseProgram(h); }
inline cl_int retain(cl_kernel h) { return clRetainKernel(h); }
inline cl_int release(cl_kernel h) { return clReleaseKernel(h); }
inline cl_int retain(cl_mem h) { return clRetainMemObject(h); }
inline cl_int release(cl_mem h) { return clReleaseMemObject(h); }
inline cl_int retain(cl_event h) { return clRetainEvent(h); }
inline cl_int release(cl_event h) { return clReleaseEvent(h); }
}  // namespace detail

using ContextHandle = Handle<cl_context, detail::retain, detail::release>;
using QueueHandle = Handle<cl_command_queue, detail::retain, detail::release>;
using ProgramHandle = Handle<cl_program, detail::retain, detail::release>;
using KernelHandle = Handle<cl_kernel, detail::retain, detail::release>;
using MemHandle = Handle<cl_mem, detail::retain, detail::release>;
using EventHandle = Handle<cl_event, detail::retain, detail::release>;

}  // namespace zr::opencl
