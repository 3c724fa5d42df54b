#pragma once
// Planning for a Level Zero device: the core's strategy choice and plan, with the launch shape refined by
// what the driver says about the compiled first-pass kernel (zeKernelSuggestGroupSize, the kernel's
// required group size and sub-group size from zeKernelGetProperties).
#include "level_zero/device.hpp"
#include "plan.hpp"

namespace zr::level_zero {

// The hints the core's tuning takes from the first pass's kernel (built now if it was not).
core::KernelHints kernel_hints(const Device& device, const core::KernelPass& pass);

// choose_strategy + make_plan with core::refine(tuning_for(caps), kernel_hints(first pass)).
core::Plan plan_for(const Device& device, const core::ReductionRequest& request);

}  // namespace zr::level_zero
