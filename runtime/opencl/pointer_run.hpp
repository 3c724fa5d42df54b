#pragma once
// Runs plans and copies on pointers (see memory.hpp) instead of buffer objects: each pointer becomes the
// buffer of its allocation, a sub-buffer where the offset is aligned as the device requires, a buffer over
// host memory (CL_MEM_USE_HOST_PTR: no copy on CPU devices), or, for device memory at an offset the device
// cannot make a sub-buffer at, a temporary buffer copied in and out (listed in RunProfile::copies).
#include <cstdint>
#include <span>

#include "opencl/executor.hpp"
#include "opencl/memory.hpp"
#include "plan.hpp"
#include "profile.hpp"

namespace zr::opencl {

// Whether kernels on `device` read ordinary host memory in place through a CL_MEM_USE_HOST_PTR buffer, so that
// run_on_pointers takes it as its input: CPU devices (their global memory is the host's).
bool reads_host_memory_in_place(const Device& device);

// A segmented plan's offsets are bound as the input is (the caller checks their range too).
// The input (or, where reads_host_memory_in_place, ordinary host memory holding it) and every result that is
// not host_memory must lie in an allocation of `allocations`, with room
// for what the plan reads or writes (the caller checks). Results in host memory go through the executor's
// result staging buffers, copied in and out on the same queue as the kernels. Blocks until done: one wait.
// Untimed runs list their passes without timestamps and their staged copies not at all.
core::RunProfile run_on_pointers(Executor& executor, const Allocations& allocations, const core::Plan& plan,
                                 const void* input, std::span<const core::ResultTarget> results,
                                 Timestamps timestamps = Timestamps::on, const void* segment_offsets = nullptr);

// Blocking copy between allocations of `allocations` and ordinary host memory, in any direction.
void copy_pointers(Context& context, const Allocations& allocations, void* destination, const void* source,
                   std::uint64_t bytes);

}  // namespace zr::opencl
