#pragma once
// Appending a plan's kernel passes to a command list: the one piece the executor (its own lists) and the
// appender (an application's lists) share. Each pass reads what the pass before it wrote, so consecutive passes
// are separated by barriers; Level Zero orders a list's commands only across barriers and events.
#include <level_zero/ze_api.h>

#include <span>

#include "level_zero/device.hpp"
#include "plan.hpp"

namespace zr::level_zero {

// The memory a plan's buffer arguments name: the input, each result, each scratch buffer, and a segmented
// reduction's offsets (USM of the device's context).
struct PassBuffers {
  const void* input = nullptr;
  std::span<void* const> results;
  std::span<void* const> scratch;
  const void* segment_offsets = nullptr;
  std::span<const void* const> kernel_pointers;  // plan.kernel_pointers
};

// Appends every pass of `plan` to `list`, with a barrier before each pass but the first, and before the first
// too when `barrier_before_first`. Pass p signals `pass_events[p]` when given (empty: no events). Kernel
// arguments are set and captured under the device's recording lock (kernels are shared per device).
void append_passes(const Device& device, ze_command_list_handle_t list, const core::Plan& plan, const PassBuffers& buffers,
                   std::span<const ze_event_handle_t> pass_events, bool barrier_before_first);

}  // namespace zr::level_zero
