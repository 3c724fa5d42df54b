#pragma once
// The plan of an application's kernel with reducers (user_kernel.hpp): one launch of the kernel linked with its
// epilogue. Kernel arguments, in order: the application's own (its pointers as plan.kernel_pointers, its
// scalars by value), then ze-reduce's (reducer_cl.h's ZR_KERNEL): the range's size n (ulong), the chunk of
// consecutive indices each work-item takes (ulong; 0: indices a grid apart, as on GPUs), the partials (a slot
// per reducer and group), the slot's bytes (ulong: 8, or the largest accumulator of the application's own
// reducers rounded up to 16), the last group's arrival counter (uint, 0 before and after), local scratch (a slot
// per work-item), the mask of reducers that fold their variable's initial value in (uint), and per reducer its
// variable (plan result r: a scalar, or a span's elements followed by its size as a ulong).
#include <cstdint>
#include <vector>

#include "capabilities.hpp"
#include "plan.hpp"
#include "tuning.hpp"
#include "user_kernel.hpp"

namespace zr::core {

struct KernelArgument {
  bool pointer = false;
  const void* address = nullptr;  // a pointer argument
  Scalar value;                   // a by-value argument: its bytes, as a u8, u16, u32 or u64
};

struct KernelReduction {
  KernelReducer reducer;
  std::uint64_t elements = 1;  // a span's size
  Scalar identity;             // of the reducer's type
  bool include_initial = true;
};

struct KernelLaunch {
  const EmbeddedModule* module = nullptr;  // the kernel linked with its epilogue
  std::string entry_point;
  // zr::range: n indices, the launch chosen here (grid-strided); zr::nd_range: `global` work-items in groups of
  // `local`, one index each (n == global).
  std::uint64_t n = 0;
  std::uint64_t global = 0;
  std::uint64_t local = 0;  // 0: a range
  std::vector<KernelArgument> arguments;
  std::vector<KernelReduction> reductions;
};

// Throws zr::InvalidArgumentError for an nd_range whose global size is not a multiple of its local size, or
// whose group is wider than the device allows; more than 32 reductions (the initial-value mask is a uint).
Plan make_kernel_plan(const Capabilities& caps, const KernelLaunch& launch, const Tuning& tuning);

}  // namespace zr::core
