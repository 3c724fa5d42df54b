#pragma once
// Level Zero interoperability: ze-reduce's reductions inside an application's own Level Zero objects.
//
// zr::level_zero_interop::make_device(driver, context, device) is a zr::device over the application's context:
// a zr::queue made from it reduces the application's USM memory (device, host or shared allocations of that
// context) in place, blocking as every zr::queue does.
//
// zr::level_zero_interop::reducer appends reductions to the application's command lists (regular or
// immediate, of the reducer's device and context) and never waits on the host. One append is
//   a barrier that waits for `wait_events` and for everything appended to the list before it,
//   the reduction's kernels (a barrier between each two),
//   a barrier that signals `signal_event`,
// so the reduction runs after the application's earlier commands and before its later ones, in one list,
// without the application adding barriers. The input and the result are USM memory of the context.
//
// Lifetime: the driver, context and device stay the application's: nothing here destroys them, and they must
// outlive the reducer and every zr::device made from them. Modules are built once per (context, device) while
// any reducer or device of that pair lives. The reducer must outlive the execution of the lists it appended to
// (it owns the kernels and its own scratch memory).
// Scratch: an append without `scratch` uses the reducer's own device memory, which all its appends share: the
// reductions of one reducer must then not run at the same time (keep them in one list, or on one queue, or
// ordered by events); for reductions that may run concurrently give each its own scratch, of at least
// scratch_bytes(n, op, properties) bytes of USM memory of the context, which must stay untouched until the
// reduction has run.
// Results follow SYCL's rule: the value already at the result is combined with the reduction unless the
// properties hold initialize_to_identity. docs/interop.md has a complete program.
#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "zereduce/device.hpp"
#include "zereduce/event.hpp"
#include "zereduce/export.hpp"
#include "zereduce/interop_request.hpp"
#include "zereduce/kernel.hpp"

namespace zr::level_zero_interop {

// A zr::device over the application's driver, context and device (one of the driver's devices or
// sub-devices). Throws zr::InvalidArgumentError for a null handle, a device of another driver or an unusable
// context; zr::BackendError when a query fails.
ZR_API zr::device make_device(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device);

// The Level Zero handles of a ze-reduce device (one of zr::get_devices(), or make_device's), for an application
// that starts from ze-reduce's device list: nullopt for a device of another backend. The context is the
// library's own (for make_device's devices, the application's).
struct native_handles {
  ze_driver_handle_t driver = nullptr;
  ze_context_handle_t context = nullptr;
  ze_device_handle_t device = nullptr;
};
ZR_API std::optional<native_handles> native_handles_of(const zr::device& device);

namespace detail {
class reducer_impl;
}  // namespace detail

class ZR_API reducer {
 public:
  // Throws as make_device does.
  reducer(ze_driver_handle_t driver, ze_context_handle_t context, ze_device_handle_t device);
  reducer(reducer&&) noexcept;
  reducer& operator=(reducer&&) noexcept;
  ~reducer();

  ze_context_handle_t context() const;
  ze_device_handle_t device_handle() const;
  // The same device as a zr::device (make_device's, sharing this reducer's modules).
  zr::device device() const;

  // Appends to `list` the reduction with `op` of the n elements of T at `input` into *result. Properties:
  // initialize_to_identity, deterministic, reproducible, use_strategy. Throws zr::InvalidArgumentError for
  // memory that is not USM of the reducer's context (or runs past its allocation) and a null list;
  // zr::UnsupportedError for a pair or property the device cannot do; zr::BackendError (naming the call) when
  // the driver refuses an append, as it does for a list of another device or context.
  template <typename T, typename BinaryOperation>
  void append_reduce(ze_command_list_handle_t list, const T* input, std::uint64_t n, T* result, BinaryOperation,
                     const property_list& properties = {}, ze_event_handle_t signal_event = nullptr,
                     std::span<const ze_event_handle_t> wait_events = {}) {
    append(list, input, n, result, zr::detail::make_interop_request<T, BinaryOperation>(properties), {}, signal_event,
           wait_events);
  }

  // The same with the application's scratch memory (USM of the context, at least scratch_bytes(...) bytes;
  // 0 bytes needed means any span, even empty).
  template <typename T, typename BinaryOperation>
  void append_reduce(ze_command_list_handle_t list, const T* input, std::uint64_t n, T* result, BinaryOperation,
                     std::span<std::byte> scratch, const property_list& properties = {},
                     ze_event_handle_t signal_event = nullptr, std::span<const ze_event_handle_t> wait_events = {}) {
    append(list, input, n, result, zr::detail::make_interop_request<T, BinaryOperation>(properties), scratch,
           signal_event, wait_events, true);
  }

  // Appends to `list` a launch of an application's kernel with reducers (zereduce/kernel.hpp, docs/kernels.md), as
  // zr::queue::parallel_for runs it: the range, the kernel, its own arguments, then its reductions. Its pointer
  // arguments and the reductions' variables are USM memory of the reducer's context (an argument anywhere in its
  // allocation; a span reduction's variable its elements); scalars are passed by value (at most 8 bytes). It is
  // appended between barriers as append_reduce is (after `wait_events` and everything before it, signalling
  // `signal_event`), with the reducer's own scratch; with initialize_to_identity a span is filled with the
  // identity first. A wrong call is refused before anything is appended, with the problem named.
  template <typename Range, typename... Rest>
  void append_parallel_for(ze_command_list_handle_t list, ze_event_handle_t signal_event,
                           std::span<const ze_event_handle_t> wait_events, const Range& range, const kernel& k,
                           const Rest&... rest) {
    append_kernel(list, k, zr::detail::make_kernel_call(range, rest...), signal_event, wait_events);
  }
  template <typename Range, typename... Rest>
  void append_parallel_for(ze_command_list_handle_t list, const Range& range, const kernel& k, const Rest&... rest) {
    append_kernel(list, k, zr::detail::make_kernel_call(range, rest...), nullptr, {});
  }

  // What the reduction of n elements of T with `op` and `properties` runs: its strategy, passes and combine
  // depth (the m of the documented floating-point bound), as a zr::queue's profile reports them.
  template <typename T, typename BinaryOperation>
  plan_summary describe(std::uint64_t n, BinaryOperation, const property_list& properties = {}) const {
    return describe_of(n, zr::detail::make_interop_request<T, BinaryOperation>(properties));
  }

  // The scratch bytes the reduction of n elements of T with `op` and `properties` needs (0: none).
  template <typename T, typename BinaryOperation>
  std::uint64_t scratch_bytes(std::uint64_t n, BinaryOperation, const property_list& properties = {}) const {
    return scratch_bytes_of(n, zr::detail::make_interop_request<T, BinaryOperation>(properties));
  }

 private:
  void append(ze_command_list_handle_t list, const void* input, std::uint64_t n, void* result,
              const zr::detail::interop_request& request, std::span<std::byte> scratch, ze_event_handle_t signal_event,
              std::span<const ze_event_handle_t> wait_events, bool scratch_given = false);
  void append_kernel(ze_command_list_handle_t list, const kernel& k, const zr::detail::kernel_call& call,
                     ze_event_handle_t signal_event, std::span<const ze_event_handle_t> wait_events);
  std::uint64_t scratch_bytes_of(std::uint64_t n, const zr::detail::interop_request& request) const;
  plan_summary describe_of(std::uint64_t n, const zr::detail::interop_request& request) const;

  std::unique_ptr<detail::reducer_impl> impl_;
};

}  // namespace zr::level_zero_interop
