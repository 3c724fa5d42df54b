#pragma once
// Launch shapes per device class, kept apart from the strategy logic (like CUB's per-architecture policies).
// Values come from measurements in bench/; each says which.
#include <cstdint>

#include "capabilities.hpp"

namespace zr::core {

struct Tuning {
  std::uint64_t work_group_size;        // upper bound; clipped to the device's maximum
  std::uint64_t groups_per_compute_unit;
  std::uint64_t min_elements_per_item;  // below this, fewer groups are launched
  std::uint64_t final_work_group_size;  // the one group of the final pass
  std::uint64_t max_final_inputs;       // more partials than this get an intermediate pass
};

Tuning tuning_for(const Capabilities& caps);

// What a backend learns from the compiled first-pass kernel, for the plan to honour (Level Zero:
// zeKernelSuggestGroupSize and zeKernelGetProperties). Zero means "no hint".
struct KernelHints {
  std::uint64_t suggested_group_size = 0;  // the driver's group size for a large range
  std::uint64_t required_group_size = 0;   // the kernel can only run with this group size
  std::uint64_t subgroup_size = 0;         // the kernel's (maximum) sub-group size
};

// The tuning with the kernel's hints applied: a required size wins; else the work-group size is capped by
// the suggestion (it knows the kernel's register use) and kept a multiple of the sub-group size.
Tuning refine(Tuning tuning, const KernelHints& hints);

}  // namespace zr::core
